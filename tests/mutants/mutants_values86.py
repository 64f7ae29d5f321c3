"""Planted bugs, round 86 (format: tests/mutants/mutants.py): single-line slips in the PyTorch and JAX bindings
(lnrnn/interop/torch.py, lnrnn/interop/jax.py), a third pass on lines no earlier round mutates.

On the torch side: forget_bias= ignored by the initial parameters, a
float32 BN module's buffers made float64, float16/bfloat16 let through the stack's dtype check, RNN(nonlinearity=
'relu') accepted, omitted initial states made in torch's default dtype, the module's mixed-dtype check without the
weights, the backward direction run with the forward direction's parameters, only the forward direction's BN
buffers grown, and a BN layer's backward in train() taken as eval's. On the JAX side: lengths checked with T and B
swapped, batch_first's output reshaped instead of transposed, h_n and c_n stacked on the batch axis, an LSTM state
of one array let through, init_stats(bidirectional=True) one-way, omitted states in JAX's default float, and the BN
statistics updated in the callback's read-only views.

16 mutants. The old torch and JAX files are slow (minutes on one core), so the existing tests were measured on a
subset only (test_values74_torch_modules, test_torch_bidirectional and test_values49_torch for the modules;
test_values74_torch_ops with test_torch_bidirectional for BatchNorm; test_torch_cell and test_values49_torch_cell
for the cells; test_values78_jax and test_jax_bidirectional for JAX). Against that subset alone 11 were caught and
5 missed: the half-precision stack (no test of the subset builds one), the relu RNN (none passes another
nonlinearity), the module's mixed-dtype sentence without the weights (the layer op still refuses, and none reads
the module's sentence), JAX's batch_first output reshaped (no old JAX test runs
batch_first with values against a reference) and JAX's omitted states in float64 for a float32 stack (no old
JAX test of the subset runs float32 without states). The new value tests catch every mutant on their own (checked
with the old tests taken off the lists): tests/interop/test_values86_torch.py (a plain two-layer bidirectional
batch_first stack in eval() with dropout set against torch.nn.LSTM loaded with its state_dict, values and every
gradient, states given and omitted under torch's float32 default; the initial biases' [i|f|g|o] blocks against
forget_bias and cells.Cell.init_params' rule; BN buffers' dtype, shape and values; a bidirectional BN stack in
train() against two one-way stacks run on x and on x reversed in time, buffers included; gradcheck of a BN-LSTM in
train(); the refusals word for word) and tests/interop/test_values86_jax.py (a two-layer batch_first stack with
states given and omitted against a jax.numpy LSTM written there with lax.scan and JAX's autodiff of it, plus
check_grads; a float32 stack with the states omitted against given zeros and the float64 reference; ragged rows
with T > B and a length past T refused; the one-array LSTM state refused; init_stats' names and shapes against the
bidirectional torch module's buffers; the running means BN training writes against BN_MOMENTUM times each step's
batch mean of x_t Wx). Together about 45 s on one loaded core (11 s torch, 34 s JAX, most of it XLA compiling
eager ops). Dropped as equivalent: _zeros_like as empty_like (c_n's guard values would show only where fresh
memory is not zero: not reliably seen), set_materialize_grads(True) (zero-filled gradients instead of None: the
same values), _refuse_nonzero returning grad (it returns only for an all-zero grad), the cells' bn check on the
raw norm string (only 'bn' maps to BatchNorm), from_tensors' forget_bias (the loaded state_dict overwrites the
initial biases), and _host_backward's layout read with I for H (only its dtypes are used).

    python tests/mutants/run.py --only 'v86-*'
"""
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"

