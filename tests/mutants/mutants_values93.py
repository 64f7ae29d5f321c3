"""Planted bugs, round 93 (format: tests/mutants/mutants.py): BatchNorm per step, its parts, the x side of the BN
cells and the synchronized statistics, on lines no earlier round mutates. batchnorm.py: the masked variance loop
starting where the mean loop stopped, the running variance without n/(n-1), the backward's per-step sum of
dy * xhat not reset between steps, batchnorm_forward_infer running the training branch. bn_parts.py: a part
counting a row at its first padded step, a run of active rows not cut at the part's end, parts_stats assigning
the parts' counts instead of adding them, rows_bwd_sums' xhat without rstd. bn_sync.py: col_sums not zeroing its
sum of squares, bwd_dx giving a row a gradient at its first padded step, the x side folding step t into running
row t-1, the x side's output with gain and bias swapped. bn_cell_x.py (the fold path): the covariance loop taking
in a row at its first padded step, fold_rows_forward without rstd, fold_rows_sums zeroing one row short, the
batch part of dL/dx from W s1 instead of V s1.

16 mutants. Against the existing targeted tests alone 8 were measured and all 8 caught (the four batchnorm.py
mutants against test_batchnorm and test_values65_batchnorm, the four bn_sync.py ones against
test_values65_bn_sync); the other 8 (bn_parts.py and bn_cell_x.py) were not run against the old tests alone,
as each recompiles the BN cells there (the old lists' baseline alone took 293 s on one core). The new value
tests catch all 16 on their own (checked with the old tests taken off the lists), in about 3 s on one core
with a warm Numba cache (90 s cold, the compile):
test_values93_batchnorm (y, mean, rstd and the running rows against the definition written out in NumPy: mean
and biased variance over the active rows only, the running rows' momentum blend with the unbiased variance, a
step with one active row and one with none, T > Ts; dx, dgain, dbias against central differences in float64 of
the loss over the active (row, step)s; inference reading row min(t, Ts-1) and its backward), test_values93_bn_parts
(the batch split into 1, 2 and 3 parts of rows: the parts' moments combined, and their backward sums added and
finished, equal to the whole batch's definition and its central differences; a masked part's moments by hand;
part_rows covering the blocks once), test_values93_bn_sync (col_sums, stats_from_sums, bwd_sums, bwd_dx and
local_counts of one step against the definition, into buffers filled with NaN; the x side's _x_forward and
_x_backward with running means far from the batch means, in one process and on two ranks of 2 and 4 rows run on
two threads whose reduce adds their buffers, each rank equal to one process over the whole batch) and
test_values93_bn_cell_x (fold_stats against NumPy's mean and biased covariance of the active rows; the fold path
piece by piece, rows in 1-3 parts and columns in as many chunks, against the definition applied to z = x W and
its central differences, in training and in inference). Dropped before the catalogue as equivalent: fold_stats'
second factor centred with m[i] instead of m[k], and its first factor not centred at all (the active rows'
deviations sum to zero, so either constant drops out of C); cov_times_w reading C[j, i] and fold_rows_dx reading
M[j, i] (C and M are symmetric); _step_chunks with T - 1 (max(1, ...) restores it; the chunking changes no bit);
cell_x_backward's blocks counted from x.shape[0] (the GEMMs' row blocks change the rounding only). Also left out:
active_run skipping only rows with t > lengths[b] (an empty run is returned at the same cursor for ever: a hang
that only the runner's timeout would catch) and the forward's prange chunks bounded by BN_TIME_CHUNKS instead of
their count (the missed steps keep whatever np.empty held, so a test would judge uninitialised memory).

    python tests/mutants/run.py --only 'v93-*'
"""
BN = "lnrnn/kernels/batchnorm.py"
PARTS = "lnrnn/kernels/bn_parts.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"
SYNC = "lnrnn/kernels/bn_sync.py"

