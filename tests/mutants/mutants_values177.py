"""Planted bugs, round 177 (format: tests/mutants/mutants.py): single-line slips in the CPU BN cells, a seventh
pass over lines no earlier round mutates: bn_parts.py's rows_moments returning nothing for a one-row block and
its every-row-active path leaving the block's last row out of M2, parts_stats' inference mean read from the
running variance and its between-block term weighted by the first block's count, rows_bwd_dx's xhat term with
the wrong sign, add_cols reading v from column 0 instead of k0; the BN-LSTM's g block doubled one column short,
y = o c instead of o tanh(BN(c)), the final cell state returned as tanh(BN(c_T)), the backward dropping the
dL/dc carried from step t+1 and returning dh0 and dc0 swapped; the BN-RNN's tanh taken as 2 sigmoid(v) - 1 of
the undoubled argument and its backward loop stopping before step 0.

13 mutants. Against the existing targeted tests alone the measurement was cut short to keep the mutation
run within its time (the old files compile every BN kernel again in the scratch copy: 277 s for the first
mutant on two of them): of the two mutants judged, against test_values154_bn_parts and test_bn_cells,
both were caught (the one-row block and the last row left out of M2, by test_bn_cells' y); the other 11
were not judged against the old tests alone. The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values177_bn_parts (rows_moments, parts_stats,
rows_bwd_dx and add_cols against NumPy written in the test: a block of rows all active and a one-row block,
the whole batch's mean and biased variance from blocks of unequal counts, inference reading the running mean
with the running variance apart from it, the BN backward's dL/dx by its formula, a column range starting past
0) and test_values177_bn_cells (both cells in float64 with every option on, through the kernels' default
split at config.BN_PAR_MIN_WORK and on two parts over four row blocks of B = 7: y, the final states and every
gradient against lnrnn.reference, dh0 and dc0 against central differences of the reference's loss).

Dropped before the catalogue as equivalent: the BN-RNN's q > 0 x-side statistics kept in the h side's
scratch rows (the x side's are used before the h side's overwrite them within the step); the BN-LSTM's part
count taken from B*H instead of B*G (only the thread count: every split gives the same bits); the
backward's product with Wh instead of Wh^T (the packed panels, not W, are read); parts_stats' skip of an empty
block (an empty block's count, mean and M2 are 0); sum_parts' columns from k0 (always called with k0 = 0).

    python tests/mutants/run.py --only 'v177-*'
"""
LSTM = "lnrnn/kernels/bn_lstm.py"
RNN = "lnrnn/kernels/bn_rnn.py"
PARTS = "lnrnn/kernels/bn_parts.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values154_bn_cells.py", "tests/kernels/test_values100_bn_lstm.py",
            "tests/kernels/test_values79_bn_lstm.py", "tests/kernels/test_bn_cells.py"]
RNN_OLD = ["tests/kernels/test_values154_bn_cells.py", "tests/kernels/test_values100_bn_rnn.py",
           "tests/kernels/test_values65_bn_rnn.py", "tests/kernels/test_bn_cells.py"]
