"""Planted bugs, round 65 (format: tests/mutants/mutants.py): batch normalization with per-step statistics, on
lines no earlier round mutates. batchnorm.py: a masked step's variance over the batch B instead of its active
rows, eps outside the square root, the backward's dx with mean_b(dxhat * xhat) taken as a sum, dgain and dbias
of the first chunk of steps only. bn_parts.py (a step's rows held by several parts): a block counting the active
rows from row 0, the h side's running variance without n/(n-1), a step with no active row normalized with
variance 1 instead of 0, the inference backward without rstd, dgh assigned instead of summed over the steps.
bn_cell_x.py: the fold path's batch mean over B, its backward sums uncentred, its dgx and db returned swapped,
a wide input's BN_t without the lengths. bn_rnn.py: every part adding the first part's columns of the summed
gradients, each block's fold sums over all of its part's rows. bn_sync.py: the shifted sums counting a row at
its first padded step, the saved mean without the shift, the backward's sum of dy * xhat uncentred.

18 mutants. Against the existing targeted tests alone 11 were measured and all 11 caught (the four
batchnorm.py mutants, four of the five bn_parts.py ones and the three bn_sync.py ones); the other 7 (dgh
assigned, the four bn_cell_x.py and the two bn_rnn.py mutants) were not run against the old tests alone, as a
cold compile of the BN cells costs 200-270 s a mutant there. The new value tests catch all 18 on their own (checked
with the old tests taken off the lists): test_values65_batchnorm (y, mean, rstd and the running rows of masked
steps, one with a single active row and one with none, against the definition written out in NumPy, eps 1e-5
and 0.3, T = 3 and T = BN_TIME_CHUNKS + 3; dx, dgain, dbias against central differences of the loss over the
active (row, step)s with dy set at the padded ones, and dbias by hand; three batches of running rows, then
inference with row min(t, Ts-1)), test_values65_bn_rnn (the BN-RNN, fold and wide inputs, split into 1, 2 and
3 parts over four uneven blocks: y, hT and the running rows against its definition in NumPy, every gradient
against central differences of that definition, in training and in inference after two training batches) and
test_values65_bn_sync (the synchronized BN-RNN with running means near 2.5, in one process and in two ranks of
3 and 4 rows on two threads whose reduce adds their buffers: each rank's rows and the sum of the ranks'
parameter gradients against the definition and its central differences). Dropped before the catalogue as
equivalent: part_rows ending at chunk_bounds(B, nblk, k1)[0] (the start of block k1 is the end of block
k1 - 1); sum_parts reading parts[0, k] for parts[0, k0 + k] (every call passes k0 = 0); parts_stats without
its skip of a part with no active row (such a part adds 0 + 0 * d * d); the fold forward's part q > 0 writing
the x statistics into st[0], st[1] (read by fold_rows_forward before parts_stats overwrites them); the fold
test 0 < I < FOLD_MAX_I (I = FOLD_MAX_I takes the wide path, which is as correct); the BN-LSTM's sync backward
keeping dc at a row's first padded step (t > lengths[b]: there dcbn is 0 and the carry from later steps was
already zeroed, so the kept dc is 0); bn_sync's shift taken from another running row (only the rounding of
the single-pass variance changes).

    python tests/mutants/run.py --only 'v65-*'
"""
BN = "lnrnn/kernels/batchnorm.py"
PARTS = "lnrnn/kernels/bn_parts.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"
RNN = "lnrnn/kernels/bn_rnn.py"
SYNC = "lnrnn/kernels/bn_sync.py"

# existing tests of these modules
BN_OLD = ["tests/kernels/test_batchnorm.py", "tests/kernels/test_values31_batchnorm.py",
          "tests/kernels/test_values45_batchnorm.py"]
CELLS_OLD = ["tests/kernels/test_values18_bn_cell_x.py", "tests/kernels/test_values22_bn_cells.py",
             "tests/kernels/test_values11_bn_cells.py", "tests/kernels/test_bn_cells.py",
             "tests/kernels/test_blocks.py"]