# existing tests of these modules (the most direct ones)
BN_OLD = ["tests/kernels/test_batchnorm.py", "tests/kernels/test_values65_batchnorm.py"]
PARTS_OLD = ["tests/kernels/test_values65_bn_rnn.py"]
CELLX_OLD = ["tests/kernels/test_values65_bn_rnn.py"]
SYNC_OLD = ["tests/kernels/test_values65_bn_sync.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BN_NEW = ["tests/kernels/test_values93_batchnorm.py"]
PARTS_NEW = ["tests/kernels/test_values93_bn_parts.py"]
CELLX_NEW = ["tests/kernels/test_values93_bn_cell_x.py"]
SYNC_NEW = ["tests/kernels/test_values93_bn_sync.py"]

MUTANTS = [
    # ---- BatchNorm per step (batchnorm.py) ----
    dict(name="v93-bn-masked-variance-cursor-not-reset", file=BN,
         old="        r1 = 0\n        while r1 < B:\n            r0, r1 = active_run(lengths, t, r1)\n"
             "            for b in range(r0, r1):\n                xr = x2[b, k0:k1]\n"
             "                for k in range(w):\n                    d = xr[k]",
         new="        while r1 < B:\n            r0, r1 = active_run(lengths, t, r1)\n"
             "            for b in range(r0, r1):\n                xr = x2[b, k0:k1]\n"
             "                for k in range(w):\n                    d = xr[k]",
         tests=BN_NEW + BN_OLD,
         why="the masked path's variance loop starts where the mean loop stopped (r1 = B, the cursor not reset): "
             "a step with a padded row gets variance 0"),
    dict(name="v93-bn-running-var-without-unbias", file=BN,
         old="            rv[k] = (one - mom) * rv[k] + mom * var * unbias\n",
         new="            rv[k] = (one - mom) * rv[k] + mom * var\n",
         tests=BN_NEW + BN_OLD,
         why="the running variance blends in the biased batch variance, not var * n/(n-1)"),
    dict(name="v93-bn-backward-s2-scratch-not-reset", file=BN,
         old="        s1_[k] = dt(0)\n        s2_[k] = dt(0)\n",
         new="        s1_[k] = dt(0)\n",
         tests=BN_NEW + BN_OLD,
         why="the per-step sum of dy * xhat is not zeroed: every step after the first carries the earlier steps' "
             "sums into its dgain and dx"),
    dict(name="v93-bn-infer-with-batch-statistics", file=BN,
         old="    y, _, _ = bn_forward(x, gain, bias, running_mean, running_var, False, 0.0, eps)\n",
         new="    y, _, _ = bn_forward(x, gain, bias, running_mean, running_var, True, 0.0, eps)\n",
         tests=BN_NEW + BN_OLD,
         why="batchnorm_forward_infer runs the training branch (momentum 0 leaves the rows alone): the batch's own "
             "statistics normalize instead of the running rows"),
    # ---- a step's rows held by several parts (bn_parts.py) ----
    dict(name="v93-parts-active-rows-at-the-first-padded-step", file=PARTS,
         old="        if t < lengths[b]:\n            n += 1\n",
         new="        if t <= lengths[b]:\n            n += 1\n",
         tests=PARTS_NEW + PARTS_OLD,
         why="active_rows_in counts a row at its first padded step: a part's n (its mean's divisor and its weight "
             "in the combination) is one too many"),
    dict(name="v93-parts-run-not-cut-at-the-part-end", file=PARTS,
         old="    return min(lo, r1), min(hi, r1)\n",
         new="    return min(lo, r1), hi\n",
         tests=PARTS_NEW + PARTS_OLD,
         why="run_in lets a run of active rows go past the part's last row: a masked part sums the next part's rows "
             "as well"),
    dict(name="v93-parts-count-of-the-last-part-only", file=PARTS,
         old="    for p in range(parts.shape[0]):\n        n += parts[p, 0]\n",
         new="    for p in range(parts.shape[0]):\n        n = parts[p, 0]\n",
         tests=PARTS_NEW + PARTS_OLD,
         why="parts_stats assigns the parts' counts instead of adding them: n is the last part's rows"),
    dict(name="v93-parts-bwd-sums-xhat-without-rstd", file=PARTS,
         old="                s2[k] += dr[k] * (xr[k] - mean[k]) * rstd[k]\n",
         new="                s2[k] += dr[k] * (xr[k] - mean[k])\n",
         tests=PARTS_NEW + PARTS_OLD,
         why="rows_bwd_sums' sum of dy * xhat uses x - mean, not xhat: dgain and dx's second term are off by rstd"),
    # ---- the synchronized cells' pieces (bn_sync.py) ----
    dict(name="v93-sync-col-sums-square-sum-not-zeroed", file=SYNC,
         old="        s1[k] = 0.0\n        s2[k] = 0.0\n    for b in range(B):\n        if t < lengths[b]:\n"
             "            xr = x2[b]\n",
         new="        s1[k] = 0.0\n    for b in range(B):\n        if t < lengths[b]:\n"
             "            xr = x2[b]\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="col_sums does not zero the sum of squares: it adds onto whatever the buffer held (the previous step's "
             "sums, or garbage)"),
    dict(name="v93-sync-bwd-dx-at-the-first-padded-step", file=SYNC,
         old="        out = dx2[b]\n        if t < lengths[b]:\n",
         new="        out = dx2[b]\n        if t <= lengths[b]:\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="bwd_dx gives a row a gradient at its first padded step (its dy is outside the loss there)"),
    dict(name="v93-sync-x-running-row-one-back", file=SYNC,
         old="        r = min(t, Ts - 1)\n        stats_from_sums(sums[t]",
         new="        r = min(t, Ts) - 1\n        stats_from_sums(sums[t]",
         tests=SYNC_NEW + SYNC_OLD,
         why="the x side's step t folds its statistics into running row t-1 (step 0 into the last row)"),
    dict(name="v93-sync-x-output-gain-and-bias-swapped", file=SYNC,
         old="                yr[k] = (xr[k] - m_[k]) * r_[k] * gain[k] + bias[k]\n",
         new="                yr[k] = (xr[k] - m_[k]) * r_[k] * bias[k] + gain[k]\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="the x side's normalized output scales by the bias and shifts by the gain"),
    # ---- BN_t(x_t W) without forming x_t W (bn_cell_x.py, the fold path) ----
    dict(name="v93-cellx-covariance-counts-the-first-padded-step", file=CELLX,
         old="            if t < lengths[b]:\n                for i in range(I):\n"
             "                    d = x[t, b, i] - m[i]",
         new="            if t <= lengths[b]:\n                for i in range(I):\n"
             "                    d = x[t, b, i] - m[i]",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_stats' covariance loop takes in a row at its first padded step (the mean loop does not): the "
             "columns' variances W^T C W of a masked step are too large"),
    dict(name="v93-cellx-fold-forward-without-rstd", file=CELLX,
         old="            Ai[k] = Wi[k] * rstd[k] * gain[k]\n",
         new="            Ai[k] = Wi[k] * gain[k]\n",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_rows_forward scales W by the gain only: the output is centred but not normalized"),
    dict(name="v93-cellx-fold-padded-dx-last-row-not-zeroed", file=CELLX,
         old="    for b in range(r0, r1):\n        for i in range(I):\n            dx_t[b, i] = dt(0)\n",
         new="    for b in range(r0, r1 - 1):\n        for i in range(I):\n            dx_t[b, i] = dt(0)\n",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_rows_sums zeroes one row short: a part's last row, when padded, keeps what dx_t held"),
    dict(name="v93-cellx-fold-cv-from-w-not-v", file=CELLX,
         old="            a += Vi[k] * s1[k]\n",
         new="            a += W[i, k] * s1[k]\n",
         tests=CELLX_NEW + CELLX_OLD,
         why="the batch part of dL/dx takes W s1 for V s1 (the columns' gain and rstd left out)"),
]
