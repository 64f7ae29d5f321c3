"""Planted bugs, round 67 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the heads, the cell registry's adapters, the mixture density kernel, LayerNorm and the window
model: log_softmax normalizing over the rows instead of the classes, dL/db as a mean over rows, Head.count
counting running instead of scored steps, the mixture density head's targets flattened batch-major, its count
taking padded steps and its sampler dropping the bias; the LN-RNN given the BatchNorm momentum as its eps, the
LN-LSTM's backward with gx and gh swapped, the BN-RNN's forward with gx and gh swapped, the LSTM's c sequence
(read for the final state of short rows) taken from y; the mixture density's saved pi over the max instead of
the softmax's sum, the sign of the Gaussian's cross term, the pen's two Bernoulli terms swapped, the sampler's
two normals mixed the wrong way round; LayerNorm's shift added before its gain and its backward's xhat
without 1/std; the window layer's final state ordered (h, c, w, kappa) and its backward reading the c
side's shift as the gain gc.

18 mutants. Against the existing targeted tests alone 15 were caught and 3 missed: the mixture density head's
sampler without its bias (no old test samples through the head with a bias), the LSTM's c sequence taken from
y (no old targeted test checks the final c of a row shorter than T) and the LN-RNN's eps given the momentum
(no old targeted test runs the LN-RNN through the layer functions against its equations with its eps).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values67_heads (float64, T, B and the classes all different, padded steps, an unscored label, a nonzero
bias: the classifier per step and at the last step against -log softmax over each step's classes, its count
of scored steps; the mixture density head against Graves 2013's loss of each running point read from its own
row of the (B,T,3) targets, its count of running points, its biased sampler's spread and weights; dW, db and
dh against central differences of scale times the loss), test_values67_mdn (the kernel's loss, pi and e
against Graves 2013 eqs. 18-26 written in NumPy, a clipped log-sigma, strong correlations of both signs, an
invalid row; a pen term by hand; every column of the backward against central differences of that NumPy
loss; mdn_split's biased parameters; 40000 draws of mdn_sample against their mixture's weights, means,
standard deviations, correlations and pen probability), test_values67_cells (the LN-RNN with the default
and a large eps, the LN-LSTM and the BN-RNN in training mode against their equations with every gain and
shift different; rnn, ln-rnn, lstm and ln-lstm stepped one step at a time against one call; the final (h, c)
of rows of 4, 2 and 0 steps; the LN-LSTM's gradients against central differences), test_values67_layernorm
(the definition with eps, gain and shift element by element over several row chunks; the backward against
central differences of the definition) and test_values67_window (K = 2 and C = 6: the parameters' shapes,
the final state (h, c, kappa, w) against layer 1 recomputed in NumPy, two calls with the state carried
against one, the one-layer stack's gradients with no norm and with LayerNorm against central differences of
the NumPy layer). All five files run in about 4 s on one core with Numba's cache warm.
Dropped as equivalent: the LN-LSTM's forward with bx and bh swapped (both shifts are added into the same gate
pre-activations, so only their sum is ever seen); the mixture density's rho without RHO (RHO = 1 - 1e-4, a
relative change no tolerance tells from rounding); the classifier's gather filling unscored steps with
another class (masked out of the loss and of the gradient). The window's gc is read only with LayerNorm on
layer 1: its mutant needs the LN window layer (a stack with no norm cannot see it).

    python tests/mutants/run.py --only 'v67-*'
"""
HEADS = "lnrnn/model/heads.py"
CELLS = "lnrnn/model/cells.py"
MDN = "lnrnn/kernels/mdn.py"
LN = "lnrnn/kernels/layernorm.py"
WINDOW = "lnrnn/model/window.py"

# existing tests of these modules
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values12_heads.py", "tests/model/test_values16_heads.py",
             "tests/model/test_values33_heads.py", "tests/model/test_values48_heads.py",
             "tests/model/test_values57_heads.py"]
CELLS_OLD = ["tests/model/test_functional.py", "tests/model/test_values13_cells.py",
             "tests/model/test_values16_functional.py", "tests/model/test_values22_functional.py",
             "tests/model/test_values51_functional.py", "tests/model/test_layers.py"]
MDN_OLD = ["tests/kernels/test_mdn.py", "tests/kernels/test_values35_mdn.py", "tests/kernels/test_values42_mdn.py",
           "tests/model/test_values_heads.py", "tests/commands/test_values_sampling.py"]
LN_OLD = ["tests/kernels/test_values_layernorm.py", "tests/kernels/test_values45_rows.py",
          "tests/kernels/test_kernels.py"]