SYNC_OLD = ["tests/kernels/test_values11_bn_sync.py", "tests/kernels/test_values18_bn_sync.py",
            "tests/kernels/test_values24_bn_sync.py", "tests/kernels/test_values31_bn_sync.py",
            "tests/kernels/test_bn_sync_speed_bits.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BN_NEW = ["tests/kernels/test_values65_batchnorm.py"]
CELLS_NEW = ["tests/kernels/test_values65_bn_rnn.py"]
SYNC_NEW = ["tests/kernels/test_values65_bn_sync.py"]

MUTANTS = [
    # ---- BatchNorm per step (batchnorm.py): masked variance, eps, the backward's dx and its chunk partials ----
    dict(name="v65-bn-masked-variance-over-every-row", file=BN,
         old="        var = r_[k] * inv_n\n",
         new="        var = r_[k] / dt(B)\n",
         tests=BN_NEW + BN_OLD,
         why="the variance divides the active rows' squared deviations by the batch B, not by their count n: "
             "a step with padded rows gets too small a variance (and running variance)"),
    dict(name="v65-bn-eps-outside-the-sqrt", file=BN,
         old="        r_[k] = one / np.sqrt(var + eps_)\n",
         new="        r_[k] = one / (np.sqrt(var) + eps_)\n",
         tests=BN_NEW + BN_OLD,
         why="rstd = 1/(std + eps) instead of 1/sqrt(var + eps) in training"),
    dict(name="v65-bn-dx-second-term-not-over-n", file=BN,
         old="out[k] = g_[k] * r_[k] * (dr[k] - (s1_[k] + xhat * s2_[k]) * inv_n)",
         new="out[k] = g_[k] * r_[k] * (dr[k] - s1_[k] * inv_n - xhat * s2_[k])",
         tests=BN_NEW + BN_OLD,
         why="a parenthesis dropped: mean_b(dxhat * xhat) is taken as the sum over the rows, not the mean"),
    dict(name="v65-bn-backward-first-chunk-partials-only", file=BN,
         old="    return dx, sum_rows(pg), sum_rows(pb)\n",
         new="    return dx, pg[0], pb[0]\n",
         tests=BN_NEW + BN_OLD,
         why="dgain and dbias are the first chunk of steps' partial sums: the other chunks' steps are lost"),
    # ---- a step's rows held by several parts (bn_parts.py) ----
    dict(name="v65-parts-moments-count-from-row-0", file=PARTS,
         old="    n = active_rows_in(lengths, t, r0, r1)\n",
         new="    n = active_rows_in(lengths, t, 0, r1)\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="a block counts the active rows from row 0, not from its first row: every block after the first "
             "claims the earlier blocks' rows, and the step's mean and variance are weighted wrongly"),
    dict(name="v65-parts-running-variance-biased", file=PARTS,
         old="            rv_row[k] = (one - mom) * rv_row[k] + mom * var * unbias\n",
         new="            rv_row[k] = (one - mom) * rv_row[k] + mom * var\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="the h side's running variance takes the biased batch variance (n/(n-1) dropped)"),
    dict(name="v65-parts-empty-step-rstd-one", file=PARTS,
         old="            rstd[k] = one / np.sqrt(eps_)\n        return\n    inv_n = one / n\n",
         new="            rstd[k] = one\n        return\n    inv_n = one / n\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="a step with no active row gets rstd 1 (variance 1) instead of 1/sqrt(eps) (variance 0): the "
             "padded rows' outputs at that step change"),
    dict(name="v65-parts-inference-dx-without-rstd", file=PARTS,
         old="                    out[k] = gain[k] * rstd[k] * dr[k]\n",
         new="                    out[k] = gain[k] * dr[k]\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="the h side's backward in inference mode forgets the running statistics' 1/sqrt(var + eps)"),
    dict(name="v65-parts-gain-gradient-assigned", file=PARTS,
         old="        a[k] += b[k]\n",
         new="        a[k] = b[k]\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="add_cols assigns: dgh is the last step computed (t = 0)'s sum, not the sum over the steps"),
    # ---- a BN cell's x side (bn_cell_x.py): the fold path's statistics and sums, the wide path's masks ----
    dict(name="v65-fold-mean-over-every-row", file=CELLX,
         old="            m[i] /= n\n",
         new="            m[i] /= B\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="the narrow input's batch mean divides by B, not by the n active rows of the step"),
    dict(name="v65-fold-sums-uncentred", file=CELLX,
         old="                xi = dt(x_t[b, i] - xs_t[i])\n",
         new="                xi = dt(x_t[b, i])\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="the fold backward's P sums x_r dy instead of (x_r - mu) dy: in training s2, dWx, dgx and dx "
             "carry mu s1"),
    dict(name="v65-cell-x-fold-gain-and-bias-gradients-swapped", file=CELLX,
         old="        return dx, dWx, recurrent_weight_grad(dhw, h0, y, nch), db, dgain\n",
         new="        return dx, dWx, recurrent_weight_grad(dhw, h0, y, nch), dgain, db\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="the fold path returns dgx where db belongs and db where dgx belongs"),
    dict(name="v65-cell-x-wide-statistics-without-lengths", file=CELLX,
         old="    xn, mean_x, rstd_x = bn_forward(xw, gain, bias, rm, rv, training, momentum, eps, lengths)\n",
         new="    xn, mean_x, rstd_x = bn_forward(xw, gain, bias, rm, rv, training, momentum, eps)\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="a wide input's BN_t(x Wx) counts the padded rows in its statistics (and running rows)"),
    # ---- the BN-RNN's time loop split by rows (bn_rnn.py) ----
    dict(name="v65-rnn-every-part-adds-part-0s-columns", file=RNN,
         old="    k0, k1 = chunk_bounds(H, n, q)  # the columns of the summed gradients this part adds\n",
         new="    k0, k1 = chunk_bounds(H, n, 0)  # the columns of the summed gradients this part adds\n",
         tests=CELLS_NEW + CELLS_OLD,
         why="with several parts each adds the first part's columns of dgh (and the fold's dWx, dgx, db): those "
             "are counted n times and the others never"),
    dict(name="v65-rnn-fold-sums-of-the-parts-rows-per-block", file=RNN,
         old="fold_rows_sums(da_t, x[t], xs[t], lengths, t, b0, b1, V,",
         new="fold_rows_sums(da_t, x[t], xs[t], lengths, t, r0, r1, V,",
         tests=CELLS_NEW + CELLS_OLD,
         why="each block's fold sums P run over all of its part's rows: with two blocks a part's P counts its "
             "rows once per block"),
    # ---- the synchronized cells (bn_sync.py) ----
    dict(name="v65-sync-col-sums-count-the-first-padded-step", file=SYNC,
         old="        if t < lengths[b]:\n            xr = x2[b]\n",
         new="        if t <= lengths[b]:\n            xr = x2[b]\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="a row's sums still count at step lengths[b], its first padded step (the count n does not)"),
    dict(name="v65-sync-mean-without-the-shift", file=SYNC,
         old="        mean[k] = m\n",
         new="        mean[k] = d\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="the saved (and used) mean is the shifted one, mean - K: wrong wherever the running mean K is not 0"),
    dict(name="v65-sync-bwd-s2-uncentred", file=SYNC,
         old="                s2[k] += dr[k] * (xr[k] - mean[k]) * rstd[k]\n",
         new="                s2[k] += dr[k] * xr[k] * rstd[k]\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="the backward's sum of dy * xhat forgets to subtract the mean: dgain and dx are off by mean rstd s1"),
]
