"""Planted bugs, round 309 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the PyTorch binding (lnrnn/interop/torch.py), fourth pass: float16 admitted to DTYPES; the layer
op's BN buffers not cloned (the op updates the buffers it was passed); the kernels handed the input buffers
(the module's running statistics never change: the copy_ puts the old values back); the buffers passed to
functional.layer_forward as the tensors instead of their arrays; keep passed as the training flag (no
residuals in evaluation: every gradient there refused); the initial values drawn in float64 whatever the dtype;
the stack's dtype refusal naming LSTM for an RNN; a tensor hx split along its layers (tuple(hx)); evaluation
growing the BN statistics to the sequence's length; an unbatched input to a batch_first stack transposed to (1, T, H) and its states left
(L, 1, H); the cell's and the stack's None checks written as truthiness (a tensor h or lengths tensor refused
by torch's ambiguous-boolean error).

12 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values309_torch (torch.nn.LSTM / nn.RNN /
nn.LSTMCell / nn.RNNCell with their own weights loaded strictly, float64: out, final states and the gradients
of x, the states and every parameter in evaluation with dropout, over a PackedSequence of lengths 1 and T
against lnrnn's lengths tensor with h0 given, batch_first on and off, an unbatched input to a batch_first stack,
an unbatched LSTMCell step without hx and an RNNCell step with h; a float32 module's tensors all float32 and its
values nn.LSTM's in float32; reference.bn_rnn_forward for the BN-RNN's outputs and running statistics after one
and two training calls, step 0's written out by the momentum formula, for the layer op's returned statistics
with its input buffers unchanged, and for evaluation past two stored rows with the buffers kept at two rows;
torch.autograd.gradcheck of an LN-LSTM in evaluation and a BN-LSTM in training over lengths 1 and T; the
float16 refusals word for word). Left out as equivalent: x.contiguous() before the layers dropped (the host
converter makes each array contiguous itself); set_materialize_grads(True) (the backward turns None seeds into
zeros either way and ignores the residuals' gradients); _grow_buffers without torch.no_grad (the buffers take no
gradient); LSTMCell's batch size read off the unbatched input (B = input.shape[0]: a zero state of I rows,
of which the kernels read only the first, x's one row; tried and missed, the step's values are nn.LSTMCell's);
check_tensors given weight_hh_l0 for weight_ih_l0 (same dtype and device). Left out as needing a
CUDA device: the lengths tensor built on x's device instead of the CPU (the same tensor on the CPU).

    python tests/mutants/run.py --only 'v309-*'
"""
TORCH = "lnrnn/interop/torch.py"

T_NEW = "tests/interop/test_values309_torch.py::"
OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_cell.py", "tests/interop/test_values290_torch.py",
       "tests/interop/test_values224_torch.py", "tests/interop/test_values212_torch.py",
       "tests/interop/test_values121_torch.py"]

REFUSE = T_NEW + "test_float16_is_refused_word_for_word_for_a_module_and_for_an_input"
EVAL = T_NEW + "test_evaluation_mode_with_dropout_gives_nn_lstms_values_and_every_gradient"
F32 = T_NEW + "test_a_float32_module_holds_float32_tensors_and_is_nn_lstm_in_float32"
LENGTHS = T_NEW + "test_lengths_1_and_t_with_h0_against_nn_modules_over_a_packed_sequence"
UNBATCHED = T_NEW + "test_an_unbatched_input_to_a_batch_first_stack_is_nn_lstms"
RNNCELL = T_NEW + "test_an_rnn_cell_step_with_h_given_is_nn_rnncells"
STATS = T_NEW + "test_bn_rnn_running_statistics_after_one_and_two_training_calls_follow_the_momentum_formula"
OP = T_NEW + "test_the_layer_op_returns_updated_statistics_and_leaves_its_buffers_as_passed"
BN_EVAL = T_NEW + "test_bn_evaluation_past_the_stored_rows_reads_the_last_row_and_keeps_the_buffers"
GC_LN = T_NEW + "test_gradcheck_of_an_ln_lstm_in_evaluation_over_lengths_1_and_t"

