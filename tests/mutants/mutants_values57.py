"""Planted bugs, round 57 (format: tests/mutants/mutants.py): single-line slips in the synthesis window's CPU
kernel and in the heads, on lines no earlier round mutates: phi centred on kappa_{t-1}, phi keeping only the
last component, phi computed past a short text's ulen; the window's backward reading alpha and beta swapped,
measuring kappa against 0-based positions, dL/dbeta's sum linear in (kappa - u), dL/dkappa's sum without it,
and dL/dw taken at a row's first padded step; the heads' linear map without its bias, dW assigned instead of
accumulated, the classifier's loss over valid instead of scored steps and its gradient unmasked, per-step
regression targets of several outputs transposed whole, the mixture density's gradient without the batch's
scale, and the CTC labels reshaped by the step axis.

15 mutants. Against the existing targeted tests alone 13 were caught and 2 missed: dW assigned instead of
accumulated (no old targeted test checks that dW adds up over two backward calls) and the mixture density's
unscaled gradient (none checks the scale of the gradient without the output clip).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values57_window (float64, rows of text lengths 5, 2, 0, 3 with repeated characters and sequence
lengths 4, 2, 3, 1: alpha, beta, exp(k_hat) recomputed from the returned h_t, kappa_t as their running sum,
phi and w summed by hand over the 1-based positions of each row's text; the forward and all 16 gradients
against reference.window_lstm_forward/backward for no norm and LN with dL/dy and dL/dw nonzero at padded
steps; dWp, dbp, dkappa0, dw0 and Wx's window rows against central differences of the kernel's own forward)
and test_values57_heads (float64 heads with a nonzero bias, padded steps, unscored labels, T != B: the
per-step and last-step classifier, regression with two outputs, the mixture density against
reference.mdn_nll, CTC against the sum over every path of each row's own steps and best path's edit distance
by hand; each head's dW, db and dh against central differences of scale times its loss, and dW, db doubling
over a second backward). Dropped as equivalent: the backward's gather of dL/dphi over every U characters
(the sums that read it stop at ulen[b]) and the forward's scatter of phi into w over every U (phi is 0 past
ulen[b]; only a garbage code there could tell, by writing out of bounds). Left out: the zeroing loops of phi
and w shortened (phi's rows zeroed up to ulen, w's columns up to C - 1), whose effect is whatever the
allocator's fresh memory holds, so no test can see them reliably.

    python tests/mutants/run.py --only 'v57-*'
"""
WINDOW = "lnrnn/kernels/window.py"
HEADS = "lnrnn/model/heads.py"

# existing tests of these modules
WINDOW_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values42_window_text.py",
              "tests/kernels/test_values45_window.py"]
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values33_heads.py", "tests/model/test_models.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WINDOW_NEW = ["tests/kernels/test_values57_window.py"]
HEADS_NEW = ["tests/model/test_values57_heads.py"]

