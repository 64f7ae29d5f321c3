"""Planted bugs, round 110 (format: tests/mutants/mutants.py): single-line slips in the synchronized BatchNorm cells
(lnrnn/kernels/bn_sync.py), the fold path's x side (bn_cell_x.py) and the BN-LSTM's output rows that both
formulations share (bn_lstm.py), a fourth pass, on lines no earlier round mutates: bn_sync's second column sum
without the shift K, the other momentum convention, the BN backward's xhat without rstd, the backward sums taking
the row that has just ended, the x side's counts missing the last row; its BN-LSTM's cell running row clamped at
the h side's count, dL/d BN_t(c_t) through the g block instead of o, dbc assigned instead of accumulated, dgc and
dbc returned in each other's places; its BN-RNN's h side's running rows counted from the x side's arrays and dL/da
without the dL/dh from step t+1; the fold path's rows left uncentred in training; the BN-LSTM's output gate read
from the g block.

13 mutants. Against the existing targeted tests alone (the lists below without the new files; baseline run
included) 11 were caught and 2 missed: the cell's running row clamped at the h side's count and the BN-RNN's h rows
counted from the x side's (no old sync test gives the sides different numbers of running rows). The new value tests
catch all 13 on their own (checked with the old files taken off the lists, --no-baseline): test_values110_bn_sync
runs bn_sync's BN-LSTM and BN-RNN forward and backward in one process and in groups of two and three ranks of
unequal sizes (1 + 6, 1 + 2 + 4 rows, one rank holding only an empty row) on threads whose reduce adds their
buffers, the batch reordered so that the last row is active, and compares each rank's y, hT, cT, the group's
counts, the running rows and dL/dx, dL/dh0, dL/dc0 with the definitions in NumPy of test_values100_bn_lstm and
_bn_rnn (BN_t per step over the active rows, T past each side's own running rows: x 4, h 2, cell 3; momentum 0.3,
eps 1e-3), and the ranks' parameter gradients summed with central differences of the definition's loss;
test_values110_bn_cell_x drives the fold pieces over three parts of unequal sizes and compares the active rows'
mean and biased covariance, the output of each part's rows (the others untouched), the running rows and dx, dW,
dgain, dbias with BatchNorm's closed form on z = x W, in training and inference. The ranks' sums are added in
another order than one process's, so those comparisons are to rounding, not bit for bit.

Dropped as equivalent (judged by reading the code): any change of the shift K alone (the running row copied into
sh, sc or the x side's shift rows: K cancels between the sums and the mean in exact arithmetic, only rounding
moves); the fold covariance's second factor centred with the first column's mean, sum d_i (x_k - m_i) for sum d_i
(x_k - m_k) (the extra term is (m_k - m_i) times the sum of the deviations d_i, which is zero: measured, no test
saw it); cov_times_w reading C[j, i] for C[i, j] (the covariance is symmetric); bn_sync's padded rows' carried
dL/dc zeroed from t > length instead of t >= length (a padded row's dc is zero already). Not catalogued: bn_rnn.py
(its unmutated lines are the fused kernel's setup, whose slips give unwritten np.empty memory rather than a wrong
value, or need the fused kernel recompiled per mutant); inference of bn_sync (it calls the fused kernels, covered
by test_values100_bn_lstm and _bn_rnn).

    python tests/mutants/run.py --only 'v110-*'
"""
SYNC = "lnrnn/kernels/bn_sync.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"
LSTM = "lnrnn/kernels/bn_lstm.py"

# existing tests of these modules (the most direct files)
SYNC_OLD = ["tests/kernels/test_values93_bn_sync.py", "tests/kernels/test_values65_bn_sync.py",
            "tests/kernels/test_values11_bn_sync.py", "tests/kernels/test_values18_bn_sync.py",
            "tests/kernels/test_values24_bn_sync.py", "tests/kernels/test_values31_bn_sync.py"]
CELLX_OLD = ["tests/kernels/test_values93_bn_cell_x.py", "tests/kernels/test_values18_bn_cell_x.py"]
LSTM_OLD = ["tests/kernels/test_values100_bn_lstm.py"] + SYNC_OLD

# value tests written for the bugs below (first, so that a caught mutant stops there)
SYNC_NEW = ["tests/kernels/test_values110_bn_sync.py"]
CELLX_NEW = ["tests/kernels/test_values110_bn_cell_x.py"]
LSTM_NEW = SYNC_NEW

