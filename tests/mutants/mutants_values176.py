"""Planted bugs, round 176 (format: tests/mutants/mutants.py): single-line slips in the NumPy spec
(lnrnn/reference.py), a seventh pass, on lines no earlier round mutates: LayerNorm's dgain and dbias summed
over the first axis only; the LSTM's recurrent product reading h0 at every step, its x-side LayerNorm on the
default eps and its dWx taken before the x side's LayerNorm backward; the plain RNN's dWh paired with h_t; per-step
BatchNorm counting the padded rows, batchnorm_backward's dbias from the gain's sum, the BN-LSTM's cell bias
dropped and the BN-RNN's dWh taken before the h side's BatchNorm backward; the mixture density's exponent
without its 1/2; the window LSTM's input carrying w0 at every step and its dL/dh_t without the window's share;
CTC's log p over the paths ending on the final blank only and its gradient not scaled by dloss.

14 mutants. Against the existing targeted tests alone (the nine test_values*_reference files) 11 were caught and
3 missed: the BN-RNN's dWh before the h side's BatchNorm backward (no old test checks the BN-RNN's gradients;
the v150 file reads only its running tables), the window LSTM's input window w0 and its dL/dh_t without the
window's share (no old test runs window_lstm_forward or window_lstm_backward against anything but the
spec's own pieces). The new value tests catch every mutant on their own (checked with the old files taken off
the lists): test_values176_reference_cells (LayerNorm per element in plain Python over a (T,B,F) input with
eps 0.05, its backward by autograd and its parameter gradients summed by hand; the plain and LN LSTM and RNN
from given h0 and c0 with eps 0.05 in PyTorch ops, float64, outputs, final states and every gradient by
autograd; training BatchNorm over rows of their own lengths with a step no row runs and momentum 0.3, the
running tables per element by the momentum rule with n_t/(n_t-1), the backward by autograd of a loss over the
active rows only; the BN-LSTM and BN-RNN with lengths, initial states and a cell bias away from 0, every
gradient by autograd) and test_values176_reference_heads (Graves 2013's mixture density per element with smax
binding and rho_max 0.9; the window LSTM, eqs. 46-51, in PyTorch ops for norm 'none', 'ln' and 'bn' from
given h0, c0, kappa0 and w0, rows of their own lengths and texts padded with real codes, outputs, windows,
phi and every gradient by autograd; CTC as the log of the sum over every path in C^T, by autograd, with
dloss away from 1, labels padded with real classes, an empty label and a row too short for its label).
Dropped as equivalent: the log-softmax's shift taken over the batch axis in ctc_forward (the softmax does not
see a constant shift per row, short of underflow); the LN-LSTM's h-side gain gradient accumulating the x
side's was dropped to keep the catalogue to 14 (a near-duplicate of the swapped-gradient slips of earlier
rounds). Not covered: clip_gate_grads' bounds (earlier rounds) and the spec's sigmoid (every cell test reads it).

    python tests/mutants/run.py --only 'v176-*'
"""
REF = "lnrnn/reference.py"

