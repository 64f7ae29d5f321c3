"""Planted bugs, round 150 (format: tests/mutants/mutants.py): single-line slips in the NumPy spec
(lnrnn/reference.py), a sixth pass, on lines no earlier round mutates: LayerNorm's dgain summed against the
raw input; the LN-LSTM's cell gradient taken past the cell LayerNorm's backward and its dx taken before the x
side's; the plain RNN's bias gradient assigned each step and its dh_{t-1} through Wh instead of Wh^T; the BN
step's backward without the gain, inference BatchNorm reading the batch's statistics, the BN-LSTM's x and h
gains swapped and its forget gate gradient reading c_t, the BN-RNN writing the h side's statistics into the
x side's running table; the mixture density's x and y offsets swapped; the window's k_hat gradient times
kappa_t; the spec's CTC without the step from position 0 to 1 and its posteriors assigned, not summed.

14 mutants. Against the existing targeted tests alone (the seven test_values*_reference files) 13 were caught
and 1 missed: the BN-RNN's h side's statistics written into the x side's running table (no old test reads the
BN-RNN's running tables after a training forward; the forward itself uses the batch's statistics and does not
change). The new value tests catch all 14 on their own (checked with the old files taken off the lists):
test_values150_reference_cells (the same cells written again in PyTorch ops, float64, gradients by autograd:
LayerNorm over a (T,B,F) input, the LN-LSTM and the plain and LN RNN with every gradient, per-step BatchNorm
in training and its backward, inference per element against the running rows, which stay as they were, the
BN-LSTM with distinct x and h gains and every gradient, the BN-RNN's forward by hand and its four running
tables by the momentum rule with the unbiased variance) and test_values150_reference_heads (Graves 2013's
mixture density, eqs. 23-26, per element in plain Python; the soft window, eqs. 46-51, per element and its
backward by central differences of the forward, with a repeated character and a padded text; CTC's loss as
minus the log of the sum over every path in C^T that collapses to the label, with repeats and rows of their
own lengths, and its gradient by central differences of that sum).
Dropped as equivalent or near it: the softmax's row maximum taken over the whole array in mdn_nll (a
softmax does not see the shift, short of a row so far below the others that it underflows);
clip_gate_grads' `clip < np.inf` as `<=` (np.clip to +-inf changes nothing). Left out as near-duplicates of
earlier rounds: the gate clip at clip = 0 and the pen terms of the Bernoulli.

    python tests/mutants/run.py --only 'v150-*'
"""
REF = "lnrnn/reference.py"

