"""Planted bugs, round 78 (format: tests/mutants/mutants.py): single-line slips in the JAX binding
(lnrnn/interop/jax.py), a second pass on lines no earlier round mutates: float16 admitted by the dtype check, the
"x64 in a context only" refusal asked of float32 instead of float64, a float64 residual's uint32 wire declared one
word per element, params_from_stack naming a bidirectional BatchNorm stack's statistics by flat index,
load_export reading its config under the wrong key, a one-layer bidirectional stack read as one-way (directions
asked of layer 1), _batch_axes splitting vmap's folded residuals along the first axis that agrees, the forward
callback's mapped axes taken without the parameters (an ensemble runs one member), the backward unpacking its
saved lengths and statistics swapped, _reverse_valid counting steps from 1, and the refusals: a state's arity
explained with the other cell's state, a state's layer count unchecked, the no-statistics sentence naming the
bare cell, a missing statistic named by its short name, the x-shape sentence's batch_first clause inverted, and
the parameters' dtype check refusing only parameters wider than x.

16 mutants. The existing targeted tests take about 6.5 minutes on one core, and the runner's measurement of them (a
baseline, then the whole set again for each missed mutant) was cut short for time; instead each mutant was planted
in a scratch copy and run against the old tests that bear on it (one to three files or tests each). Against those,
10 were caught (float16 and the x64-context check by their refusal tests, the wire by the float32-without-x64
gradient, the config key by the export round trip, the batch axes, the mapped parameters and the swapped residuals
by the vmap and gradient tests, the reversal by the reversed-valid-steps test, the state's arity and layer count by
the user-error test) and 6 passed them: params_from_stack of a bidirectional BatchNorm stack (no old test takes
one), a one-layer bidirectional stack (every old bidirectional test has two layers, where the mutant changes
nothing) and four sentences the old tests match by a fragment or not at all (the no-statistics sentence's stack
name, a missing statistic, the x-shape sentence, float32 parameters with a float64 x). The new value tests catch
every mutant on their own (measured with the old tests taken off the lists): tests/interop/test_values78_jax.py
compares a one-layer bidirectional stack on ragged rows (y, h_n, c_n and the gradients of the parameters and x)
with a plain jax.numpy LSTM written there (torch.nn.LSTM's equations, each row over its own valid steps, the
backward direction over them reversed) and JAX's autodiff of it, and its parameter names and shapes with
torch.nn.LSTM's state_dict; vmap of the gradient over examples (the folded forward) and vmap over an ensemble of
parameters with the same plain LSTM; a float32 BatchNorm gradient taken without 64-bit types with central
differences of the float64 loss along a random direction; params_from_stack's statistics of a bidirectional
BatchNorm stack with init_stats' names and the stack's own buffers; load_export's config and its refusal of skip
connections from files written there; and the refusals word for word (the x64-context one with _x64_everywhere made
false); about 30 s on one core. Dropped before the catalogue as equivalent: _param_names reading the transposed
flag from the name's slot (every name is truthy, and the vectors it then transposes are 1-D), _stat_names walking
("rv", "rm") (each name is looked up from its own key), _host_backward's y taken from dy (only its last size is
read, and dy has y's shape) and _x64_everywhere's fallback (another JAX only).

    python tests/mutants/run.py --only 'v78-*'
"""
JAX = "lnrnn/interop/jax.py"

# existing tests of the JAX binding
JAX_OLD = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_values19_jax.py", "tests/interop/test_values23_jax.py",
           "tests/interop/test_values41_jax.py", "tests/interop/test_values50_jax.py",
           "tests/interop/test_values46_layers_sizes.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
JAX_NEW = ["tests/interop/test_values78_jax.py"]

