"""Planted bugs, round 195 (format: tests/mutants/mutants.py): single-line slips in synchronized BN
(lnrnn/kernels/bn_sync.py), BatchNorm over time steps (lnrnn/kernels/batchnorm.py) and the BN cells' x side
(lnrnn/kernels/bn_cell_x.py), on lines no earlier round mutates: stats_from_sums dividing by n - 1, the x side's dx
taking step 0's count and its backward sums the rows of step t + 1, the h side's dx divided by the batch size, the
BN-LSTM backward cutting a row's cell carry at its last step; BatchNorm's masked mean searching runs from row 1, the
dx's xhat without rstd, the forward's gain and bias swapped, dgain from the raw input, the one-chunk (T = 1)
backward's dgain and dbias partials swapped; the fold path's covariance filled with variances, V without rstd, P
from the raw input and dx's matrix built from s1.

14 mutants. Against the existing targeted tests alone the measure was cut short (the old files took 40 to 135 s a
mutant on shared cores): run for the first four bn_sync mutants on the four bn_sync files listed, it caught all
four; the other ten were not measured against the old files. The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values195_bn_sync (B = 3 rows of lengths 3, 2, 0, H = 5, an
empty last step: every step's saved statistics of x Wx, h Wh and c against NumPy over the active rows, the running
rows by the momentum rule with the unbiased variance, every gradient of the BN-LSTM and BN-RNN against central
differences of the kernel's forward; three ranks of one row each on threads against the one process),
test_values195_batchnorm (T = 1 with B = 3 unmasked, T = 4 with B = 3 of lengths 3, 1, 2 and T = 3 with B = 1: y,
mean, rstd and running rows against BatchNorm in NumPy, dbias by hand, dx and dgain against central differences of
that NumPy forward, dx = 0 on padded rows whose dy is not 0), test_values195_bn_cell_x (the fold pieces over two row
parts and two column chunks, training and inference, against BatchNorm of x W in NumPy and its central differences).
Dropped as equivalent: the BN-LSTM backward's carry cut at t > lengths[b] instead of t >= lengths[b] (at a row's
first padded step the carry is already 0: the padded row's dcbn is zeroed by bwd_dx and the carry from the later
padded step was cut); the masked mean's run search stopping at B - 1 (a run ends at a padded row, so a search
reaching B - 1 finds it padded, and B = 1 never takes the masked loops); fold_stats's covariance centred by m[i]
instead of m[k] (the deviations sum to 0 over the active rows); fold_rows_sums adding acc into dx (its rows were
zeroed just above); the shifts of the synchronized sums (they cancel between col_sums and stats_from_sums). Left
out: BatchNorm's dx gap loop skipping a padded row (what it would show depends on what np.empty_like held).

    python tests/mutants/run.py --only 'v195-*'
"""
SYNC = "lnrnn/kernels/bn_sync.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"
BN = "lnrnn/kernels/batchnorm.py"

# existing tests of these modules (the most direct ones)
SYNC_OLD = ["tests/kernels/test_values172_bn_sync.py", "tests/kernels/test_values138_bn_sync.py",
            "tests/kernels/test_values110_bn_sync.py", "tests/kernels/test_values93_bn_sync.py"]
CELLX_OLD = ["tests/kernels/test_values172_bn_cell_x.py", "tests/kernels/test_values110_bn_cell_x.py",
             "tests/kernels/test_values93_bn_cell_x.py", "tests/kernels/test_values18_bn_cell_x.py"]
