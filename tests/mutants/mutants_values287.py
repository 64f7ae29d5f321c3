"""Planted bugs, round 287 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the BatchNorm pieces split over row blocks (lnrnn/kernels/bn_parts.py), the synchronised BN cells
(lnrnn/kernels/bn_sync.py), the BN cells' input projection (lnrnn/kernels/bn_cell_x.py) and the BN-RNN's time
loop (lnrnn/kernels/bn_rnn.py), thirteenth pass: the blocks' moments combined without block 0; a block with every
row active falling through to the masked pass as well; the running rows updated at every step of training, past
the running rows and by every part; rstd taken from the unbiased variance; the inference backward's dx using the
training formula whenever a row is active; the synchronised sums not shifted by the running mean; the synchronised
BN-RNN's x side normalized into the h side's running rows; its recurrence fed the pre-normalization h Wh; its x
side's backward with gh for gx; the fold path's statistics of the input taken in inference too; the covariance
read from the row without the mean's offset; the fold backward's M scaled by gain for rstd; the BN-RNN's
backward sums written into the other step's exchange row; the BN-RNN's x running mean and variance swapped.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values287_bn_parts (B = 7 in blocks of 1, 2, 2, 2 rows
and lengths 3, 0, 1, 3, 2, 3, 1: each block's count, mean and M2 against its active rows in NumPy; the blocks
combined against one pass over the batch, biased variance and eps inside the root; the running rows against
(1 - m) r + m s with n/(n - 1), and untouched without the update; inference dx against gain rstd dy written out),
test_values287_bn_rnn (the fused BN-RNN over two chunks, the second from the first's hT and running rows, against
lnrnn.reference.bn_rnn_forward in training and inference, fold and wide inputs, running rows fewer than steps;
the second chunk's every gradient against central differences of the reference's loss in float64; float32
against the float64 reference within 2e-4 and 2e-3), test_values287_bn_sync (the synchronised BN-RNN, reduce the
identity, running means far from the batch means, against the reference's y, hT and running rows, the counts
6, 4, 3, 2 by hand, and every gradient against central differences of the reference). Left out as equivalent:
parts_stats' skip of a part with no active row (its M2 and n_p (m_p - m)^2 are both 0); cov_times_w reading
C[j, i] for C[i, j] and fold_step_backward writing M[j, i] for M[i, j] (C and M are symmetric); the fold path
chosen for I < FOLD_MAX_I instead of I <= FOLD_MAX_I (both paths compute the same statistics up to rounding);
the sync x side's shift rows all taken from row 0 (the shift cancels in the mean and variance up to rounding);
the fused BN-RNN's moments computed in inference (parts_stats reads the running rows there); the inference path
of bn_sync not passing lengths (inference statistics ignore them). Left out as garbage-dependent rather than a
value: mean_h written by part 1 instead of part 0 (np.empty's leftover memory).

    python tests/mutants/run.py --only 'v287-*'
"""
PARTS = "lnrnn/kernels/bn_parts.py"
SYNC = "lnrnn/kernels/bn_sync.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"
RNN = "lnrnn/kernels/bn_rnn.py"

T_PARTS = "tests/kernels/test_values287_bn_parts.py::"
T_RNN = "tests/kernels/test_values287_bn_rnn.py::"
T_SYNC = "tests/kernels/test_values287_bn_sync.py::"
FWD = T_RNN + "test_two_chunks_forward_and_running_rows_against_the_reference"
BWD = T_RNN + "test_second_chunk_gradients_against_central_differences"
SYNC_FWD = T_SYNC + "test_forward_and_running_rows_against_the_reference"
SYNC_BWD = T_SYNC + "test_backward_against_central_differences_of_the_reference"
COMBINED = T_PARTS + "test_blocks_combined_in_order_are_one_pass_over_the_batch_and_the_momentum_update"
OLD_PARTS = ["tests/kernels/test_values154_bn_parts.py", "tests/kernels/test_values177_bn_parts.py"]
OLD_SYNC = ["tests/kernels/test_values172_bn_sync.py", "tests/kernels/test_values195_bn_sync.py"]
OLD_CELLX = ["tests/kernels/test_values172_bn_cell_x.py", "tests/kernels/test_values195_bn_cell_x.py"]
OLD_RNN = ["tests/kernels/test_values100_bn_rnn.py", "tests/kernels/test_values65_bn_rnn.py"]

