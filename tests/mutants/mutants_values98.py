"""Planted bugs, round 98 (format: tests/mutants/mutants.py): single-line slips in the PyTorch binding
(lnrnn/interop/torch.py), a fourth pass on lines no earlier round mutates.

The cells' initial draw from fresh entropy instead of torch.manual_seed, LSTMCell's default forget bias 0, RNNCell
passing 'ln' whatever norm, an unbatched cell's given states without their batch axis; the stack letting an input
of the wrong width through, the mixed-dtype refusal listing devices, the wrong-count refusal naming the states
backwards, norm='none' kept as a string, extra_repr's batch_first read from bidirectional, _reverse_valid's lengths
laid along time; the fake layer op's residuals keyed on training instead of keep, and the int64 residual faked as
int32.

12 mutants. The old torch files are slow (one to two and a half minutes per mutant on the loaded shared core), so
the existing tests were measured on the most direct subset (test_torch_cell and test_values49_torch_cell for the
cells) and for the first mutant only: it was caught; the other 11 were not measured against the old tests. The new
value tests catch all 12 on their own (checked with the old tests taken off the lists):
tests/interop/test_values98_torch.py (cells built twice under one torch.manual_seed and once under another; the f
block of bias_ih at 1 by default against torch's [i|f|g|o] layout; a plain RNNCell against nn.RNNCell loaded with
its state_dict strictly, step and every gradient, batched and one unbatched row with h given; an unbatched LSTMCell
with (h, c) given against nn.LSTMCell; a plain bidirectional stack over ragged rows with T = B against nn.LSTM over
pack_padded_sequence, values and gradients; rows of length 0 returning h0's values that stay put when the caller
writes h0 in place; torch.library.opcheck of a BN-LSTM layer with lengths in eval with a backward wanted and in
train; norm and extra_repr against the arguments; the refusals word for word). About 20 s on one core. Dropped as
equivalent: _grow_buffers growing at b.shape[0] <= T (grown to the same T rows), set_materialize_grads(True) and
_refuse_nonzero returning grad (rounds before this one say why), the cell op called with training=False (no BN in a
cell: LayerNorm and the plain cells read no training flag), and from_tensors' forget_bias for RNNs (the loaded
state_dict overwrites the initial biases). Also dropped after it was missed: _fresh handing back an output uncopied
where it overlaps an input (the CPU layer function returned no input's memory in any case tried, rows of length 0
included, so no test could see it).

    python tests/mutants/run.py --only 'v98-*'
"""
TORCH = "lnrnn/interop/torch.py"

# existing tests of the binding (a subset: the old torch files take minutes on one core)
TORCH_OLD = ["tests/interop/test_values74_torch_modules.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_values49_torch.py"]
OPS_OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py"]
CELL_OLD = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TORCH_NEW = ["tests/interop/test_values98_torch.py"]

