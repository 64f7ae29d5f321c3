"""Planted bugs, round 270 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the RNN and normalization CUDA twins lnrnn/kernels/rnn_cuda.py, bn_rnn_cuda.py, batchnorm_cuda.py and
layernorm_cuda.py, run under Numba's CUDA simulator with every option on (LayerNorm and none, BatchNorm with
lengths 0 and T in one batch, training and evaluation, running rows, the state carried across two calls), float64
at B = 3, H = 5 (not multiples of the block or the tile): the RNN's LayerNorm mean summed over x_t Wx alone; its
LayerNorm backward with the two block sums swapped; the row backward handing dL/d(tanh argument) on instead of
the LayerNorm's dL/da; the sequence forward skipping the last step; the BN-RNN's h-side backward with training and
evaluation swapped; its saved h-side mean and 1/std swapped; its x-side dgx and db swapped; its forward loading
lengths clamped at T - 1; its running rows written back only in evaluation; the running mean's fold with momentum and
1 - momentum swapped; the local variance counting padded rows; the device-lengths refusal naming T for B;
batchnorm_forward_infer normalizing with the batch; the LayerNorm backward dividing its sums by F - 1.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values270_rnn_cuda (y, hT, the saved ahat and
rstd and all six gradients against lnrnn/reference.py's rnn_forward/rnn_backward to 1e-12, with LayerNorm and
without, on the sequence, per-step and captured loops; the same run as chunks of 2 and 1 steps with h carried
forward and dh0 carried back, equal to the spec over the whole sequence), test_values270_bn_cuda (the BN-RNN with
lengths 3, 0, 2 over T = 3, running rows of 2 and 3, training and evaluation: y, hT, both sides' saved mean and
1/std, the running rows and all seven gradients against reference.bn_rnn_forward/bn_rnn_backward, then a second
call of 2 steps from hT with the rows carried over; BatchNorm alone with lengths 4, 0, 2: training forward,
running rows, inference on rows that differ from the batch's, backward; LayerNorm over rows of 5; the device
lengths' refusal word for word).

Left out as equivalent: fwd_step's `if ln and cuda.threadIdx.x == 0` storing rstd from another thread (every
thread holds the same block sums); fwd_row's `a[k] = v` (nothing reads the preactivation row after the step);
_backward_loop's and rnn_forward's `seq = path == "seq"` inverted (both loops give the same values); bn_rnn's
`if lane == 0` stores moved to another lane (every lane holds the same lane sums); bwd's defaults `m, r1, g =
zero, one, one` (read only where the unit is valid); rnn_backward's `if plan.dy.shape[0] > T` made `>=`
(fill_zeros of an empty slice). Left out as a crash rather than a value: bn_rnn's `elif valid:` made `else:` (an
index past H); `if b >= B` made `>` (an index past the batch). Left out as relying on unwritten memory: dh_next
made `empty` (what the simulator's fresh array holds decides). Left out as equivalent at B = 3: the BN-RNN
backward's `cnt += one` made `cnt = one` (over tiles of 4 lanes each lane holds at most one of 3 rows; it would
show only at B > 4).

    python tests/mutants/run.py --only 'v270-*'
"""
RNN = "lnrnn/kernels/rnn_cuda.py"
BNR = "lnrnn/kernels/bn_rnn_cuda.py"
BN = "lnrnn/kernels/batchnorm_cuda.py"
LN = "lnrnn/kernels/layernorm_cuda.py"

T_RNN = "tests/kernels/test_values270_rnn_cuda.py::"
T_BN = "tests/kernels/test_values270_bn_cuda.py::"
OLD_RNN = ["tests/kernels/test_values153_rnn_cuda.py", "tests/kernels/test_values188_rnn_cuda.py",
           "tests/kernels/test_values247_lstm_rnn_cuda.py"]
OLD_BNR = ["tests/kernels/test_values194_bn_cuda.py", "tests/kernels/test_values207_bn_cuda.py"]
OLD_BN = ["tests/kernels/test_values75_batchnorm_cuda.py", "tests/kernels/test_values194_bn_cuda.py"]
OLD_LN = ["tests/kernels/test_values158_layernorm_cuda.py", "tests/kernels/test_values30_layernorm_cuda.py"]

SPEC = T_RNN + "test_outputs_saved_rows_and_gradients_equal_the_spec"
SEQ_LN, STEP_LN, GRAPH_LN = SPEC + "[sequence-ln]", SPEC + "[per-step-ln]", SPEC + "[graph-ln]"
SEQ_NONE = SPEC + "[sequence-none]"
CHUNKS = T_RNN + "test_two_chunks_with_the_state_carried_equal_the_whole_sequence"
BNR_TRAIN = T_BN + "test_bn_rnn_lengths_0_and_t_and_a_second_call_equal_the_spec[training]"
BNR_EVAL = T_BN + "test_bn_rnn_lengths_0_and_t_and_a_second_call_equal_the_spec[evaluation]"
BN_ALONE = T_BN + "test_batchnorm_with_lengths_0_and_t_equals_the_spec"
LN_ROWS = T_BN + "test_layernorm_rows_of_5_equal_the_spec"
REFUSAL = T_BN + "test_device_lengths_of_the_wrong_shape_refused_word_for_word"

