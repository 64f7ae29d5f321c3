"""Planted bugs, round 296 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the BatchNorm CPU cells, fifteenth pass: the synchronised cells (lnrnn/kernels/bn_sync.py), the fused
BN-LSTM and BN-RNN (lnrnn/kernels/bn_lstm.py, bn_rnn.py) and their input side (lnrnn/kernels/bn_cell_x.py): a step
with no active row falling through to 1/0; the shifted mean taken from the squares' sum; the running rows updated
by the row count instead of the step's own row; the active rows counted one step early; the synchronised LSTM not
carrying c (and returning tanh c for cT); its backward reading the previous step's count, the x side scaled by gh,
the c side's sums taken from dy, a row of length t + 1 treated as padded at step t; the fold path's input
statistics divided by zero in inference and its mean divided twice; the fused BN-RNN's backward taking the fold
path one input column too far; the fused BN-LSTM's tanh of BN(c) shifted by +1.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values296_bn_sync (the synchronised BN-RNN and BN-LSTM,
reduce the identity, B 5, H 3, T 4, I 2 and FOLD_MAX_I + 1, lengths [4, 0, 1, 4, 2] and [3, 0, 1, 2, 1], against
lnrnn.reference's y, hT, cT and running rows, the counts per step by hand, the empty step's running row untouched;
step chunks 1, 2 and 3 bit for bit; the running rows after one and two calls against (1 - m) r + m s with the
variance's n/(n - 1) written out, one h row moved by step 0 only; every gradient in float64 against central
differences of the reference's loss), test_values296_bn_cells (the fused cells at I 2, FOLD_MAX_I and
FOLD_MAX_I + 1, training and inference with fewer running rows than steps, against the reference's outputs and
running rows and central differences of its loss). Left out as equivalent: _step_chunks' count changed (the chunks
change no bit, threads.run_chunks); the shift rows of col_sums taken from another running row (_shift_rows,
_h_sums' and _lstm_gates' copies: the shift cancels in the mean and variance up to rounding); the inference path
of bn_sync.bn_lstm_forward not passing lengths (inference ignores them; padded rows run on); the fused BN-LSTM's
backward zeroing dcarry from t > lengths[b] (a padded row's carried gradient is already zero there). Left out as
garbage-dependent rather than a value: the x side's step loops of _seq_sums and _seq_normalize starting one step
late (np.empty's leftover memory).

    python tests/mutants/run.py --only 'v296-*'
"""
SYNC = "lnrnn/kernels/bn_sync.py"
LSTM = "lnrnn/kernels/bn_lstm.py"
RNN = "lnrnn/kernels/bn_rnn.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"

T_SYNC = "tests/kernels/test_values296_bn_sync.py::"
T_CELLS = "tests/kernels/test_values296_bn_cells.py::"
SYNC_FWD = T_SYNC + "test_forward_running_rows_and_counts_against_the_reference"
SYNC_BWD = T_SYNC + "test_backward_against_central_differences_of_the_reference"
RUNNING = T_SYNC + "test_running_rows_after_one_and_two_updates_are_the_momentum_formula"
CELLS_FWD = T_CELLS + "test_forward_and_running_rows_against_the_reference"
CELLS_BWD = T_CELLS + "test_backward_against_central_differences_of_the_reference"
OLD_SYNC = ["tests/kernels/test_values287_bn_sync.py", "tests/kernels/test_values195_bn_sync.py"]
OLD_LSTM = ["tests/kernels/test_values269_bn_lstm.py", "tests/kernels/test_values100_bn_lstm.py"]
OLD_RNN = ["tests/kernels/test_values287_bn_rnn.py", "tests/kernels/test_values100_bn_rnn.py"]
OLD_CELLX = ["tests/kernels/test_values195_bn_cell_x.py", "tests/kernels/test_values172_bn_cell_x.py"]