MUTANTS = [
    # ---- the cells: initial draw, default forget bias, RNNCell's arguments, unbatched states ----
    dict(name="v98-cell-rng-unseeded", file=TORCH,
         old="rng = np.random.default_rng(int(torch.randint(0, 2 ** 62, (1,)).item()))\n"
             "        _add_layer(self, self.spec, rng, self.input_size",
         new="rng = np.random.default_rng()\n"
             "        _add_layer(self, self.spec, rng, self.input_size",
         tests=TORCH_NEW + CELL_OLD,
         why="a cell's initial parameters are drawn from fresh OS entropy: torch.manual_seed no longer makes "
             "them reproducible, as it does for nn.LSTMCell"),
    dict(name="v98-cell-default-forget-bias-zero", file=TORCH,
         old='norm="ln", forget_bias=1.0, device=None, dtype=None):',
         new='norm="ln", forget_bias=0.0, device=None, dtype=None):',
         tests=TORCH_NEW + CELL_OLD,
         why="LSTMCell's default forget bias is 0 instead of the stack's 1: the f block starts at zero"),
    dict(name="v98-rnncell-norm-dropped", file=TORCH,
         old="super().__init__(input_size, hidden_size, bias, norm, **kw)",
         new='super().__init__(input_size, hidden_size, bias, "ln", **kw)',
         tests=TORCH_NEW + CELL_OLD,
         why="RNNCell passes 'ln' whatever norm was asked: RNNCell(norm=None) is a LayerNorm cell with gains "
             "that nn.RNNCell's state_dict does not have"),
    dict(name="v98-cell-unbatched-state-not-lifted", file=TORCH,
         old="state = [s.unsqueeze(0) if unbatched else s for s in hx]",
         new="state = list(hx)",
         tests=TORCH_NEW + CELL_OLD,
         why="an unbatched cell's given (H,) states reach the one-step op without their batch axis"),
    # ---- the stack: the input check, the messages, norm and repr, ragged reversal ----
    dict(name="v98-input-width-unchecked", file=TORCH,
         old="if x.dim() != 3 or x.shape[2] != self.input_size:",
         new="if x.dim() != 3:",
         tests=TORCH_NEW + TORCH_OLD,
         why="an input of the wrong width is let through to the kernels instead of refused in one sentence"),
    dict(name="v98-mixed-dtypes-listed-by-device", file=TORCH,
         old='listed = ", ".join(f"{n} {t.dtype}" for n, t in named)',
         new='listed = ", ".join(f"{n} {t.device}" for n, t in named)',
         tests=TORCH_NEW + TORCH_OLD,
         why="the mixed-dtype refusal lists each tensor's device instead of its dtype: it does not say which one "
             "is off"),
    dict(name="v98-hx-message-state-names-swapped", file=TORCH,
         old="hx must be {'(h0, c0)' if n == 2 else 'h0'}",
         new="hx must be {'(h0, c0)' if n == 1 else 'h0'}",
         tests=TORCH_NEW + TORCH_OLD,
         why="the wrong-count refusal asks an LSTM for h0 and an RNN for (h0, c0)"),
    dict(name="v98-norm-none-string-kept", file=TORCH,
         old='self.norm, self.batch_first, self.skip = None if _NORMS[norm] == "none" else norm,',
         new='self.norm, self.batch_first, self.skip = norm,',
         tests=TORCH_NEW + TORCH_OLD,
         why="LSTM(norm='none').norm is the string 'none' instead of None (and so is its repr)"),
    dict(name="v98-repr-batch-first-from-bidirectional", file=TORCH,
         old="        if self.batch_first:\n            s +=",
         new="        if self.bidirectional:\n            s +=",
         tests=TORCH_NEW + TORCH_OLD,
         why="extra_repr prints batch_first=True for a bidirectional stack and nothing for a batch_first one"),
    dict(name="v98-reverse-valid-lengths-as-column", file=TORCH,
         old="L = lengths[None, :]",
         new="L = lengths[:, None]",
         tests=TORCH_NEW + TORCH_OLD,
         why="_reverse_valid lays the lengths along time: with T = B every row reverses by the length of the row "
             "whose index is the step (otherwise a broadcast error)"),
    # ---- the ops: the fake's residuals and their dtypes ----
    dict(name="v98-fake-residuals-on-training", file=TORCH,
         old="    if keep:\n        device",
         new="    if training:\n        device",
         tests=TORCH_NEW + OPS_OLD,
         why="the fake layer_forward lays out residuals when training instead of when a backward is wanted: eval "
             "with gradients and train without disagree with the real op under torch.compile"),
    dict(name="v98-int-residual-as-int32", file=TORCH,
         old="np.dtype(np.int64): torch.int64}",
         new="np.dtype(np.int64): torch.int32}",
         tests=TORCH_NEW + OPS_OLD,
         why="the fake op gives the BN layer's lengths residual (int64) as int32"),
]
