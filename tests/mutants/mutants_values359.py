"""Planted bugs, round 359 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the PyTorch binding (lnrnn/interop/torch.py; lnrnn/torch.py only re-exports it), nineteenth pass: the layer op
returning the BN buffers it was passed instead of the updated ones (running statistics never move); the c_n
guard's backward taking every gradient silently, and its forward refusing every non-zero h_n; y and dy swapped on
their way into the hand-written backward; the dtype check skipping the first tensor (a float16 input reported as a
mix of dtypes); the device check comparing torch.device objects with device-type names (every call refused); a
stack's cell named by its kind ('lstm') instead of its registry name ('ln-lstm': an LN stack runs the plain cell);
_reverse_valid's row index put on the time axis; a cell's input and hidden sizes swapped; a cell's norm check
written as ('ln', None) (norm='bn' refused with the generic sentence, 'none' refused); _from_tensors moving the
stack only when no device is given, building an RNN for an LSTM config, and skipping the head when there is one;
an RNN cell's h, given as one tensor, split into its rows.

14 mutants. Against the old targeted files alone (each mutant's v359 file taken off its list): 13 of 14 caught
(the last four in a second run); missed: _from_tensors moving the stack and head only when no device is given. The old targeted files are test_torch,
test_torch_bidirectional, test_values309_torch and test_values334_torch (the stack), test_torch_cell and
test_values49_torch_cell (the cells), test_values290_torch (the loaders, c_n refusals and opcheck). The new value
tests catch every mutant on their own (checked with the old files taken off the lists): test_values359_torch
(reference.lstm_forward(norm='ln') for an LN-LSTM stack's out, h_n and c_n with every gain and bias drawn;
reference.bn_rnn_forward for a BN-RNN training call's out and running statistics, step 0's by the momentum formula
written out; reference.bn_lstm_forward for a BN-LSTM run with gradients on, and the c_n refusal word for word;
torch.nn.LSTM / nn.RNN / nn.LSTMCell / nn.RNNCell with their own weights loaded strictly, float64, for the values
and every gradient of a plain stack with hx, of a bidirectional stack over packed lengths 3, 1, 2 with T = B = 3,
and of cells with I 2 != H 5; the float16, meta-device and cell norm='bn' refusals word for word; _from_tensors for
an LSTM config with and without a head, and the device it moves to). Left out as equivalent: _span's loop without
reversed() (for a C-contiguous array either order sums the strides to n0 * n1 - 1 items: the same span),
_Host.tensor with torch.as_tensor for torch.from_numpy (both share the array's memory), set_materialize_grads(True)
(the backward already reads a None seed as zeros and never reads the residuals' gradients), the dtype check's w read
off weight_hh_l0 (the same dtype as weight_ih_l0), "head.weight" tested as "head.bias" (an export writes both),
self.directions read off the argument instead of the attribute (bool() of the same value), and the guard backward
returning grad instead of zeros_like(grad) (it returns only when grad is all zeros). Left out as needing a CUDA
device: _Cuda's conversions and stream handling, and _convert's choice between them.

    python tests/mutants/run.py --only 'v359-*'
"""
TORCH = "lnrnn/interop/torch.py"

T_NEW = "tests/interop/test_values359_torch.py::"
OLD_STACK = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_values309_torch.py", "tests/interop/test_values334_torch.py"]
OLD_CELL = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py"]
OLD_LOAD = ["tests/interop/test_torch.py", "tests/interop/test_values290_torch.py"]

LN = T_NEW + "test_an_ln_lstm_stack_with_h0_c0_is_the_reference_ln_lstm"
BN_RNN = T_NEW + "test_a_bn_rnn_training_call_updates_the_running_statistics_as_the_reference"
BN_LSTM = T_NEW + "test_a_bn_lstm_runs_with_gradients_as_the_reference_and_refuses_a_c_n_gradient_word_for_word"
PLAIN = T_NEW + "test_a_plain_stack_with_hx_gives_nn_modules_values_and_every_gradient"
BI = T_NEW + "test_a_bidirectional_lstm_over_packed_lengths_with_as_many_steps_as_rows_is_nn_lstms"
CELLS = T_NEW + "test_cells_with_fewer_inputs_than_units_and_hx_given_are_nn_cells"
F16 = T_NEW + "test_a_float16_input_is_refused_naming_it_and_the_dtypes_the_kernels_run"
META = T_NEW + "test_an_input_on_the_meta_device_is_refused_listing_every_tensors_device"
CELL_NORM = T_NEW + "test_a_cells_norms_bn_refused_with_its_reason_none_taken_and_others_refused"
HEAD = T_NEW + "test_an_lstm_config_with_a_head_gives_nn_lstm_and_the_heads_linear_map"
DEVICE = T_NEW + "test_a_device_given_moves_the_stack_and_the_head_and_none_leaves_them_on_the_cpu"

