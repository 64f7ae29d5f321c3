"""Planted bugs, round 338 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the fused BatchNorm cells on the CPU, eighteenth pass: the BN-LSTM (lnrnn/kernels/bn_lstm.py), the BN-RNN
(lnrnn/kernels/bn_rnn.py) and their input side (lnrnn/kernels/bn_cell_x.py): the LSTM's backward reading the forget
gate from the input gate's block; its fold path in inference normalizing as in training; its h side's two batch sums
swapped; dgc and dbc added by every part over part 0's columns; the wide x side's backward told that every row runs;
the BN-RNN's tanh written 2 sigmoid(2v) + 1; its hT taken one step early; the fold path's x statistics called with
momentum and eps swapped; the forward leaving the fold path one input width early while the backward keeps it (a
backward that fails at I = FOLD_MAX_I); the fold path's input covariance kept on and below its diagonal only; the
mean of x_t Wx keeping only the last input's term; the inference offset of the fold rows dropped; the fold
backward's per-block sums taken from row 0; the wide x side's backward always in training.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values338_bn_cells (float64, T = 4 over running rows of
3, 2 and 3 steps, lengths 0, 1 and T in every batch, B 3, 5, 7 and H 5, 9, inputs I = 1 and 3 (fold), FOLD_MAX_I and
6 (wide), training and inference, one part and two parts (PART_THREADS 2, par_min 1): y, hT, cT and the running rows
after one and after two calls against lnrnn.reference's forward; every gradient against reference.bn_*_backward with
the LSTM's gate clip 0 and 0.05 (checked to bind), and at I = 1 and 6 with two parts against central differences of
the reference's loss over the active (row, step)s). Left out as equivalent: a second part's h statistics held as
(st[1], st[0]) instead of (st[0], st[1]) (the part writes and reads the same two rows, only their names swap); the
LSTM backward's clip taken as dt(clip) without clip_bound (0, inf, NaN and negative bounds all leave da as it is
either way); the per-part cell- width chunk given as chunk_bounds(H, n, n - 1 - q) (two parts still cover every
column once); min(n_parts(...), nblk) without the min (a part with no block has no row and adds an empty chunk); the
fold forward's rows [r0, r1) widened to [0, r1) (each part writes the same values into the other's rows); fold_stats
zeroing only the first I entries of xs[t] (the covariance of a step is read only in training with an active row,
where it is written); fold_rows_sums' dx_t[b, i] = acc made += (the row was zeroed just before); the padded rows'
dcarry reset from nt < B - 1 (a padded row's carried gradient is already zero there, round 296). Left out as a race
rather than a value: a barrier's generation one lower (the parts no longer wait; results vary run to run). Left out
as garbage-dependent: fold_rows_dx run in inference (M and cv are np.empty's leftovers there).

    python tests/mutants/run.py --only 'v338-*'
"""
LSTM = "lnrnn/kernels/bn_lstm.py"
RNN = "lnrnn/kernels/bn_rnn.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"

T_CELLS = "tests/kernels/test_values338_bn_cells.py::"
FWD = T_CELLS + "test_forward_and_running_rows_after_one_and_two_calls"
BWD = T_CELLS + "test_backward_against_the_reference_backward"
NUM = T_CELLS + "test_backward_against_central_differences"
OLD_LSTM = ["tests/kernels/test_values296_bn_cells.py", "tests/kernels/test_values269_bn_lstm.py",
            "tests/kernels/test_values100_bn_lstm.py"]
OLD_RNN = ["tests/kernels/test_values296_bn_cells.py", "tests/kernels/test_values287_bn_rnn.py",
           "tests/kernels/test_values100_bn_rnn.py"]
OLD_CELLX = ["tests/kernels/test_values296_bn_cells.py", "tests/kernels/test_values195_bn_cell_x.py",
             "tests/kernels/test_values172_bn_cell_x.py"]

