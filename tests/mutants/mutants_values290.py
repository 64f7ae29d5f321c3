"""Planted bugs, round 290 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the PyTorch binding (lnrnn/interop/torch.py), fourteenth pass: the mixed-dtype refusal listing only
the last tensor; the layer op's residuals taken from one entry early (c_n read as a residual); the op's fake
registered as the kernel itself; the keep=False refusal saying keep=True; the c_n guard's zeros made ones; the
guard's backward passing a gradient through instead of refusing it; the stacks' state_dict loads never strict;
input_size and hidden_size swapped on their way through check_sizes; the float-lengths refusal naming LSTM for
every module; the one-step cells running their op with keep=False; a one-step cell handing back a tuple for the
RNN and h' alone for the LSTM; the head's weight transposed when a stack is built from a run's tensors; the
backward reading y as x and x as y from the saved tensors.

13 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values290_torch (nn.LSTM / nn.RNN at two
bidirectional layers with hx given, I = 3 != H = 4, out, h_n, c_n and the gradients of x, h0, c0 and every
parameter of one weighted loss; a PackedSequence of lengths 3, 1, 2 unsorted without hx, with parameters that
take gradients, c_n included; nn.LSTMCell / nn.RNNCell with hx given and every gradient; torch.library.opcheck
of the layer op at T 2, B 2; the strict load's error compared with nn.LSTM's own for the same dictionary; a head
from a run's tensors against x @ W.T + b with O = 2 != H = 4; the refusals of mixed dtypes, float lengths, a
backward after keep=False and a ragged batch's c_n gradient word for word). Left out as equivalent:
set_materialize_grads(True) (the backward turns a None dy or seed into zeros, and the residuals' and buffers'
gradients are ignored); the guard's backward returning grad for zeros_like(grad) (it returns only when every
entry is zero); _NORMS[norm] == 'bn' made norm == 'bn' in the cells (only 'bn' maps to 'bn'); _untraced dropped
from the op's implementation (nothing in these runs imports torch._dynamo before the call); the lengths cast to
int64 dropped (the kernels and the mask read any integer width alike); devices taken as t.device for
t.device.type (equal on a CPU-only run; the CUDA twin of the check is not cheap without a GPU). Left out as not
cheap: the CUDA stream handling (no GPU in the targeted runs).

    python tests/mutants/run.py --only 'v290-*'
"""
TORCH = "lnrnn/interop/torch.py"

T = "tests/interop/test_values290_torch.py::"
STACK_HX = T + "test_a_two_layer_bidirectional_stack_with_hx_gives_nn_modules_values_and_every_gradient"
PACKED = T + "test_a_packed_ragged_batch_without_hx_gives_nn_modules_values_and_gradients"
CELL = T + "test_a_cell_with_hx_gives_nn_cells_values_and_every_gradient"
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_torch_cell.py",
             "tests/interop/test_values224_torch.py", "tests/interop/test_values255_torch.py",
             "tests/interop/test_values273_torch.py"]