# existing tests of this module
REF_OLD = ["tests/test_values11_reference.py", "tests/test_values18_reference.py", "tests/test_values31_reference.py",
           "tests/test_values83_reference_forward.py", "tests/test_values83_reference_backward.py",
           "tests/test_values83_reference_ctc.py", "tests/test_values105_reference.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CELLS_NEW = ["tests/test_values150_reference_cells.py"]
HEADS_NEW = ["tests/test_values150_reference_heads.py"]

MUTANTS = [
    # ---- LayerNorm and the LN cells' backward ----
    dict(name="v150-ref-ln-dgain-from-x", file=REF,
         old="    return dx, (dy * xhat).sum(axis=red), dy.sum(axis=red)",
         new="    return dx, (dy * x).sum(axis=red), dy.sum(axis=red)",
         tests=CELLS_NEW + REF_OLD,
         why="LayerNorm's dgain sums dy times the raw input, not the normalized one"),
    dict(name="v150-ref-lstm-ln-cell-backward-skipped", file=REF,
         old="        dc = dc + dc_next\n",
         new="        dc = dcn + dc_next\n",
         tests=CELLS_NEW + REF_OLD,
         why="the LN-LSTM's dL/dc takes the gradient at LN(c)'s output, skipping the cell LayerNorm's backward"),
    dict(name="v150-ref-lstm-ln-dx-before-ln-backward", file=REF,
         old="        dx[t] = dxw @ Wx.T\n        dh_next = dhw @ Wh.T\n    return (dx,",
         new="        dx[t] = da @ Wx.T\n        dh_next = dhw @ Wh.T\n    return (dx,",
         tests=CELLS_NEW + REF_OLD,
         why="the LN-LSTM's dx multiplies the gate gradient by Wx^T without the x side's LayerNorm backward"),
    # ---- the plain RNN's backward ----
    dict(name="v150-ref-rnn-db-assigned", file=REF,
         old="            db += dz.sum(0)\n",
         new="            db = dz.sum(0)\n",
         tests=CELLS_NEW + REF_OLD,
         why="the plain RNN's bias gradient is assigned each step, not accumulated: only step 0's survives"),
    dict(name="v150-ref-rnn-dh-next-untransposed", file=REF,
         old="        dh_next = da @ Wh.T\n",
         new="        dh_next = da @ Wh\n",
         tests=CELLS_NEW + REF_OLD,
         why="the RNN's gradient to h_{t-1} multiplies by Wh instead of Wh^T (same shape when H x H)"),
    # ---- per-step BatchNorm and the BN cells ----
    dict(name="v150-ref-bn-backward-without-gain", file=REF,
         old="    dxhat = dy_t * gain\n",
         new="    dxhat = dy_t\n",
         tests=CELLS_NEW + REF_OLD,
         why="the BN step's backward drops the gain: dL/dxhat is taken as dL/dy"),
    dict(name="v150-ref-bn-infer-with-batch-stats", file=REF,
         old="_bn_stats(x[t], running_mean, running_var, t, False, 0.0, eps)",
         new="_bn_stats(x[t], running_mean, running_var, t, True, 0.0, eps)",
         tests=CELLS_NEW + REF_OLD,
         why="batchnorm_forward_infer normalizes with the batch's statistics, not the running rows"),
    dict(name="v150-ref-bn-lstm-gains-swapped", file=REF,
         old="        a = gh * (hw - mh) * sh + gx * (xw - mx) * sx + b\n",
         new="        a = gx * (hw - mh) * sh + gh * (xw - mx) * sx + b\n",
         tests=CELLS_NEW + REF_OLD,
         why="the BN-LSTM scales the h side by the x side's gain and the x side by the h side's"),
    dict(name="v150-ref-bn-lstm-forget-grad-from-c", file=REF,
         old='dc * s["c_prev"] * f * (1 - f),\n                             dc * i * (1 - g ** 2), '
             'do * o * (1 - o)], axis=1)  # (B,4H)',
         new='dc * s["c"] * f * (1 - f),\n                             dc * i * (1 - g ** 2), '
             'do * o * (1 - o)], axis=1)  # (B,4H)',
         tests=CELLS_NEW + REF_OLD,
         why="the BN-LSTM's forget gate gradient reads c_t, not c_{t-1}"),
    dict(name="v150-ref-bn-rnn-h-stats-in-x-table", file=REF,
         old="        mh, sh = _bn_stats(hw, rmh, rvh, t, training, momentum, eps, active[t])\n        h_prev = h\n",
         new="        mh, sh = _bn_stats(hw, rmx, rvx, t, training, momentum, eps, active[t])\n        h_prev = h\n",
         tests=CELLS_NEW + REF_OLD,
         why="the BN-RNN records the h side's statistics into the x side's running table (copy-paste)"),
    # ---- Graves's mixture density and soft window ----
    dict(name="v150-ref-mdn-offsets-swapped", file=REF,
         old="    dx, dy = t[:, :1] - mu1, t[:, 1:2] - mu2\n",
         new="    dx, dy = t[:, 1:2] - mu1, t[:, :1] - mu2\n",
         tests=HEADS_NEW + REF_OLD,
         why="the mixture density measures x2 from mu1 and x1 from mu2"),
    dict(name="v150-ref-window-dkhat-times-kappa", file=REF,
         old='dkap * s["ek"]], axis=1)',
         new='dkap * s["kappa"]], axis=1)',
         tests=HEADS_NEW + REF_OLD,
         why="the window's gradient to k_hat multiplies by kappa_t instead of exp(k_hat) = kappa_t - kappa_{t-1}"),
    # ---- the spec's CTC ----
    dict(name="v150-ref-ctc-stay-or-advance-from-s1", file=REF,
         old="                if s >= 1:\n",
         new="                if s > 1:\n",
         tests=HEADS_NEW + REF_OLD,
         why="CTC's alpha at position 1 cannot come from position 0: paths that start with a blank lose the label"),
    dict(name="v150-ref-ctc-posterior-assigned", file=REF,
         old="            post[:, ext[s]] += np.exp(",
         new="            post[:, ext[s]] = np.exp(",
         tests=HEADS_NEW + REF_OLD,
         why="CTC's class posteriors keep only the last position of a class (the blank sits at every other one)"),
]
