"""Planted bugs, round 273 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the PyTorch binding (lnrnn/interop/torch.py), the JAX binding (lnrnn/interop/jax.py) and the
safetensors export (lnrnn/interop/export.py), thirteenth pass: a one-step cell's zero states of I entries instead
of H; an unbatched cell's squeeze inverted (B = 1 loses its batch axis, an unbatched input keeps one); a stack's
return inverted (the LSTM hands back h_n alone, the RNN a 1-tuple); a BN stack's statistics registered under a
doubled underscore; bias=False taken silently by the cells; the pytree's bias_hh placed after weight_hh instead of
after bias_ih; the dtype refusal naming the dtype object passed instead of its name; BatchNorm inference run with
batch statistics; a bidirectional stack's statistics looked up without its direction count; the layers of a
bidirectional pytree read for the forward directions only; remat's rerun of the forward inverted; the header
length read big-endian; an entry's offsets read under a wrong key; the dtype codes of a refusal listed unsorted.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values273_torch (nn.LSTMCell / nn.RNNCell
loaded strictly, from zero states with I = 3 != H = 5, at B = 2, B = 1 and unbatched; nn.RNN / nn.LSTM at two
bidirectional layers for the type and values of what a stack hands back; a two-layer bidirectional BN-LSTM's
state_dict names and shapes written out from the module docstring; the refusal of bias=False word for word),
test_values273_jax (init's key order against nn.LSTM(bidirectional=True).state_dict() and written out for LN; a
bidirectional BN-LSTM in inference with 2 statistic rows for 3 steps against lnrnn.reference.bn_lstm_forward on x
and x reversed, nothing updated; a ragged bidirectional LN-RNN's remat gradient along a random direction against
the central difference in float64; the dtype refusals of float16 and int32 word for word), test_values273_export
(a file assembled byte by byte from the documented layout read back to its values; a BF16 entry refused listing
F16, F32, F64, I32, I64, U8 word for word). Left out as equivalent: _layer_params's layer count started at 1
instead of 0 (weight_ih_l0 is checked present just above, so the count reaches the same L); the stack's return
taking final[-1] for final[0] (an RNN has one state); load_exported's class chosen by cell != 'rnn' (the config's
cell is 'lstm' or 'rnn'); apply's mutable stats as new_stats whatever the cell (a cell without BatchNorm has no
statistic names, so new_stats is {}); the ValueError's dtype named {dt} for {dt.name} (a NumPy dtype prints its
name); the x.contiguous() before the layers dropped (every array handed to the kernels is made contiguous on the
way). Left out as not cheap: the CUDA stream handling (no GPU in the targeted runs).

    python tests/mutants/run.py --only 'v273-*'
"""
TORCH = "lnrnn/interop/torch.py"
JAX = "lnrnn/interop/jax.py"
EXPORT = "lnrnn/interop/export.py"

T_TORCH = "tests/interop/test_values273_torch.py::"
T_JAX = "tests/interop/test_values273_jax.py::"
T_EXPORT = "tests/interop/test_values273_export.py::"
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_torch_cell.py",
             "tests/interop/test_values255_torch.py"]
OLD_JAX = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_values225_jax.py"]
OLD_EXPORT = ["tests/interop/test_values_export.py", "tests/interop/test_values267_export.py"]

CELL_ZERO = T_TORCH + "test_a_cell_from_zero_states_with_i_not_h_is_the_nn_cell"
BN_INFER = T_JAX + "test_bidirectional_batchnorm_inference_reads_each_directions_statistics_as_the_spec"

