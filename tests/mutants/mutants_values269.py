"""Planted bugs, round 269 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the BatchNorm CPU kernels, twelfth pass: the op's count of active rows never reaching the last row; momentum taken as 1 - m; bn_backward dropping the lengths;
batchnorm_forward_infer running in training mode; the backward's steps always in training mode; a block's count of active rows skipping its first row; a block's moments
counting every row of the block instead of its active ones; a step with one active row taken for an empty one; the
blocks' means read one column early (the count as the first mean); every block's backward sums taken from the first
block's rows; the fused BN-LSTM's backward choosing the wide path at I = FOLD_MAX_I while the forward folded; the
h side's moments read with the next step's lengths; the synchronized twin updating the cell's last running row
once more at t = Ts; the fold path's unbiasing dividing by n - 1 without its floor of 1 (a single row: n / 0).

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values269_batchnorm (lengths 4, 0, 1, 2, 3 over T = 4:
the mean and biased variance of the active rows summed by hand, padded rows normalized with them, the running rows
after one and after two calls against (1 - m) old + m (mean, unbiased variance) at m = 0.3 with Ts = 3 < T;
inference with Ts = 2 reading row min(t, 1) and writing nothing; the training backward against central differences
of the masked loss, padded dx exactly 0; the inference backward against gain rstd dy and the sums over active rows),
test_values269_bn_lstm (the fused kernel at B = 5 over four row blocks of 1, 1, 1 and 2 rows, on one and two parts,
at I = FOLD_MAX_I and one wider, training and inference with running rows x 4, h 2, cell 3 over T = 4, against
lnrnn.reference's forward, running rows and backward; the fold path against the wide path on the same numbers; every
gradient against central differences of the spec's loss; the synchronized twin with the identity reduce against the
spec, its counts 4, 3, 2, 1). Left out as equivalent: the parts' skip of a block with no active row (its moments are
zeros, so n_p d^2 and M2 add nothing); the larger block's pack built for the smaller row count (the pack holds W
whatever the row count it was sized for); _bn_backward's chunk count taken as max(T, TIME_CHUNKS) (the extra chunks
are empty, their partial rows stay zero). Left out as flaky: the padded rows' zero fill of rows_bwd_dx or
bn_col_backward started one row late (np.empty's leftover memory may hold zeros); the fold path's gate sums cut to
2G in sum_parts (the unsummed tail is np.empty scratch).

    python tests/mutants/run.py --only 'v269-*'
"""
BN = "lnrnn/kernels/batchnorm.py"
PARTS = "lnrnn/kernels/bn_parts.py"
LSTM = "lnrnn/kernels/bn_lstm.py"
SYNC = "lnrnn/kernels/bn_sync.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"

T_BN = "tests/kernels/test_values269_batchnorm.py::"
T_LSTM = "tests/kernels/test_values269_bn_lstm.py::"
STATS = [T_BN + "test_per_step_statistics_over_the_active_rows_and_two_momentum_updates"]
INFER = [T_BN + "test_inference_reuses_the_last_running_row"]
BWD = [T_BN + "test_training_backward_against_central_differences"]
IBWD = [T_BN + "test_inference_backward_is_gain_rstd_dy_on_active_rows"]
FUSED = [T_LSTM + "test_fused_kernel_against_the_spec[fold-training]",
         T_LSTM + "test_fused_kernel_against_the_spec[wide-training]"]
FOLD = [T_LSTM + "test_fold_path_against_the_wide_path", T_LSTM + "test_fused_kernel_against_the_spec[fold-training]"]
GRADS = [T_LSTM + "test_gradients_against_central_differences_of_the_spec"]
SYNCED = [T_LSTM + "test_synced_twin_in_a_group_of_one_against_the_spec"]
OLD_BN = ["tests/kernels/test_values195_batchnorm.py", "tests/kernels/test_values45_batchnorm.py"]
OLD_LSTM = ["tests/kernels/test_values100_bn_lstm.py", "tests/kernels/test_values117_bn_blocks.py",
            "tests/kernels/test_values172_bn_cell_x.py"]
OLD_SYNC = ["tests/kernels/test_values138_bn_sync.py"]

