"""Planted bugs, round 314 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the JAX binding (lnrnn/interop/jax.py), fifth pass on it: the params check refusing only a non-dict
missing weight_ih_l0 (a dict without it is met by the 0-layer mismatch sentence); the layer count read off
weight_hh_l{k} (a stray weight_hh_l1 makes a 2-layer stack); a state's count refused naming (h0, c0) for the
RNN and h0 for the LSTM; 'got 0 array' without its plural; the state arrays' names swapped in the shape
check; the state checked against (L, H, B); the layout named (num_layers * 2, B, H) for a one-direction stack;
the state's dtype checked against the supported ones instead of x's; zero initial states built in JAX's
default dtype (float64 under x64) for a float32 x; batch_first turning x with transpose (every axis reversed)
instead of swapping time and batch; BatchNorm statistics handed to the kernels ungrown (the stored rows, not
the T grown ones); the final state returned as the layer's initial state; vmap's per-example BatchNorm
forward and the folded LN forward both dropping lengths.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values314_jax (an LN and a plain LSTM and a
plain RNN with the state given away from zero over rows of lengths 5, 1, 3, 5 at T 5, B 4, I 2, H 3 against
reference.lstm_forward / rnn_forward run row by row over each row's own steps, and check_grads of the RNN;
a float32 LN-LSTM without a state against the reference from zeros, its outputs float32; batch_first against
the time-major reference swapped; a BN-RNN's statistics grown from one row to T and updated by
reference.bn_rnn_forward's momentum formula after one call of full rows and a second of lengths 5, 1, 3, 5,
then read in inference, and the first update written out by hand (m * mean, (1 - m) + m * var * B / (B - 1));
vmap over examples of a BN-RNN and of an LN-LSTM with lengths against the reference per example; the
refusals of params, of the state's count (1 array, 0, 2 and 3 arrays), shapes and dtype word for word).
Left out as equivalent: _read_only's views made writeable (the kernels only read them); _layer's forward
without a gradient keeping its residuals (dropped unread); the backward's residual layout read with B for H
(only the layout's dtypes are used); _wire and _to_wire / _from_wire slips that act only with 64-bit types off
(every test process runs with jax_enable_x64, and the float64 refusal without it is mutated before);
_x64_everywhere's fallback for another JAX (not reached with this JAX); _batch_axes given (H, I) for (I, H) (the
batch axis is found at the same index either way); _backward_one's dt read off y (the same dtype as x).
Left out as a crash everywhere rather than a value: _lead's nl = x.ndim - 2, _per_example's outs test
inverted, _forward_call's residual list made when not keeping (every call fails its result shapes).

    python tests/mutants/run.py --only 'v314-*'
"""
JAX = "lnrnn/interop/jax.py"

T_JAX = "tests/interop/test_values314_jax.py::"
OLD_JAX = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_jax_refusals_as_passed.py", "tests/interop/test_values86_jax.py",
           "tests/interop/test_values298_jax.py"]

