"""Planted bugs, round 291 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the JAX binding (lnrnn/interop/jax.py), fourteenth pass: a bidirectional stack's parameter names
counted without directions (l0, l1, ... for l0, l0_reverse); init's bidirectional flag inverted;
params_from_stack numbering its layers from 1; load_export keeping the dot of the rnn. prefix; a weight read as
stored instead of transposed (silent where it is square); vmap's folded forward reshaping a shared state or
lengths instead of broadcasting them; the folded batch counted as the number of mapped axes; the folded final
states unfolded as (B, lead, H); the custom_vjp's cotangent for the initial state dropped (None: zeros); the
lengths checked as T integers of at most B; the directions loop running over the layer count; the output taken
from the last layer's forward direction only; and the 64-bit check reading this thread's setting instead of
the process-wide one.

13 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values291_jax (a bidirectional torch.nn.LSTM
of 1 and 2 layers over packed ragged sequences, lengths 5, 2, 4 at T 5, B 3, with h0 and c0 given, its
state_dict passed as it is: y, h_n, c_n and torch's gradients of a loss over y and h_n for x, h0, c0 and every
weight; a 2-layer torch.nn.RNN with square weights; init's keys and shapes against torch's state_dict with and
without bidirectional; params_from_stack of a RecurrentStack and load_export of a file written in the test,
with a head tensor beside the rnn. ones, against torch; jit(vmap) over 3 examples with the state and lengths
shared, each example against torch; jax.test_util.check_grads at order 1 in float64 of a ragged LN-RNN over
x, h0 and the weights; both 64-bit refusals word for word). Left out as equivalent: the parameter count loop
started at L = 1 (weight_ih_l0 is checked to be there first); the while loop over weight_hh_l{L} instead of
weight_ih_l{L} (both names come in pairs or the stack is refused); p[n] = a.T for every parameter (the
untransposed ones are vectors); the inference call (_layer's primal) keeping residuals (only slower); the folded
forward replaced by the per-example loop (the same values, more calls); the backward's layout read off
x.shape[:3] or x.shape[-1] for y's (_from_wire only uses the layout's dtypes, which the sizes never change); the
error text's tuple(v.shape) as v.shape (already a tuple); mutable's (new_stats if spec.buffers else {}) as
new_stats (empty without BatchNorm). Left out as a crash everywhere rather than a value: the
canonicalize_dtype comparison inverted (every float32 call is refused).

    python tests/mutants/run.py --only 'v291-*'
"""
JAX = "lnrnn/interop/jax.py"

T_JAX = "tests/interop/test_values291_jax.py::"
OLD_JAX = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_values225_jax.py", "tests/interop/test_values273_jax.py"]

BIDI = [T_JAX + "test_bidirectional_lstm_state_dict_with_lengths_and_state_equals_torch_and_its_gradients[1]",
        T_JAX + "test_bidirectional_lstm_state_dict_with_lengths_and_state_equals_torch_and_its_gradients[2]"]
VMAP = T_JAX + "test_jit_vmap_over_examples_with_a_shared_state_and_lengths_equals_torch_per_example"
INIT = [T_JAX + "test_init_names_and_shapes_are_torchs_with_and_without_directions[False]",
        T_JAX + "test_init_names_and_shapes_are_torchs_with_and_without_directions[True]"]
STACK = T_JAX + "test_params_from_a_stack_and_from_an_export_file_run_as_torch"

