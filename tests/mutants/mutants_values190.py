"""Planted bugs, round 190 (format: tests/mutants/mutants.py): the CPU LSTM and RNN kernels, an eighth pass, on
lines no earlier round mutates: a narrow input's row read by its index within the chunk; the cell LayerNorm's
variance divided by G, its 1/std saved over the h side's, the LN-LSTM's output taken from the normalized cell
instead of its tanh; backward: the narrow LN-LSTM's Wc Wc^T from the uncentered Wx, dL/dy read by the row's
index within the chunk, the cell LayerNorm backward's mean over G, the g gate differentiated as a sigmoid, the
narrow LN-LSTM's first dWx row without rstd_x and its dgh summed with the gain, a wide input's x-side
LayerNorm backward summing with hhat; the RNN's tanh of the raw preactivation, its tanh with the sign flipped
and its recurrence carrying dy instead of dL/dA.

14 mutants. Against the existing targeted tests alone 14 were caught and none missed, measured on the four
most direct files, test_values168 and test_values147 of the LSTM and of the RNN, without the baseline run
(--no-baseline; the older files, test_values11, 45, 72, 92, 106 and 123, were not run: each mutant
recompiles the kernels). The new value tests catch every mutant on their own (checked with the old tests taken
off the lists): test_values190_lstm compares lstm_forward with lnrnn/reference.py, the NumPy spec, and every
gradient of lstm_backward (dcT given) with central differences of the spec's loss, on B = 5 rows in 4 chunks
(of 1, 1, 1 and 2 rows), H = 3, a one-column input (I = 1, the closed-form narrow path) and a wide one
(FOLD_MAX_I + 1), Wx with rows of nonzero mean; the same kernels run on each row alone (rows never interact:
the batch's row gradients are each row's, its parameter gradients their sum); Graves's clip binding against
the spec's backward with the same clip; float32 forward and backward against float64.
test_values190_rnn compares rnn_forward with a NumPy loop written from the definition and every gradient of
rnn_backward with central differences of that loop's loss, on the same shapes.

Left out as equivalent: Graves's clip passed to the row loop without clip_bound (0, a negative bound, inf
and NaN all leave the clip off either way: the loop clips only when clip > 0, and clipping at inf changes
nothing); Mc[k, i] read as Mc[i, k] (Wc Wc^T is symmetric); the rows of the largest chunk as B // nch instead
of -(-B // nch) (the work buffers hold one row more, which the chunks' near-equal sizes never exceed).
Also dropped before the catalogue: the plain LSTM's bias gradient summing dhw before the row writes it (it
reads the scratch's leftovers: caught, but by values that depend on what was there before).

    python tests/mutants/run.py --only 'v190-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values168_lstm.py", "tests/kernels/test_values147_lstm.py"]
RNN_OLD = ["tests/kernels/test_values168_rnn.py", "tests/kernels/test_values147_rnn.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values190_lstm.py"]
RNN_NEW = ["tests/kernels/test_values190_rnn.py"]

MUTANTS = [
    # ---- the LSTM forward ----
    dict(name="v190-lstm-fold-x-row-of-the-chunk", file=LSTM,
         old="                xt = x[t, bb]",
         new="                xt = x[t, r]",
         tests=LSTM_NEW + LSTM_OLD,
         why="a narrow input's row is read by its index within the chunk (r) instead of the batch (lo + r): "
             "every chunk but the first reads the first chunk's inputs"),
    dict(name="v190-lstm-cell-ln-variance-over-G", file=LSTM,
         old="sc = one / np.sqrt(v * invH + eps)",
         new="sc = one / np.sqrt(v * invG + eps)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm's variance divided by G (copied from the gates' G-wide LayerNorms) instead of H: "
             "its 1/std twice too large"),
    dict(name="v190-lstm-cell-rstd-saved-in-the-h-slot", file=LSTM,
         old="rstd[2, ts, bb] = sc",
         new="rstd[1, ts, bb] = sc",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm's 1/std is saved over the h side's (row 1 of rstd): the forward's outputs are "
             "right, the backward reads the wrong 1/std for h Wh and garbage for the cell"),
    dict(name="v190-lstm-ln-output-of-chat-not-tanh", file=LSTM,
         old="tct[k] = w\n                    yr[k] = ao[k] * w\n            else:",
         new="tct[k] = w\n                    yr[k] = ao[k] * u\n            else:",
         tests=LSTM_NEW + LSTM_OLD,
         why="the LN-LSTM's output multiplies the output gate by the normalized cell (u) instead of its "
             "tanh(gc chat + bc) (w); tc, saved for the backward, stays right"),
    # ---- the LSTM backward ----
    dict(name="v190-lstm-bwd-fold-ln-Mc-from-uncentered-Wx", file=LSTM,
         old="Mc = (Wc.astype(np.float64) @ Wc.T.astype(np.float64)).astype(dt)",
         new="Mc = (Wx.astype(np.float64) @ Wx.T.astype(np.float64)).astype(dt)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's closed-form dx takes Wx Wx^T instead of Wc Wc^T (the centered weights): dx "
             "wrong wherever Wx's rows have a mean"),
    dict(name="v190-lstm-bwd-row-dy-of-the-chunk", file=LSTM,
         old="dyr, dhr, tcr, dcr = dy[t, bb], dh_next[r], tc[t, bb], dc_next[r]",
         new="dyr, dhr, tcr, dcr = dy[t, r], dh_next[r], tc[t, bb], dc_next[r]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the backward reads dL/dy_t by the row's index within the chunk: chunks past the first take the "
             "first chunk's output gradients"),
    dict(name="v190-lstm-bwd-cell-ln-sum-over-G", file=LSTM,
         old="s1 *= invH",
         new="s1 *= invG",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm backward's mean of dL/dchat gc divided by G instead of H: dL/dc_t and all "
             "gradients before it wrong with LN"),
    dict(name="v190-lstm-bwd-g-gate-sigmoid-derivative", file=LSTM,
         old="dag[k] = dc * i * (one - g * g)",
         new="dag[k] = dc * i * g * (one - g)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the g gate (a tanh) differentiated as a sigmoid, g (1 - g) instead of 1 - g^2"),
    dict(name="v190-lstm-bwd-fold-ln-q0-without-rstd", file=LSTM,
         old="q0[j] += xw0 * d",
         new="q0[j] += x[t, bb, 0] * d",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's dWx sum Q, first row, takes x_t's first column without rstd_x: dWx's first "
             "row and dgx wrong"),
    dict(name="v190-lstm-bwd-fold-ln-dgh-by-the-gain", file=LSTM,
         old="pdb[j] += d\n                    pgh[j] += d * hh[j]\n                    q0[j]",
         new="pdb[j] += d\n                    pgh[j] += d * gh[j]\n                    q0[j]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the narrow LN-LSTM's dgh sums dL/da times the gain gh instead of hhat"),
    dict(name="v190-lstm-bwd-wide-ln-s2x-from-hhat", file=LSTM,
         old="s2x += w * xh[j]",
         new="s2x += w * hh[j]",
         tests=LSTM_NEW + LSTM_OLD,
         why="a wide input's x-side LayerNorm backward sums dL/dxhat xhat with hhat in place of xhat: dx and dWx "
             "wrong"),
    # ---- the RNN ----
    dict(name="v190-rnn-tanh-of-the-preactivation-without-bias", file=RNN,
         old="sigmoid_row(y[t, bb], y[t, bb], kb)",
         new="sigmoid_row(y[t, bb], a[r], kb)",
         tests=RNN_NEW + RNN_OLD,
         why="the RNN's tanh takes the raw preactivation a (no bias, no LN, no factor 2) instead of the 2 z "
             "written into y just before"),
    dict(name="v190-rnn-tanh-sign", file=RNN,
         old="y[t, bb, k] = two * y[t, bb, k] - one",
         new="y[t, bb, k] = one - two * y[t, bb, k]",
         tests=RNN_NEW + RNN_OLD,
         why="tanh(z) = 2 sigmoid(2z) - 1 written with its sign flipped: the RNN outputs -tanh(z)"),
    dict(name="v190-rnn-bwd-recurrence-from-dy", file=RNN,
         old="rec_mul_fetch(dA[t, lo:hi], WhT, PT, dh_next, plan[:npl])",
         new="rec_mul_fetch(dy[t, lo:hi], WhT, PT, dh_next, plan[:npl])",
         tests=RNN_NEW + RNN_OLD,
         why="dL/dh_{t-1} = dL/dA_t Wh^T taken from dy_t instead of dA_t (the tanh and LN derivatives dropped "
             "from the recurrence)"),
]
