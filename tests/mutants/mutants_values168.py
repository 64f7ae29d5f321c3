"""Planted bugs, round 168 (format: tests/mutants/mutants.py): the CPU LSTM and RNN kernels, a seventh pass, on
lines no earlier round mutates: the narrow LN-LSTM's factor Rx scaled by 1/G instead of 1/sqrt(G) and its
variance ||Rx x_t||^2 without Rx's first row; a narrow input's x_t Wx reading Wc's row before; the float32
sigmoid's exponent bias 128; the cell LayerNorm centred on c_{t-1}'s mean; the plain LSTM's output by the input
gate; backward: a given dcT skipping the first chunk, the plain LSTM's dL/dh_t without what step t+1 sends
back, the forget gate read from the input gate, the narrow LN-LSTM's first-column sum without gx and its dx
without rstd_x; the RNN's wide dWx from dy and its plain dL/d(x Wx + h Wh) from dy.

13 mutants. Against the existing targeted tests alone 12 were caught and none missed; the thirteenth, the
RNN's plain dL/d(x Wx + h Wh) from dy, was not measured against them (the run stopped at its time limit
first). Measured on the four most direct files, test_values147 and test_values123 of the LSTM and of the RNN;
the older ones, test_values11, 45, 72, 92 and 106 of the LSTM and 45, 72 and 92 of the RNN, were not run
(each mutant recompiles the kernels, and the full lists would take too long). The new value tests catch every mutant on their own (checked with the old
tests taken off the lists): test_values168_lstm and test_values168_rnn compare, in float64, lstm_forward,
lstm_infer, rnn_forward and rnn_infer (outputs and final state; infer in two pieces carrying h and c) with
lnrnn/reference.py, the NumPy spec, on B = 7 rows in 1, 2 and 3 chunks, H = 3, a narrow input (3 or 2
columns) and a wide one (FOLD_MAX_I + 1), gains and biases away from 1 and 0, h0 and c0 given; every gradient
of both backwards (the LSTM's with a final-cell gradient dcT) against central differences of the spec's loss
taken entry by entry in the test; the LSTM's backward with Graves's gate clip binding against the spec's
backward with the same clip; the float32 LSTM kernels against the float64 spec.

Left out as equivalent: lstm_infer's cell buffer of one row instead of min(T, 2) (c_t is written in place
over c_{t-1}, element by element after reading it, so nothing changes); zeroing pgx's chunk partials after
the narrow LN-LSTM's closed form (the narrow path never adds into them, they stay the zeros they started as);
the prefetch plans and _fetch_row (hints only: no value depends on them). Not covered: masks and lengths (the kernels take none;
they live above them) and chunks of time (the kernels run a whole sequence; pieces carrying h and c are
tested here).

    python tests/mutants/run.py --only 'v168-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values147_lstm.py", "tests/kernels/test_values123_lstm.py"]
RNN_OLD = ["tests/kernels/test_values147_rnn.py", "tests/kernels/test_values123_rnn.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values168_lstm.py"]
RNN_NEW = ["tests/kernels/test_values168_rnn.py"]

MUTANTS = [
    # ---- the LSTM forward ----
    dict(name="v168-lstm-fold-rx-scaled-by-G", file=LSTM,
         old="Rx = np.linalg.qr(Wc64.T / np.sqrt(G), mode=\"r\")",
         new="Rx = np.linalg.qr(Wc64.T / G, mode=\"r\")",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's closed-form variance of x_t Wc is divided by G twice (Rx scaled by 1/G, not "
             "1/sqrt(G)): the x side's 1/std comes out sqrt(G) times too large"),
    dict(name="v168-lstm-sigmoid32-exponent-bias-128", file=LSTM,
         old="np.int32(k) + np.int32(127)",
         new="np.int32(k) + np.int32(128)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the float32 sigmoid builds 2^k with the exponent bias off by one: exp(-z) doubled, every float32 "
             "gate wrong (float64 untouched)"),
    dict(name="v168-lstm-fold-xs-reads-the-row-before", file=LSTM,
         old="xs[j] += xt[i] * Wc[i, j]",
         new="xs[j] += xt[i] * Wc[i - 1, j]",
         tests=LSTM_NEW + LSTM_OLD,
         why="a narrow input's x_t Wx multiplies columns 2 and on by the row of Wc before theirs (I >= 3)"),
    dict(name="v168-lstm-fold-ln-variance-skips-rx-row-0", file=LSTM,
         old="                    for k in range(I):\n                        u = zero",
         new="                    for k in range(1, I):\n                        u = zero",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's ||Rx x_t||^2 leaves out Rx's first row: the x side's variance too small"),
    dict(name="v168-lstm-cell-mean-of-c-prev", file=LSTM,
         old="mc += ct[k]",
         new="mc += cp[k]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm centres c_t on the mean of c_{t-1}"),
    dict(name="v168-lstm-plain-output-by-input-gate", file=LSTM,
         old="w = two * _sigmoid(two * ct[k]) - one\n                    tct[k] = w\n                    yr[k] = ao[k] * w",
         new="w = two * _sigmoid(two * ct[k]) - one\n                    tct[k] = w\n                    yr[k] = ai[k] * w",
         tests=LSTM_NEW + LSTM_OLD,
         why="the plain LSTM's h_t takes the input gate where the output gate belongs (the LN path right)"),
    # ---- the LSTM backward ----
    dict(name="v168-lstm-bwd-dcT-skips-chunk-0", file=LSTM,
         old="for q in range(nch):",
         new="for q in range(1, nch):",
         tests=LSTM_NEW + LSTM_OLD,
         why="a given final-cell gradient dcT reaches every chunk but the first: right without dcT"),
    dict(name="v168-lstm-bwd-plain-dh-without-carried", file=LSTM,
         old="dh = dyr[k] + dhr[k]\n                    o = ao[k]\n                    tk = tcr[k]\n"
             "                    dao[k] = dh * tk * o * (one - o)\n                    dcn[k] = dh * o",
         new="dh = dyr[k]\n                    o = ao[k]\n                    tk = tcr[k]\n"
             "                    dao[k] = dh * tk * o * (one - o)\n                    dcn[k] = dh * o",
         tests=LSTM_NEW + LSTM_OLD,
         why="the plain LSTM's dL/dh_t drops what step t+1 sends back through Wh: only the last step is right"),
    dict(name="v168-lstm-bwd-forget-from-input-gate", file=LSTM,
         old="f = af[k]",
         new="f = ai[k]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the backward reads the input gate as the forget gate: df and the carried dL/dc_{t-1} wrong"),
    dict(name="v168-lstm-bwd-fold-ln-pc0-without-gx", file=LSTM,
         old="pc0 += w * wc0[j]",
         new="pc0 += d * wc0[j]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's sum for x_t's first column leaves out the gain gx: dx[..., 0] and dWx wrong"),
    dict(name="v168-lstm-bwd-fold-ln-dx-without-rstd", file=LSTM,
         old="dx[t, bb, i] = rx * (pc[i] - s2x * s)",
         new="dx[t, bb, i] = pc[i] - s2x * s",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's dx leaves out the x LayerNorm's 1/std"),
    # ---- the RNN ----
    dict(name="v168-rnn-bwd-wide-dwx-from-dy", file=RNN,
         old="dWx = matmul_tn(x.reshape(T * B, I), dA2, nchunks)",
         new="dWx = matmul_tn(x.reshape(T * B, I), dy.reshape(T * B, H), nchunks)",
         tests=RNN_NEW + RNN_OLD,
         why="a wide input's dWx sums x^T dy, without tanh's derivative, the LayerNorm and the later steps"),
    dict(name="v168-rnn-bwd-plain-da-from-dy", file=RNN,
         old="dA[t, bb, k] = dz[k]",
         new="dA[t, bb, k] = dy[t, bb, k]",
         tests=RNN_NEW + RNN_OLD,
         why="the plain RNN's dL/d(x Wx + h Wh) is the output gradient, without tanh's derivative and dL/dh "
             "from step t+1"),
]