MUTANTS = [
    # ---- bn_sync's column pieces: the sums, the statistics, the backward, the counts ----
    dict(name="v110-sync-second-moment-unshifted", file=SYNC,
         old="                s2[k] += d * d",
         new="                s2[k] += xr[k] * xr[k]",
         tests=SYNC_NEW + SYNC_OLD,
         why="the second column sum drops the shift K that the first keeps: var = S2/n - (S1/n)^2 is then wrong "
             "unless the step's running mean is zero"),
    dict(name="v110-sync-momentum-complement", file=SYNC,
         old="    mom = dt(momentum)",
         new="    mom = dt(1 - momentum)",
         tests=SYNC_NEW + SYNC_OLD,
         why="the other momentum convention (the old value's weight): right only at momentum 0.5"),
    dict(name="v110-sync-bwd-dx-xhat-without-rstd", file=SYNC,
         old="                xhat = (xr[k] - mean[k]) * rstd[k]",
         new="                xhat = xr[k] - mean[k]",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN backward's dx uses x - mean for xhat: the projection on xhat is off by rstd"),
    dict(name="v110-sync-bwd-sums-count-padded-row", file=SYNC,
         old="        if t < lengths[b]:\n            xr, dr = x2[b], dy2[b]\n            for k in range(F):\n"
             "                s1[k] += dr[k]",
         new="        if t <= lengths[b]:\n            xr, dr = x2[b], dy2[b]\n            for k in range(F):\n"
             "                s1[k] += dr[k]",
         tests=SYNC_NEW + SYNC_OLD,
         why="the backward sums take the row that has just ended (t == length), whose dy is not the loss's"),
    dict(name="v110-sync-counts-miss-last-row", file=SYNC,
         old="    for b in range(lengths.shape[0]):",
         new="    for b in range(lengths.shape[0] - 1):",
         tests=SYNC_NEW + SYNC_OLD,
         why="the x side's active-row counts leave out the last row: unseen while the last row is empty"),
    # ---- bn_sync's BN-LSTM ----
    dict(name="v110-sync-lstm-cell-row-from-h-count", file=SYNC,
         old="        rh, rc = min(t, Tsh - 1), min(t, Tsc - 1)",
         new="        rh, rc = min(t, Tsh - 1), min(t, Tsh - 1)",
         tests=SYNC_NEW + SYNC_OLD,
         why="the cell's running row is clamped at the h side's count: with Tsc > Tsh the cell's last rows are "
             "never written and an earlier row is updated twice"),
    dict(name="v110-sync-lstm-dcn-through-g", file=SYNC,
         old="gates_t[b, 3 * H + j] * (one - tv * tv)",
         new="gates_t[b, 2 * H + j] * (one - tv * tv)",
         tests=SYNC_NEW + SYNC_OLD,
         why="dL/d BN_t(c_t) reads the g block instead of the output gate o"),
    dict(name="v110-sync-lstm-dbc-assigned", file=SYNC,
         old="        dbc[j] += sums[j]",
         new="        dbc[j] = sums[j]",
         tests=SYNC_NEW + SYNC_OLD,
         why="dbc assigned instead of accumulated: only step 0's share survives"),
    dict(name="v110-sync-lstm-dgc-dbc-swapped", file=SYNC,
         old="    return dx, dhn, dcarry, dWx, dWh, db, dgx, dgh, dgc, dbc",
         new="    return dx, dhn, dcarry, dWx, dWh, db, dgx, dgh, dbc, dgc",
         tests=SYNC_NEW + SYNC_OLD,
         why="the cell's gain and bias gradients returned in each other's places (same shape)"),
    # ---- bn_sync's BN-RNN ----
    dict(name="v110-sync-rnn-h-rows-from-x-count", file=SYNC,
         old="    Ts = rmh.shape[0]",
         new="    Ts = rmx.shape[0]",
         tests=SYNC_NEW + SYNC_OLD,
         why="the h side's running rows counted from the x side's arrays: past the h side's rows when Tsx > Tsh"),
    dict(name="v110-sync-rnn-da-without-dhn", file=SYNC,
         old="            da_t[b, j] = (dy_t[b, j] + dhn[b, j]) * (one - y_t[b, j] * y_t[b, j])",
         new="            da_t[b, j] = dy_t[b, j] * (one - y_t[b, j] * y_t[b, j])",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-RNN's dL/da drops dL/dh_t arriving from step t+1: truncated backpropagation through time"),
    # ---- the fold path's x side (bn_cell_x) ----
    dict(name="v110-cellx-rows-uncentered", file=CELLX,
         old="            xc[i] = x_t[b, i] - xs_t[i]  # xs_t is 0 in inference",
         new="            xc[i] = x_t[b, i]  # xs_t is 0 in inference",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_rows_forward leaves x_t uncentred in training: BN_t's output is shifted by mean(x_t) A"),
    # ---- the BN-LSTM's output rows (bn_lstm, shared with bn_sync) ----
    dict(name="v110-bnlstm-output-o-from-g", file=LSTM,
         old="        tr, yr, ao = tc_t[b], y_t[b], gates_t[b, 3 * H:]",
         new="        tr, yr, ao = tc_t[b], y_t[b], gates_t[b, 2 * H:]",
         tests=LSTM_NEW + LSTM_OLD,
         why="h_t = o tanh(...) reads the g block for the output gate"),
]
