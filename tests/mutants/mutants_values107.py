"""Planted bugs, round 107 (format: tests/mutants/mutants.py): single-line slips in the PyTorch and JAX
bindings (lnrnn/interop/torch.py, lnrnn/interop/jax.py), a fifth pass on lines no earlier round mutates.

PyTorch: the several-devices refusal listing dtypes where it names devices, a backward through a layer op run with
keep=False let through to the kernels, extra_repr printing bidirectional=True for every stack, _grow_buffers growing
the forward direction's BN buffers for the backward direction, _load_from_state_dict looking buffers up without the
module's prefix, a PackedSequence's extra lengths checked by truth, bias=False accepted by the stacks, a cell's repr
with its sizes swapped. JAX: the params refusal with missing and unexpected keys swapped, the state refusal with the
other direction count's layout, _batch_axes probing layouts that differ in T as well as B (the folded vmap forward
splits residuals along time), _suffix counting two directions for a unidirectional stack, the shape refusal with
the two shapes swapped.

13 mutants. The existing targeted tests were not measured: their baseline alone (ten old interop files, test_torch
and test_jax among them) ran over nine minutes on the loaded shared core without finishing, and was stopped; the
lists keep the most direct old files after the new ones. The new value tests catch all 13 on their own (checked
with the old files taken off the lists): tests/interop/test_values107_torch.py (reprs against torch.nn.LSTM's,
nn.LSTMCell's and nn.RNNCell's with the norm added; a bidirectional BN-RNN's running means after one training
pass against BN_MOMENTUM times the batch mean of x_t Wx, the reverse direction over x reversed in time, T rows in
both; a BN stack inside nn.Sequential loading its grown statistics from a state_dict strictly, same eval outputs; a
two-layer plain stack against nn.LSTM with the same weights in float64, values and gradients, and
torch.autograd.gradcheck; the refusals word for word) and tests/interop/test_values107_jax.py (a two-layer plain
stack's parameter names and shapes against nn.LSTM's state_dict, its values and gradients against an LSTM written
in jax.numpy under lax.scan (test_values86_jax's) in float64 and jax.test_util.check_grads; jax.vmap of the
gradient over examples with shared parameters against the same LSTM's; the refusals word for word). Dropped as
equivalent: _stat_names listing ("rv", "rm") (only the order of a list looked up by name changes), _read_only
leaving the views writeable (the kernels only read them), apply returning new_stats whatever spec.buffers (it is
empty when the cell has no BatchNorm), and the cell's "bn" refusal testing norm == "bn" (only "bn" maps to "bn" in
_NORMS). Not mutated: _Cuda's stream lines (no GPU in the test run).

    python tests/mutants/run.py --only 'v107-*'
"""
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"

# existing tests of the bindings (the most direct files: the old torch files take minutes on one core)
TORCH_OLD = ["tests/interop/test_values98_torch.py", "tests/interop/test_values74_torch_modules.py",
             "tests/interop/test_torch_bidirectional.py"]