MUTANTS = [
    dict(name="v309-dtypes-admit-float16", file=TORCH,
         old="DTYPES = (torch.float32, torch.float64)",
         new="DTYPES = (torch.float32, torch.float64, torch.float16)",
         tests=[REFUSE] + OLD,
         why="float16 passes the dtype checks: a float16 module fails on a KeyError and a float16 x against a "
             "float64 module is refused as a mix of dtypes, not with the float16 sentence"),
    dict(name="v309-op-buffers-not-cloned", file=TORCH,
         old="new_buffers = [b.clone() for b in buffers] if training else []",
         new="new_buffers = list(buffers) if training else []",
         tests=[OP] + OLD,
         why="the layer op (declared as mutating nothing) updates the BN buffers it was passed in place"),
    dict(name="v309-op-kernels-update-the-inputs", file=TORCH,
         old="bufs = [arr(b) for b in (new_buffers if training else buffers)]",
         new="bufs = [arr(b) for b in buffers]",
         tests=[OP, STATS] + OLD,
         why="the kernels update the input buffers and the op returns clones of the old statistics: the module "
             "copies the old values back, its running statistics never change"),
    dict(name="v309-op-buffers-passed-as-tensors", file=TORCH,
         old="buffers=dict(zip(spec.buffer_names, bufs)),",
         new="buffers=dict(zip(spec.buffer_names, buffers)),",
         tests=[OP, STATS] + OLD,
         why="the kernels get the buffers passed in, not the clones the op returns: the statistics are not updated"),
    dict(name="v309-op-keep-follows-training", file=TORCH,
         old="device=conv.device, keep=keep)",
         new="device=conv.device, keep=training)",
         tests=[EVAL, GC_LN] + OLD,
         why="keep takes the training flag: a module in eval() keeps no residuals and every gradient is refused"),
    dict(name="v309-init-float64-arrays", file=TORCH,
         old="np_dtype = _numpy_dtype(dtype)",
         new="np_dtype = _numpy_dtype(torch.float64)",
         tests=[F32] + OLD,
         why="a float32 module's weights and BN buffers are created float64 (bias_hh float32): its forward "
             "refuses a float32 x as mixed dtypes"),
    dict(name="v309-dtype-refusal-names-lstm", file=TORCH,
         old="raise TypeError(f\"{what}: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 \"\n"
             "                            f\"or torch.float64, not {dtype}.\")\n"
             "        self.spec = cells.lookup(self._kind, _NORMS[norm])\n"
             "        self.input_size, self.hidden_size, self.num_layers",
         new="raise TypeError(f\"LSTM: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 \"\n"
             "                            f\"or torch.float64, not {dtype}.\")\n"
             "        self.spec = cells.lookup(self._kind, _NORMS[norm])\n"
             "        self.input_size, self.hidden_size, self.num_layers",
         tests=[REFUSE] + OLD,
         why="an RNN built with dtype=torch.float16 is refused as 'LSTM: ...'"),
    dict(name="v309-states-tensor-hx-split", file=TORCH,
         old="        hx = (hx,) if isinstance(hx, Tensor) else tuple(hx)\n        if len(hx) != n:",
         new="        hx = tuple(hx)\n        if len(hx) != n:",
         tests=[LENGTHS] + OLD,
         why="an RNN's h0 tensor (L, B, H) is split along its layers: refused as the wrong count or shape"),
    dict(name="v309-eval-grows-buffers", file=TORCH,
         old="        if bn_training:\n            self._grow_buffers(k, T, d)",
         new="        if self.spec.norm == \"bn\":\n            self._grow_buffers(k, T, d)",
         tests=[BN_EVAL] + OLD,
         why="evaluation on a sequence longer than the stored statistics grows the buffers (the state_dict changes "
             "shape in eval)"),
    dict(name="v309-unbatched-batch-first-transposed", file=TORCH,
         old="        elif unbatched:",
         new="        elif unbatched and not self.batch_first:",
         tests=[UNBATCHED] + OLD,
         why="an unbatched (T, I) input to a batch_first stack comes back as (1, T, H), its states (L, 1, H)"),
    dict(name="v309-cell-hx-truthiness", file=TORCH,
         old="        if hx is None:\n            state = [x.new_zeros((B, H)) for _ in range(n)]",
         new="        if not hx:\n            state = [x.new_zeros((B, H)) for _ in range(n)]",
         tests=[RNNCELL] + OLD,
         why="an RNNCell given h as a tensor fails on torch's ambiguous boolean of a tensor"),
    dict(name="v309-lengths-truthiness", file=TORCH,
         old="        if lengths is not None:\n            lengths = torch.as_tensor(lengths, device=\"cpu\")",
         new="        if lengths:\n            lengths = torch.as_tensor(lengths, device=\"cpu\")",
         tests=[LENGTHS] + OLD,
         why="lengths given as a tensor of several rows fail on torch's ambiguous boolean of a tensor"),
]
