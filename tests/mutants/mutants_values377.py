"""Planted bugs, round 377 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the BN-LSTM's CPU kernels (lnrnn/kernels/bn_lstm.py) and a BN cell's x side (lnrnn/kernels/bn_cell_x.py), nineteenth
pass: the g gate's tanh taken as 2 sigmoid(v) - 1 (its preactivation not doubled); the saved tanh of the cell's BN
replaced by the sigmoid it came from (y right, every gradient through the cell wrong); the lengths thrown away (every
row counted in every statistic); saved's mode flag always training (inference's backward as training's); the cell's
running mean and variance arrays swapped; the h side's backward sums given mean and rstd swapped; the fold backward's
per-block sums taken over the part's rows for each of its blocks; fold_stats zeroing only the mean of xs[t] (the
covariance left as it was at an empty step and in inference); fold_stats' mean not reset between steps; (C W)[i, k]
keeping only the last input's term; the fold path's loop gradients handed back with dgain and db swapped; the
training fold rows not centred on the batch mean of x_t; a part's gain gradient added from the first columns instead
of its own chunk; the rows of M summed on from cv and from each other (no reset). 14 mutants. Against the old
targeted files alone (the union of both lists below, the new files off the lists): all 14 caught, measured after the
new files were written. The old targeted files are test_values100_bn_lstm, test_values269_bn_lstm,
test_values79_bn_lstm, test_values18_bn_lstm, test_values296_bn_cells and test_values338_bn_cells for the BN-LSTM,
test_values18, 93, 110, 172 and 195_bn_cell_x and test_values338_bn_cells for the x side. The new value tests catch
every mutant on their own (checked with the old files taken off the lists): test_values377_bn_lstm (T 5, B 6 in four
row blocks, H 5, lengths 4, 2, 0, 3, 1, 3 (5, 4, 3, 1 and 0 active rows a step), running rows x 3, h 2, cell 6, I = 3
(fold) and 6 (wide), training and inference, one part and two: y, hT, cT, every array of saved (the fold path's xs
against the active rows' mean and biased covariance written in NumPy), the running rows and all ten gradients, plain
and with the clip at 0.05, against lnrnn.reference in float64; the running rows against momentum and the unbiased
variance of x_t Wx, h_{t-1} Wh and c_t, untouched rows included, and inference's saved statistics against the running
rows; the gradients against central differences of the reference's loss; float32 against the float64 reference) and
test_values377_bn_cell_x (each fold piece against NumPy: fold_stats into an xs filled with NaN, fold_step_stats'
mean, rstd and running rows in float64 and float32, one part's fold_rows_forward, the fold backward of one step in
two row parts and two column chunks against reference._bn_step_backward carried through z = x W; cell_x_forward and
cell_x_backward on both paths, the loop gradients' order and dWh by definition). Left out as equivalent: the padded
rows' dcarry reset (lines 371-376: a padded row's carried gradient is zero already, its dL/d BN(c) being zero at
every padded step from T - 1 down); M[i, j] written as M[j, i] (M = sum_k s2_k rstd_k^2 g_k W[:, k] W[:, k]^T is
symmetric); bn_cell_x.cell_x_backward's nch from x.shape[0] (a block count: only the GEMMs' split, and so the bits,
changes). Left out as garbage-dependent or out of bounds: dhn or dcarry made np.empty, the exchange rows or
sigmoid_row's scratch shortened, T and 1 swapped in da's shape, H = G // 3 (values read from np.empty's leftovers or
past an array's end). Left out as a race rather than a value: the second barrier's generation one lower.

    python tests/mutants/run.py --only 'v377-*'
"""
LSTM = "lnrnn/kernels/bn_lstm.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"

