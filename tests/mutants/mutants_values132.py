"""Planted bugs, round 132 (format: tests/mutants/mutants.py): single-line slips in the PyTorch binding
(lnrnn/interop/torch.py; lnrnn/torch.py only re-exports it), a seventh pass on lines no earlier round mutates:
a PackedSequence output built with its sorted and unsorted indices swapped, the stacks' dropout and forget_bias
stored crosswise, the refusals' one-line messages naming the wrong thing (x's width as hidden_size, the lengths'
count as T, a cell's input width as H, a cell's hx listing only the first state's shape, the stacks' norm
message leaving 'bn' out and the cells' offering it), a cell not checking its input against its weights'
dtype, extra_repr's norm read from the cell spec ('none' for None), and load_exported building a float32
stack whatever the config's dtype or stripping one character too few of the 'rnn.' prefix.

12 mutants. The existing targeted tests (the most direct old files, listed after the new one) were measured on
the first 6 only: the old files took 465 s for their baseline on the shared core and the run was stopped
there: 4 caught (dropout and forget_bias crossed, the repr's norm from the spec, x's width message, a cell's
input width message) and 2 missed (the packed output's indices swapped: no old test packs an unsorted batch
with rows whose sorting is not its own inverse; the lengths' count message naming T). The new value tests
catch all 12 on their own (checked with the old files taken off the lists): tests/interop/test_values132_torch.py
(a two-layer LN-LSTM stack in training mode against the LN-LSTM step written there in torch ops, with its
gradients of x, h0, c0 and every parameter against autograd through those ops, and with only h0 requiring one;
torch.autograd.gradcheck of a tiny float64 LN-LSTM and LN-RNN in x, the states and every parameter; an
unsorted PackedSequence, plain and bidirectional, against torch.nn.LSTM with the same weights: data, indices,
unpacked rows and states; dropout, forget_bias and repr as given; the refusals word for word; load_exported of
a float64 LN-RNN and its head written there with write_safetensors; a bidirectional BN-RNN's state_dict round
trip after a training pass). Dropped as equivalent: `if k == 0` as `k <= 0` in layer_input_size (k is never
negative), lengths cast to int32 instead of int64 (check_lengths makes them int64), _refuse_nonzero returning
zeros of another kind (the gradient is all zeros once checked), the cells' layer op run with training=False
(cells take no BatchNorm). Not mutated: _Cuda's stream lines (no GPU in the test run).

    python tests/mutants/run.py --only 'v132-*'
"""
TORCH = "lnrnn/interop/torch.py"

# existing tests of the binding (the most direct files: the old ops files take minutes on one core)
STACK_OLD = ["tests/interop/test_values121_torch.py", "tests/interop/test_values98_torch.py",
             "tests/interop/test_torch_bidirectional.py"]
CELL_OLD = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py",
            "tests/interop/test_values121_torch.py"]
LENGTHS_OLD = ["tests/interop/test_values39_torch_lengths.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
NEW = ["tests/interop/test_values132_torch.py"]

MUTANTS = [
    # ---- PackedSequence ----
    dict(name="v132-repack-indices-swapped", file=TORCH,
         old="return PackedSequence(data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)",
         new="return PackedSequence(data, packed.batch_sizes, packed.unsorted_indices, packed.sorted_indices)",
         tests=NEW + STACK_OLD + LENGTHS_OLD,
         why="the packed output carries the inverse permutation as its sorting: an unsorted batch "
             "(enforce_sorted=False) unpacks with its rows shuffled"),
    # ---- attributes and repr ----
    dict(name="v132-stack-dropout-forget-bias-crossed", file=TORCH,
         old="self.dropout, self.forget_bias = float(dropout), float(forget_bias)",
         new="self.dropout, self.forget_bias = float(forget_bias), float(dropout)",
         tests=NEW + STACK_OLD,
         why="the stacks store forget_bias as their dropout: a default two-layer stack in training mode drops "
             "every unit between its layers (p = 1), and forget_bias reads 0"),
    dict(name="v132-repr-norm-from-spec", file=TORCH,
         old='s = f"{self.input_size}, {self.hidden_size}, num_layers={self.num_layers}, norm={self.norm!r}"',
         new='s = f"{self.input_size}, {self.hidden_size}, num_layers={self.num_layers}, norm={self.spec.norm!r}"',
         tests=NEW + STACK_OLD,
         why="a plain stack's repr says norm='none', which is not the constructor's spelling (None)"),
    # ---- messages ----
    dict(name="v132-x-message-hidden-width", file=TORCH,
         old='raise ValueError(f"{what}: x must be (T, B, {self.input_size}) ((B, T, {self.input_size}) with "',
         new='raise ValueError(f"{what}: x must be (T, B, {self.hidden_size}) ((B, T, {self.input_size}) with "',
         tests=NEW + STACK_OLD,
         why="a wrong-width input is told to be hidden_size wide"),
    dict(name="v132-lengths-message-counts-steps", file=TORCH,
         old="one length per sequence ({B}), not shape",
         new="one length per sequence ({T}), not shape",
         tests=NEW + STACK_OLD + LENGTHS_OLD,
         why="lengths of the wrong count are told to hold T entries, not B"),
    dict(name="v132-cell-input-message-hidden-width", file=TORCH,
         old="input must be (B, {I}) with B >= 1",
         new="input must be (B, {H}) with B >= 1",
         tests=NEW + CELL_OLD,
         why="a cell's wrong-width input is told to be hidden_size wide"),
    dict(name="v132-cell-hx-message-first-shape-only", file=TORCH,
         old='got = ", ".join(str(tuple(s.shape)) for s in hx)',
         new="got = str(tuple(hx[0].shape))",
         tests=NEW + CELL_OLD,
         why="a cell's hx refusal shows only h's shape: a wrong c is reported as the right h"),
    dict(name="v132-stack-norm-message-without-bn", file=TORCH,
         old="norm must be 'ln', 'bn' or None, not",
         new="norm must be 'ln' or None, not",
         tests=NEW + STACK_OLD,
         why="the stacks' norm refusal (copied from the cells') leaves out 'bn', which they take"),
    dict(name="v132-cell-norm-message-offers-bn", file=TORCH,
         old="norm must be 'ln' or None, not",
         new="norm must be 'ln', 'bn' or None, not",
         tests=NEW + CELL_OLD,
         why="the cells' norm refusal (copied from the stacks') offers 'bn', which they refuse"),
    # ---- checks ----
    dict(name="v132-cell-weights-unchecked", file=TORCH,
         old="check_tensors(what, input=x, **dict(zip(names, state)), weights=self.weight_ih)",
         new="check_tensors(what, input=x, **dict(zip(names, state)))",
         tests=NEW + CELL_OLD,
         why="a cell checks its input against its states only: a float64 input to a float32 cell is refused "
             "by the layer op, in words naming the op and lnrnn's parameter names, not the cell's"),
    # ---- load_exported ----
    dict(name="v132-exported-dtype-float32", file=TORCH,
         old='dtype = _torch_dtype(config["dtype"])',
         new="dtype = torch.float32",
         tests=NEW + STACK_OLD,
         why="an exported float64 run loads as a float32 stack and head: its weights are rounded"),
    dict(name="v132-exported-prefix-one-short", file=TORCH,
         old='k[len("rnn."):]',
         new='k[len("rnn"):]',
         tests=NEW + STACK_OLD,
         why="exported names keep the prefix's dot ('.weight_ih_l0'): every load fails strictly"),
]