MUTANTS = [
    # ---- dtypes: the accepted ones, the x64 checks, the uint32 wire of float64 residuals ----
    dict(name="v78-jax-dtypes-admit-float16", file=JAX,
         old="DTYPES = (np.dtype(np.float32), np.dtype(np.float64))",
         new="DTYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))",
         tests=JAX_NEW + JAX_OLD,
         why="half precision passes the dtype check: init makes float16 parameters and apply hands float16 "
             "arrays to kernels compiled for float32/float64 instead of refusing them in one sentence"),
    dict(name="v78-jax-x64-context-check-on-float32", file=JAX,
         old="    if dt.itemsize == 8 and not _x64_everywhere():",
         new="    if dt.itemsize == 4 and not _x64_everywhere():",
         tests=JAX_NEW + JAX_OLD,
         why="the 'x64 in a context only' refusal is asked of float32 instead of float64: float64 whose callbacks "
             "would run without 64-bit types passes, and float32 is refused there"),
    dict(name="v78-jax-wire-width-not-doubled", file=JAX,
         old="        return tuple(shape[:-1]) + (2 * shape[-1],), np.dtype(np.uint32)",
         new="        return tuple(shape[:-1]) + (shape[-1],), np.dtype(np.uint32)",
         tests=JAX_NEW + JAX_OLD,
         why="without 64-bit types a float64 (or int64) residual travels as uint32 words, two per element: the "
             "declared shape of one word per element does not match what the forward callback returns"),
    # ---- the trees: params_from_stack's statistics, load_export's config, one-layer bidirectional ----
    dict(name="v78-jax-stack-stats-named-one-way", file=JAX,
         old="        for n, name, _ in _stat_names(layer.spec, j, D):\n            stats[name]",
         new="        for n, name, _ in _stat_names(layer.spec, j):\n            stats[name]",
         tests=JAX_NEW + JAX_OLD,
         why="params_from_stack names a bidirectional BatchNorm stack's statistics by flat index (l0, l1, l2, "
             "l3) instead of (l0, l0_reverse, l1, l1_reverse): apply finds no *_reverse statistics"),
    dict(name="v78-jax-load-export-config-key", file=JAX,
         old="    config = exported_config(path, meta, tensors, complete=False) or {}",
         new="    config = exported_config(path, {}, tensors, complete=False) or {}",
         tests=JAX_NEW + JAX_OLD,
         why="load_export reads its config under a key the export does not write: the config comes back "
             "empty and a stack with skip connections is not refused"),
    dict(name="v78-jax-bidirectional-read-from-layer-1", file=JAX,
         old='    D = 2 if "weight_ih_l0_reverse" in params else 1',
         new='    D = 2 if "weight_ih_l1_reverse" in params else 1',
         tests=JAX_NEW + JAX_OLD,
         why="directions are asked of the second layer's name: a one-layer bidirectional stack is read as "
             "one-way and its *_reverse parameters are refused as unexpected"),
    # ---- vmap and the custom_vjp wiring ----
    dict(name="v78-jax-batch-axes-first-equal-axis", file=JAX,
         old="enumerate(zip(sa, sb)) if p != q), None)",
         new="enumerate(zip(sa, sb)) if p == q), None)",
         tests=JAX_NEW + JAX_OLD,
         why="_batch_axes finds the first axis where the layouts for B=3 and B=5 agree (time) instead of the "
             "one where they differ: vmap's folded forward splits its residuals' rows along the wrong axis "
             "and each example's backward reads other examples' residuals"),
    dict(name="v78-jax-lead-ignores-mapped-params", file=JAX,
         old="    lead = _lead(x, (x, state, p, lengths, bufs))",
         new="    lead = _lead(x, (x, state, lengths, bufs))",
         tests=JAX_NEW + JAX_OLD,
         why="the forward callback's mapped axes are taken from x, the state, lengths and statistics but not "
             "the parameters: vmap over an ensemble of parameters (x unmapped) runs one member only"),
    dict(name="v78-jax-bwd-saved-lengths-and-stats-swapped", file=JAX,
         old="    res, x, state, p, y, lengths, bufs = saved",
         new="    res, x, state, p, y, bufs, lengths = saved",
         tests=JAX_NEW + JAX_OLD,
         why="the backward unpacks the residual tuple's last two entries in the wrong order: the statistics "
             "arrive as lengths and the lengths as statistics"),
    # ---- the backward direction's reversal ----
    dict(name="v78-jax-reverse-valid-steps-from-1", file=JAX,
         old="    t = jnp.arange(T)[:, None]                                          # (T,1)",
         new="    t = jnp.arange(1, T + 1)[:, None]                                   # (T,1)",
         tests=JAX_NEW + JAX_OLD,
         why="_reverse_valid counts steps from 1: with lengths each row's reversal is shifted by one step "
             "(step t reads L-2-t) and the backward direction reads the wrong inputs"),
    # ---- refusals and their messages ----
    dict(name="v78-jax-state-what-swapped", file=JAX,
         old='    what = "(h0, c0)" if spec.nstate == 2 else "h0"',
         new='    what = "h0" if spec.nstate == 2 else "(h0, c0)"',
         tests=JAX_NEW + JAX_OLD,
         why="a state of the wrong arity is explained with the other cell's state: an LSTM's as h0, an RNN's "
             "as (h0, c0)"),
    dict(name="v78-jax-state-layer-count-unchecked", file=JAX,
         old="        if tuple(s.shape) != (L, B, H):",
         new="        if tuple(s.shape)[1:] != (B, H):",
         tests=JAX_NEW + JAX_OLD,
         why="the state's shape check skips its layer axis: a state with more rows than layers (times "
             "directions) is silently cut, one with fewer fails with an IndexError instead of the sentence"),
    dict(name="v78-jax-no-stats-message-names-the-cell", file=JAX,
         old='raise ValueError(f"a {spec.name} stack has no BatchNorm statistics, but stats were given.")',
         new='raise ValueError(f"a {spec.cell} stack has no BatchNorm statistics, but stats were given.")',
         tests=JAX_NEW + JAX_OLD,
         why="stats given to a stack without BatchNorm are refused naming the bare cell ('a lstm stack') instead "
             "of the registry name ('a ln-lstm stack')"),
    dict(name="v78-jax-missing-stats-message-short-name", file=JAX,
         old='raise ValueError(f"stats lack {name}: pass',
         new='raise ValueError(f"stats lack {n}: pass',
         tests=JAX_NEW + JAX_OLD,
         why="a missing statistic is named by its internal short name (rmx) instead of the dict key the user "
             "must supply (norm_ih_running_mean_l0)"),
    dict(name="v78-jax-x-shape-message-batch-first-inverted", file=JAX,
         old="{' with batch_first (B, T, I)' if batch_first else ''}",
         new="{' with batch_first (B, T, I)' if not batch_first else ''}",
         tests=JAX_NEW + JAX_OLD,
         why="an x that is not 3-D is explained with batch_first's layout exactly when batch_first is off"),
    dict(name="v78-jax-param-dtype-check-narrower-only", file=JAX,
         old="        if jnp.asarray(v).dtype != dt:",
         new="        if jnp.asarray(v).dtype.itemsize > dt.itemsize:",
         tests=JAX_NEW + JAX_OLD,
         why="the parameters' dtype check refuses only parameters wider than x: float32 parameters with a "
             "float64 x pass the boundary"),
]
