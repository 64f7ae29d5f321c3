"""Planted bugs, round 201 (format: tests/mutants/mutants.py): single-line slips in the CPU BN cells, an eighth
pass over lines no earlier round mutates: bn_parts.py's rows_moments skipping a masked block's first row in
the mean and leaving the deviation uncentred in its M2, parts_stats reading each block's M2 one column early,
rows_bwd_sums masking with step t+1's rows, sum_parts keeping the last block's sums only; the BN-LSTM's
g block left as sigmoid(2v) in saved, mean_c and rstd_c saved swapped, the cell's gain and bias swapped in
the output, every step of a wide input reading step 0's x side, dL/do read from the g block and dh_{t-1}
taken from da instead of dL/d(h Wh); the BN-RNN's h-side moments masked with step t+1's rows, the backward's
tanh derivative read at step t-1 and the fold path's mean and rstd swapped.

14 mutants. Against the existing targeted tests alone: not measured (the old files compile every BN kernel
again in the scratch copy for each mutant, minutes a mutant; the measurement did not fit the time given).
The new value tests catch every mutant on their own (run with only test_values201_bn_cells on the lists):
test_values201_bn_cells (both cells in float64 with every option on: B = 7 over four row blocks with an
empty row and one-step rows, T past each side's running rows, h0 and c0 given, x and h sides' gains distinct,
narrow and wide inputs, training and inference, one part and two; y, the final states and every gradient
against lnrnn.reference, the saved statistics of every BN_t against NumPy's mean and variance of the active
rows of the saved hw_t and c_t, the saved gates against the activations of the preactivation rebuilt here,
dWh and dgh (and dgc) against central differences of the reference's loss).

Dropped before the catalogue as equivalent or not deterministic: the backward's zeroing of dc for padded rows
(dcarry is 0 there anyway: padded steps come first in reverse time and their BN backward gives 0); the BN-RNN's
block count read from the exchange's parity axis and sum_parts short of the fold path's I*H sums, and the
inference dL/dx loop a row short (they leave np.empty memory in play: caught only when it is not zero);
fold_rows_forward over every row instead of the part's (the same values written twice).

    python tests/mutants/run.py --only 'v201-*'
"""
LSTM = "lnrnn/kernels/bn_lstm.py"
RNN = "lnrnn/kernels/bn_rnn.py"
PARTS = "lnrnn/kernels/bn_parts.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values177_bn_cells.py", "tests/kernels/test_values154_bn_cells.py",
            "tests/kernels/test_values100_bn_lstm.py", "tests/kernels/test_bn_cells.py"]
RNN_OLD = ["tests/kernels/test_values177_bn_cells.py", "tests/kernels/test_values154_bn_cells.py",
           "tests/kernels/test_values100_bn_rnn.py", "tests/kernels/test_bn_cells.py"]