OPS_OLD = ["tests/interop/test_torch.py", "tests/interop/test_values74_torch_ops.py"]
JAX_OLD = ["tests/interop/test_values86_jax.py", "tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TORCH_NEW = ["tests/interop/test_values107_torch.py"]
JAX_NEW = ["tests/interop/test_values107_jax.py"]

MUTANTS = [
    # ---- the PyTorch binding ----
    dict(name="v107-torch-device-message-lists-dtypes", file=TORCH,
         old='listed = ", ".join(f"{n} on {t.device}" for n, t in named)',
         new='listed = ", ".join(f"{n} on {t.dtype}" for n, t in named)',
         tests=TORCH_NEW + OPS_OLD,
         why="the refusal of tensors on several devices lists each tensor's dtype where it names its device"),
    dict(name="v107-torch-keep-false-backward-unrefused", file=TORCH,
         old="    if n_r == 0:\n",
         new="    if n_r < 0:\n",
         tests=TORCH_NEW + OPS_OLD,
         why="a backward through a layer op run with keep=False (no residuals) is no longer refused in one "
             "sentence: the kernels get an empty residual list"),
    dict(name="v107-torch-repr-bidirectional-always", file=TORCH,
         old="        if self.bidirectional:\n            s += \", bidirectional=True\"",
         new="        if self.directions:\n            s += \", bidirectional=True\"",
         tests=TORCH_NEW + TORCH_OLD,
         why="extra_repr tests the direction count (1 or 2, always true): every stack prints bidirectional=True"),
    dict(name="v107-torch-grow-reverse-buffers-as-forward", file=TORCH,
         old='name = f"{PARAM_NAMES[n][0]}_{_suffix(k, d)}"',
         new='name = f"{PARAM_NAMES[n][0]}_{_suffix(k, 0)}"',
         tests=TORCH_NEW + TORCH_OLD,
         why="_grow_buffers grows the forward direction's BN buffers when asked for the backward direction's: "
             "the reverse buffers keep their one row in training"),
    dict(name="v107-torch-state-dict-buffers-without-prefix", file=TORCH,
         old="v = state_dict.get(prefix + name)",
         new="v = state_dict.get(name)",
         tests=TORCH_NEW + TORCH_OLD,
         why="_load_from_state_dict looks the grown BN buffers up without the module's prefix: a stack inside "
             "another module no longer loads statistics longer than its own"),
    dict(name="v107-torch-packed-lengths-check-by-truth", file=TORCH,
         old="            if lengths is not None:\n                raise ValueError(f\"{what}: a PackedSequence",
         new="            if lengths:\n                raise ValueError(f\"{what}: a PackedSequence",
         tests=TORCH_NEW + TORCH_OLD,
         why="a PackedSequence given with a lengths tensor is tested by its truth: a tensor of several lengths "
             "raises torch's ambiguous-truth error instead of the one-sentence refusal"),
    dict(name="v107-torch-stack-bias-false-accepted", file=TORCH,
         old="        if not bias:\n            raise ValueError(f\"{what}: lnrnn's cells always have a bias: pass "
             "bias=True.\")\n        if not 0.0",
         new="        if bias is None:\n            raise ValueError(f\"{what}: lnrnn's cells always have a bias: pass "
             "bias=True.\")\n        if not 0.0",
         tests=TORCH_NEW + TORCH_OLD,
         why="the stack lets bias=False through and builds biases the caller asked not to have"),
    dict(name="v107-torch-cell-repr-sizes-swapped", file=TORCH,
         old='return f"{self.input_size}, {self.hidden_size}, norm={self.norm!r}"',
         new='return f"{self.hidden_size}, {self.input_size}, norm={self.norm!r}"',
         tests=TORCH_NEW + ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py"],
         why="a cell's repr prints hidden_size before input_size (nn.LSTMCell prints input_size first)"),
    # ---- the JAX binding ----
    dict(name="v107-jax-missing-unexpected-swapped", file=JAX,
         old="missing, extra = sorted(want - set(params)), sorted(set(params) - want)",
         new="missing, extra = sorted(set(params) - want), sorted(want - set(params))",
         tests=JAX_NEW + JAX_OLD,
         why="the refusal of a params dict that does not match the stack names the unexpected keys as missing "
             "and the missing ones as unexpected"),
    dict(name="v107-jax-state-dims-message-directions-swapped", file=JAX,
         old='dims = "num_layers * 2, B, H" if D == 2 else "num_layers, B, H"',
         new='dims = "num_layers * 2, B, H" if D == 1 else "num_layers, B, H"',
         tests=JAX_NEW + JAX_OLD,
         why="a state of the wrong shape is refused with the other direction count's layout"),
    dict(name="v107-jax-batch-axes-probe-steps-changed", file=JAX,
         old="a = F.residual_layout(cell, 2, 3, I, H, dtype)",
         new="a = F.residual_layout(cell, 3, 3, I, H, dtype)",
         tests=JAX_NEW + JAX_OLD,
         why="_batch_axes probes two layouts that differ in T as well as B: a residual's first differing axis is "
             "its time axis, and the folded vmap forward splits residuals along time"),
    dict(name="v107-jax-suffix-divmod-by-two", file=JAX,
         old="k, d = divmod(j, D)",
         new="k, d = divmod(j, 2)",
         tests=JAX_NEW + JAX_OLD,
         why="_suffix counts two directions whatever D: a unidirectional stack's layer 1 is named l0_reverse"),
    dict(name="v107-jax-shape-message-swapped", file=JAX,
         old='raise ValueError(f"{name} has shape {tuple(a.shape)}, expected {tuple(want_shape)} for input "',
         new='raise ValueError(f"{name} has shape {tuple(want_shape)}, expected {tuple(a.shape)} for input "',
         tests=JAX_NEW + JAX_OLD,
         why="a parameter of the wrong shape is refused with its shape and the expected one swapped"),
]