MUTANTS = [
    dict(name="v290-torch-mixed-dtypes-lists-last-tensor", file=TORCH,
         old='raise TypeError(f"{where}: mixed dtypes ({listed}): pass',
         new='raise TypeError(f"{where}: mixed dtypes ({n} {t.dtype}): pass',
         tests=[T + "test_mixed_dtypes_are_refused_listing_every_tensor"] + OLD_TORCH,
         why="the mixed-dtype refusal names only the last tensor checked (the weights), not the mix"),
    dict(name="v290-torch-residuals-start-one-early", file=TORCH,
         old="    final, res = rest[:len(final)], rest[len(final):]",
         new="    final, res = rest[:len(final)], rest[len(final) - 1:]",
         tests=[STACK_HX + "[lstm]", STACK_HX + "[rnn]"] + OLD_TORCH,
         why="the residuals start one entry early: the last final state is handed to the backward as a residual"),
    dict(name="v290-torch-fake-is-the-kernel", file=TORCH,
         old="    torch.library.register_fake(qualname, fake)",
         new="    torch.library.register_fake(qualname, impl)",
         tests=[T + "test_opcheck_of_the_layer_op_and_its_fake_at_tiny_shapes"] + OLD_TORCH,
         why="the ops' fakes are the kernels themselves: fake tensors reach NumPy (opcheck, torch.compile fail)"),
    dict(name="v290-torch-keep-refusal-says-keep-true", file=TORCH,
         old='raise RuntimeError("this lnrnn layer ran with keep=False (no backward',
         new='raise RuntimeError("this lnrnn layer ran with keep=True (no backward',
         tests=[T + "test_a_backward_through_a_layer_run_with_keep_false_is_refused_word_for_word"] + OLD_TORCH,
         why="a backward through a layer run without residuals is refused naming the wrong keep"),
    dict(name="v290-torch-guard-zeros-are-ones", file=TORCH,
         old="def _zeros_like(h_n: Tensor) -> Tensor:\n    return torch.zeros_like(h_n)",
         new="def _zeros_like(h_n: Tensor) -> Tensor:\n    return torch.ones_like(h_n)",
         tests=[PACKED + "[lstm]"] + OLD_TORCH,
         why="the c_n guard adds ones: a ragged batch's c_n is off by one wherever parameters take gradients"),
    dict(name="v290-torch-guard-backward-passes-gradient", file=TORCH,
         old='register_autograd("lnrnn::cell_state_guard", lambda ctx, grad: _cell_state_guard_backward(grad))',
         new='register_autograd("lnrnn::cell_state_guard", lambda ctx, grad: grad)',
         tests=[T + "test_an_lstm_cells_c_n_of_a_ragged_batch_refuses_a_gradient_and_takes_a_zero_one"] + OLD_TORCH,
         why="a gradient of a ragged batch's c_n is not refused: it flows into h_n as if it were dL/dh_n"),
    dict(name="v290-torch-state-dict-load-never-strict", file=TORCH,
         old="        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,",
         new="        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys,",
         tests=[T + "test_a_strict_load_refuses_what_nn_lstm_refuses_with_its_sentence[extra]",
                T + "test_a_strict_load_refuses_what_nn_lstm_refuses_with_its_sentence[missing]"] + OLD_TORCH,
         why="load_state_dict(strict=True) takes a dictionary with extra or missing keys silently"),
    dict(name="v290-torch-sizes-swapped", file=TORCH,
         old="        input_size, hidden_size, num_layers = check_sizes(what, input_size=input_size,",
         new="        hidden_size, input_size, num_layers = check_sizes(what, input_size=input_size,",
         tests=[STACK_HX + "[lstm]", STACK_HX + "[rnn]"] + OLD_TORCH,
         why="a stack with I != H is built with I and H swapped: nn.LSTM's state_dict does not load"),
    dict(name="v290-torch-lengths-refusal-says-lstm", file=TORCH,
         old='raise TypeError(f"{what}: lengths must be whole numbers',
         new='raise TypeError(f"LSTM: lengths must be whole numbers',
         tests=[T + "test_float_lengths_are_refused_naming_the_rnn"] + OLD_TORCH,
         why="float lengths given to an RNN are refused naming LSTM"),
    dict(name="v290-torch-cell-keep-not-passed", file=TORCH,
         old="                                       None, self.cell, self.training, keep)   # one step",
         new="                                       None, self.cell, self.training, False)   # one step",
         tests=[CELL + "[lstm]", CELL + "[rnn]"] + OLD_TORCH,
         why="the one-step cells never keep residuals: every backward through a cell is refused"),
    dict(name="v290-torch-cell-return-inverted", file=TORCH,
         old="        return tuple(final) if n == 2 else final[0]",
         new="        return tuple(final) if n == 1 else final[0]",
         tests=[CELL + "[lstm]", CELL + "[rnn]"] + OLD_TORCH,
         why="LSTMCell hands back h' alone (no c') and RNNCell a 1-tuple"),
    dict(name="v290-torch-head-weight-transposed", file=TORCH,
         old='W = torch.from_numpy(np.ascontiguousarray(tensors["head.weight"]))',
         new='W = torch.from_numpy(np.ascontiguousarray(tensors["head.weight"].T))',
         tests=[T + "test_a_stack_and_head_from_tensors_are_nn_rnn_and_nn_linear"] + OLD_TORCH,
         why="a head built from a run's tensors takes its weight transposed: (H, O) for (O, H)"),
    dict(name="v290-torch-backward-saved-x-y-swapped", file=TORCH,
         old="    x, y, *rest = ctx.saved_tensors",
         new="    y, x, *rest = ctx.saved_tensors",
         tests=[STACK_HX + "[lstm]", STACK_HX + "[rnn]", CELL + "[lstm]", CELL + "[rnn]"] + OLD_TORCH,
         why="the backward reads the saved output as the input and the input as the output"),
]
