"""Planted bugs, round 100 (format: tests/mutants/mutants.py): single-line slips in the CPU BN-LSTM and BN-RNN
kernels, a third pass, on lines no earlier round mutates: the BN-LSTM's gates without the h side's gain gh, its
cell with the input and forget gates swapped, step 0's recurrent product of c0, the cell's mean and rstd sharing
one scratch row in parts q > 0, the x side's running mean and variance handed over in the wrong order; in its
backward dL/df from c_t instead of c_{t-1} and the h side's BN backward with the x side's gain gx; the BN-RNN's
forward ignoring the lengths it is given, its fold path counting the x side's running rows from the h side's
arrays, the h side normalized with mean and rstd swapped, db and dgx returned in each other's places and the BN
backward's two batch sums swapped.

12 mutants. Against the existing targeted tests alone the measurement was cut short for time (each mutant
recompiles the kernel, about 80 s here): on tests/kernels/test_values79_bn_lstm.py, the most direct old file,
the first two (gates without gh, i and f swapped) were caught; the other ten were not measured. The old lists
below stay after the new files. The new value tests catch every mutant on their own (checked with the old tests
taken off the lists): test_values100_bn_lstm (y, hT, cT, the saved cell and the running rows of each side against
the definition written there in NumPy, on one and on two parts with the same bits; every gradient against
central differences of the definition's loss over the active (row, step)s; training and inference, rows of
their own lengths with an empty row and a step without any, T past each side's own running rows (x 4, h 2,
cell 3), gains gx < 1 < gh, gc and the biases away from their defaults, h0 and c0 given; the running rows by
hand; Graves's clip against lnrnn.reference) and test_values100_bn_rnn (the same against the RNN's definition,
gradients matched by name; the x side's running rows (4) counted apart from the h side's (2) and read back in
inference; lnrnn.reference with and without the lengths; dh0 from the reference's record of dL/dh at step 0,
pushed through that step's BN backward and Wh^T by hand).

Dropped as equivalent (judged by reading the code): the BN-RNN fold path's x statistics of parts q > 0 kept in
the h side's scratch rows (st[0], st[1] for st[2], st[3]: the part normalizes its rows of x_t Wx before
parts_stats overwrites those rows, so nothing reads them late); the BN-LSTM's padded rows' carried dL/dc not
zeroed (a padded row's dL/d BN_t(c) and its dL/dh from step t+1 are zero already, so its carried dc stays
zero); the backward's part count from n_parts(B, H, H) (every part count gives the same bits). Left out
because their effect is unwritten np.empty memory rather than a wrong value (a row range one short, the other
parity's exchange row, a running row one past Ts in inference). Also left out for time, so neither measured
nor catalogued: dL/dc without the carried part, dWh's step-0 term from c0 and h_t = s(o) c_t.

    python tests/mutants/run.py --only 'v100-*'
"""
LSTM = "lnrnn/kernels/bn_lstm.py"
RNN = "lnrnn/kernels/bn_rnn.py"

# existing tests of these modules (the most direct files)
LSTM_OLD = ["tests/kernels/test_values79_bn_lstm.py", "tests/kernels/test_values18_bn_lstm.py",
            "tests/kernels/test_bn_cells.py", "tests/kernels/test_values11_bn_cells.py"]
RNN_OLD = ["tests/kernels/test_values65_bn_rnn.py", "tests/kernels/test_bn_cells.py",
           "tests/kernels/test_values11_bn_cells.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values100_bn_lstm.py"]
RNN_NEW = ["tests/kernels/test_values100_bn_rnn.py"]

