"""Planted bugs, round 334 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the PyTorch binding (lnrnn/interop/torch.py; lnrnn/torch.py only re-exports it), eighteenth pass: the stack's
initial states sized by the step count instead of the batch (a correct hx refused when T != B); a cell's batch
size read off the input's columns (a correct h, c refused when B != I); _repack's step and row counts swapped; a
packed two-layer stack returning the first layer's output; the op's fake reading H off the batch axis, passing I
and H to residual_layout swapped, and giving an LSTM one final state instead of two; PyTorch's second bias
(bias_hh) registered without a gradient; a layer's width taken from the input size; a state_dict load resizing the
parameters instead of the BN buffers; the c_n refusal naming h_n; a run's tensors loaded with strict=False (a
missing key taken silently).

12 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values334_torch (torch.nn.LSTM / nn.RNN /
nn.LSTMCell / nn.RNNCell with their own weights loaded strictly, float64: out, final states and the gradients of
x, the states and every parameter, bias_hh included, for a two-layer batch_first stack in evaluation with dropout
0.5 over T 5 > B 2 with hx given, for cells over B 5 > I 3 with hx given, and for a two-layer stack over a
PackedSequence of unsorted lengths 2, 5, 3 (data, batch sizes and orders too); the op under FakeTensorMode at T 2,
B 3, I 5, H 4 against the shapes written out and the real op's residuals, for the RNN, the LN-LSTM and the BN-LSTM
in training; reference.bn_rnn_forward for a BN-RNN's outputs and statistics after training calls of T 2 and T 3
with lengths, step 0's running variance by the momentum formula, then a strict state_dict round trip into a fresh
one-row module and evaluation over T 4; the error nn.LSTM's own strict load raises for tensors with bias_hh_l1
missing; the c_n refusal word for word). Left out as equivalent: _fresh's `if a.size` inverted or its taken spans
without the states (on the CPU no kernel output shares memory with an input or another output: checked for rnn,
lstm and ln-lstm with and without lengths, so nothing is ever copied); _add_layer's loop over spec.param_shapes(H,
I) (only the names are read, the values come from init_params(I, H)); x.contiguous() dropped before the layers
(each array is made contiguous by the converter); the c_n guard's backward returning grad for zeros_like(grad) (it
returns only when grad is all zeros). Left out as a crash rather than a value: BN growth growing the running means
only (_grow_buffers over buffer_names[:1]: the kernels read the variances' missing rows and the test process dies
of a segmentation fault). Left out as needing a CUDA device: _Cuda's stream handling and check_tensors' device set
(one device type on a CPU-only host).

    python tests/mutants/run.py --only 'v334-*'
"""
TORCH = "lnrnn/interop/torch.py"

T_NEW = "tests/interop/test_values334_torch.py::"
OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_cell.py", "tests/interop/test_values224_torch.py",
       "tests/interop/test_values290_torch.py", "tests/interop/test_values298_torch.py",
       "tests/interop/test_values309_torch.py"]

STACK = T_NEW + "test_a_two_layer_batch_first_stack_over_more_steps_than_rows_with_hx_is_nn_modules"
CELL = T_NEW + "test_cells_over_more_rows_than_inputs_with_hx_are_nn_cells"
PACKED = T_NEW + "test_a_two_layer_stack_over_unsorted_packed_lengths_is_nn_lstms"
FAKE = T_NEW + "test_the_layer_ops_fake_gives_the_real_ops_shapes"
BN = T_NEW + "test_bn_rnn_statistics_after_two_training_calls_round_trip_through_a_state_dict"
LOAD = T_NEW + "test_tensors_with_a_key_missing_are_refused_with_nn_lstms_strict_load_error"
CN = T_NEW + "test_a_gradient_of_a_bn_lstms_c_n_is_refused_word_for_word"