# existing tests of this module
REF_OLD = ["tests/test_values11_reference.py", "tests/test_values18_reference.py", "tests/test_values31_reference.py",
           "tests/test_values83_reference_forward.py", "tests/test_values83_reference_backward.py",
           "tests/test_values83_reference_ctc.py", "tests/test_values105_reference.py",
           "tests/test_values150_reference_cells.py", "tests/test_values150_reference_heads.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CELLS_NEW = ["tests/test_values176_reference_cells.py"]
HEADS_NEW = ["tests/test_values176_reference_heads.py"]

MUTANTS = [
    # ---- LayerNorm and the LN-LSTM ----
    dict(name="v176-ref-ln-param-grads-over-axis-0-only", file=REF,
         old="    red = tuple(range(dy.ndim - 1))",
         new="    red = 0",
         tests=CELLS_NEW + REF_OLD,
         why="layernorm_backward sums dgain and dbias over the first axis only: right for (B,F), but a (T,B,F) "
             "input gets (B,F) gradients, one per row, instead of (F,)"),
    dict(name="v176-ref-lstm-h-side-from-h0", file=REF,
         old="xw, hw = x[t] @ Wx, h @ Wh  # (B,G) each",
         new="xw, hw = x[t] @ Wx, h0 @ Wh  # (B,G) each",
         tests=CELLS_NEW + REF_OLD,
         why="lstm_forward's recurrent product reads h0 at every step instead of h_{t-1}: steps 1 and on wrong"),
    dict(name="v176-ref-lstm-ln-x-side-default-eps", file=REF,
         old="xn, mx, rx = layernorm_forward(xw, gx, bx, eps)",
         new="xn, mx, rx = layernorm_forward(xw, gx, bx)",
         tests=CELLS_NEW + REF_OLD,
         why="the LN-LSTM's x-side LayerNorm drops the caller's eps and uses the default one"),
    dict(name="v176-ref-lstm-ln-dWx-before-the-ln-backward", file=REF,
         old='        grads["Wx"] += s["x"].T @ dxw',
         new='        grads["Wx"] += s["x"].T @ da',
         tests=CELLS_NEW + REF_OLD,
         why="lstm_backward's dWx takes the gate gradient as if x_t Wx were not normalized (LN: dWx wrong; plain: "
             "the same, da = dxw)"),
    # ---- the plain RNN ----
    dict(name="v176-ref-rnn-dWh-from-h-t", file=REF,
         old='        dWh += s["h"].T @ da',
         new='        dWh += s["y"].T @ da',
         tests=CELLS_NEW + REF_OLD,
         why="rnn_backward's dWh pairs step t's gradient with h_t instead of h_{t-1}"),
    # ---- BatchNorm with per-step statistics and the BN cells ----
    dict(name="v176-ref-bn-count-with-padded-rows", file=REF,
         old="    n = xa.shape[0]",
         new="    n = x_t.shape[0]",
         tests=CELLS_NEW + REF_OLD,
         why="_bn_stats counts the padded rows too: the running variance's n/(n-1) uses B, and a step no row runs "
             "takes the mean of no rows (NaN) into the running tables"),
    dict(name="v176-ref-batchnorm-dbias-from-dgain", file=REF,
         old="        dbias += db",
         new="        dbias += dg",
         tests=CELLS_NEW + REF_OLD,
         why="batchnorm_backward's bias gradient accumulates the gain's"),
    dict(name="v176-ref-bn-lstm-cell-bias-dropped", file=REF,
         old="tc = np.tanh(gc * (c - mc) * sc + bc)",
         new="tc = np.tanh(gc * (c - mc) * sc)",
         tests=CELLS_NEW + REF_OLD,
         why="the BN-LSTM's cell BatchNorm drops its bias bc"),
    dict(name="v176-ref-bn-rnn-dWh-before-the-bn-backward", file=REF,
         old='        dWh += s["h_prev"].T @ dhw\n        dWx += x[t].T @ dxw\n        dx[t] = dxw @ Wx.T\n'
             '        dh_next = dhw @ Wh.T\n    return dx, dh_next, dWx, dWh, db, dgx, dgh\n',
         new='        dWh += s["h_prev"].T @ da\n        dWx += x[t].T @ dxw\n        dx[t] = dxw @ Wx.T\n'
             '        dh_next = dhw @ Wh.T\n    return dx, dh_next, dWx, dWh, db, dgx, dgh\n',
         tests=CELLS_NEW + REF_OLD,
         why="bn_rnn_backward's dWh takes dL/da, not dL/d(h Wh) through the h side's BatchNorm"),
    # ---- the mixture density and the window ----
    dict(name="v176-ref-mdn-exponent-without-the-2", file=REF,
         old="dens = np.exp(-q / (2 * (1 - rho ** 2)))",
         new="dens = np.exp(-q / (1 - rho ** 2))",
         tests=HEADS_NEW + REF_OLD,
         why="the bivariate normal's exponent drops the 1/2: -Z/(1-rho^2) instead of -Z/(2(1-rho^2))"),
    dict(name="v176-ref-window-lstm-input-window-w0", file=REF,
         old="X = np.concatenate([x[t], w], axis=1)",
         new="X = np.concatenate([x[t], w0], axis=1)",
         tests=HEADS_NEW + REF_OLD,
         why="the window LSTM's input at every step carries the initial window w0 instead of w_{t-1}"),
    dict(name="v176-ref-window-lstm-dh-without-the-window", file=REF,
         old='dh = np.where(on, dy[t], 0.0) + dh_next + dhw_',
         new='dh = np.where(on, dy[t], 0.0) + dh_next',
         tests=HEADS_NEW + REF_OLD,
         why="window_lstm_backward's dL/dh_t leaves out what flows back from the window (phi depends on h_t)"),
    # ---- CTC ----
    dict(name="v176-ref-ctc-logz-on-the-final-blank-only", file=REF,
         old="logz = alpha[Tb - 1, S - 1] if S == 1 else",
         new="logz = alpha[Tb - 1, S - 1] if S >= 1 else",
         tests=HEADS_NEW + REF_OLD,
         why="ctc_forward's log p counts only the paths ending on the final blank, not those ending on the last "
             "label"),
    dict(name="v176-ref-ctc-gradient-not-scaled-by-dloss", file=REF,
         old="d[:Tb, b] = dloss[b] * (np.exp(logp[:Tb, b]) - post)",
         new="d[:Tb, b] = np.exp(logp[:Tb, b]) - post",
         tests=HEADS_NEW + REF_OLD,
         why="ctc_backward ignores the upstream gradient dloss: right only for dloss = 1"),
]
