"""Planted bugs, round 172 (format: tests/mutants/mutants.py): single-line slips on lines of the
synchronized BN cells (lnrnn/kernels/bn_sync.py) and the BN x side (lnrnn/kernels/bn_cell_x.py) that no earlier
catalogue mutates: a step no row runs saving the shift as its mean, the x side's gain and bias swapped in the
normalization and its dgain and dbias swapped on return, the BN-LSTM's c sums shifted by the h side's running
mean, its dgh gathered over the first gate only, the BN-RNN's running row clamped one past the end, its backward
loop stopping before step 0 and its h-side backward sums left unreduced; the fold path's C W product reading W's
row i, a column chunk's dbias added from column 0, the dx correction's sign and the inference mean left 0, and
the unfolded cell_x_backward returning dgain and db swapped.

13 mutants. Against the existing targeted tests alone the first 12 were measured and all 12 were caught
(the last, v172-cellx-backward-db-dgain-swapped, was not reached by the old tests' run under load). The new
value tests alone (the old files taken off the lists) catch all 13; the lists give the new tests first and the
old ones after. test_values172_bn_sync: the BN-LSTM and BN-RNN in one
process, T = 4 past Ts = 2 running rows, a row that never runs and a last step no row runs: every step's saved
statistics of x Wx, h_{t-1} Wh and c_t against the mean and biased variance over the active rows in NumPy (mean 0
and rstd 1/sqrt(eps) at the empty step), the running rows against momentum and the unbiased variance, every
gradient against central differences of the kernel's forward on a loss over the active (step, row)s; and three
ranks on threads (a rank holding one row of length 0, a one-row rank, a rank of three rows) against the one
process's outputs, running rows, input gradients and summed parameter gradients. test_values172_bn_cell_x: the
fold pieces with rows in two parts and columns in two chunks, training and inference, and the unfolded
cell_x_forward/backward, against BatchNorm of x_t W in NumPy and its central differences.
Dropped as equivalent: fold_stats centring the covariance's second factor with m[i] instead of m[k] (the
first factor sums to zero over the active rows, so the covariance is unchanged; the old tests missed it too);
fold_rows_sums' dx_t[b, i] = acc as += (the rows were just zeroed); the BN-LSTM's running-row index of c taken
from h's (Tsh and Tsc are always equal); the shift copies (_shift_rows, _h_sums, _lstm_gates) and the BN-LSTM's
padded-row dcarry test (t > lengths[b]: dc of a padded row is already 0, as the BN of c passes none).

    python tests/mutants/run.py --only 'v172-*'
"""
SYNC = "lnrnn/kernels/bn_sync.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"

# existing tests of these modules
SYNC_OLD = ["tests/kernels/test_values138_bn_sync.py", "tests/kernels/test_values65_bn_sync.py",
            "tests/kernels/test_values93_bn_sync.py", "tests/kernels/test_values110_bn_sync.py"]
CELLX_OLD = ["tests/kernels/test_values110_bn_cell_x.py", "tests/kernels/test_values93_bn_cell_x.py",
             "tests/kernels/test_values18_bn_cell_x.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SYNC_NEW = ["tests/kernels/test_values172_bn_sync.py"]
CELLX_NEW = ["tests/kernels/test_values172_bn_cell_x.py"]

MUTANTS = [
    # ---- bn_sync.py ----
    dict(name="v172-sync-empty-step-mean-is-shift", file=SYNC,
         old="            mean[k] = dt(0)\n",
         new="            mean[k] = shift[k]\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="a step no row of any rank runs saves the running mean (the shift) as its mean instead of 0"),
    dict(name="v172-sync-x-normalize-gain-bias-swapped", file=SYNC,
         old="(gain, bias), (rm, rv)",
         new="(bias, gain), (rm, rv)",
         tests=SYNC_NEW + SYNC_OLD,
         why="the x side's normalization gets the bias as its gain and the gain as its bias"),
    dict(name="v172-sync-x-backward-dgain-dbias-swapped", file=SYNC,
         old="    return dxw, dgain, dbias\n",
         new="    return dxw, dbias, dgain\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="_x_backward returns the x side's dbias where the cells read dgx, and dgain as db"),
    dict(name="v172-sync-c-sums-with-h-shift", file=SYNC,
         old="    col_sums(c_t, lengths, t, shift_c, csums)",
         new="    col_sums(c_t, lengths, t, shift, csums)",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-LSTM's c sums are shifted by the h side's running mean while the statistics add back c's: "
             "mean_c off by the difference of the two running means"),
    dict(name="v172-sync-lstm-dgh-first-gate-only", file=SYNC,
         old="    for k in range(4 * H):\n",
         new="    for k in range(H):\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-LSTM's dgh gathers the first gate's H columns only (H where G = 4H was meant)"),
    dict(name="v172-sync-rnn-running-row-past-end", file=SYNC,
         old="        r = min(t, Ts - 1)\n        _h_sums(",
         new="        r = min(t, Ts)\n        _h_sums(",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-RNN's h side clamps the running row to Ts instead of Ts - 1: a step past the running rows "
             "indexes one row too far"),
    dict(name="v172-sync-rnn-backward-skips-step-0", file=SYNC,
         old="    for t in range(T - 1, -1, -1):\n        _rnn_bwd_sums(",
         new="    for t in range(T - 1, 0, -1):\n        _rnn_bwd_sums(",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-RNN's backward loop stops before step 0: no dh0, and step 0's da is left unset"),
    dict(name="v172-sync-rnn-backward-sums-not-reduced", file=SYNC,
         old="        reduce(buf)\n        n = int(counts[t])\n",
         new="        n = int(counts[t])\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-RNN's h-side backward sums stay each rank's own: dx of a rank is its shard's BatchNorm's "
             "(one process cannot tell)"),
    # ---- bn_cell_x.py ----
    dict(name="v172-cellx-cov-times-w-row-i", file=CELLX,
         old="        Wj = W[j, k0:k1]\n",
         new="        Wj = W[i, k0:k1]\n",
         tests=CELLX_NEW + CELLX_OLD,
         why="cov_times_w multiplies C's row by W's row i instead of row j: (C W)[i] and so every variance "
             "and dW's correction wrong"),
    dict(name="v172-cellx-dbias-unsliced-s1", file=CELLX,
         old="        db[k] += s1_[k]\n",
         new="        db[k] += s1[k]\n",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_step_backward adds the whole s1 from column 0 into a column chunk's dbias: wrong past the "
             "first chunk"),
    dict(name="v172-cellx-dx-correction-sign", file=CELLX,
         old="dx_t[b, i] -= s * inv_n",
         new="dx_t[b, i] += s * inv_n",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_rows_dx adds the batch-mean correction (V s1 + M (x - mu)) / n instead of taking it off"),
    dict(name="v172-cellx-inference-mean-zero", file=CELLX,
         old="            mean[k] = rm_row[k]\n",
         new="            mean[k] = dt(0)\n",
         tests=CELLX_NEW + CELLX_OLD,
         why="fold_step_stats in inference leaves the mean 0 (as xs is) instead of the running mean"),
    dict(name="v172-cellx-backward-db-dgain-swapped", file=CELLX,
         old="    return dx, dWx, dWh, db, dgain\n",
         new="    return dx, dWx, dWh, dgain, db\n",
         tests=CELLX_NEW + CELLX_OLD,
         why="cell_x_backward's unfolded path returns dgain where the cells read db, and db as dgain"),
]