MUTANTS = [
    # ---- the op: lnrnn/kernels/batchnorm.py ----
    dict(name="v269-bn-active-rows-miss-last", file=BN,
         old="""    n = 0
    for b in range(lengths.shape[0]):
        if t < lengths[b]:
            n += 1
    return n""",
         new="""    n = 0
    for b in range(lengths.shape[0] - 1):
        if t < lengths[b]:
            n += 1
    return n""",
         tests=STATS + OLD_BN,
         why="the count of active rows never reaches the last row: its steps divide the sums by one row too few"),
    dict(name="v269-bn-momentum-complement", file=BN,
         old="""    inv_n = one / dt(n)
    mom = dt(momentum)""",
         new="""    inv_n = one / dt(n)
    mom = dt(1.0 - momentum)""",
         tests=STATS + OLD_BN,
         why="the running rows move by 1 - m toward the batch statistics instead of m"),
    dict(name="v269-bn-backward-drops-lengths", file=BN,
         old="    return _bn_backward(dy, x, as_lengths(lengths, T, B), mean, rstd, gain, training)",
         new="    return _bn_backward(dy, x, as_lengths(None, T, B), mean, rstd, gain, training)",
         tests=BWD + IBWD + OLD_BN,
         why="bn_backward ignores the lengths: padded rows get gradients and add to dgain, dbias"),
    dict(name="v269-bn-infer-in-training-mode", file=BN,
         old="    y, _, _ = bn_forward(x, gain, bias, running_mean, running_var, False, 0.0, eps)",
         new="    y, _, _ = bn_forward(x, gain, bias, running_mean, running_var, True, 0.0, eps)",
         tests=INFER + OLD_BN,
         why="batchnorm_forward_infer normalizes with the batch's statistics, not the running rows"),
    dict(name="v269-bn-backward-steps-always-training", file=BN,
         old="        bn_col_backward(dy[t], x[t], lengths, t, mean[t], rstd[t], gain, 0, F, training, dx[t], dgain, dbias,",
         new="        bn_col_backward(dy[t], x[t], lengths, t, mean[t], rstd[t], gain, 0, F, True, dx[t], dgain, dbias,",
         tests=IBWD + OLD_BN,
         why="the inference backward subtracts the batch means of dy as if the statistics depended on x"),
    # ---- the parts' moments: lnrnn/kernels/bn_parts.py ----
    dict(name="v269-parts-active-rows-in-skip-first", file=PARTS,
         old="""    n = 0
    for b in range(r0, r1):
        if t < lengths[b]:""",
         new="""    n = 0
    for b in range(r0 + 1, r1):
        if t < lengths[b]:""",
         tests=FUSED + OLD_LSTM,
         why="a block's count of active rows skips its first row: the block's mean divides by one row too few"),
    dict(name="v269-parts-moments-count-all-rows", file=PARTS,
         old="    out[0] = dt(n)",
         new="    out[0] = dt(r1 - r0)",
         tests=FUSED + OLD_LSTM,
         why="a block's count is its rows, active or not: padded rows weigh in the combined mean and variance"),
    dict(name="v269-parts-one-row-taken-for-none", file=PARTS,
         old="    if n == dt(0):  # no row runs at this step: mean 0, variance 0, running statistics untouched",
         new="    if n <= dt(1):  # no row runs at this step: mean 0, variance 0, running statistics untouched",
         tests=FUSED + OLD_LSTM,
         why="a step with a single active row gets mean 0 and no running update, as if empty"),
    dict(name="v269-parts-means-one-column-early", file=PARTS,
         old="        mp = parts[p, 1:F + 1]\n        for k in range(F):\n            mean[k] += w * mp[k]",
         new="        mp = parts[p, 0:F]\n        for k in range(F):\n            mean[k] += w * mp[k]",
         tests=FUSED + OLD_LSTM,
         why="the blocks' means are read one column early: the count stands in for the first mean"),
    dict(name="v269-parts-bwd-sums-first-block", file=PARTS,
         old="""    for k in range(k0, k1):
        b0, b1 = chunk_bounds(B, nblk, k)
        e = ex[k]""",
         new="""    for k in range(k0, k1):
        b0, b1 = chunk_bounds(B, nblk, k0)
        e = ex[k]""",
         tests=FUSED + GRADS + OLD_LSTM,
         why="every block's backward sums are its part's first block's: the batch sums count those rows repeatedly"),
    # ---- the fused BN-LSTM: lnrnn/kernels/bn_lstm.py ----
    dict(name="v269-lstm-backward-fold-bound-strict", file=LSTM,
         old="    fold = 0 < I <= FOLD_MAX_I  # then saved[0] is xs (T,I+I*I), and the x side's backward runs in the loop",
         new="    fold = 0 < I < FOLD_MAX_I  # then saved[0] is xs (T,I+I*I), and the x side's backward runs in the loop",
         tests=FOLD + OLD_LSTM,
         why="at I = FOLD_MAX_I the backward takes the wide path while the forward folded: saved[0] is xs, not x Wx"),
    dict(name="v269-lstm-h-moments-next-step", file=LSTM,
         old="            blocks_moments(hw[t], lengths, t, nblk, k0, k1, exh)",
         new="            blocks_moments(hw[t], lengths, t + 1, nblk, k0, k1, exh)",
         tests=FUSED + OLD_LSTM,
         why="the h side's statistics of step t count the rows active at step t + 1"),
    # ---- the synchronized twin: lnrnn/kernels/bn_sync.py ----
    dict(name="v269-sync-cell-update-at-ts", file=SYNC,
         old="        _lstm_output(bc_, counts[t], sc, c[t], gates[t], gc, bc, t < Tsc, rmc[rc], rvc[rc], momentum, eps,",
         new="        _lstm_output(bc_, counts[t], sc, c[t], gates[t], gc, bc, t <= Tsc, rmc[rc], rvc[rc], momentum, eps,",
         tests=SYNCED + OLD_SYNC,
         why="at t = Ts the cell's last running row is updated once more with a step it does not record"),
    # ---- the fold path: lnrnn/kernels/bn_cell_x.py ----
    dict(name="v269-cellx-unbias-no-floor", file=CELLX,
         old="    unbias = dt(n) / dt(max(n - 1, 1))",
         new="    unbias = dt(n) / dt(max(n - 1, 0))",
         tests=FOLD + OLD_LSTM,
         why="a step with a single active row (or none) divides by zero in the running variance's unbiasing"),
]
