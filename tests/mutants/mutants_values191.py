"""Planted bugs, round 191 (format: tests/mutants/mutants.py): single-line slips in the NumPy spec
(lnrnn/reference.py), an eighth pass, on lines no earlier round mutates: LayerNorm's backward without the gain;
the LN-LSTM's h side normalized with the x side's gain, its h-side LayerNorm backward run with the x side's
gain and its cell's LayerNorm backward rebuilt from c_{t-1}; the LN-RNN's dx taken before the LayerNorm
backward; training BatchNorm given eps as the momentum and the momentum as eps, batchnorm_backward ignoring
training=False, the BN-LSTM's h side reading and moving the x side's running tables; the mixture weights'
softmax over the points; the window's Gaussians at the previous kappa, window_backward handing back the
incoming dL/dkappa, the window LSTM's dc_next without the carried share; CTC's log-softmax over the batch and
its beta never stepping into the final blank.

14 mutants. Against the existing targeted tests alone (the eleven test_values*_reference files) all 14 were
caught and none missed: this pass adds value tests on awkward shapes rather than closing gaps. The new value
tests catch every mutant on their own (checked with the old files taken off the lists):
test_values191_reference_cells (LayerNorm's backward with gains away from 1 on one row and three, H = 5, by
PyTorch autograd in float64; the LN-LSTM with h-side gains far from the x side's and the LN-RNN on one row
and three, every gradient by autograd; training BatchNorm with momentum 0.3 and eps 0.05 over lengths 2 0 3
and a single row, the running tables per element by the momentum rule with n/(n-1) and the output per element
in plain Python; batchnorm_backward with training=False by autograd through the running statistics held
constant, with a row of no steps; the BN-LSTM in inference on x, h and cell tables far apart, forward and
every gradient by autograd, and in training each side's running tables from its own pre-activations computed
here) and test_values191_reference_heads (the mixture density per element in plain Python with five
components on one point and three; the window per element in plain Python over a text of no characters and
its backward by autograd with an upstream dL/dkappa; the window LSTM with H = 5, norm 'none' and 'ln', a row
of no steps and a text of no characters, every gradient by autograd; CTC's loss and gradient as the log of the
sum over every path in C^T, by autograd, on one row and on three with a row of no steps and an empty label).
Dropped as equivalent: ctc_backward's final-step beta set only for S > 2 (S = 2L + 1 is odd: S > 1 and S > 2
agree); ctc_forward's logz for a row of no steps always 0 (the loss is 0 either way and ctc_backward skips the
row). Left out: clip_gate_grads' bound as 0 <= clip (it zeroes every gate gradient at the default clip of 0,
which every gradient test sees) and the gate slices of lstm_forward (the same text stands in
window_lstm_forward, so the snippet is not unique).

    python tests/mutants/run.py --only 'v191-*'
"""
REF = "lnrnn/reference.py"

