"""Planted bugs, round 147 (format: tests/mutants/mutants.py): the CPU LSTM and RNN kernels, a sixth pass, on
lines no earlier round mutates: a narrow input's x_t Wx adding its second column onto the row before's; the
narrow LN-LSTM scaling h_{t-1} Wh by the x side's 1/std, the wide one x_t Wx by the h side's; the forward
saving the normalized h side where the backward reads the x side's, and c_t itself as the normalized cell;
backward: the plain LSTM's output-gate gradient without tanh(c_t), the cell LayerNorm's mean term without the
gain, the wide LN-LSTM's dgx from the h side, the narrow LN-LSTM's rows from 2 and its sums A, B of the
first chunk only, dgc and dbc swapped; the RNN's recurrence always from h0, its narrow dx and dWx from
dL/d(LN output), and db summing dy.

14 mutants. Against the existing targeted tests alone all 14 were caught and none missed (measured on the
two most direct files, test_values92 and test_values123 of the LSTM and of the RNN; the full lists, which add
test_values11, 45, 72 and 106 of the LSTM and 45 and 72 of the RNN, were not run: too slow). The new value
tests catch every mutant on their own (checked with the old tests taken off the lists): test_values147_lstm
and test_values147_rnn compare, in float64, lstm_forward, lstm_infer, rnn_forward and rnn_infer (outputs
and final state, over the whole sequence and in three pieces carrying h and c) and every gradient of the
backwards, Graves's gate clip off and binding, with lnrnn/reference.py, the NumPy spec, on B = 5 rows in 1,
2 and 3 chunks, inputs 1 to FOLD_MAX_I + 3 wide, gains and biases away from 1 and 0 and a forget bias; every
gradient (and the LSTM's final-cell gradient dcT) against central differences of the spec's loss; float32
against float64 within float32 tolerance. CI runs test_values147_lstm and _rnn a second time on the
per-step product the host did not choose at import (.ci/run, LNRNN_REC_GEMM).

Dropped as equivalent: the backward's clip without clip_bound (the kernel clips only when clip > 0, and a
clip of inf leaves every value as it is, so 0, inf, NaN and negative bounds all come out off either way);
the per-step arrays' row count S = T in lstm_infer and rnn_infer (memory only); zeroing pWh's last spare
row or not (nothing reads it). Not covered here: masks (the kernels take none; lengths live above them).

    python tests/mutants/run.py --only 'v147-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values11_lstm.py", "tests/kernels/test_values45_lstm.py",
            "tests/kernels/test_values72_lstm.py", "tests/kernels/test_values92_lstm.py",
            "tests/kernels/test_values106_lstm.py", "tests/kernels/test_values123_lstm.py"]
RNN_OLD = ["tests/kernels/test_values45_rnn.py", "tests/kernels/test_values72_rnn.py",
           "tests/kernels/test_values92_rnn.py", "tests/kernels/test_values123_rnn.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values147_lstm.py"]
RNN_NEW = ["tests/kernels/test_values147_rnn.py"]

MUTANTS = [
    # ---- the LSTM forward: a narrow input's x_t Wx, the two LayerNorms' scales, what is saved ----
    dict(name="v147-lstm-narrow-second-column-accumulates", file=LSTM,
         old="xs[j] = xt[1] * Wc[1, j]",
         new="xs[j] += xt[1] * Wc[1, j]",
         tests=LSTM_NEW + LSTM_OLD,
         why="a narrow input's x_t Wx starts from the previous row's instead of x_t[1] Wc[1]: every row after "
             "the first (and every step after the first) carries the sums of the rows before"),
    dict(name="v147-lstm-narrow-ln-h-side-scaled-by-x-rstd", file=LSTM,
         old="u = (x0 * wc0[j] + xs[j]) * sx\n                        v = hr[j] * sh",
         new="u = (x0 * wc0[j] + xs[j]) * sx\n                        v = hr[j] * sx",
         tests=LSTM_NEW + LSTM_OLD,
         why="the LN-LSTM with a narrow input normalizes h_{t-1} Wh by the x side's 1/std"),
    dict(name="v147-lstm-wide-ln-x-side-scaled-by-h-rstd", file=LSTM,
         old="u = xr[j] * sx",
         new="u = xr[j] * sh",
         tests=LSTM_NEW + LSTM_OLD,
         why="the LN-LSTM with a wide input normalizes x_t Wx by the h side's 1/std"),
    dict(name="v147-lstm-wide-ln-saves-the-h-side-as-xhat", file=LSTM,
         old="xo[j] = u",
         new="xo[j] = v",
         tests=LSTM_NEW + LSTM_OLD,
         why="the forward saves the normalized h_{t-1} Wh where the backward reads the normalized x_t Wx: "
             "outputs right, dgx and the x side's LayerNorm backward (dx, dWx) wrong"),
    dict(name="v147-lstm-ln-chat-saved-uncentred", file=LSTM,
         old="ch[k] = u",
         new="ch[k] = ct[k]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the forward saves c_t itself as the normalized cell: outputs right, dgc and the cell "
             "LayerNorm's backward wrong"),
    # ---- the LSTM backward ----
    dict(name="v147-lstm-bwd-plain-dao-without-tanh-c", file=LSTM,
         old="dao[k] = dh * tk * o * (one - o)\n                    dcn[k] =",
         new="dao[k] = dh * o * (one - o)\n                    dcn[k] =",
         tests=LSTM_NEW + LSTM_OLD,
         why="the plain LSTM's output-gate gradient leaves out tanh(c_t)"),
    dict(name="v147-lstm-bwd-cell-ln-mean-term-without-gain", file=LSTM,
         old="                    s1 += u\n",
         new="                    s1 += d\n",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm's backward subtracts the mean of dL/d(cell output) instead of its mean "
             "times the gain gc (right only when gc = 1)"),
    dict(name="v147-lstm-bwd-wide-ln-dgx-from-hhat", file=LSTM,
         old="pgx[j] += d * xh[j]",
         new="pgx[j] += d * hh[j]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the wide LN-LSTM's x-side gain gradient multiplies by the normalized h_{t-1} Wh"),
    dict(name="v147-lstm-bwd-narrow-ln-rows-from-2", file=LSTM,
         old="for i in range(1, I):",
         new="for i in range(2, I):",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's backward skips Wc's second row: dWx's row 1 and dx's column 1 miss their "
             "share (pc[1] left from the row before)"),
    dict(name="v147-lstm-bwd-narrow-ln-ab-of-the-first-chunk", file=LSTM,
         old="AB = pX[:, :, :I + 1].sum(axis=0)",
         new="AB = pX[0, :, :I + 1]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's dWx takes the sums A and B of the first chunk's rows only (right on one "
             "chunk)"),
    dict(name="v147-lstm-bwd-dgc-dbc-swapped", file=LSTM,
         old="dgc, dbc = pH[:, :, :H].sum(axis=1)",
         new="dbc, dgc = pH[:, :, :H].sum(axis=1)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm's gain and bias gradients come back in each other's places"),
    # ---- the RNN ----
    dict(name="v147-rnn-recurrence-always-from-h0", file=RNN,
         old="rec_mul_fetch(y[t - 1, lo:hi], Wh, P, a, plan[:npl])",
         new="rec_mul_fetch(h0[lo:hi], Wh, P, a, plan[:npl])",
         tests=RNN_NEW + RNN_OLD,
         why="every step's recurrent product reads h0 instead of h_{t-1}"),
    dict(name="v147-rnn-bwd-narrow-grads-from-dz", file=RNN,
         old="input_row_grads(dx[t, bb], pwx, dA[t, bb]",
         new="input_row_grads(dx[t, bb], pwx, dz",
         tests=RNN_NEW + RNN_OLD,
         why="the narrow input's dx and dWx take dL/d(LN output) instead of dL/d(x Wx + h Wh): the same without "
             "LN, wrong with it"),
    dict(name="v147-rnn-bwd-db-from-dy", file=RNN,
         old="pdb[k] += dz[k]",
         new="pdb[k] += dy[t, bb, k]",
         tests=RNN_NEW + RNN_OLD,
         why="db sums the output gradient, without the tanh derivative and without what later steps send back"),
]