WINDOW_OLD = ["tests/model/test_values_window.py", "tests/model/test_values10_window.py",
              "tests/model/test_values14_window.py", "tests/model/test_values16_window.py",
              "tests/model/test_values24_window.py", "tests/model/test_values42_window.py",
              "tests/model/test_values52_window.py", "tests/model/test_synthesis.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
HEADS_NEW = ["tests/model/test_values67_heads.py"]
CELLS_NEW = ["tests/model/test_values67_cells.py"]
MDN_NEW = ["tests/kernels/test_values67_mdn.py", "tests/model/test_values67_heads.py"]
LN_NEW = ["tests/kernels/test_values67_layernorm.py"]
WINDOW_NEW = ["tests/model/test_values67_window.py"]

MUTANTS = [
    # ---- the heads: log softmax's axis, db's reduction, the count of scored steps, the mixture density's rows ----
    dict(name="v67-heads-log-softmax-over-rows", file=HEADS,
         old="    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))",
         new="    return z - np.log(np.exp(z).sum(axis=0, keepdims=True))",
         tests=HEADS_NEW + HEADS_OLD,
         why="log_softmax normalizes over the rows (the batch, or the steps) instead of the classes: the "
             "classifier's loss and its softmax gradient are another distribution's"),
    dict(name="v67-heads-db-mean-over-rows", file=HEADS,
         old='        self.grads["b"] += d2.sum(0)',
         new='        self.grads["b"] += d2.mean(0)',
         tests=HEADS_NEW + HEADS_OLD,
         why="dL/db is the mean of the rows' dL/d(out) instead of their sum: the bias learns N times slower "
             "(N = B, or T*B per step) than the loss says"),
    dict(name="v67-heads-count-running-not-scored", file=HEADS,
         old="        return int(np.count_nonzero(self.valid_targets(targets, valid)))",
         new="        return int(np.count_nonzero(valid))",
         tests=HEADS_NEW + HEADS_OLD,
         why="Head.count counts the running steps, not the scored ones: the classifier's unscored labels (-1) "
             "enter the count that normalizes the loss"),
    dict(name="v67-heads-mdn-targets-batch-major", file=HEADS,
         old="        tg = np.ascontiguousarray(np.swapaxes(np.asarray(targets, self.dtype), 0, 1).reshape(T * B, 3))",
         new="        tg = np.ascontiguousarray(np.asarray(targets, self.dtype).reshape(T * B, 3))",
         tests=HEADS_NEW + HEADS_OLD,
         why="the mixture density head flattens the (B,T,3) targets without putting the steps first: with "
             "T != B each output row is scored against another row's point"),
    dict(name="v67-heads-mdn-count-padded-steps", file=HEADS,
         old='        return {"loss": total, "nats_seq": total}, int(np.count_nonzero(v)), (h, yhat, tg, saved)',
         new='        return {"loss": total, "nats_seq": total}, int(v.size), (h, yhat, tg, saved)',
         tests=HEADS_NEW + HEADS_OLD,
         why="the mixture density head's count is every (t, b), padded steps too: the mean loss per point is "
             "divided by too many points"),
    dict(name="v67-heads-mdn-sample-bias-dropped", file=HEADS,
         old="        return mdn_sample(out, self.M, rng, bias)",
         new="        return mdn_sample(out, self.M, rng)",
         tests=HEADS_NEW + HEADS_OLD,
         why="MDNHead.sample drops its bias: a biased sampler (Graves 2013, eqs. 61-62) draws unbiased points"),
    # ---- the cells' adapters: which norm parameter goes where, the state sequence of c ----
    dict(name="v67-cells-ln-rnn-eps-is-momentum", file=CELLS,
         old='NORM_LN if ln else NORM_NONE,\n            f.eps, nch)',
         new='NORM_LN if ln else NORM_NONE,\n            f.momentum, nch)',
         tests=CELLS_NEW + CELLS_OLD,
         why="the plain and LN RNN's forward passes the facts' BatchNorm momentum (0.1) where LayerNorm's eps "
             "goes: every LN-RNN pre-activation is normalized by sqrt(var + 0.1)"),
    dict(name="v67-cells-ln-lstm-backward-gains-swapped", file=CELLS,
         old='    gx, gh = (p["gx"], p["gh"]) if ln else',
         new='    gx, gh = (p["gh"], p["gx"]) if ln else',
         tests=CELLS_NEW + CELLS_OLD,
         why="the LN-LSTM's backward takes gh for the x side's gain and gx for the h side's: every gradient "
             "is the one of another network (the forward is right)"),
    dict(name="v67-cells-bn-rnn-gains-swapped", file=CELLS,
         old='p["b"], p["gx"], p["gh"],\n                                b["rmx"]',
         new='p["b"], p["gh"], p["gx"],\n                                b["rmx"]',
         tests=CELLS_NEW + CELLS_OLD,
         why="the BN-RNN's forward scales the normalized x Wx by gh and h Wh by gx"),
    dict(name="v67-cells-lstm-c-sequence-is-y", file=CELLS,
         old="    return y, (hT, cT), saved, (y, saved[LSTM_SAVED_C])",
         new="    return y, (hT, cT), saved, (y, saved[LSTM_SAVED_Y])",
         tests=CELLS_NEW + CELLS_OLD,
         why="the plain and LN LSTM hand y as the c sequence: a row shorter than T ends with c = its last h"),
    # ---- the mixture density kernel: Graves 2013 eqs. 18-26, its sampler ----
    dict(name="v67-mdn-pi-over-the-max", file=MDN,
         old="        pi[k] = np.exp(yh[1 + k] - lse_pi)",
         new="        pi[k] = np.exp(yh[1 + k] - pmax)",
         tests=MDN_NEW + MDN_OLD,
         why="the saved pi is exp(pi_hat - max) without the softmax's sum: dL/dpi_hat = pi - gamma is off "
             "(the loss itself is right)"),
    dict(name="v67-mdn-cross-term-sign", file=MDN,
         old="        z1[k] = a\n        z2[k] = b\n        omr = one - rho * rho\n"
             "        Z = a * a + b * b - two * rho * a * b",
         new="        z1[k] = a\n        z2[k] = b\n        omr = one - rho * rho\n"
             "        Z = a * a + b * b + two * rho * a * b",
         tests=MDN_NEW + MDN_OLD,
         why="the bivariate Gaussian's exponent (eq. 25) adds 2 rho z1 z2: the correlation's sign flips in "
             "the density"),
    dict(name="v67-mdn-pen-terms-swapped", file=MDN,
         old="    nll = -lse + tg[2] * sp_neg + (one - tg[2]) * sp_pos",
         new="    nll = -lse + tg[2] * sp_pos + (one - tg[2]) * sp_neg",
         tests=MDN_NEW + MDN_OLD,
         why="the end-of-stroke term scores -log(1 - e) for a pen lift and -log e otherwise (eq. 26 reversed), "
             "while the gradient e - x3 stays Graves's"),
    dict(name="v67-mdn-sample-x2-noise-swapped", file=MDN,
         old="    x2 = mu2[rows, k] + s2[rows, k] * (r * u1 + np.sqrt(1.0 - r * r) * u2)",
         new="    x2 = mu2[rows, k] + s2[rows, k] * (r * u2 + np.sqrt(1.0 - r * r) * u1)",
         tests=MDN_NEW + MDN_OLD,
         why="the sampler mixes the two normals the wrong way round: x1 and x2 correlate by sqrt(1 - rho^2), "
             "not rho"),
    # ---- layer normalization ----
    dict(name="v67-layernorm-shift-before-gain", file=LN,
         old="                y[r, j] = y[r, j] * gain[j] + bias[j]",
         new="                y[r, j] = (y[r, j] + bias[j]) * gain[j]",
         tests=LN_NEW + LN_OLD,
         why="LayerNorm adds its shift before the gain: y = (xhat + b) g instead of xhat g + b"),
    dict(name="v67-layernorm-backward-xhat-unscaled", file=LN,
         old="                xhat[j] = (x[r, j] - mean[r]) * rstd[r]",
         new="                xhat[j] = x[r, j] - mean[r]",
         tests=LN_NEW + LN_OLD,
         why="the backward rebuilds xhat without 1/std: dgain and dx are off wherever the variance is not 1"),
    # ---- the window model: its final state's order, the backward's gains ----
    dict(name="v67-window-final-state-w-before-kappa", file=WINDOW,
         old="        out = (hT, cT, kT, wT)",
         new="        out = (hT, cT, wT, kT)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window layer's final state comes out as (h, c, w, kappa), not the (h, c, kappa, w) it takes "
             "back: a continued forward reads w as kappa"),
    dict(name="v67-window-backward-gc-is-bc", file=WINDOW,
         old="        gx, _, gh, _, gc, _ = self._norm_params(p)",
         new="        gx, _, gh, _, _, gc = self._norm_params(p)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window layer's backward takes the c side's shift (zeros without LN) as its gain gc"),
]