MUTANTS = [
    # ---- the PyTorch binding: lnrnn/interop/torch.py ----
    dict(name="v273-torch-cell-zero-states-of-input-width", file=TORCH,
         old="            state = [x.new_zeros((B, H)) for _ in range(n)]",
         new="            state = [x.new_zeros((B, I)) for _ in range(n)]",
         tests=[CELL_ZERO + "[shape0-lstm]", CELL_ZERO + "[shape0-rnn]"] + OLD_TORCH,
         why="a cell called with hx=None starts from zero states of I entries per row, not H"),
    dict(name="v273-torch-cell-unbatched-squeeze-inverted", file=TORCH,
         old="        if unbatched:\n            final = [f.squeeze(0) for f in final]",
         new="        if not unbatched:\n            final = [f.squeeze(0) for f in final]",
         tests=[CELL_ZERO + "[shape1-lstm]", CELL_ZERO + "[shape2-rnn]"] + OLD_TORCH,
         why="a batch of one loses its batch axis ((H,) for (1, H)) and an unbatched input keeps one ((1, H))"),
    dict(name="v273-torch-stack-return-inverted", file=TORCH,
         old="        return out, (final if self.spec.nstate == 2 else final[0])",
         new="        return out, (final if self.spec.nstate == 1 else final[0])",
         tests=[T_TORCH + "test_a_stack_hands_back_h_n_alone_for_the_rnn_and_h_n_c_n_for_the_lstm[lstm]",
                T_TORCH + "test_a_stack_hands_back_h_n_alone_for_the_rnn_and_h_n_c_n_for_the_lstm[rnn]"] + OLD_TORCH,
         why="the LSTM hands back h_n alone instead of (h_n, c_n), the RNN a 1-tuple instead of h_n"),
    dict(name="v273-torch-bn-buffer-name-doubled-underscore", file=TORCH,
         old='        m.register_buffer(f"{PARAM_NAMES[name][0]}{sfx}", torch.from_numpy(v).to(device=device))',
         new='        m.register_buffer(f"{PARAM_NAMES[name][0]}_{sfx}", torch.from_numpy(v).to(device=device))',
         tests=[T_TORCH + "test_a_two_layer_bidirectional_bn_lstms_state_dict_layout"] + OLD_TORCH,
         why="BN statistics registered as norm_ih_running_mean__l0: the state_dict's names are not export's"),
    dict(name="v273-torch-cell-bias-false-taken", file=TORCH,
         old='        input_size, hidden_size = check_sizes(what, input_size=input_size, hidden_size=hidden_size).values()\n'
             '        if not bias:',
         new='        input_size, hidden_size = check_sizes(what, input_size=input_size, hidden_size=hidden_size).values()\n'
             '        if bias is None:',
         tests=[T_TORCH + "test_a_cell_without_bias_is_refused_word_for_word[LSTMCell-LSTMCell]",
                T_TORCH + "test_a_cell_without_bias_is_refused_word_for_word[RNNCell-RNNCell]"] + OLD_TORCH,
         why="LSTMCell/RNNCell(bias=False) is built with a bias instead of refused"),
    # ---- the JAX binding: lnrnn/interop/jax.py ----
    dict(name="v273-jax-bias-hh-after-weight-hh", file=JAX,
         old='    return out[:3] + [(None, f"bias_hh_{sfx}", False)] + out[3:]',
         new='    return out[:2] + [(None, f"bias_hh_{sfx}", False)] + out[2:]',
         tests=[T_JAX + "test_inits_pytree_keys_run_in_nn_lstms_state_dict_order[None-extras0]",
                T_JAX + "test_inits_pytree_keys_run_in_nn_lstms_state_dict_order[ln-extras1]"] + OLD_JAX,
         why="the pytree's keys run weight_ih, weight_hh, bias_hh, bias_ih: not nn.LSTM's state_dict order"),
    dict(name="v273-jax-dtype-refusal-names-the-object", file=JAX,
         old='raise TypeError(f"lnrnn.jax runs float32 or float64 only, got {dt.name}: cast x,',
         new='raise TypeError(f"lnrnn.jax runs float32 or float64 only, got {dtype}: cast x,',
         tests=[T_JAX + "test_float16_and_int32_are_refused_by_their_names"] + OLD_JAX,
         why="the dtype refusal prints the type object passed (<class 'jax.numpy.float16'>), not float16"),
    dict(name="v273-jax-inference-with-batch-statistics", file=JAX,
         old="    y, final, res = F.layer_forward(cfg.cell, x, state, p, lengths=lengths, training=cfg.training,",
         new="    y, final, res = F.layer_forward(cfg.cell, x, state, p, lengths=lengths, training=True,",
         tests=[BN_INFER] + OLD_JAX,
         why="training=False is not passed to the kernels: BatchNorm inference normalizes with the batch's "
             "statistics instead of the population rows"),
    dict(name="v273-jax-stat-names-without-directions", file=JAX,
         old="        for n, name, w in _stat_names(spec, j, D):\n            if name not in stats:",
         new="        for n, name, w in _stat_names(spec, j):\n            if name not in stats:",
         tests=[BN_INFER] + OLD_JAX,
         why="a bidirectional stack's statistics looked up as l1, l2, ... instead of l0_reverse"),
    dict(name="v273-jax-layers-read-for-forward-directions-only", file=JAX,
         old="    for j in range(L * D):\n        Ik = I if j < D else D * H",
         new="    for j in range(L):\n        Ik = I if j < D else D * H",
         tests=[BN_INFER] + OLD_JAX,
         why="a bidirectional pytree's layer runs read for L of the L*D directions: the backward ones are lost"),
    dict(name="v273-jax-remat-rerun-inverted", file=JAX,
         old="    if cfg.remat:  # the forward again, keeping its residuals",
         new="    if not cfg.remat:  # the forward again, keeping its residuals",
         tests=[T_JAX + "test_remat_of_a_ragged_bidirectional_ln_rnn_gives_the_central_difference"] + OLD_JAX,
         why="remat=True's backward receives no residuals and does not rerun the forward"),
    # ---- the safetensors file: lnrnn/interop/export.py ----
    dict(name="v273-export-header-length-big-endian", file=EXPORT,
         old='    (n,) = struct.unpack("<Q", raw[:8])',
         new='    (n,) = struct.unpack(">Q", raw[:8])',
         tests=[T_EXPORT + "test_a_file_built_from_the_documented_layout_reads_back_its_values"] + OLD_EXPORT,
         why="the header length is read big-endian: a file in the documented layout is refused"),
    dict(name="v273-export-offsets-read-under-a-wrong-key", file=EXPORT,
         old='    shape, offsets = info.get("shape"), info.get("data_offsets")',
         new='    shape, offsets = info.get("shape"), info.get("offsets")',
         tests=[T_EXPORT + "test_a_file_built_from_the_documented_layout_reads_back_its_values"] + OLD_EXPORT,
         why="an entry's offsets are read under 'offsets': every documented entry is refused"),
    dict(name="v273-export-dtype-codes-unsorted", file=EXPORT,
         old="""                         f"{', '.join(sorted(NUMPY_DTYPES))}")""",
         new="""                         f"{', '.join(NUMPY_DTYPES)}")""",
         tests=[T_EXPORT + "test_a_dtype_lnrnn_does_not_read_is_refused_listing_the_codes_in_order"] + OLD_EXPORT,
         why="the refusal of a dtype lists the codes lnrnn reads in the table's order, not sorted"),
]