MUTANTS = [
    dict(name="v291-jax-param-names-without-directions", file=JAX,
         old="    sfx = _suffix(j, D)\n",
         new="    sfx = _suffix(j)\n",
         tests=BIDI + INIT + OLD_JAX,
         why="a bidirectional stack's parameters are named l0, l1, l2, ... instead of l0, l0_reverse, l1, ...: "
             "torch's state_dict is refused and init names the backward direction as a second layer"),
    dict(name="v291-jax-init-bidirectional-inverted", file=JAX,
         old="    D = 2 if bidirectional else 1\n    for j in range(L * D):",
         new="    D = 2 if not bidirectional else 1\n    for j in range(L * D):",
         tests=INIT + OLD_JAX,
         why="init(bidirectional=True) makes a one-direction stack and the default makes a bidirectional one"),
    dict(name="v291-jax-from-stack-layers-from-one", file=JAX,
         old="    for j, layer in enumerate(stack.layers):",
         new="    for j, layer in enumerate(stack.layers, 1):",
         tests=[STACK] + OLD_JAX,
         why="params_from_stack names a stack's layers l1, l2, ...: apply refuses what it returns"),
    dict(name="v291-jax-export-keys-keep-the-dot", file=JAX,
         old='    stack = {k[len("rnn."):]: jnp.asarray(v)',
         new='    stack = {k[len("rnn"):]: jnp.asarray(v)',
         tests=[STACK] + OLD_JAX,
         why="load_export hands back '.weight_ih_l0', ...: the parameters of an export file are refused"),
    dict(name="v291-jax-weights-read-untransposed", file=JAX,
         old="                p[n] = a.T if transposed else a",
         new="                p[n] = a",
         tests=[T_JAX + "test_two_layer_rnn_with_square_weights_equals_torch_rnn"] + BIDI + OLD_JAX,
         why="weight_ih/weight_hh reach the kernels as (G, I) instead of (I, G): wrong values where square"),
    dict(name="v291-jax-folded-rows-reshaped-not-broadcast", file=JAX,
         old="        return np.broadcast_to(a, lead + a.shape[nl:]).reshape((V,) + a.shape[nl:])",
         new="        return a.reshape((V,) + a.shape[nl:])",
         tests=[VMAP] + OLD_JAX,
         why="vmap with a shared (unmapped) state or lengths fails: their size-1 axis is not broadcast"),
    dict(name="v291-jax-folded-count-is-axis-count", file=JAX,
         old="    nl, V = len(lead), int(np.prod(lead))",
         new="    nl, V = len(lead), len(lead)",
         tests=[VMAP] + OLD_JAX,
         why="the folded batch is counted as the number of vmapped axes, not the examples: vmap over 3 fails"),
    dict(name="v291-jax-folded-finals-unfolded-batch-first", file=JAX,
         old="    final = tuple(f.reshape(lead + (B, H)) for f in final)",
         new="    final = tuple(f.reshape((B,) + lead + (H,)) for f in final)",
         tests=[VMAP] + OLD_JAX,
         why="the folded final states come back as (B, examples, H): wrong shape (or mixed rows where B = V)"),
    dict(name="v291-jax-state-cotangent-dropped", file=JAX,
         old="    return dx, dstate, grads, None, None  # lengths and statistics: no gradient",
         new="    return dx, None, grads, None, None  # lengths and statistics: no gradient",
         tests=BIDI + [T_JAX + "test_check_grads_of_a_ragged_ln_rnn_over_x_h0_and_weights"] + OLD_JAX,
         why="the initial state's gradient is zero (and so is the state's share of nothing else): grad wrt h0/c0"),
    dict(name="v291-jax-lengths-checked-with-t-and-b-swapped", file=JAX,
         old="    lengths = _checked_lengths(lengths, T, B)",
         new="    lengths = _checked_lengths(lengths, B, T)",
         tests=BIDI + [STACK] + OLD_JAX,
         why="lengths are checked as T integers of at most B steps: valid ragged batches with T != B refused"),
    dict(name="v291-jax-directions-loop-over-layers", file=JAX,
         old="        for d in range(D):\n",
         new="        for d in range(L):\n",
         tests=BIDI + OLD_JAX,
         why="a 1-layer bidirectional stack runs its forward direction only (and a 2-layer plain one fails)"),
    dict(name="v291-jax-output-forward-half", file=JAX,
         old="    y = inp\n",
         new="    y = ys[0]\n",
         tests=BIDI + OLD_JAX,
         why="a bidirectional stack's y is the last layer's forward direction (T, B, H), not [forward | backward]"),
    dict(name="v291-jax-x64-read-from-this-thread", file=JAX,
         old="        return bool(enable_x64.get_global())",
         new="        return bool(enable_x64.value)",
         tests=[T_JAX + "test_the_64_bit_refusals_word_for_word"] + OLD_JAX,
         why="float64 in a jax.enable_x64 context only is not refused: the callbacks' thread gets float32"),
]