MUTANTS = [
    # ---- the synchronised cells: lnrnn/kernels/bn_sync.py ----
    dict(name="v296-sync-empty-step-falls-through", file=SYNC,
         old="            rstd[k] = one / np.sqrt(dt(eps))\n        return\n",
         new="            rstd[k] = one / np.sqrt(dt(eps))\n",
         tests=[SYNC_FWD + "[rnn-empty-step-2]"] + OLD_SYNC,
         why="a step with no active row goes on to 1/0: its mean, rstd and running rows become inf/nan"),
    dict(name="v296-sync-mean-from-squares", file=SYNC,
         old="        d = sums[k] * inv_n\n",
         new="        d = sums[F + k] * inv_n\n",
         tests=[SYNC_FWD + "[rnn-full-2]"] + OLD_SYNC,
         why="the shifted mean is read from the sum of squares: mean and variance wrong at every step"),
    dict(name="v296-sync-update-by-count", file=SYNC,
         old="        if training_update:\n",
         new="        if n > 1:\n",
         tests=[RUNNING, SYNC_FWD + "[rnn-full-2]"] + OLD_SYNC,
         why="the running rows move whenever two rows are active: steps past the running rows fold into the last "
             "row again, a one-row step never updates"),
    dict(name="v296-sync-counts-one-step-early", file=SYNC,
         old="            out[t] += 1\n",
         new="            out[t - 1] += 1\n",
         tests=[SYNC_FWD + "[rnn-full-2]"] + OLD_SYNC,
         why="each row is counted at the step before (step 0's at the last): every step's n is wrong"),
    dict(name="v296-sync-lstm-c-not-carried", file=SYNC,
         old="        hprev, cprev = y[t], c[t]\n",
         new="        hprev, cprev = y[t], cprev\n",
         tests=[SYNC_FWD + "[lstm-full-2]"] + OLD_SYNC,
         why="the synchronised BN-LSTM forgets its cell state: every step starts from c0"),
    dict(name="v296-sync-lstm-ct-is-tanh", file=SYNC,
         old="    return y, y[T - 1].copy(), c[T - 1].copy(), saved",
         new="    return y, y[T - 1].copy(), tc[T - 1].copy(), saved",
         tests=[SYNC_FWD + "[lstm-full-2]"] + OLD_SYNC,
         why="cT returned is tanh(BN(c_T)) instead of c_T"),
    dict(name="v296-sync-lstm-bwd-count-of-previous-step", file=SYNC,
         old="        n = int(counts[t])\n        _lstm_bwd_cell",
         new="        n = int(counts[t - 1])\n        _lstm_bwd_cell",
         tests=[SYNC_BWD + "[lstm-full-2]"] + OLD_SYNC,
         why="the LSTM backward divides step t's batch sums by step t-1's active rows"),
    dict(name="v296-sync-lstm-x-backward-gh", file=SYNC,
         old="    dxw, dgx, db = _x_backward(reduce, da, xw, lengths, mean_x, rstd_x, gx, counts)\n"
             "    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, nblk)\n    return dx, dhn, dcarry",
         new="    dxw, dgx, db = _x_backward(reduce, da, xw, lengths, mean_x, rstd_x, gh, counts)\n"
             "    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, nblk)\n    return dx, dhn, dcarry",
         tests=[SYNC_BWD + "[lstm-full-5]"] + OLD_SYNC,
         why="the synchronised BN-LSTM's x side backward scales by the h side's gain: dx and dWx wrong"),
    dict(name="v296-sync-lstm-c-sums-from-dy", file=SYNC,
         old="    bwd_sums(dcn, c_t, lengths, t, mean_c, rstd_c, sums)",
         new="    bwd_sums(dy_t, c_t, lengths, t, mean_c, rstd_c, sums)",
         tests=[SYNC_BWD + "[lstm-full-2]"] + OLD_SYNC,
         why="the c side's batch sums (and dgc, dbc) are taken from dy, not dL/d BN(c)"),
    dict(name="v296-sync-lstm-c-dx-step-late", file=SYNC,
         old="    bwd_dx(dcn, c_t, lengths, t, mean_c, rstd_c, gc, csums, n, dcbn)",
         new="    bwd_dx(dcn, c_t, lengths, t + 1, mean_c, rstd_c, gc, csums, n, dcbn)",
         tests=[SYNC_BWD + "[lstm-full-2]"] + OLD_SYNC,
         why="a row whose last step is t gets no gradient through BN(c_t): the decision fires one step early"),
    # ---- the input side: lnrnn/kernels/bn_cell_x.py ----
    dict(name="v296-cellx-empty-step-divides", file=CELLX,
         old="        if n == 0:\n            continue",
         new="        if n < 0:\n            continue",
         tests=[CELLS_FWD + "[rnn-full-inference-2]"] + OLD_CELLX,
         why="an empty step (and every step in inference) divides the input sums by 0: nan statistics"),
    dict(name="v296-cellx-mean-divided-twice", file=CELLX,
         old="            xs[t, i] = m[i]\n",
         new="            xs[t, i] = m[i] / n\n",
         tests=[CELLS_FWD + "[rnn-full-training-2]"] + OLD_CELLX,
         why="the fold path's input mean is divided by n a second time: mean and variance of x Wx wrong"),
    # ---- the fused cells: lnrnn/kernels/bn_rnn.py, bn_lstm.py ----
    dict(name="v296-rnn-bwd-fold-one-column-far", file=RNN,
         old="    fold = 0 < I <= FOLD_MAX_I  # then saved[0] is xs",
         new="    fold = 0 < I <= FOLD_MAX_I + 1  # then saved[0] is xs",
         tests=[CELLS_BWD + "[rnn-training-5]"] + OLD_RNN,
         why="at I = FOLD_MAX_I + 1 the backward takes the fold path the forward did not: saved[0] read as xs"),
    dict(name="v296-lstm-tanh-c-plus-one", file=LSTM,
         old="            tcv = two * z[j] - one",
         new="            tcv = two * z[j] + one",
         tests=[CELLS_FWD + "[lstm-full-training-2]"] + OLD_LSTM,
         why="tanh(BN(c)) = 2 sigmoid(2v) - 1 written with + 1: h = o (tanh + 2)"),
]