# existing tests of the two bindings (a subset: the old torch and JAX files take minutes on one core)
TORCH_OLD = ["tests/interop/test_values74_torch_modules.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_values49_torch.py"]
TORCH_BN_OLD = ["tests/interop/test_values74_torch_ops.py", "tests/interop/test_torch_bidirectional.py"]
CELL_OLD = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py"]
JAX_OLD = ["tests/interop/test_values78_jax.py", "tests/interop/test_jax_bidirectional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TORCH_NEW = ["tests/interop/test_values86_torch.py"]
JAX_NEW = ["tests/interop/test_values86_jax.py"]

MUTANTS = [
    # ---- torch: initial parameters and buffers ----
    dict(name="v86-torch-forget-bias-ignored", file=TORCH,
         old="    p = spec.init_params(rng, I, H, np_dtype, forget_bias)",
         new="    p = spec.init_params(rng, I, H, np_dtype, 1.0)",
         tests=TORCH_NEW + TORCH_OLD + CELL_OLD,
         why="every layer, direction and cell starts with a forget bias of 1 whatever forget_bias= says"),
    dict(name="v86-torch-bn-buffers-float64", file=TORCH,
         old="    for name, v in spec.init_buffers(H, 1, np_dtype).items():",
         new="    for name, v in spec.init_buffers(H, 1, np.float64).items():",
         tests=TORCH_NEW + TORCH_BN_OLD,
         why="a float32 BN module's running statistics are made float64: its first forward is refused as mixed "
             "dtypes"),
    dict(name="v86-torch-half-dtype-let-through", file=TORCH,
         old='{dropout!r}.")\n        dtype = torch.get_default_dtype() if dtype is None else dtype\n'
             '        if dtype not in DTYPES:',
         new='{dropout!r}.")\n        dtype = torch.get_default_dtype() if dtype is None else dtype\n'
             '        if not dtype.is_floating_point:',
         tests=TORCH_NEW + TORCH_OLD,
         why="LSTM/RNN accept float16 and bfloat16 (the check asks for a floating dtype, not for float32 or "
             "float64): the constructor fails later with a KeyError instead of the one-sentence refusal"),
    dict(name="v86-torch-rnn-nonlinearity-relu-let-through", file=TORCH,
         old="        if nonlinearity != \"tanh\":\n            raise ValueError(f\"RNN: lnrnn",
         new="        if nonlinearity not in (\"tanh\", \"relu\"):\n            raise ValueError(f\"RNN: lnrnn",
         tests=TORCH_NEW + TORCH_OLD,
         why="RNN(nonlinearity='relu') is accepted and silently runs tanh cells"),
    # ---- torch: the forward ----
    dict(name="v86-torch-zero-states-in-torchs-default-dtype", file=TORCH,
         old="            z = like.new_zeros((L, B, H))",
         new="            z = torch.zeros((L, B, H), device=like.device)",
         tests=TORCH_NEW + TORCH_OLD,
         why="omitted initial states are made in torch's default dtype (float32), not x's: a float64 module "
             "called without hx is refused as mixed dtypes"),
    dict(name="v86-torch-mixed-dtypes-weights-unchecked", file=TORCH,
         old="        check_tensors(what, x=x, **{f\"hx[{i}]\": s for i, s in enumerate(state)}, weights=w)",
         new="        check_tensors(what, x=x, **{f\"hx[{i}]\": s for i, s in enumerate(state)})",
         tests=TORCH_NEW + TORCH_OLD,
         why="the module checks x against the states only: a float32 x into a float64 module is refused deep in "
             "the layer op, in a sentence naming Wx and the cell instead of the module and its weights"),
    dict(name="v86-torch-reverse-direction-reads-forward-params", file=TORCH,
         old="        params = self.layer_params(k, d)",
         new="        params = self.layer_params(k)",
         tests=TORCH_NEW + TORCH_OLD,
         why="the backward direction runs with the forward direction's parameters (the *_reverse ones take no "
             "gradient and change nothing)"),
    dict(name="v86-torch-reverse-bn-buffers-not-grown", file=TORCH,
         old="            self._grow_buffers(k, T, d)",
         new="            self._grow_buffers(k, T)",
         tests=TORCH_NEW + TORCH_BN_OLD,
         why="training on a sequence longer than the BN statistics grows only the forward direction's buffers: "
             "the backward direction's stay one row"),
    dict(name="v86-torch-backward-bn-as-eval", file=TORCH,
         old="                                                  training=training, device=conv.device)",
         new="                                                  training=False, device=conv.device)",
         tests=TORCH_NEW + TORCH_BN_OLD,
         why="the backward of a BN layer in train() takes the batch statistics as constants (eval's backward): "
             "the gradients miss their path through the batch mean and variance"),
    # ---- jax ----
    dict(name="v86-jax-check-lengths-T-B-swapped", file=JAX,
         old="        F.check_lengths(np.asarray(a), T, B)",
         new="        F.check_lengths(np.asarray(a), B, T)",
         tests=JAX_NEW + JAX_OLD,
         why="lengths are checked with T and B swapped: valid lengths are refused when T != B and lengths past "
             "T are let through when B > T"),
    dict(name="v86-jax-batch-first-output-reshaped", file=JAX,
         old="        y = jnp.swapaxes(y, 0, 1)",
         new="        y = y.reshape(y.shape[1], y.shape[0], y.shape[2])",
         tests=JAX_NEW + JAX_OLD,
         why="batch_first's output is reshaped to (B,T,H) instead of transposed: the right shape, the steps and "
             "rows scrambled"),
    dict(name="v86-jax-final-states-stacked-on-batch-axis", file=JAX,
         old="    out_state = tuple(jnp.stack([f[i] for f in finals]) for i in range(spec.nstate))",
         new="    out_state = tuple(jnp.stack([f[i] for f in finals], axis=1) for i in range(spec.nstate))",
         tests=JAX_NEW + JAX_OLD,
         why="h_n and c_n come back (B, num_layers, H) instead of torch.nn.LSTM's (num_layers, B, H)"),
    dict(name="v86-jax-state-arity-fewer-let-through", file=JAX,
         old="    if len(parts) != spec.nstate:",
         new="    if len(parts) > spec.nstate:",
         tests=JAX_NEW + JAX_OLD,
         why="an LSTM state of one array (h0 without c0) passes the arity check and fails later, elsewhere, "
             "without the sentence naming (h0, c0)"),
    dict(name="v86-jax-init-stats-one-direction", file=JAX,
         old="    D = 2 if bidirectional else 1\n    return {name: jnp.asarray(bufs[n])",
         new="    D = 1\n    return {name: jnp.asarray(bufs[n])",
         tests=JAX_NEW + JAX_OLD,
         why="init_stats(bidirectional=True) makes no *_reverse statistics: a bidirectional BN stack's stats are "
             "refused by apply"),
    dict(name="v86-jax-zero-states-default-dtype", file=JAX,
         old="        return [tuple(jnp.zeros((B, H), dt) for _ in range(spec.nstate)) for _ in range(L)]",
         new="        return [tuple(jnp.zeros((B, H)) for _ in range(spec.nstate)) for _ in range(L)]",
         tests=JAX_NEW + JAX_OLD,
         why="omitted states are made in JAX's default float (float64 under 64-bit JAX), not x's dtype: a float32 "
             "stack runs its first layer from float64 zeros"),
    dict(name="v86-jax-bn-stats-updated-in-read-only-views", file=JAX,
         old="    bufs = {n: np.array(v) for n, v in bufs.items()}  # training updates them in place",
         new="    bufs = {n: np.asarray(v) for n, v in bufs.items()}  # training updates them in place",
         tests=JAX_NEW + JAX_OLD,
         why="the statistics the kernels update in place are the callback's read-only views of JAX's buffers, "
             "not copies: a BN stack's training forward fails"),
]
