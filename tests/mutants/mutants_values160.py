"""Planted bugs, round 160 (format: tests/mutants/mutants.py): single-line slips in the PyTorch binding
(lnrnn/interop/torch.py, and lnrnn/torch.py, which re-exports it), an eighth pass on lines no earlier round
mutates: a batch_first stack transposing an unbatched (T, I) sequence, a cell unsqueezing an unbatched step on
the wrong axis, float64 modules built with float32 weights, the backward op handing back one initial state
too few, BatchNorm buffers grown one row past the sequence, the refusals' one-line messages naming the wrong
thing (the dtype advice pointing at the device and the device advice at the dtype, the layer op calling its
states hx, a float lengths tensor reported with x's dtype, a cell's norm='bn' refusal suggesting a misspelled
module), load_exported reading the window flag under the wrong key, and the lnrnn.torch facade dropping
load_exported.

12 mutants. Against the existing targeted tests alone (the old files listed after the new one, with the
baseline run) 6 were caught and 6 missed: a batch_first stack transposing an unbatched sequence (no old test
hands a batch_first module an unbatched one), the two advice messages, the float lengths' dtype, the cells'
norm='bn' message (checked by type only) and the window key (no old test exports a synthesis run to PyTorch).

The new value tests catch all 12 on their own (checked with the old files taken off the lists):
tests/interop/test_values160_torch.py (a batch_first LSTM and RNN given an unbatched sequence, with hx given
and omitted, against torch.nn.LSTM / torch.nn.RNN with the same weights in float64 and float32; an LSTMCell
given an unbatched step against torch.nn.LSTMCell; a two-layer bidirectional LSTM over unsorted lengths
against torch.nn.LSTM on the PackedSequence, outputs, states and the gradients of x, h0, c0 and every
parameter through autograd of both; the BN-LSTM's running statistics after training passes of 3 and then 5
steps against the momentum rule applied by hand to the batch means of x_t W_ih^T, the buffers grown to the
sequence's length; the refusals word for word (mixed dtypes, a meta device, float lengths, the op's own
check, a cell's norm='bn'); load_exported of a synthesis run's config; the facade's names against
lnrnn.interop.torch's). Dropped as equivalent: set_materialize_grads(True) (zero-filled gradients are treated
as absent ones), _refuse_nonzero returning grad itself (it is all zeros once checked), head.eval() left out
(nn.Linear has no training behaviour), `if k == 0` as `k <= 0`. Not mutated: _Cuda's stream lines (no GPU in
the test run).

    python tests/mutants/run.py --only 'v160-*'
"""
TORCH = "lnrnn/interop/torch.py"
FACADE = "lnrnn/torch.py"

# existing tests of the binding (the most direct files: the old ops files take minutes on one core)
STACK_OLD = ["tests/interop/test_values132_torch.py", "tests/interop/test_values121_torch.py",
             "tests/interop/test_torch_bidirectional.py"]
CELL_OLD = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py",
            "tests/interop/test_values132_torch.py"]
LENGTHS_OLD = ["tests/interop/test_values39_torch_lengths.py", "tests/interop/test_values132_torch.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
NEW = ["tests/interop/test_values160_torch.py"]

MUTANTS = [
    # ---- shapes ----
    dict(name="v160-batch-first-transposes-unbatched", file=TORCH,
         old="if packed is None and self.batch_first and x.dim() == 3:",
         new="if packed is None and self.batch_first:",
         tests=NEW + STACK_OLD,
         why="a batch_first stack swaps the axes of an unbatched (T, I) sequence too, which nn.LSTM reads "
             "as time-major whatever batch_first says: refused as (I, T)"),
    dict(name="v160-cell-unbatched-wrong-axis", file=TORCH,
         old="x = input.unsqueeze(0) if unbatched else input",
         new="x = input.unsqueeze(1) if unbatched else input",
         tests=NEW + CELL_OLD,
         why="an unbatched step (I,) becomes (I, 1) instead of (1, I): refused unless I is 1"),
    dict(name="v160-float64-modules-float32-weights", file=TORCH,
         old="return {torch.float32: np.float32, torch.float64: np.float64}[dt]",
         new="return {torch.float32: np.float32, torch.float64: np.float32}[dt]",
         tests=NEW + STACK_OLD,
         why="dtype=torch.float64 builds float32 parameters: a float64 input is refused as mixed dtypes"),
    dict(name="v160-backward-states-one-short", file=TORCH,
         old="return outs[0], outs[1:1 + n_s], outs[1 + n_s:]",
         new="return outs[0], outs[1:n_s], outs[1 + n_s:]",
         tests=NEW + STACK_OLD,
         why="the backward op returns one initial-state gradient too few: every backward fails"),
    dict(name="v160-bn-buffers-grown-one-row-more", file=TORCH,
         old="setattr(self, name, functional.grown(b, T))",
         new="setattr(self, name, functional.grown(b, T + 1))",
         tests=NEW + STACK_OLD,
         why="a BN stack trained on T steps keeps T + 1 rows of running statistics: its state_dict no longer "
             "matches a stack trained alike elsewhere"),
    # ---- messages ----
    dict(name="v160-dtype-advice-names-device", file=TORCH,
         old='"(x.to(m.weight_ih_l0.dtype)).")',
         new='"(x.to(m.weight_ih_l0.device)).")',
         tests=NEW + STACK_OLD,
         why="the mixed-dtype refusal advises moving x to the weights' device, which changes no dtype"),
    dict(name="v160-device-advice-names-dtype", file=TORCH,
         old="the input and states to the module's device (x.to(m.weight_ih_l0.device)).",
         new="the input and states to the module's device (x.to(m.weight_ih_l0.dtype)).",
         tests=NEW + STACK_OLD,
         why="the device refusal advises casting x to the weights' dtype, which moves nothing"),
    dict(name="v160-op-names-states-hx", file=TORCH,
         old='x=x, **{f"state[{i}]": s for i, s in enumerate(state)},',
         new='x=x, **{f"hx[{i}]": s for i, s in enumerate(state)},',
         tests=NEW + STACK_OLD,
         why="the layer op's refusal calls its state list hx, the modules' word, not its own argument"),
    dict(name="v160-float-lengths-message-x-dtype", file=TORCH,
         old='f"{lengths.dtype}: a length of 1.5 steps means nothing.")',
         new='f"{x.dtype}: a length of 1.5 steps means nothing.")',
         tests=NEW + LENGTHS_OLD,
         why="float lengths are refused naming x's dtype instead of their own"),
    dict(name="v160-cell-bn-message-module-misspelled", file=TORCH,
         old="f\"({what[:-4]}(norm='bn')).\")",
         new="f\"({what[:-3]}(norm='bn')).\")",
         tests=NEW + CELL_OLD,
         why="a cell's norm='bn' refusal suggests LSTMC(norm='bn') / RNNC(norm='bn'), which do not exist"),
    # ---- load_exported and the facade ----
    dict(name="v160-exported-window-key-misspelled", file=TORCH,
         old='if config.get("window"):',
         new='if config.get("windows"):',
         tests=NEW + STACK_OLD,
         why="a synthesis run's export is not refused in one sentence: it fails later, loading its window "
             "weights into a plain stack"),
    dict(name="v160-facade-drops-load-exported", file=FACADE,
         old="load_exported)",
         new=")",
         tests=NEW + STACK_OLD,
         why="lnrnn.torch lists load_exported in __all__ but no longer imports it: the documented "
             "lnrnn.torch.load_exported is an AttributeError"),
]