MUTANTS = [
    # ---- lnrnn/kernels/rnn_cuda.py ----
    dict(name="v270-rnn-ln-mean-over-xwx-alone", file=RNN,
         old="                s += v\n",
         new="                s += xp[k]\n",
         tests=[SEQ_LN, STEP_LN, CHUNKS + "[sequence]"] + OLD_RNN,
         why="the LayerNorm's mean sums x_t Wx alone, without h_{t-1} Wh: every LN output from step 0 on is off"),
    dict(name="v270-rnn-ln-backward-sums-swapped", file=RNN,
         old="s1, s2 = block_sum2(sh, s1, s2)",
         new="s2, s1 = block_sum2(sh, s1, s2)",
         tests=[SEQ_LN, STEP_LN, CHUNKS + "[per-step]"] + OLD_RNN,
         why="the LayerNorm backward takes sum(d g ahat) for sum(d g) and the reverse"),
    dict(name="v270-rnn-ln-backward-passes-dz-on", file=RNN,
         old="                    dv[k] = v\n",
         new="                    dv[k] = dzv[u]\n",
         tests=[SEQ_LN, STEP_LN, CHUNKS + "[sequence]"] + OLD_RNN,
         why="the row backward hands dL/d(tanh argument) on as dL/da, skipping the LayerNorm's Jacobian"),
    dict(name="v270-rnn-seq-forward-skips-last-step", file=RNN,
         old="        for t in range(T):\n",
         new="        for t in range(T - 1):\n",
         tests=[SEQ_LN, SEQ_NONE, CHUNKS + "[sequence]"] + OLD_RNN,
         why="the sequence forward stops one step early: y and hT of the last step are never written"),
    # ---- lnrnn/kernels/bn_rnn_cuda.py ----
    dict(name="v270-bnrnn-backward-mode-inverted", file=BNR,
         old="                elif training:\n",
         new="                elif not training:\n",
         tests=[BNR_TRAIN, BNR_EVAL] + OLD_BNR,
         why="the h-side BN backward takes the batch-statistics Jacobian in evaluation and the affine map in training"),
    dict(name="v270-bnrnn-saved-mean-rstd-swapped", file=BNR,
         old="mean_h_t[j], rstd_h_t[j] = m, rs",
         new="mean_h_t[j], rstd_h_t[j] = rs, m",
         tests=[BNR_TRAIN, BNR_EVAL] + OLD_BNR,
         why="the saved h-side mean and 1/std trade places: the saved rows and the backward are wrong"),
    dict(name="v270-bnrnn-dgx-db-swapped", file=BNR,
         old="self.pgx, self.pbx, stream)",
         new="self.pbx, self.pgx, stream)",
         tests=[BNR_TRAIN, BNR_EVAL] + OLD_BNR,
         why="the x side's per-step gain and bias sums land in each other's buffers: dgx and db swapped"),
    dict(name="v270-bnrnn-forward-lengths-clamped-at-t-minus-1", file=BNR,
         old="load_lengths(plan.lengths, lengths, T)\n    plan.replay()",
         new="load_lengths(plan.lengths, lengths, T - 1)\n    plan.replay()",
         tests=[BNR_TRAIN] + OLD_BNR,
         why="the forward clamps lengths at T - 1: a row of T steps is padded at its last step"),
    dict(name="v270-bnrnn-running-rows-written-back-in-evaluation", file=BNR,
         old="    if training:  # the folded running rows back where they live",
         new="    if not training:  # the folded running rows back where they live",
         tests=[BNR_TRAIN] + OLD_BNR,
         why="the folded running rows reach the caller's arrays only in evaluation: training leaves them stale"),
    # ---- lnrnn/kernels/batchnorm_cuda.py ----
    dict(name="v270-bn-running-mean-momentum-swapped", file=BN,
         old="rm_row[k] = (one - momentum) * rm_row[k] + momentum * m",
         new="rm_row[k] = momentum * rm_row[k] + (one - momentum) * m",
         tests=[BNR_TRAIN, BN_ALONE] + OLD_BN,
         why="the running mean keeps momentum of the old row and takes 1 - momentum of the batch"),
    dict(name="v270-bn-local-variance-counts-padded-rows", file=BN,
         old="        if act[r] > zero:",
         new="        if act[r] >= zero:",
         tests=[BNR_TRAIN] + OLD_BN,
         why="the BN cells' variance adds the padded rows' squared deviations (a row of 0 steps counts)"),
    dict(name="v270-bn-lengths-refusal-names-t", file=BN,
         old="({B},) int64, got",
         new="({T},) int64, got",
         tests=[REFUSAL] + OLD_BN,
         why="the refusal of device lengths names the step count T as the batch size"),
    dict(name="v270-bn-infer-uses-batch-statistics", file=BN,
         old="running_var, False, 0.0, eps)[0]",
         new="running_var, True, 0.0, eps)[0]",
         tests=[BN_ALONE] + OLD_BN,
         why="batchnorm_forward_infer normalizes with the batch's statistics instead of the running rows"),
    # ---- lnrnn/kernels/layernorm_cuda.py ----
    dict(name="v270-ln-backward-divides-by-f-minus-1", file=LN,
         old="inv_f = dt(1.0) / dt(F)",
         new="inv_f = dt(1.0) / dt(F - 1)",
         tests=[LN_ROWS] + OLD_LN,
         why="the LayerNorm backward's means divide by F - 1: dx is off"),
]