MUTANTS = [
    # ---- the BN-LSTM: lnrnn/kernels/bn_lstm.py ----
    dict(name="v338-lstm-bwd-forget-from-input-gate", file=LSTM,
         old="            i = ai[j]\n            f = af[j]\n",
         new="            i = ai[j]\n            f = ai[j]\n",
         tests=[BWD + "[one-part-lstm-0-6-training]", NUM + "[lstm-6-training]"] + OLD_LSTM,
         why="the backward reads the forget gate from the input gate's block: df, dc_{t-1} and all before wrong"),
    dict(name="v338-lstm-fold-inference-as-training", file=LSTM,
         old="            fold_rows_forward(x[t], xs[t], Wx, gx, b, mx, rx, training, r0, r1, xn[0])",
         new="            fold_rows_forward(x[t], xs[t], Wx, gx, b, mx, rx, True, r0, r1, xn[0])",
         tests=[FWD + "[one-part-lstm-1-inference]", FWD + "[one-part-lstm-3-inference]"] + OLD_LSTM,
         why="the fold path in inference drops the running mean: BN(x Wx) = gx rstd x Wx + b"),
    dict(name="v338-lstm-bwd-h-sums-swapped", file=LSTM,
         old="        s1, s2 = s[:G], s[G:2 * G]\n",
         new="        s1, s2 = s[G:2 * G], s[:G]\n",
         tests=[BWD + "[one-part-lstm-0-3-training]", NUM + "[lstm-1-training]"] + OLD_LSTM,
         why="the h side's sum of da and sum of da * hhat are swapped: dgh and dhw wrong"),
    dict(name="v338-lstm-bwd-cell-chunk-of-part-zero", file=LSTM,
         old="    j0, j1 = chunk_bounds(H, n, q)  # (cell width)",
         new="    j0, j1 = chunk_bounds(H, n, 0)  # (cell width)",
         tests=[BWD + "[two-parts-lstm-0-1-training]", NUM + "[lstm-1-training]"] + OLD_LSTM,
         why="with two parts both add the first half of dgc and dbc and nobody the second"),
    dict(name="v338-lstm-x-backward-lengths-dropped", file=LSTM,
         old="gx, training, lengths,\n                                            dhw, x, h0, y, Wx)\n"
             "    return dx, dhn, dcarry",
         new="gx, training, None,\n                                            dhw, x, h0, y, Wx)\n"
             "    return dx, dhn, dcarry",
         tests=[BWD + "[one-part-lstm-0-6-training]", NUM + "[lstm-6-training]"] + OLD_LSTM,
         why="the wide x side's BN backward counts the padded (row, step)s: dx, dWx, dgx, db wrong"),
    # ---- the BN-RNN: lnrnn/kernels/bn_rnn.py ----
    dict(name="v338-rnn-tanh-plus-one", file=RNN,
         old="            yr[j] = two * z[j] - one",
         new="            yr[j] = two * z[j] + one",
         tests=[FWD + "[one-part-rnn-6-training]"] + OLD_RNN,
         why="tanh(v) = 2 sigmoid(2v) - 1 written with + 1: every h shifted by 2"),
    dict(name="v338-rnn-hT-one-step-early", file=RNN,
         old="    return y, y[T - 1].copy(), saved",
         new="    return y, y[T - 2].copy(), saved",
         tests=[FWD + "[one-part-rnn-6-training]", FWD + "[two-parts-rnn-1-inference]"] + OLD_RNN,
         why="hT returned is h_{T-2}: the final state one step early"),
    dict(name="v338-rnn-fold-momentum-eps-swapped", file=RNN,
         old="                            momentum, eps, mx, rx)",
         new="                            eps, momentum, mx, rx)",
         tests=[FWD + "[one-part-rnn-1-training]", FWD + "[one-part-rnn-3-inference]"] + OLD_RNN,
         why="the fold path's x statistics take eps as the momentum and the momentum as eps"),
    dict(name="v338-rnn-forward-fold-below-max", file=RNN,
         old="    fold = 0 < I <= FOLD_MAX_I  # x Wx and BN_t of it row by row inside the loop (as bn_lstm.py)",
         new="    fold = 0 < I < FOLD_MAX_I  # x Wx and BN_t of it row by row inside the loop (as bn_lstm.py)",
         tests=[BWD + "[one-part-rnn-4-training]"] + OLD_RNN,
         why="at I = FOLD_MAX_I the forward takes the wide path, the backward the fold one: the backward's loop "
             "is handed xw (T,B,F) where xs (T,I+I*I) belongs and fails to compile (a TypingError at every "
             "backward of that width)"),
    # ---- the input side: lnrnn/kernels/bn_cell_x.py ----
    dict(name="v338-cellx-cov-lower-triangle", file=CELLX,
         old="                    for k in range(I):\n                        C[i, k] += d",
         new="                    for k in range(i + 1):\n                        C[i, k] += d",
         tests=[FWD + "[one-part-rnn-3-training]"] + OLD_CELLX,
         why="the fold path's input covariance is filled on and below its diagonal: var wrong from I = 2 on"),
    dict(name="v338-cellx-mean-last-input-only", file=CELLX,
         old="            mk[k] += mi * Wi[k]\n",
         new="            mk[k] = mi * Wi[k]\n",
         tests=[FWD + "[one-part-lstm-3-training]"] + OLD_CELLX,
         why="mean_k = mu . W_k keeps only the last input's term: right at I = 1, wrong from I = 2 on"),
    dict(name="v338-cellx-fold-inference-offset-dropped", file=CELLX,
         old="            o[k] = c[k]\n",
         new="            o[k] = bias[k]\n",
         tests=[FWD + "[one-part-rnn-1-inference]"] + OLD_CELLX,
         why="the fold rows start from the bias, not bias - o rstd gain: training unchanged, inference wrong"),
    dict(name="v338-cellx-fold-sums-from-row-zero", file=CELLX,
         old="    e = r0\n    while e < r1:\n        lo, e = run_in(lengths, t, e, r1)\n"
             "        for b in range(lo, e):\n            dr = dy2[b]",
         new="    e = 0\n    while e < r1:\n        lo, e = run_in(lengths, t, e, r1)\n"
             "        for b in range(lo, e):\n            dr = dy2[b]",
         tests=[BWD + "[one-part-rnn-3-training]", NUM + "[rnn-1-inference]"] + OLD_CELLX,
         why="each block's P sums the rows of the blocks before it too: dWx, dgx and dx wrong on the fold path"),
    dict(name="v338-cellx-wide-backward-always-training", file=CELLX,
         old="    dxw, dgain, db = bn_backward(da, xw, mean_x, rstd_x, gain, training, lengths)",
         new="    dxw, dgain, db = bn_backward(da, xw, mean_x, rstd_x, gain, True, lengths)",
         tests=[BWD + "[one-part-rnn-6-inference]", NUM + "[lstm-6-inference]"] + OLD_CELLX,
         why="the wide x side's backward in inference subtracts the batch terms the forward never used"),
]