T_LSTM = "tests/kernels/test_values377_bn_lstm.py::"
T_CELLX = "tests/kernels/test_values377_bn_cell_x.py::"
ALL = T_LSTM + "test_every_output_against_the_reference"
RUNNING = T_LSTM + "test_running_rows_by_their_definition_then_inference"
OLD_LSTM = ["tests/kernels/test_values100_bn_lstm.py", "tests/kernels/test_values269_bn_lstm.py",
            "tests/kernels/test_values79_bn_lstm.py", "tests/kernels/test_values18_bn_lstm.py",
            "tests/kernels/test_values296_bn_cells.py", "tests/kernels/test_values338_bn_cells.py"]
OLD_CELLX = ["tests/kernels/test_values18_bn_cell_x.py", "tests/kernels/test_values93_bn_cell_x.py",
             "tests/kernels/test_values110_bn_cell_x.py", "tests/kernels/test_values172_bn_cell_x.py",
             "tests/kernels/test_values195_bn_cell_x.py", "tests/kernels/test_values338_bn_cells.py"]

MUTANTS = [
    # ---- the BN-LSTM: lnrnn/kernels/bn_lstm.py ----
    dict(name="v377-bn-lstm-g-gate-not-doubled", file=LSTM,
         old="            ag[j] *= two",
         new="            ag[j] *= one",
         tests=[ALL + "[fold-training]", ALL + "[wide-inference]"] + OLD_LSTM,
         why="the g gate is 2 sigmoid(v) - 1 = tanh(v/2), not tanh(v): the cell, y and every gradient wrong"),
    dict(name="v377-bn-lstm-tc-saved-as-sigmoid", file=LSTM,
         old="            tr[j] = tcv",
         new="            tr[j] = z[j]",
         tests=[ALL + "[fold-training]", ALL + "[wide-inference]",
                T_LSTM + "test_gradients_against_central_differences[fold-training]"] + OLD_LSTM,
         why="saved tc holds sigmoid(2 BN(c)) instead of its tanh: y is right, the backward through do and dc wrong"),
    dict(name="v377-bn-lstm-lengths-dropped", file=LSTM,
         old="    lengths = as_lengths(lengths, T, B)",
         new="    lengths = as_lengths(None, T, B)",
         tests=[ALL + "[fold-training]", ALL + "[wide-training]", RUNNING + "[wide]"] + OLD_LSTM,
         why="the masks are ignored: padded rows count in every BN_t's statistics and in the gradients"),
    dict(name="v377-bn-lstm-saved-always-training", file=LSTM,
         old="mean_c, rstd_c, tc, y, lengths, training)\n",
         new="mean_c, rstd_c, tc, y, lengths, True)\n",
         tests=[ALL + "[fold-inference]", ALL + "[wide-inference]",
                T_LSTM + "test_gradients_against_central_differences[wide-inference]"] + OLD_LSTM,
         why="inference's backward differentiates batch statistics that the forward never used"),
    dict(name="v377-bn-lstm-cell-running-arrays-swapped", file=LSTM,
         old="rmh, rvh, rmc, rvc = unowned(run[0]), unowned(run[1]), unowned(run[2]), unowned(run[3])",
         new="rmh, rvh, rmc, rvc = unowned(run[0]), unowned(run[1]), unowned(run[3]), unowned(run[2])",
         tests=[ALL + "[fold-training]", ALL + "[wide-inference]", RUNNING + "[fold]"] + OLD_LSTM,
         why="the cell's running mean is updated into the running variance's array and the other way round"),
    dict(name="v377-bn-lstm-bwd-h-sums-mean-rstd-swapped", file=LSTM,
         old="blocks_bwd_sums(da_t, hw[t], lengths, t, mean_h[t], rstd_h[t], nblk, kb0, kb1, exh)",
         new="blocks_bwd_sums(da_t, hw[t], lengths, t, rstd_h[t], mean_h[t], nblk, kb0, kb1, exh)",
         tests=[ALL + "[fold-training]", ALL + "[wide-training]",
                T_LSTM + "test_gradients_against_central_differences[fold-training]"] + OLD_LSTM,
         why="the h side's sum of da * hhat is taken with mean and rstd swapped: dgh and dhw, so dh, wrong"),
    dict(name="v377-bn-lstm-fold-sums-over-the-part-per-block", file=LSTM,
         old="fold_rows_sums(da_t, x[t], xs[t], lengths, t, b0, b1, V,",
         new="fold_rows_sums(da_t, x[t], xs[t], lengths, t, r0, r1, V,",
         tests=[ALL + "[fold-training]", ALL + "[fold-inference]",
                T_LSTM + "test_gradients_against_central_differences[fold-training]"] + OLD_LSTM,
         why="each block's P sums over all of its part's rows: P counts every row once per block of the part"),
    # ---- the x side: lnrnn/kernels/bn_cell_x.py ----
    dict(name="v377-bn-cell-x-fold-stats-zeroes-the-mean-only", file=CELLX,
         old="        for i in range(xs.shape[1]):\n            xs[t, i] = 0.0",
         new="        for i in range(I):\n            xs[t, i] = 0.0",
         tests=[T_CELLX + "test_fold_stats_mean_and_covariance[training]",
                T_CELLX + "test_fold_stats_mean_and_covariance[inference]"] + OLD_CELLX,
         why="xs[t] keeps whatever it held in its covariance at an empty step and in inference, not the zeros"
             " fold_stats and the saved xs document"),
    dict(name="v377-bn-cell-x-fold-stats-mean-not-reset", file=CELLX,
         old="        m[:] = 0.0\n",
         new="",
         tests=[T_CELLX + "test_fold_stats_mean_and_covariance[training]", ALL + "[fold-training]"] + OLD_CELLX,
         why="each step's input mean starts from the last step's: mean and covariance of x_t wrong after step 0"),
    dict(name="v377-bn-cell-x-cov-times-w-last-term-only", file=CELLX,
         old="            cw[k] += cij * Wj[k]",
         new="            cw[k] = cij * Wj[k]",
         tests=[T_CELLX + "test_fold_step_stats_against_the_projected_columns[f64]",
                ALL + "[fold-training]"] + OLD_CELLX,
         why="(C W)[i, k] keeps only its last input's term: the fold path's variances and dW wrong for I > 1"),
    dict(name="v377-bn-cell-x-loop-grads-dgain-db-swapped", file=CELLX,
         old="        dx, dWx, dgain, db = loop_grads",
         new="        dx, dWx, db, dgain = loop_grads",
         tests=[T_CELLX + "test_cell_x_forward_and_backward_on_the_fold_path", ALL + "[fold-training]"] + OLD_CELLX,
         why="the fold path returns dgx as db and db as dgx"),
    dict(name="v377-bn-cell-x-fold-rows-not-centred", file=CELLX,
         old="            xi = xc[i]",
         new="            xi = x_t[b, i]",
         tests=[T_CELLX + "test_fold_rows_forward_one_part[training]", ALL + "[fold-training]"] + OLD_CELLX,
         why="training's fold rows use x_r instead of x_r - mean(x_t): BN_t(x_t Wx) shifted by mu . W rstd g"),
    dict(name="v377-bn-cell-x-dgain-from-the-first-columns", file=CELLX,
         old="        dg[k] += s2_[k]",
         new="        dg[k] += s2[k]",
         tests=[T_CELLX + "test_fold_backward_step_against_the_reference_bn_backward[step0-training]",
                ALL + "[fold-training]"] + OLD_CELLX,
         why="a column chunk past 0 adds the first columns' s2 to its gain gradient: dgx wrong with two parts"),
    dict(name="v377-bn-cell-x-m-not-reset", file=CELLX,
         old="            Wj = W[j]\n            a = dt(0)\n",
         new="            Wj = W[j]\n",
         tests=[T_CELLX + "test_fold_backward_step_against_the_reference_bn_backward[step0-training]",
                ALL + "[fold-training]"] + OLD_CELLX,
         why="M[i, j] sums on from cv[i] and M[i, j-1]: the batch part of the fold path's dx wrong in training"),
]