MUTANTS = [
    # ---- the window's forward: kappa, the sum over components, the characters phi covers ----
    dict(name="v57-window-phi-reads-kappa-prev", file=WINDOW,
         old="al, be, ka = wn[j], wn[K + j], kn[j]\n                for u in range(nu):",
         new="al, be, ka = wn[j], wn[K + j], kp[j]\n                for u in range(nu):",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="phi(t,u) is centred on kappa_{t-1}, the position before this step's move: w_t lags a step behind "
             "the kappa_t the layer returns and the backward differentiates"),
    dict(name="v57-window-phi-last-component-only", file=WINDOW,
         old="fr[u] += al * _exp(-be * d * d)",
         new="fr[u] = al * _exp(-be * d * d)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="phi(t,u) keeps the last component's term instead of the sum over the K components"),
    dict(name="v57-window-phi-past-ulen", file=WINDOW,
         old="for u in range(nu):\n                    d = ka - dt.type(u + 1)  # u + 1",
         new="for u in range(U):\n                    d = ka - dt.type(u + 1)  # u + 1",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="phi is computed over the padded characters of a short text too: the phi returned (the sampler's "
             "stop rule and plots read it) is no longer 0 past ulen[b]"),
    # ---- the window's backward: alpha and beta, the 1-based positions, the sums over the characters ----
    dict(name="v57-window-bwd-alpha-beta-swapped", file=WINDOW,
         old="al, be, ka = wn[j], wn[K + j], kn[j]\n                sa = zero",
         new="al, be, ka = wn[K + j], wn[j], kn[j]\n                sa = zero",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the backward reads beta as alpha and alpha as beta: every gradient through the window is wrong"),
    dict(name="v57-window-bwd-position-0-based", file=WINDOW,
         old="d = ka - dt.type(u + 1)\n                    g = _exp",
         new="d = ka - dt.type(u)\n                    g = _exp",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the backward measures kappa against the 0-based index u where the forward used the 1-based "
             "position u + 1: the gradients are of a window shifted one character"),
    dict(name="v57-window-bwd-beta-sum-linear-in-d", file=WINDOW,
         old="sb += g * d * d",
         new="sb += g * d",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dL/dbeta sums e dphi d instead of e dphi d^2 (a dropped factor of the square)"),
    dict(name="v57-window-bwd-kappa-sum-drops-d", file=WINDOW,
         old="sk += g * d",
         new="sk += g",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dL/dkappa sums e dphi without the (kappa - u) factor of the Gaussian's derivative"),
    dict(name="v57-window-bwd-dw-read-at-the-first-padded-step", file=WINDOW,
         old="active = t < lengths[bb]\n            dwr, dnr",
         new="active = t <= lengths[bb]\n            dwr, dnr",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the backward takes dL/dw_t of a row at step lengths[b], its first padded step, which the "
             "forward's mask says is ignored (< vs <=)"),
    # ---- the heads: the linear map, accumulation, masks, per-step targets, scale, the CTC rows ----
    dict(name="v57-heads-linear-drops-bias", file=HEADS,
         old='out = np.ascontiguousarray(h).reshape(-1, H) @ self.params["W"] + self.params["b"]',
         new='out = np.ascontiguousarray(h).reshape(-1, H) @ self.params["W"]',
         tests=HEADS_NEW + HEADS_OLD,
         why="the head's linear map forgets its bias b (zero at initialization, so only a trained or loaded "
             "head shows it)"),
    dict(name="v57-heads-linear-backward-assigns-dW", file=HEADS,
         old='self.grads["W"] += np.ascontiguousarray(h)',
         new='self.grads["W"] = np.ascontiguousarray(h)',
         tests=HEADS_NEW + HEADS_OLD,
         why="dW is assigned, not accumulated: a batch run in chunks (truncated BPTT) keeps only the last "
             "chunk's dW while db still adds up"),
    dict(name="v57-heads-classifier-loss-over-valid-not-mask", file=HEADS,
         old="loss = -float(picked[mask].sum(dtype=np.float64))",
         new="loss = -float(picked[valid].sum(dtype=np.float64))",
         tests=HEADS_NEW + HEADS_OLD,
         why="the classifier's loss sums over valid steps instead of the scored ones: an unscored label (-1) "
             "at a running step adds -log p(class 0) while count leaves it out"),
    dict(name="v57-heads-classifier-grad-ignores-mask", file=HEADS,
         old="d *= (mask * scale)[..., None]",
         new="d *= scale",
         tests=HEADS_NEW + HEADS_OLD,
         why="the classifier's gradient is not masked: padded steps and unscored labels send softmax - "
             "onehot(0) into dW, db and dL/dh"),
    dict(name="v57-heads-regression-per-step-targets-transposed", file=HEADS,
         old="t = np.swapaxes(t, 0, 1)",
         new="t = t.T",
         tests=HEADS_NEW + HEADS_OLD,
         why="per-step regression targets (B,T,O) are transposed whole ((O,T,B)) instead of swapping B and T: "
             "the same as swapaxes for one output (B,T), wrong for several"),
    dict(name="v57-heads-mdn-backward-drops-scale", file=HEADS,
         old="d = mdn_backward(np.full(yhat.shape[0], scale, yhat.dtype), saved",
         new="d = mdn_backward(np.ones(yhat.shape[0], yhat.dtype), saved",
         tests=HEADS_NEW + HEADS_OLD,
         why="without the output clip the mixture density's gradient is of the loss sum, not of scale times "
             "it: the batch's normalization is lost"),
    dict(name="v57-heads-ctc-labels-reshaped-by-steps", file=HEADS,
         old="reshape(valid.shape[1], -1))",
         new="reshape(valid.shape[0], -1))",
         tests=HEADS_NEW + HEADS_OLD,
         why="the CTC head reshapes the labels by valid's step axis (T) instead of its batch axis (B): rows' "
             "labels are cut and joined wrongly when T != B, or refused when they do not divide"),
]