PARTS_OLD = ["tests/kernels/test_values177_bn_parts.py", "tests/kernels/test_values154_bn_parts.py",
             "tests/kernels/test_values93_bn_parts.py", "tests/kernels/test_bn_cells.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
NEW = ["tests/kernels/test_values201_bn_cells.py"]

MUTANTS = [
    # ---- bn_parts.py ----
    dict(name="v201-parts-masked-mean-skips-first-row", file=PARTS,
         old="    e = r0\n    while e < r1:\n        lo, e = run_in(lengths, t, e, r1)\n        for b in range(lo, e):\n"
             "            xr = x2[b]\n            for k in range(F):\n                m_[k] += xr[k]",
         new="    e = r0 + 1\n    while e < r1:\n        lo, e = run_in(lengths, t, e, r1)\n        for b in range(lo, e):\n"
             "            xr = x2[b]\n            for k in range(F):\n                m_[k] += xr[k]",
         tests=NEW + PARTS_OLD,
         why="a block with padded rows leaves its first row out of the mean while counting it: BN_t's mean and "
             "variance are wrong at every step where such a block's first row runs"),
    dict(name="v201-parts-masked-m2-uncentred", file=PARTS,
         old="                d = xr[k] - m_[k]\n                s_[k] += d * d\n\n\n",
         new="                d = xr[k]\n                s_[k] += d * d\n\n\n",
         tests=NEW + PARTS_OLD,
         why="a masked block's M2 sums x^2 instead of (x - mean)^2: the variance is too large wherever a block "
             "holds a padded row"),
    dict(name="v201-parts-stats-m2-one-column-early", file=PARTS,
         old="        mp, sp = parts[p, 1:F + 1], parts[p, F + 1:2 * F + 1]",
         new="        mp, sp = parts[p, 1:F + 1], parts[p, F:2 * F]",
         tests=NEW + PARTS_OLD,
         why="parts_stats reads each block's M2 shifted by one column (the last mean in column 0): every "
             "training variance and rstd is wrong"),
    dict(name="v201-parts-bwd-sums-mask-of-next-step", file=PARTS,
         old="        lo, e = run_in(lengths, t, e, r1)\n        for b in range(lo, e):\n            xr, dr = x2[b], dy2[b]",
         new="        lo, e = run_in(lengths, t + 1, e, r1)\n        for b in range(lo, e):\n            xr, dr = x2[b], dy2[b]",
         tests=NEW + PARTS_OLD,
         why="the BN backward's two batch sums leave out the rows whose last step is t: dL/dx, dgain and dbias "
             "are wrong for ragged batches"),
    dict(name="v201-parts-sum-parts-last-block-only", file=PARTS,
         old="        for k in range(w):\n            out[k] += pr[k]",
         new="        for k in range(w):\n            out[k] = pr[k]",
         tests=NEW + PARTS_OLD,
         why="sum_parts overwrites instead of adding: the backward's batch sums are the last block's alone"),
    # ---- bn_lstm.py ----
    dict(name="v201-lstm-tanh-g-not-stored", file=LSTM,
         old="            g = two * ag[j] - one\n            ag[j] = g\n",
         new="            g = two * ag[j] - one\n",
         tests=NEW + LSTM_OLD,
         why="the forward is right but saved gates keep sigmoid(2v) in the g block: the backward's g and "
             "1 - g^2 are wrong, so every gradient is"),
    dict(name="v201-lstm-saved-cell-stats-swapped", file=LSTM,
         old="            mh, rh, mc, rc = mean_h[t], rstd_h[t], mean_c[t], rstd_c[t]",
         new="            mh, rh, mc, rc = mean_h[t], rstd_h[t], rstd_c[t], mean_c[t]",
         tests=NEW + LSTM_OLD,
         why="part 0 writes the cell's mean into rstd_c and its rstd into mean_c: y is right, the backward "
             "through BN_t(c_t) is not"),
    dict(name="v201-lstm-output-gain-bias-swapped", file=LSTM,
         old="        _output_rows(r0, r1, c[t], gc, bc, mc, rc, gates[t], tc[t], y[t], z, kb)",
         new="        _output_rows(r0, r1, c[t], bc, gc, mc, rc, gates[t], tc[t], y[t], z, kb)",
         tests=NEW + LSTM_OLD,
         why="h_t = o tanh(BN_t(c_t; bc, gc)): the cell's gain and bias swapped"),
    dict(name="v201-lstm-wide-x-step-0-every-step", file=LSTM,
         old="        _gate_rows(r0, r1, hw[t], xn[0] if fold else xn[t], cprev, gh, mh, rh, gates[t], c[t], kb)",
         new="        _gate_rows(r0, r1, hw[t], xn[0], cprev, gh, mh, rh, gates[t], c[t], kb)",
         tests=NEW + LSTM_OLD,
         why="a wide input (no fold) adds step 0's BN_t(x Wx) at every step"),
    dict(name="v201-lstm-bwd-o-from-g-block", file=LSTM,
         old="dhn[b], dcg[b], gates[t, b, 3 * H:]",
         new="dhn[b], dcg[b], gates[t, b, 2 * H:3 * H]",
         tests=NEW + LSTM_OLD,
         why="dL/d BN_t(c_t) multiplies by the g block instead of the output gate"),
    dict(name="v201-lstm-dh-from-da", file=LSTM,
         old="        blocks_mul(dhw[t], WT, PT, dhn, B, nblk, kb0, kb1)",
         new="        blocks_mul(da_t, WT, PT, dhn, B, nblk, kb0, kb1)",
         tests=NEW + LSTM_OLD,
         why="dL/dh_{t-1} = da Wh^T, skipping the h side's BN_t backward (its gain and statistics)"),
    # ---- bn_rnn.py ----
    dict(name="v201-rnn-moments-mask-of-next-step", file=RNN,
         old="            blocks_moments(hw[t], lengths, t, nblk, k0, k1, ex[t % 2])",
         new="            blocks_moments(hw[t], lengths, t + 1, nblk, k0, k1, ex[t % 2])",
         tests=NEW + RNN_OLD,
         why="BN_t of h Wh counts the rows active at step t+1: rows ending at step t are left out"),
    dict(name="v201-rnn-bwd-tanh-derivative-previous-step", file=RNN,
         old="            yr, dyr, dhr, dar = y[t, b], dy[t, b], dhn[b], da_t[b]",
         new="            yr, dyr, dhr, dar = y[t - 1, b], dy[t, b], dhn[b], da_t[b]",
         tests=NEW + RNN_OLD,
         why="1 - h^2 read from h_{t-1} (and from the last step at t = 0)"),
    dict(name="v201-rnn-fold-mean-rstd-swapped", file=RNN,
         old="            fold_rows_forward(x[t], xs[t], Wx, gx, b, mx, rx, training, r0, r1, xn[0])",
         new="            fold_rows_forward(x[t], xs[t], Wx, gx, b, rx, mx, training, r0, r1, xn[0])",
         tests=NEW + RNN_OLD,
         why="a narrow input's BN_t(x Wx) scaled by the mean and centred by rstd"),
]