MUTANTS = [
    dict(name="v334-stack-states-sized-by-steps", file=TORCH,
         old="        state = self._states(hx, B, x)",
         new="        state = self._states(hx, T, x)",
         tests=[STACK] + OLD,
         why="the initial states are checked against (L*D, T, H): a correct hx is refused whenever T != B"),
    dict(name="v334-cell-batch-from-input-columns", file=TORCH,
         old="        B = x.shape[0]\n        names",
         new="        B = x.shape[1]\n        names",
         tests=[CELL] + OLD,
         why="a cell's batch size is read off the input's columns (I): a correct (B, H) h or c is refused "
             "when B != I, and the zero states have I rows"),
    dict(name="v334-repack-steps-and-rows-swapped", file=TORCH,
         old="    T, B = y.shape[0], y.shape[1]",
         new="    T, B = y.shape[1], y.shape[0]",
         tests=[PACKED] + OLD,
         why="_repack reads the step count off the rows and the rows off the steps: a packed output fails "
             "whenever T != B"),
    dict(name="v334-packed-output-of-the-first-layer", file=TORCH,
         old="out = _repack(out, packed)",
         new="out = _repack(ys[0], packed)",
         tests=[PACKED] + OLD,
         why="a packed input to a stack of two or more layers gets the first layer's output back packed"),
    dict(name="v334-fake-hidden-from-batch-axis", file=TORCH,
         old="    H = state[0].shape[1]\n    res = []",
         new="    H = state[0].shape[0]\n    res = []",
         tests=[FAKE] + OLD,
         why="the op's fake reads H off the state's batch axis: torch.compile and opcheck see y (T, B, B)"),
    dict(name="v334-fake-residuals-input-and-hidden-swapped", file=TORCH,
         old="functional.residual_layout(cell, T, B, I, H,",
         new="functional.residual_layout(cell, T, B, H, I,",
         tests=[FAKE] + OLD,
         why="the fake's residuals are laid out with I and H swapped: their shapes are not the real op's "
             "when I != H"),
    dict(name="v334-fake-one-final-state", file=TORCH,
         old="[s.new_empty(s.shape) for s in state], res,",
         new="[s.new_empty(s.shape) for s in state[:1]], res,",
         tests=[FAKE] + OLD,
         why="the fake gives an LSTM layer one final state (h_n) where the real op gives h_n and c_n"),
    dict(name="v334-bias-hh-without-gradient", file=TORCH,
         old="dtype=dtype,\n                                                                            device=device)))",
         new="dtype=dtype,\n                                                                            "
             "device=device), requires_grad=False))",
         tests=[STACK, CELL] + OLD,
         why="PyTorch's second bias bias_hh is registered frozen: it takes no gradient (nn.LSTM's does) and "
             "an optimizer never moves it"),
    dict(name="v334-layer-width-from-input-size", file=TORCH,
         old="        H = self.hidden_size\n        for k in range(self.num_layers):",
         new="        H = self.input_size\n        for k in range(self.num_layers):",
         tests=[STACK] + OLD,
         why="every layer is built I wide instead of H: nn.LSTM's state_dict no longer loads when I != H"),
    dict(name="v334-load-resizes-parameters-not-buffers", file=TORCH,
         old="for name, buf in self._buffers.items():",
         new="for name, buf in self._parameters.items():",
         tests=[BN] + OLD,
         why="a state_dict load resizes the parameters' entries instead of the BN buffers: statistics of "
             "more steps than the fresh module's one row are refused with a size mismatch"),
    dict(name="v334-cn-refusal-names-h-n", file=TORCH,
         old="for the final cell state c_n: use the ",
         new="for the final cell state h_n: use the ",
         tests=[CN] + OLD,
         why="the refusal of a gradient of c_n names h_n as the final cell state"),
    dict(name="v334-run-tensors-loaded-not-strictly", file=TORCH,
         old="wrong = sorted(set(given) ^ set(wanted))",
         new="wrong = sorted(set(given) - set(wanted))",
         tests=[LOAD] + OLD,
         why="the fit check sees unexpected tensors only: a missing key reaches load_state_dict, whose strict "
             "load raises torch's multi-line RuntimeError instead of the one line naming the key"),
]
