"""Planted bugs, round 192 (format: tests/mutants/mutants.py): single-line slips in the PyTorch binding
(lnrnn/interop/torch.py), a ninth pass on lines no earlier round mutates: a PackedSequence output handed back
with its two index orders swapped, a float64 export loaded as a float32 module, load_exported dropping its
device, the autograd context forgetting to save the lengths, the backward op given y and dy swapped, the
saved sizes counting the BN buffers as residuals, the backward direction's time index built on the wrong
axis, the c_n guard applied to the BN-LSTM only (a ragged plain LSTM then drops dL/dc_n without a word), a
stack's dropout defaulting to 0.5, its repr always naming dropout, and two refusals naming the wrong sizes
(a lengths tensor's count as T, an unbatched cell's state shape as batched).

12 mutants. Against the existing targeted tests alone (the old files listed after the new one, with the
baseline run) 10 were caught and 2 missed: load_exported dropping its device (no old test loads an export
onto a device) and the unbatched cell's state message (the old tests check it word for word for batched
steps only).

The new value tests catch all 12 on their own (checked with the old files taken off the lists):
tests/interop/test_values192_torch.py (an LSTM given a PackedSequence over lengths whose sorting is a
3-cycle, against torch.nn.LSTM on the same PackedSequence with the same weights, after pad_packed_sequence;
a bidirectional RNN over unsorted lengths with h0 against torch.nn.RNN, and torch.autograd.gradcheck of it
in float64 on tiny shapes (finite differences judge the backward); a two-layer LSTM and RNN built with
default arguments, in training mode, against torch.nn.LSTM / nn.RNN with the same weights (torch's dropout
default is 0); the repr naming dropout exactly where torch.nn.LSTM's does; a float64 export with a head
written with write_safetensors and read by load_exported, against torch.nn.LSTM and nn.Linear in float64,
and its parameters on the meta device when asked; a ragged plain LSTM refusing a gradient of c_n word for
word while a full-length one takes it as torch.nn.LSTM does; the refusals of a lengths tensor of the wrong
size and an unbatched cell's wrong state word for word). Dropped as equivalent: `_span`'s fallback stride
as the item size and `_fresh`'s list of taken spans left empty (the CPU kernels return no output that
aliases an input or another output, so no copy is ever needed), `reversed` left out of `_span` (the spans
of a C-ordered array come out the same in either order), `if bn_training` as `if self.training` (a stack
without BN has no buffers to copy), `torch.no_grad()` around the buffer copy left out (no buffer takes
gradients). Not mutated: _Cuda's stream lines (no GPU in the test run).

    python tests/mutants/run.py --only 'v192-*'
"""
TORCH = "lnrnn/interop/torch.py"

# existing tests of the binding (the most direct files)
STACK_OLD = ["tests/interop/test_values160_torch.py", "tests/interop/test_values132_torch.py",
             "tests/interop/test_values121_torch.py", "tests/interop/test_torch_bidirectional.py"]
CELL_OLD = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py",
            "tests/interop/test_values160_torch.py"]