# existing tests of this module
REF_OLD = ["tests/test_values11_reference.py", "tests/test_values18_reference.py", "tests/test_values31_reference.py",
           "tests/test_values83_reference_forward.py", "tests/test_values83_reference_backward.py",
           "tests/test_values83_reference_ctc.py", "tests/test_values105_reference.py",
           "tests/test_values150_reference_cells.py", "tests/test_values150_reference_heads.py",
           "tests/test_values176_reference_cells.py", "tests/test_values176_reference_heads.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CELLS_NEW = ["tests/test_values191_reference_cells.py"]
HEADS_NEW = ["tests/test_values191_reference_heads.py"]

MUTANTS = [
    # ---- LayerNorm, the LN-LSTM and the LN-RNN ----
    dict(name="v191-ref-ln-backward-without-the-gain", file=REF,
         old="    dxhat = dy * gain\n",
         new="    dxhat = dy\n",
         tests=CELLS_NEW + REF_OLD,
         why="layernorm_backward forgets the gain in dL/dxhat: dx is right only for a gain of 1"),
    dict(name="v191-ref-lstm-ln-h-side-x-gain", file=REF,
         old="hn, mh, rh = layernorm_forward(hw, gh, bh, eps)",
         new="hn, mh, rh = layernorm_forward(hw, gx, bh, eps)",
         tests=CELLS_NEW + REF_OLD,
         why="lstm_forward normalizes the recurrent product with the input side's gain"),
    dict(name="v191-ref-lstm-ln-backward-h-side-x-gain", file=REF,
         old='dhw, dgh, dbh = layernorm_backward(da, s["hw"], s["mh"], s["rh"], gh)',
         new='dhw, dgh, dbh = layernorm_backward(da, s["hw"], s["mh"], s["rh"], gx)',
         tests=CELLS_NEW + REF_OLD,
         why="lstm_backward runs the h side's LayerNorm backward with the x side's gain: dh, dWh and dgh wrong"),
    dict(name="v191-ref-lstm-ln-cell-backward-from-c-prev", file=REF,
         old='dc, dgc, dbc = layernorm_backward(dcn, s["c_new"], s["mc"], s["rc"], gc)',
         new='dc, dgc, dbc = layernorm_backward(dcn, s["c"], s["mc"], s["rc"], gc)',
         tests=CELLS_NEW + REF_OLD,
         why="the cell's LayerNorm backward rebuilds xhat from c_{t-1} instead of c_t"),
    dict(name="v191-ref-rnn-ln-dx-before-the-ln-backward", file=REF,
         old="        dx[t] = da @ Wx.T\n",
         new="        dx[t] = dz @ Wx.T\n",
         tests=CELLS_NEW + REF_OLD,
         why="rnn_backward's dx takes the gradient before the LayerNorm backward: right without norm only"),
    # ---- per-step BatchNorm and the BN-LSTM ----
    dict(name="v191-ref-batchnorm-train-momentum-and-eps-swapped", file=REF,
         old="_bn_stats(x[t], running_mean, running_var, t, True, momentum, eps, active[t])",
         new="_bn_stats(x[t], running_mean, running_var, t, True, eps, momentum, active[t])",
         tests=CELLS_NEW + REF_OLD,
         why="batchnorm_forward_train passes eps as the momentum and the momentum as eps"),
    dict(name="v191-ref-batchnorm-backward-always-training", file=REF,
         old="_bn_step_backward(dy[t], x[t], mean[t], rstd[t], gain, training, active[t])",
         new="_bn_step_backward(dy[t], x[t], mean[t], rstd[t], gain, True, active[t])",
         tests=CELLS_NEW + REF_OLD,
         why="batchnorm_backward ignores training=False: the statistics of inference are constants, their "
             "backward is rstd * gain * dy, not the batch statistics' backward"),
    dict(name="v191-ref-bn-lstm-h-side-on-the-x-tables", file=REF,
         old="        mh, sh = _bn_stats(hw, rmh, rvh, t, training, momentum, eps, active[t])\n        a = gh",
         new="        mh, sh = _bn_stats(hw, rmx, rvx, t, training, momentum, eps, active[t])\n        a = gh",
         tests=CELLS_NEW + REF_OLD,
         why="bn_lstm_forward's h side reads and updates the x side's running tables: in training the x tables "
             "move twice and the h tables never; in inference the h side is normalized with x's statistics"),
    # ---- mixture density and the window ----
    dict(name="v191-ref-mdn-pi-softmax-over-the-points", file=REF,
         old="pi = p / p.sum(axis=1, keepdims=True)",
         new="pi = p / p.sum(axis=0, keepdims=True)",
         tests=HEADS_NEW + REF_OLD,
         why="mdn_nll normalizes the mixture weights over the points instead of over the components"),
    dict(name="v191-ref-window-distance-from-kappa-prev", file=REF,
         old="d = kappa[:, :, None] - u[None, None, :]",
         new="d = kappa_prev[:, :, None] - u[None, None, :]",
         tests=HEADS_NEW + REF_OLD,
         why="window_forward's Gaussians sit at the previous step's kappa instead of the advanced one"),
    dict(name="v191-ref-window-backward-returns-the-incoming-dkappa", file=REF,
         old="return dp @ Wp.T, dkap, s[\"h\"].T @ dp, dp.sum(axis=0)",
         new="return dp @ Wp.T, dkappa, s[\"h\"].T @ dp, dp.sum(axis=0)",
         tests=HEADS_NEW + REF_OLD,
         why="window_backward hands the step before only the dL/dkappa it received, without this step's phi's"),
    dict(name="v191-ref-window-lstm-dc-next-from-the-cells-own-share", file=REF,
         old="        dc_next = dc * f\n    return (dx,",
         new="        dc_next = dcc * f\n    return (dx,",
         tests=HEADS_NEW + REF_OLD,
         why="window_lstm_backward carries to c_{t-1} only this step's tanh share, dropping the carried dc_next"),
    # ---- CTC ----
    dict(name="v191-ref-ctc-log-softmax-over-the-batch", file=REF,
         old="logp = z - np.log(np.exp(z).sum(axis=2, keepdims=True))",
         new="logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))",
         tests=HEADS_NEW + REF_OLD,
         why="ctc_forward's log-softmax normalizes over the batch instead of the classes"),
    dict(name="v191-ref-ctc-beta-never-steps-to-the-last-position", file=REF,
         old="nxt = [s] + ([s + 1] if s + 1 < S else [])",
         new="nxt = [s] + ([s + 1] if s + 1 < S - 1 else [])",
         tests=HEADS_NEW + REF_OLD,
         why="ctc_backward's beta never moves into the final blank (off by one): posteriors, so the gradient, "
             "miss the paths ending on it"),
]