MUTANTS = [
    dict(name="v314-jax-params-check-and", file=JAX,
         old='    if not isinstance(params, dict) or "weight_ih_l0" not in params:',
         new='    if not isinstance(params, dict) and "weight_ih_l0" not in params:',
         tests=[T_JAX + "test_params_without_weight_ih_l0_refused"] + OLD_JAX,
         why="a dict without weight_ih_l0 is not refused as such: it meets the 0-layer mismatch sentence"),
    dict(name="v314-jax-layer-count-reads-weight-hh", file=JAX,
         old='    while f"weight_ih_l{L}" in params:',
         new='    while f"weight_hh_l{L}" in params:',
         tests=[T_JAX + "test_a_stray_second_layer_recurrent_weight_named_against_one_layer"] + OLD_JAX,
         why="the layers are counted by weight_hh: a stray weight_hh_l1 makes a 2-layer stack missing the rest"),
    dict(name="v314-jax-state-what-swapped", file=JAX,
         old='    what = "(h0, c0)" if spec.nstate == 2 else "h0"',
         new='    what = "(h0, c0)" if spec.nstate == 1 else "h0"',
         tests=[T_JAX + "test_state_counts_refused_with_singular_and_plural"] + OLD_JAX,
         why="a wrong state count is refused naming (h0, c0) for the RNN and h0 for the LSTM"),
    dict(name="v314-jax-state-count-plural", file=JAX,
         old="""got {len(parts)} array{'s' * (len(parts) != 1)}.")""",
         new="""got {len(parts)} array{'s' * (len(parts) > 1)}.")""",
         tests=[T_JAX + "test_state_counts_refused_with_singular_and_plural"] + OLD_JAX,
         why="an empty state tuple is refused as 'got 0 array'"),
    dict(name="v314-jax-state-names-swapped", file=JAX,
         old='    for n, s in zip(("h0", "c0"), parts):',
         new='    for n, s in zip(("c0", "h0"), parts):',
         tests=[T_JAX + "test_state_shapes_refused_naming_the_array_and_the_layout"] + OLD_JAX,
         why="a wrong h0 is refused as c0 and a wrong c0 as h0"),
    dict(name="v314-jax-state-shape-h-b", file=JAX,
         old="        if tuple(s.shape) != (L, B, H):",
         new="        if tuple(s.shape) != (L, H, B):",
         tests=[T_JAX + "test_lstm_with_state_given_final_states_at_each_rows_own_last_step"] + OLD_JAX,
         why="the state is checked as (L, H, B): every correct state with B != H is refused"),
    dict(name="v314-jax-state-dims-message-direction", file=JAX,
         old='            dims = "num_layers * 2, B, H" if D == 2 else "num_layers, B, H"',
         new='            dims = "num_layers * 2, B, H" if D == 1 else "num_layers, B, H"',
         tests=[T_JAX + "test_state_shapes_refused_naming_the_array_and_the_layout"] + OLD_JAX,
         why="a one-direction stack's state refusal names (num_layers * 2, B, H), a bidirectional one's not"),
    dict(name="v314-jax-state-dtype-checked-against-supported", file=JAX,
         old="        if s.dtype != dt:",
         new="        if s.dtype not in DTYPES:",
         tests=[T_JAX + "test_state_of_another_dtype_refused"] + OLD_JAX,
         why="a float32 state with float64 x is not refused (only unsupported dtypes are)"),
    dict(name="v314-jax-zero-state-default-dtype", file=JAX,
         old="        return [tuple(jnp.zeros((B, H), dt) for _ in range(spec.nstate)) for _ in range(L)]",
         new="        return [tuple(jnp.zeros((B, H)) for _ in range(spec.nstate)) for _ in range(L)]",
         tests=[T_JAX + "test_float32_lstm_without_state_starts_from_float32_zeros"] + OLD_JAX,
         why="without a state, float32 x starts from zeros of JAX's default dtype (float64 under x64)"),
    dict(name="v314-jax-batch-first-transpose", file=JAX,
         old="        x = jnp.swapaxes(x, 0, 1)\n    T, B, I = x.shape",
         new="        x = jnp.transpose(x)\n    T, B, I = x.shape",
         tests=[T_JAX + "test_batch_first_swaps_only_time_and_batch"] + OLD_JAX,
         why="batch_first reverses every axis of x: (B, T, I) read as (I, T, B)"),
    dict(name="v314-jax-stats-ungrown", file=JAX,
         old="            bufs[n] = v\n",
         new="            bufs[n] = stats[name]\n",
         tests=[T_JAX + "test_bn_rnn_statistics_after_one_and_two_training_calls_then_inference"] + OLD_JAX,
         why="training hands the stored statistics to the kernels, not the ones grown to T rows"),
    dict(name="v314-jax-final-is-initial-state", file=JAX,
         old="            finals.append(final)",
         new="            finals.append(states[j])",
         tests=[T_JAX + "test_lstm_with_state_given_final_states_at_each_rows_own_last_step"] + OLD_JAX,
         why="the final state returned is the layer's initial state"),
    dict(name="v314-jax-vmap-bn-drops-lengths", file=JAX,
         old="lambda *a: _forward_one(cfg, keep, *a), lead, (x, state, p, lengths, bufs))",
         new="lambda *a: _forward_one(cfg, keep, *a), lead, (x, state, p, None, bufs))",
         tests=[T_JAX + "test_vmap_of_bn_rnn_keeps_each_examples_lengths"] + OLD_JAX,
         why="under vmap a BatchNorm cell's per-example forward runs every row to T: padded rows enter the "
             "batch statistics and the final states"),
    dict(name="v314-jax-vmap-folded-drops-lengths", file=JAX,
         old="    y, final, res, _ = _forward_one(cfg, keep, *_read_only((xf, sf, pf)), lf, {})",
         new="    y, final, res, _ = _forward_one(cfg, keep, *_read_only((xf, sf, pf)), None, {})",
         tests=[T_JAX + "test_vmap_of_ln_lstm_final_states_at_each_rows_own_last_step"] + OLD_JAX,
         why="under vmap the folded LN/plain forward ignores lengths: final states are taken at step T"),
]
