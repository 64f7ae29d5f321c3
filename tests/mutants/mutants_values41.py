"""Planted bugs, round 41 (format: tests/mutants/mutants.py): single-line slips in the PyTorch and JAX bindings
and the export format, on lines no earlier round mutates: torch's _span (the outer axes of a C-ordered array)
and _fresh (outputs aliasing an earlier output), the fake layer op's H with I != H, the c_n guard on a zero
gradient, bias_hh's dtype, initial weights from torch's RNG, hx with the wrong number of layers, BN statistics
one row short before training, the residuals a frozen stack keeps for its input gradient, load_exported of a
file without lnrnn's config; jax's init seeded by its key, params_from_stack's bias_hh, a state in another
dtype; the safetensors reader's arrays (writeable, their own), a header out of offset order, JSON true/false
as sizes, exported_tensors' C-contiguous copies and the window weight's transposition.

18 mutants. Against the existing targeted tests alone (one run, the old files listed first, the first failing
test read off each log) 9 were caught and 9 missed: _span ignoring the outer axes, _fresh not recording its
outputs, _grow_buffers one row short, a frozen stack keeping no residuals for its input gradient, the reader
returning read-only views, its coverage check on unsorted spans, true/false taken as sizes, exported_tensors
returning strided views, and the window weight not transposed. The new value tests catch every mutant:
test_values41_torch (spans of C-ordered, reversed and column views by hand; _fresh on outputs overlapping an
input or an earlier one; statistics of 3 rows trained on 4 steps against a copy grown by hand; a frozen
stack's input gradient against torch.nn.LSTM's, one and two directions; plus the fake op's shapes, a zero c_n
gradient, dtypes, torch.manual_seed, hx layer counts and a config-less file, which old tests also catch),
test_values41_jax (init as a function of its key, params_from_stack of a plain stack as an nn.LSTM state_dict
against nn.LSTM, a float32/float16 state refused), test_values41_export (arrays read back writeable and
updated in place, a header in another order than its offsets, [true, 2] and [false, 16] refused, the exported
weights C-contiguous and transposed by hand, the synthesis window weight (3K, H) = Wp.T). One mutant written
was dropped as equivalent: _Host.array without .contiguous(): the CPU kernels read strided NumPy views of a
transposed hx, a column-sliced x or a transposed state as they read contiguous ones (the same outputs bit for
bit, test_values41_torch's two strided tests pass with it in place), so only speed could change.

    python tests/mutants/run.py --only 'v41-*'
"""
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"
EXPORT = "lnrnn/interop/export.py"

# existing tests of these modules (tests/interop/test_torch_cuda.py needs a GPU: left out)
TORCH_OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_torch_cell.py", "tests/interop/test_values_torch.py",
             "tests/interop/test_values14_torch.py", "tests/interop/test_values16_torch.py",
             "tests/interop/test_values23_torch.py", "tests/interop/test_values25_torch.py",
             "tests/interop/test_values39_torch_lengths.py"]
JAX_OLD = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_values19_jax.py", "tests/interop/test_values23_jax.py"]
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values10_export.py",
              "tests/interop/test_values13_export.py", "tests/interop/test_values23_export.py",
              "tests/interop/test_predict_export.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TORCH_NEW = ["tests/interop/test_values41_torch.py"]
JAX_NEW = ["tests/interop/test_values41_jax.py"]
EXPORT_NEW = ["tests/interop/test_values41_export.py"]