MUTANTS = [
    # ---- the BN-LSTM's forward: the gates, the cell, step 0's product, the parts' statistics, the x side's rows ----
    dict(name="v100-bnlstm-gates-without-gh", file=LSTM,
         old="            ar[k] = gh[k] * (hr[k] - mean_h_t[k]) * rstd_h_t[k] + xr[k]",
         new="            ar[k] = (hr[k] - mean_h_t[k]) * rstd_h_t[k] + xr[k]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the h side's BN_t drops its gain gh: right only while gh is all ones (its default)"),
    dict(name="v100-bnlstm-cell-i-and-f-swapped", file=LSTM,
         old="            cr[j] = af[j] * cp[j] + ai[j] * g",
         new="            cr[j] = ai[j] * cp[j] + af[j] * g",
         tests=LSTM_NEW + LSTM_OLD,
         why="c_t = s(i) c_{t-1} + s(f) tanh(g): the input and forget gates trade places in the forward"),
    dict(name="v100-bnlstm-step-0-product-of-c0", file=LSTM,
         old="        blocks_mul(h0 if t == 0 else y[t - 1], Wh, P, hw[t], B, nblk, k0, k1)",
         new="        blocks_mul(c0 if t == 0 else y[t - 1], Wh, P, hw[t], B, nblk, k0, k1)",
         tests=LSTM_NEW + LSTM_OLD,
         why="step 0's recurrent product is c0 Wh: wrong whenever the initial states are given and differ"),
    dict(name="v100-bnlstm-other-parts-cell-rstd-in-the-mean-row", file=LSTM,
         old="            mh, rh, mc, rc = st[0], st[1], st[2, :H], st[3, :H]",
         new="            mh, rh, mc, rc = st[0], st[1], st[2, :H], st[2, :H]",
         tests=LSTM_NEW + LSTM_OLD,
         why="parts q > 0 keep the cell's mean and rstd in one scratch row: their rows normalize c_t with the "
             "rstd as the mean; one part (one thread) is right, two differ"),
    dict(name="v100-bnlstm-running-x-mean-and-var-swapped", file=LSTM,
         old="cell_x_forward(x, Wx, gx, b, rmx, rvx, training, momentum, eps, lengths, fold)",
         new="cell_x_forward(x, Wx, gx, b, rvx, rmx, training, momentum, eps, lengths, fold)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the x side gets its running mean and variance in the wrong order: inference normalizes with the "
             "mean as the variance, training folds the mean into rvx"),
    # ---- the BN-LSTM's backward: c_{t-1}, the carried dL/dc, the h side's gain, dWh's first step ----
    dict(name="v100-bnlstm-backward-cprev-is-c_t", file=LSTM,
         old="    for t in range(T - 1, -1, -1):\n        cprev = c0 if t == 0 else c[t - 1]",
         new="    for t in range(T - 1, -1, -1):\n        cprev = c0 if t == 0 else c[t]",
         tests=LSTM_NEW + LSTM_OLD,
         why="backward's dL/df reads c_t instead of c_{t-1} for steps t >= 1"),
    dict(name="v100-bnlstm-dhw-with-gx", file=LSTM,
         old="mean_h[t], rstd_h[t], gh, s1, s2, nt, training, dhw[t])",
         new="mean_h[t], rstd_h[t], gx, s1, s2, nt, training, dhw[t])",
         tests=LSTM_NEW + LSTM_OLD,
         why="the h side's BN backward multiplies by the x side's gain gx: dWh and dh0 wrong when gx != gh"),
    # ---- the BN-RNN ----
    dict(name="v100-bnrnn-lengths-dropped", file=RNN,
         old="    dt = x.dtype\n    lengths = as_lengths(lengths, T, B)",
         new="    dt = x.dtype\n    lengths = as_lengths(None, T, B)",
         tests=RNN_NEW + RNN_OLD,
         why="the forward ignores the lengths it is given: every row counts in every step's statistics"),
    dict(name="v100-bnrnn-x-rows-counted-from-h", file=RNN,
         old="    Ts, Tsx = rmh.shape[0], rmx.shape[0]",
         new="    Ts, Tsx = rmh.shape[0], rmh.shape[0]",
         tests=RNN_NEW + RNN_OLD,
         why="the fold path takes the x side's number of running rows from the h side's: with Ts_x != Ts_h it "
             "records too few (or too many) x rows and reads the wrong one in inference"),
    dict(name="v100-bnrnn-forward-mean-and-rstd-swapped", file=RNN,
         old="        _forward_rows(r0, r1, hw[t], xn[0] if fold else xn[t], gh, mh, rh, y[t], z, kb)",
         new="        _forward_rows(r0, r1, hw[t], xn[0] if fold else xn[t], gh, rh, mh, y[t], z, kb)",
         tests=RNN_NEW + RNN_OLD,
         why="the h side is normalized with its mean and rstd swapped"),
    dict(name="v100-bnrnn-db-and-dgx-swapped", file=RNN,
         old="    return dx, dhn, dWx, dWh, db, dgx, dgh",
         new="    return dx, dhn, dWx, dWh, dgx, db, dgh",
         tests=RNN_NEW + RNN_OLD,
         why="bn_rnn_backward returns dgx where db belongs and the other way round"),
    dict(name="v100-bnrnn-bn-sums-swapped", file=RNN,
         old="        s1, s2 = s[:H], s[H:2 * H]",
         new="        s1, s2 = s[H:2 * H], s[:H]",
         tests=RNN_NEW + RNN_OLD,
         why="the BN backward's two batch sums (sum da, sum da hhat) trade places: dgh is sum da, dhw wrong"),
]