BN_OLD = ["tests/kernels/test_batchnorm.py", "tests/kernels/test_values155_batchnorm.py",
          "tests/kernels/test_values93_batchnorm.py", "tests/kernels/test_values65_batchnorm.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SYNC_NEW = ["tests/kernels/test_values195_bn_sync.py"]
CELLX_NEW = ["tests/kernels/test_values195_bn_cell_x.py"]
BN_NEW = ["tests/kernels/test_values195_batchnorm.py"]

MUTANTS = [
    # ---- synchronized BN: the step statistics, the x side's backward, the h side's count, the cell's carry ----
    dict(name="v195-sync-mean-over-n-minus-1", file=SYNC,
         old="    inv_n = one / dt(n)\n    mom = dt(momentum)",
         new="    inv_n = one / dt(max(n - 1, 1))\n    mom = dt(momentum)",
         tests=SYNC_NEW + SYNC_OLD,
         why="stats_from_sums divides the summed deviations by n - 1 (the unbiased count): every step's mean and "
             "variance, and so the outputs and the running rows, are off"),
    dict(name="v195-sync-x-dx-count-of-step-0", file=SYNC,
         old="gain, sums[t], int(counts[t]), dxw[t])",
         new="gain, sums[t], int(counts[0]), dxw[t])",
         tests=SYNC_NEW + SYNC_OLD,
         why="the x side's dx of every step takes step 0's count of active rows: a step with fewer rows gets the "
             "mean terms of its BN backward divided by too many"),
    dict(name="v195-sync-x-bwd-sums-rows-of-next-step", file=SYNC,
         old="bwd_sums(da[t], xw[t], lengths, t, mean[t]",
         new="bwd_sums(da[t], xw[t], lengths, t + 1, mean[t]",
         tests=SYNC_NEW + SYNC_OLD,
         why="the x side's backward sums (dbias, dgain and dx's mean terms) of step t run over the rows active at "
             "t + 1: a row at its last step is left out"),
    dict(name="v195-sync-h-dx-over-batch-size", file=SYNC,
         old="bwd_dx(da_t, hw_t, lengths, t, mean_t, rstd_t, gh, sums, n, dhw_t)",
         new="bwd_dx(da_t, hw_t, lengths, t, mean_t, rstd_t, gh, sums, hw_t.shape[0], dhw_t)",
         tests=SYNC_NEW + SYNC_OLD,
         why="the h side's BN backward divides its mean terms by the batch size, not the step's active rows: "
             "dh and dWh are wrong wherever a step has padded rows"),
    dict(name="v195-sync-lstm-carry-cut-at-last-step", file=SYNC,
         old="if t >= lengths[b]:  # a padded row",
         new="if t >= lengths[b] - 1:  # a padded row",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-LSTM backward zeroes a row's dL/dc_{t-1} already at the row's last step: the cell gradient "
             "never flows back in time (dc0, and every earlier step's gate gradients)"),
    # ---- BN: the masked mean's run search, the dx's xhat, the forward's gain and bias, dgain, T = 1 ----
    dict(name="v195-bn-masked-mean-runs-from-row-1", file=BN,
         old="        r1 = 0\n        while r1 < B:  # runs of active rows (active_run)",
         new="        r1 = 1\n        while r1 < B:  # runs of active rows (active_run)",
         tests=BN_NEW + BN_OLD,
         why="the masked mean's run search starts at row 1: an active row 0 is left out of the sum (still "
             "divided by n), the variance's loop counts it"),
    dict(name="v195-bn-dx-xhat-without-rstd", file=BN,
         old="                    xhat = (xr[k] - m_[k]) * r_[k]\n                    # mean_b",
         new="                    xhat = (xr[k] - m_[k])\n                    # mean_b",
         tests=BN_NEW + BN_OLD,
         why="the training dx takes the centred input as xhat, not scaled by rstd: the variance term of dx is "
             "off by a factor rstd"),
    dict(name="v195-bn-forward-gain-and-bias-swapped", file=BN,
         old="                yr[k] = (xr[k] - m_[k]) * r_[k] * gain[k] + bias[k]",
         new="                yr[k] = (xr[k] - m_[k]) * r_[k] * bias[k] + gain[k]",
         tests=BN_NEW + BN_OLD,
         why="bn_forward scales by the bias and shifts by the gain"),
    dict(name="v195-bn-dgain-uncentred-input", file=BN,
         old="                s2_[k] += dr[k] * xhat",
         new="                s2_[k] += dr[k] * xr[k]",
         tests=BN_NEW + BN_OLD,
         why="the backward's second sum takes dy times the raw input, not xhat: dgain and dx are wrong"),
    dict(name="v195-bn-one-step-partials-swapped", file=BN,
         old="training, 0, T, dx, pg[0], pb[0])",
         new="training, 0, T, dx, pb[0], pg[0])",
         tests=BN_NEW + BN_OLD,
         why="with one chunk of steps (T = 1) the backward writes dgain into dbias's partials and back: the two "
             "parameter gradients come out swapped"),
    # ---- the BN cells' x side, fold path: covariance, V, P, the dx matrix ----
    dict(name="v195-cellx-covariance-d-times-d", file=CELLX,
         old="C[i, k] += d * (x[t, b, k] - m[k])",
         new="C[i, k] += d * d",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_stats fills every column of the covariance's row i with x_i's variance: the folded variances of "
             "x W (I > 1) are wrong"),
    dict(name="v195-cellx-fold-v-without-rstd", file=CELLX,
         old="            Vi[k] = Wi[k] * gain[k] * rstd[k]",
         new="            Vi[k] = Wi[k] * gain[k]",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_v leaves out rstd: V = W diag(gain), so dx's first term and the mean-term matrix are off"),
    dict(name="v195-cellx-sums-uncentred-input", file=CELLX,
         old="                    Pi[k] += xi * dr[k]",
         new="                    Pi[k] += x_t[b, i] * dr[k]",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_rows_sums accumulates P from the raw input, not x minus the step's mean: dgain and dW carry "
             "mean_x times the summed dy"),
    dict(name="v195-cellx-dx-matrix-with-s1", file=CELLX,
         old="                a += Vi[k] * Wj[k] * s2[k]",
         new="                a += Vi[k] * Wj[k] * s1[k]",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_step_backward builds dx's matrix M from the summed dy (s1), not from s2 rstd: the variance "
             "term of the training dx is wrong"),
]