LENGTHS_OLD = ["tests/interop/test_values39_torch_lengths.py", "tests/interop/test_values160_torch.py",
               "tests/interop/test_values132_torch.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
NEW = ["tests/interop/test_values192_torch.py"]

MUTANTS = [
    # ---- lengths, packing and the backward direction ----
    dict(name="v192-repack-swaps-index-orders", file=TORCH,
         old="PackedSequence(data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)",
         new="PackedSequence(data, packed.batch_sizes, packed.unsorted_indices, packed.sorted_indices)",
         tests=NEW + LENGTHS_OLD,
         why="the output PackedSequence unsorts with the sorting permutation: where sorting the lengths is "
             "not its own inverse, pad_packed_sequence hands back the rows in the wrong order"),
    dict(name="v192-reverse-valid-time-on-wrong-axis", file=TORCH,
         old="t = torch.arange(T)[:, None]",
         new="t = torch.arange(T)[None, :]",
         tests=NEW + STACK_OLD,
         why="the backward direction's step index is laid out (1,T) instead of (T,1): with lengths, the "
             "reversal reads the wrong steps or fails to broadcast"),
    dict(name="v192-backward-forgets-the-lengths", file=TORCH,
         old="ctx.save_for_backward(x, y, *state, *params, *res, *([lengths] if lengths is not None else []))",
         new="ctx.save_for_backward(x, y, *state, *params, *res)",
         tests=NEW + LENGTHS_OLD,
         why="the lengths are not saved: the backward takes its last residual for them"),
    dict(name="v192-backward-y-and-dy-swapped", file=TORCH,
         old="list(params), y, dy, seeds, lengths,",
         new="list(params), dy, y, seeds, lengths,",
         tests=NEW + STACK_OLD,
         why="the backward op reads dL/dy as the outputs and the outputs as dL/dy: wrong gradients"),
    dict(name="v192-sizes-count-buffers-as-residuals", file=TORCH,
         old="ctx.sizes = (len(state), len(params), len(res), len(buffers))",
         new="ctx.sizes = (len(state), len(params), len(buffers), len(res))",
         tests=NEW + STACK_OLD,
         why="the residual and buffer counts are swapped: a stack without BN saves 'no residuals' and every "
             "backward is refused"),
    dict(name="v192-c-n-guard-only-for-bn", file=TORCH,
         old="if self.spec.nstate == 2:\n            # a c_n",
         new="if self.spec.norm == \"bn\":\n            # a c_n",
         tests=NEW + LENGTHS_OLD,
         why="the guard goes on the BN-LSTM only: a ragged plain or LN LSTM drops dL/dc_n without a word "
             "instead of refusing it"),
    # ---- defaults and repr ----
    dict(name="v192-dropout-defaults-to-half", file=TORCH,
         old="bias=True, dropout=0.0, bidirectional=False",
         new="bias=True, dropout=0.5, bidirectional=False",
         tests=NEW + STACK_OLD,
         why="a stack built without dropout drops half its units between layers in training, where "
             "torch.nn.LSTM drops none"),
    dict(name="v192-repr-always-names-dropout", file=TORCH,
         old="if self.dropout:\n            s += f\", dropout=",
         new="if self.dropout is not None:\n            s += f\", dropout=",
         tests=NEW + STACK_OLD,
         why="the repr names dropout=0.0 on every stack, where torch.nn.LSTM's names it only when it is set"),
    # ---- exported files ----
    dict(name="v192-float64-export-loads-float32", file=TORCH,
         old="np.dtype(np.float64): torch.float64,",
         new="np.dtype(np.float64): torch.float32,",
         tests=NEW + STACK_OLD,
         why="a float64 export builds a float32 module (and float32 fake residuals): float64 inputs are "
             "refused as mixed dtypes"),
    dict(name="v192-load-exported-drops-device", file=TORCH,
         old="return _from_tensors(config, tensors, device, path)",
         new="return _from_tensors(config, tensors, None, path)",
         tests=NEW + STACK_OLD,
         why="load_exported(path, device=...) leaves the stack and head on the CPU"),
    # ---- messages ----
    dict(name="v192-lengths-count-message-names-T", file=TORCH,
         old="one length per sequence ({B}), not shape",
         new="one length per sequence ({T}), not shape",
         tests=NEW + LENGTHS_OLD,
         why="a lengths tensor of the wrong size is told to hold T lengths, not one per sequence"),
    dict(name="v192-cell-unbatched-state-message-batched", file=TORCH,
         old="else 'h'}, each {want}, not {got}.",
         new="else 'h'}, each ({B}, {H}), not {got}.",
         tests=NEW + CELL_OLD,
         why="an unbatched step's wrong state is told to be (1, H), which is refused too: (H,) is wanted"),
]