MUTANTS = [
    # ---- the layer op and its autograd formula ----
    dict(name="v359-torch-op-returns-old-buffers", file=TORCH,
         old="            new_buffers)",
         new="            buffers)",
         tests=[BN_RNN] + OLD_STACK,
         why="the op hands back the buffers it was passed: a BN training call never moves the running statistics"),
    dict(name="v359-torch-guard-backward-takes-every-gradient", file=TORCH,
         old='_cell_state_guard_backward = _op("cell_state_guard_backward", _refuse_nonzero,',
         new='_cell_state_guard_backward = _op("cell_state_guard_backward", _zeros_like,',
         tests=[BN_LSTM] + OLD_STACK,
         why="a non-zero dL/dc_n of a BN-LSTM is silently dropped instead of refused"),
    dict(name="v359-torch-guard-forward-refuses", file=TORCH,
         old='_cell_state_guard = _op("cell_state_guard", _zeros_like,',
         new='_cell_state_guard = _op("cell_state_guard", _refuse_nonzero,',
         tests=[BN_LSTM] + OLD_STACK,
         why="the guard's forward is the refusal: a BN-LSTM with gradients on raises on every non-zero h_n"),
    dict(name="v359-torch-backward-y-dy-swapped", file=TORCH,
         old="    ins = [conv.array(t) for t in (*res, x, *state, *params, y, dy, *dfinal)]",
         new="    ins = [conv.array(t) for t in (*res, x, *state, *params, dy, y, *dfinal)]",
         tests=[PLAIN] + OLD_STACK,
         why="the hand-written backward reads the outputs as their gradients and back: every gradient wrong"),
    # ---- argument checks ----
    dict(name="v359-torch-dtype-check-skips-first", file=TORCH,
         old="    for n, t in named:",
         new="    for n, t in named[1:]:",
         tests=[F16] + OLD_STACK,
         why="a float16 input is reported as a mix of dtypes, not as a dtype the kernels cannot run"),
    dict(name="v359-torch-device-check-compares-devices", file=TORCH,
         old="not {d.type for d in devices} <= {\"cpu\", \"cuda\"}:",
         new="not devices <= {\"cpu\", \"cuda\"}:",
         tests=[META, PLAIN] + OLD_STACK,
         why="torch.device objects are never among the names 'cpu' and 'cuda': every call is refused"),
    # ---- the stack ----
    dict(name="v359-torch-cell-name-is-kind", file=TORCH,
         old="        \"\"\"The registry name of the cell: 'ln-lstm', 'rnn', ...\"\"\"\n        return self.spec.name",
         new="        \"\"\"The registry name of the cell: 'ln-lstm', 'rnn', ...\"\"\"\n        return self.spec.cell",
         tests=[LN] + OLD_STACK,
         why="an LN or BN stack names its cell by its kind: the op runs the plain LSTM on the first three params"),
    dict(name="v359-torch-reverse-valid-rows-on-time-axis", file=TORCH,
         old="    return a[idx, torch.arange(B, device=a.device)[None, :]]",
         new="    return a[idx, torch.arange(B, device=a.device)[:, None]]",
         tests=[BI] + OLD_STACK,
         why="the backward direction over ragged rows reads row t at step idx[t, b]: wrong values when T = B"),
    # ---- the cells ----
    dict(name="v359-torch-cell-sizes-swapped", file=TORCH,
         old="        what, I, H = type(self).__name__, self.input_size, self.hidden_size",
         new="        what, I, H = type(self).__name__, self.hidden_size, self.input_size",
         tests=[CELLS] + OLD_CELL,
         why="a cell with I != H refuses its own input (and its states) as the wrong size"),
    dict(name="v359-torch-cell-norm-check-literal", file=TORCH,
         old="        if norm not in _NORMS:\n"
             "            raise ValueError(f\"{what}: norm must be 'ln' or None, not {norm!r}.\")",
         new="        if norm not in ('ln', None):\n"
             "            raise ValueError(f\"{what}: norm must be 'ln' or None, not {norm!r}.\")",
         tests=[CELL_NORM] + OLD_CELL,
         why="a cell's norm='bn' gets the generic sentence instead of its reason, and norm='none' is refused"),
    dict(name="v359-torch-cell-h-tensor-split-into-rows", file=TORCH,
         old="            hx = (hx,) if isinstance(hx, Tensor) else tuple(hx)",
         new="            hx = tuple(hx)",
         tests=[CELLS] + OLD_CELL,
         why="an RNN cell's h given as one tensor is split into its B rows and refused (taken when B = 1)"),
    # ---- trained weights ----
    dict(name="v359-torch-from-tensors-device-inverted", file=TORCH,
         old="    if device is not None:",
         new="    if device is None:",
         tests=[DEVICE] + OLD_LOAD,
         why="load_exported / from_run with a device leave the stack and head on the CPU"),
    dict(name="v359-torch-from-tensors-class-inverted", file=TORCH,
         old='    cls = LSTM if config["cell"] == "lstm" else RNN',
         new='    cls = LSTM if config["cell"] != "lstm" else RNN',
         tests=[HEAD] + OLD_LOAD,
         why="an LSTM run is built as an RNN (its strict load then fails), an RNN run as an LSTM"),
    dict(name="v359-torch-from-tensors-head-inverted", file=TORCH,
         old='    if "head.weight" in tensors:',
         new='    if "head.weight" not in tensors:',
         tests=[HEAD] + OLD_LOAD,
         why="a run with a head comes back with head None (and one without fails on a missing key)"),
]