PARTS_OLD = ["tests/kernels/test_values154_bn_parts.py", "tests/kernels/test_values93_bn_parts.py",
             "tests/kernels/test_values117_bn_blocks.py", "tests/kernels/test_bn_cells.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CELLS_NEW = ["tests/kernels/test_values177_bn_cells.py"]
PARTS_NEW = ["tests/kernels/test_values177_bn_parts.py"]

MUTANTS = [
    # ---- bn_parts.py ----
    dict(name="v177-parts-one-row-block-empty", file=PARTS,
         old="    if n == 0:\n        return\n    inv_n = dt(1) / dt(n)",
         new="    if n < 2:\n        return\n    inv_n = dt(1) / dt(n)",
         tests=PARTS_NEW + PARTS_OLD,
         why="a block with one active row keeps count 1 but mean 0: the step's mean and variance are wrong "
             "wherever a block holds a single row"),
    dict(name="v177-parts-full-m2-last-row-left-out", file=PARTS,
         old="        for b in range(r0, r1):\n            xr = x2[b]\n            for k in range(F):\n"
             "                d = xr[k] - m_[k]",
         new="        for b in range(r0, r1 - 1):\n            xr = x2[b]\n            for k in range(F):\n"
             "                d = xr[k] - m_[k]",
         tests=PARTS_NEW + PARTS_OLD,
         why="with every row of the block active, M2 misses the block's last row: the variance is too small"),
    dict(name="v177-parts-inference-mean-from-variance", file=PARTS,
         old="            mean[k] = rm_row[k]",
         new="            mean[k] = rv_row[k]",
         tests=PARTS_NEW + PARTS_OLD,
         why="inference centres on the running variance instead of the running mean"),
    dict(name="v177-parts-between-term-first-count", file=PARTS,
         old="        np_ = parts[p, 0]",
         new="        np_ = parts[0, 0]",
         tests=PARTS_NEW + PARTS_OLD,
         why="every block's between-block term n_p (m_p - m)^2 weighted by the first block's count: the variance "
             "is wrong when the blocks hold different numbers of active rows"),
    dict(name="v177-parts-dx-xhat-sign", file=PARTS,
         old="(dr[k] - (s1[k] + xhat * s2[k]) * inv_n)",
         new="(dr[k] - (s1[k] - xhat * s2[k]) * inv_n)",
         tests=PARTS_NEW + PARTS_OLD,
         why="the BN backward's dL/dx adds xhat's share instead of taking it off"),
    dict(name="v177-parts-add-cols-from-column-0", file=PARTS,
         old="    a, b = acc[k0:k1], v[k0:k1]",
         new="    a, b = acc[k0:k1], v[:k1 - k0]",
         tests=PARTS_NEW + PARTS_OLD,
         why="a part's columns [k0, k1) of a summed gradient take v's first columns: wrong on every part but the "
             "first"),
    # ---- bn_lstm.py ----
    dict(name="v177-lstm-g-doubled-one-short", file=LSTM,
         old="        for j in range(H):  # the g block as tanh(v) = 2 sigmoid(2v) - 1",
         new="        for j in range(H - 1):  # the g block as tanh(v) = 2 sigmoid(2v) - 1",
         tests=CELLS_NEW + LSTM_OLD,
         why="the last cell's g is 2 sigmoid(v) - 1, not tanh(v)"),
    dict(name="v177-lstm-y-from-cell", file=LSTM,
         old="            yr[j] = ao[j] * tcv",
         new="            yr[j] = ao[j] * cr[j]",
         tests=CELLS_NEW + LSTM_OLD,
         why="y = o c_t instead of o tanh(BN_t(c_t))"),
    dict(name="v177-lstm-final-cell-is-tanh", file=LSTM,
         old="    return y, y[T - 1].copy(), c[T - 1].copy(), saved",
         new="    return y, y[T - 1].copy(), tc[T - 1].copy(), saved",
         tests=CELLS_NEW + LSTM_OLD,
         why="the final cell state returned is tanh(BN_T(c_T)), not c_T"),
    dict(name="v177-lstm-bwd-carry-dropped", file=LSTM,
         old="            dc = dcr[j] + dbr[j]",
         new="            dc = dbr[j]",
         tests=CELLS_NEW + LSTM_OLD,
         why="dL/dc_t loses the part carried from step t+1 through c_{t+1} = f c_t + ..."),
    dict(name="v177-lstm-bwd-dh0-dc0-swapped", file=LSTM,
         old="    return dx, dhn, dcarry, dWx, dWh, db, dgx, dgh, dgc, dbc",
         new="    return dx, dcarry, dhn, dWx, dWh, db, dgx, dgh, dgc, dbc",
         tests=CELLS_NEW + LSTM_OLD,
         why="dh0 and dc0 (both (B,H)) returned in each other's place"),
    # ---- bn_rnn.py ----
    dict(name="v177-rnn-tanh-argument-not-doubled", file=RNN,
         old="            z[j] = two * (gh[j] * (hr[j] - mean_h_t[j]) * rstd_h_t[j] + xr[j])",
         new="            z[j] = (gh[j] * (hr[j] - mean_h_t[j]) * rstd_h_t[j] + xr[j])",
         tests=CELLS_NEW + RNN_OLD,
         why="y = 2 sigmoid(v) - 1 = tanh(v/2), not tanh(v)"),
    dict(name="v177-rnn-bwd-stops-before-step-0", file=RNN,
         old="    for t in range(T - 1, -1, -1):\n        da_t = da[0] if fold else da[t]",
         new="    for t in range(T - 1, 0, -1):\n        da_t = da[0] if fold else da[t]",
         tests=CELLS_NEW + RNN_OLD,
         why="step 0 is never back-propagated: dh0, dx at step 0 and step 0's shares of the parameter gradients "
             "are missing"),
]