MUTANTS = [
    # ---- the blocks' statistics: lnrnn/kernels/bn_parts.py ----
    dict(name="v287-parts-mean-skips-block-0", file=PARTS,
         old="    for p in range(parts.shape[0]):\n        w = parts[p, 0] * inv_n",
         new="    for p in range(1, parts.shape[0]):\n        w = parts[p, 0] * inv_n",
         tests=[COMBINED + "[0]", FWD + "[training-wide]"] + OLD_PARTS,
         why="the combined mean leaves out block 0's rows (and with it the M2's deviations are taken from it)"),
    dict(name="v287-parts-full-block-falls-through", file=PARTS,
         old="                s_[k] += d * d\n        return\n    e = r0",
         new="                s_[k] += d * d\n    e = r0",
         tests=[T_PARTS + "test_each_blocks_moments_are_its_active_rows[0]", FWD + "[training-wide]"] + OLD_PARTS,
         why="a block with every row active runs the masked passes too: its mean and M2 are added to again"),
    dict(name="v287-parts-update-on-training", file=PARTS,
         old="        if update:\n",
         new="        if training:\n",
         tests=[COMBINED + "[1]", FWD + "[training-wide]"] + OLD_PARTS,
         why="every part updates the running rows at every step, also past the last running row"),
    dict(name="v287-parts-rstd-unbiased-variance", file=PARTS,
         old="        rstd[k] = one / np.sqrt(var + eps_)",
         new="        rstd[k] = one / np.sqrt(var * unbias + eps_)",
         tests=[COMBINED + "[2]", FWD + "[training-wide]"] + OLD_PARTS,
         why="the batch is normalized with the unbiased variance n/(n-1) var instead of the biased one"),
    dict(name="v287-parts-inference-dx-training-formula", file=PARTS,
         old="        if training:\n            for b in range(lo, e):\n                xr, dr, out = x2[b], dy2[b], dx2[b]",
         new="        if n > 0:\n            for b in range(lo, e):\n                xr, dr, out = x2[b], dy2[b], dx2[b]",
         tests=[T_PARTS + "test_inference_dx_is_gain_rstd_dy_and_zero_on_padded_rows",
                BWD + "[inference-wide]"] + OLD_PARTS,
         why="the inference backward subtracts the batch terms (s1 + xhat s2)/n whenever a row is active"),
    # ---- the synchronised cells: lnrnn/kernels/bn_sync.py ----
    dict(name="v287-sync-sum-not-shifted", file=SYNC,
         old="                s1[k] += d\n",
         new="                s1[k] += xr[k]\n",
         tests=[SYNC_FWD] + OLD_SYNC,
         why="the first shifted sum adds x, not x - K: mean = K + mean(x) and the variance loses its shift"),
    dict(name="v287-sync-rnn-x-side-h-running-rows", file=SYNC,
         old="    xw = matmul(x.reshape(T * B, I), Wx, nblk).reshape(T, B, H)\n"
             "    xn, mean_x, rstd_x, counts = _x_forward(reduce, xw, lengths, gx, b, rmx, rvx, momentum, eps)",
         new="    xw = matmul(x.reshape(T * B, I), Wx, nblk).reshape(T, B, H)\n"
             "    xn, mean_x, rstd_x, counts = _x_forward(reduce, xw, lengths, gx, b, rmh, rvh, momentum, eps)",
         tests=[SYNC_FWD] + OLD_SYNC,
         why="the BN-RNN's x side is shifted by and folded into the h side's running rows; rmx, rvx never move"),
    dict(name="v287-sync-rnn-recurrence-fed-hw", file=SYNC,
         old="        hprev = y[t]\n",
         new="        hprev = hw[t]\n",
         tests=[SYNC_FWD] + OLD_SYNC,
         why="the synchronised BN-RNN's next step multiplies h_{t-1} Wh by Wh again, not the output y_t"),
    dict(name="v287-sync-rnn-x-backward-gh", file=SYNC,
         old="    dxw, dgx, db = _x_backward(reduce, da, xw, lengths, mean_x, rstd_x, gx, counts)\n"
             "    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, nblk)\n    return dx, dhn, dWx, dWh, db, dgx, dgh",
         new="    dxw, dgx, db = _x_backward(reduce, da, xw, lengths, mean_x, rstd_x, gh, counts)\n"
             "    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, nblk)\n    return dx, dhn, dWx, dWh, db, dgx, dgh",
         tests=[SYNC_BWD] + OLD_SYNC,
         why="the synchronised BN-RNN's x side backward scales by the h side's gain: dx and dWx wrong"),
    # ---- the input projection: lnrnn/kernels/bn_cell_x.py ----
    dict(name="v287-cellx-fold-stats-in-inference", file=CELLX,
         old="        fold_stats(*readonly(x, lengths), training, xs)",
         new="        fold_stats(*readonly(x, lengths), True, xs)",
         tests=[FWD + "[inference-fold]"] + OLD_CELLX,
         why="the fold path takes the batch's input mean in inference too: x is centred twice"),
    dict(name="v287-cellx-covariance-without-offset", file=CELLX,
         old="        cij = dt(xs_t[I + i * I + j])",
         new="        cij = dt(xs_t[i * I + j])",
         tests=[FWD + "[training-fold]"] + OLD_CELLX,
         why="C[i, j] read from xs_t without skipping the I means: the fold path's variance is wrong"),
    dict(name="v287-cellx-m-scaled-by-gain", file=CELLX,
         old="        s2[k] *= rstd[k]  # s2_k rstd_k",
         new="        s2[k] *= gain[k]  # s2_k rstd_k",
         tests=[BWD + "[training-fold]"] + OLD_CELLX,
         why="the fold backward's M takes s2_k gain_k for s2_k rstd_k: dx's batch part is wrong"),
    # ---- the BN-RNN's time loop: lnrnn/kernels/bn_rnn.py ----
    dict(name="v287-rnn-bwd-sums-other-parity", file=RNN,
         old="rstd_h[t], nblk, kb0, kb1, ex[t % 2])",
         new="rstd_h[t], nblk, kb0, kb1, ex[(t + 1) % 2])",
         tests=[BWD + "[training-wide]"] + OLD_RNN,
         why="a step's backward sums go into the other step's exchange row: the step reads the later step's"),
    dict(name="v287-rnn-x-running-rows-swapped", file=RNN,
         old="    rmh, rvh, rmx, rvx = unowned(run[0]), unowned(run[1]), unowned(run[2]), unowned(run[3])",
         new="    rmh, rvh, rmx, rvx = unowned(run[0]), unowned(run[1]), unowned(run[3]), unowned(run[2])",
         tests=[FWD + "[inference-fold]", FWD + "[training-fold]"] + OLD_RNN,
         why="the fold path's x running mean and variance are each other: inference normalizes with the wrong rows"),
]