MUTANTS = [
    # ---- torch: memory spans, fresh outputs ----
    dict(name="v41-torch-span-ignores-outer-axes", file=TORCH,
         old="        step *= n\n",
         new="        pass\n",
         tests=TORCH_NEW + TORCH_OLD,
         why="_span of a C-contiguous array (no strides in its interface) counts one item per step of every "
             "outer axis: a 2-d array's span ends inside its first row, so _fresh misses an output that "
             "aliases the rest of an input or of an earlier output"),
    dict(name="v41-torch-fresh-outputs-not-recorded", file=TORCH,
         old="            taken.append((lo, hi))\n",
         new="            pass\n",
         tests=TORCH_NEW + TORCH_OLD,
         why="_fresh checks each output against the inputs only: a final state that is a view of y comes "
             "back aliasing y (an op's outputs must not alias each other)"),
    # ---- torch: the fake implementation, the c_n guard ----
    dict(name="v41-torch-fake-hidden-from-input", file=TORCH,
         old="    H = state[0].shape[1]\n",
         new="    H = x.shape[2]\n",
         tests=TORCH_NEW + TORCH_OLD,
         why="the fake layer_forward takes H from x's input size: with I != H torch.compile and opcheck see "
             "y, the residuals and their shapes of another layer"),
    dict(name="v41-torch-guard-refuses-zero-gradient", file=TORCH,
         old="    if bool(torch.any(grad != 0)):\n",
         new="    if grad.numel():\n",
         tests=TORCH_NEW + TORCH_OLD,
         why="the c_n guard refuses any gradient, zeros included: a loss holding 0 * c_n (or c_n in a branch "
             "that contributes nothing) of a BN or ragged LSTM raises NotImplementedError"),
    # ---- torch: parameters, initial values ----
    dict(name="v41-torch-bias-hh-default-dtype", file=TORCH,
         old="nn.Parameter(torch.zeros(spec.blocks * H, dtype=dtype,",
         new="nn.Parameter(torch.zeros(spec.blocks * H,",
         tests=TORCH_NEW + TORCH_OLD,
         why="bias_hh is made in torch's default dtype: a float64 module holds a float32 bias_hh (its "
             "state_dict is mixed, and b = bias_ih + bias_hh rounds nothing only by luck of promotion)"),
    dict(name="v41-torch-init-ignores-torch-seed", file=TORCH,
         old="drawn from torch's RNG\n        rng = np.random.default_rng(int(torch.randint(0, 2 ** 62, (1,)).item()))",
         new="drawn from torch's RNG\n        rng = np.random.default_rng()",
         tests=TORCH_NEW + TORCH_OLD,
         why="a stack's initial weights come from fresh OS entropy: torch.manual_seed no longer makes "
             "LSTM(...) reproducible"),
    # ---- torch: states, BN statistics, what is kept for a backward ----
    dict(name="v41-torch-hx-layer-count-unchecked", file=TORCH,
         old="            if s.shape != (L, B, H):\n",
         new="            if s.shape[1:] != (B, H):\n",
         tests=TORCH_NEW + TORCH_OLD,
         why="_states checks only (B, H) of hx: a (1, B, H) state for a two-layer stack (or a one-direction "
             "state for a bidirectional one) is indexed past its end or silently short"),
    dict(name="v41-torch-grow-one-row-short", file=TORCH,
         old="            if b.shape[0] < T:\n",
         new="            if b.shape[0] < T - 1:\n",
         tests=TORCH_NEW + TORCH_OLD,
         why="_grow_buffers leaves BN statistics of T - 1 rows as they are: training on a sequence one step "
             "longer than the buffers hands the kernels too few rows"),
    dict(name="v41-torch-input-gradient-not-kept", file=TORCH,
         old="any(t.requires_grad for t in (inp, *st, *params))",
         new="any(t.requires_grad for t in (*st, *params))",
         tests=TORCH_NEW + TORCH_OLD,
         why="a stack keeps its residuals only when a state or a parameter asks for a gradient: a frozen "
             "model's input gradient (saliency, adversarial inputs) raises 'ran with keep=False'"),
    # ---- torch: an export file without lnrnn's config ----
    dict(name="v41-torch-load-exported-config-unchecked", file=EXPORT,
         old='    if "model_config" not in meta:\n',
         new="    if False:\n",
         tests=TORCH_NEW + TORCH_OLD,
         why="load_exported of a safetensors file without lnrnn's model config (a torch.nn.LSTM's weights "
             "saved by safetensors itself) fails with KeyError 'model_config' instead of the sentence naming "
             "load_state_dict"),
    # ---- jax: init, params_from_stack, states ----
    dict(name="v41-jax-init-unseeded", file=JAX,
         old="    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)).ravel().tolist())\n",
         new="    rng = np.random.default_rng()\n",
         tests=JAX_NEW + JAX_OLD,
         why="init ignores its key: the same key gives other parameters each call"),
    dict(name="v41-jax-params-from-stack-bias-twice", file=JAX,
         old='            a = np.zeros_like(layer.params["b"]) if n is None else layer.params[n]\n',
         new='            a = layer.params["b"] if n is None else layer.params[n]\n',
         tests=JAX_NEW + JAX_OLD,
         why="params_from_stack sets bias_hh to b as well: apply adds the two, so every layer runs with 2b"),
    dict(name="v41-jax-state-dtype-unchecked", file=JAX,
         old="        if s.dtype != dt:\n",
         new="        if False:\n",
         tests=JAX_NEW + JAX_OLD,
         why="_initial_states takes a state in another dtype than x: the callback gets mixed dtypes instead "
             "of the one-sentence TypeError"),
    # ---- export: the reader's arrays, spans, shapes; the writer's names and layout ----
    dict(name="v41-export-read-arrays-read-only", file=EXPORT,
         old='.reshape(shape).astype(dtype.newbyteorder("="))',
         new=".reshape(shape)",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="read_safetensors returns read-only views into the file's bytes: an in-place update of a loaded "
             "array raises, and torch.from_numpy of it warns of a non-writable array"),
    dict(name="v41-export-spans-not-sorted", file=EXPORT,
         old="    spans.sort()\n",
         new="",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the coverage check walks the spans in header order: a valid file whose header lists tensors in "
             "another order than their offsets (safetensors' own writer orders by dtype) is refused"),
    dict(name="v41-export-bool-shape-accepted", file=EXPORT,
         old="whole = lambda v: whole_number(v) and v >= 0",
         new="whole = lambda v: isinstance(v, int) and v >= 0",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="_entry takes JSON true/false as sizes or offsets (bool is an int in Python): shape [true, 2] "
             "reads as (1, 2)"),
    dict(name="v41-export-tensors-not-contiguous", file=EXPORT,
         old="    return {k: np.ascontiguousarray(v) for k, v in out.items()}\n",
         new="    return dict(out)\n",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="exported_tensors returns the transposed weights as strided views of the model's parameters, "
             "not the C-contiguous copies its docstring promises (writing into one writes the model)"),
    dict(name="v41-export-window-weight-not-transposed", file=EXPORT,
         old='    "Wp": ("window_weight", True),',
         new='    "Wp": ("window_weight", False),',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the synthesis window's Wp (H, 3K) is exported as it is, not as rnn.window_weight_l0 (3K, H) = "
             "Wp.T that the module docstring documents"),
]
