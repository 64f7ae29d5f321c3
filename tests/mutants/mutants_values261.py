"""Planted bugs, round 261 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the synthesis window (lnrnn/kernels/window.py), the mixture density loss (lnrnn/kernels/mdn.py) and
the CTC kernel (lnrnn/kernels/ctc.py), CPU twins, twelfth pass: the text check's refusal naming U - 1 as the
bound on a length; the LayerNorm'd cell's bias bc dropped from tanh; the mean of h_{t-1} Wh taken over H instead
of 4H; the window's beta and kappa gradients leaving out the text's last character; the g gate's derivative
1 - g instead of 1 - g^2; the bias gradient holding the first step's share only; the log-softmax of pi_hat
without its maximum; the lower clip of log-sigma1 dropped; sigma2 read from the sigma1 column; mu1's gradient
reading the unclipped sigma; mdn_split's e = sigmoid(-e_hat); a CTC row without any path given log p 0 and
kept for the rescaled backward; the log-space recursion reading the previous step's emissions; the log of the
three-way sums halving z above 1 instead of above sqrt(2).

14 mutants. Against the old targeted files alone: not measured yet. The old targeted files: test_window,
test_values146_window; test_mdn, test_values94_mdn; test_ctc, test_values199_ctc. The new value tests catch every mutant on their own
(checked with the old files taken off the lists): test_values261_window (T 3, B 3 with lengths 3, 1, 0, texts of
4, 1 and 3 characters, K 1 and 2: the forward against lnrnn.reference.window_lstm_forward for NORM_NONE and
LayerNorm with a large bc; every gradient against central differences in float64 and against
lnrnn.reference.window_lstm_backward; the refusal of ulen outside [0, U] word for word), test_values261_mdn
(M 1-3: the loss against the bivariate Gaussian written out with math and against lnrnn.reference.mdn_nll, with
log-sigmas at -10.5, -10, 10 and 10.5 and pi_hats far from 0; every gradient against central differences of the
reference loss; mdn_split's e, rho and sigma against their formulas), test_values261_ctc (rows of 0, 1 and 5
steps against every path enumerated, rows a label does not fit in with loss 0 and no gradient, and a batch 800
nats down that runs in log space, against the enumeration). Left out as equivalent: the backward's clip taken
without clip_bound (a clip of 0, inf, NaN or below 0 fails clip > 0 or bounds nothing either way); S2 = min(T, 1)
(c_t and kappa_t are each updated element by element from the same element of step t-1, so one row in place
gives the same values); the chunk's row count -(-B // nch) + 1 made B // nch + 1 (still at least the largest
chunk's rows); the backward's dL/dphi loop over U instead of ulen (the positions past ulen are never read); the
zeroed norm gradients under NORM_NONE (nothing accumulates into them without a norm); CTC_ROW_CHUNKS made max
(chunks past B are empty); the log-space first emission lp[0, ext[0]] read as lp[0, 0] (ext[0] is the blank);
the log-space Tb = 0 return (a row of no step always ends exact in the rescaled pass); RESCALE bounds moved (only
the scale changes; an underflow sends the row to log space either way). Left out as flaky: the loops that zero
w_t's columns and copy dlogits over the last class shortened (np.empty's leftover memory may hold the zeros).

    python tests/mutants/run.py --only 'v261-*'
"""
WINDOW = "lnrnn/kernels/window.py"
MDN = "lnrnn/kernels/mdn.py"
CTC = "lnrnn/kernels/ctc.py"

T_WINDOW = "tests/kernels/test_values261_window.py::"
T_MDN = "tests/kernels/test_values261_mdn.py::"
T_CTC = "tests/kernels/test_values261_ctc.py::"
OLD_WINDOW = ["tests/kernels/test_window.py", "tests/kernels/test_values146_window.py"]
OLD_MDN = ["tests/kernels/test_mdn.py", "tests/kernels/test_values94_mdn.py"]
OLD_CTC = ["tests/kernels/test_ctc.py", "tests/kernels/test_values199_ctc.py"]

W_FWD = T_WINDOW + "test_forward_against_reference"
W_BWD = T_WINDOW + "test_backward_against_central_differences_and_reference"
M_LOSS = T_MDN + "test_loss_against_the_gaussian_written_out"
M_GRAD = T_MDN + "test_gradients_against_central_differences"

MUTANTS = [
    # ---- the synthesis window: lnrnn/kernels/window.py ----
    dict(name="v261-window-ulen-refusal-names-u-minus-one", file=WINDOW,
         old="[0, U] = [0, {U}], got",
         new="[0, U] = [0, {U - 1}], got",
         tests=[T_WINDOW + "test_length_outside_the_text_refused_word_for_word"] + OLD_WINDOW,
         why="a length outside the text is refused naming U - 1 as its bound (the codes' bound), not U"),
    dict(name="v261-window-ln-cell-bias-dropped", file=WINDOW,
         old="                    v = two * _sigmoid(two * (gc[j] * u + bc[j])) - one",
         new="                    v = two * _sigmoid(two * (gc[j] * u)) - one",
         tests=[W_FWD] + OLD_WINDOW,
         why="the LayerNorm'd cell's bias bc is not added before tanh: h_t and the window move without it"),
    dict(name="v261-window-ln-h-mean-over-h", file=WINDOW,
         old="                mh *= invG",
         new="                mh *= invH",
         tests=[W_FWD] + OLD_WINDOW,
         why="the LayerNorm mean of h_{t-1} Wh divides its 4H-column sum by H"),
    dict(name="v261-window-phi-grad-skips-last-character", file=WINDOW,
         old="                for u in range(nu):\n                    d = ka - dt.type(u + 1)\n"
             "                    g = _exp(-be * d * d) * dph[u]",
         new="                for u in range(nu - 1):\n                    d = ka - dt.type(u + 1)\n"
             "                    g = _exp(-be * d * d) * dph[u]",
         tests=[W_BWD] + OLD_WINDOW,
         why="the window's alpha, beta and kappa gradients leave out the text's last character"),
    dict(name="v261-window-g-gate-derivative", file=WINDOW,
         old="                dag[j] = dc * i * (one - g * g)",
         new="                dag[j] = dc * i * (one - g)",
         tests=[W_BWD] + OLD_WINDOW,
         why="the g gate's derivative is taken as 1 - g instead of tanh's 1 - g^2"),
    dict(name="v261-window-bias-grad-one-step", file=WINDOW,
         old="                pdb[j] += dar[j]",
         new="                pdb[j] = dar[j]",
         tests=[W_BWD] + OLD_WINDOW,
         why="the gate bias gradient holds the last step the backward visits (t = 0) instead of the sum"),
    # ---- the mixture density loss: lnrnn/kernels/mdn.py ----
    dict(name="v261-mdn-pi-logsumexp-drops-max", file=MDN,
         old="    lse_pi = pmax + np.log(psum)",
         new="    lse_pi = np.log(psum)",
         tests=[M_LOSS] + OLD_MDN,
         why="the log-softmax of pi_hat leaves out the maximum it subtracted: log pi is off by it"),
    dict(name="v261-mdn-sigma1-lower-clip-dropped", file=MDN,
         old="        ls1 = min(max(yh[1 + 3 * M + k], -smax), smax)",
         new="        ls1 = min(yh[1 + 3 * M + k], smax)",
         tests=[M_LOSS] + OLD_MDN,
         why="log-sigma1 below -SMAX is not clipped: sigma1 is exp(-10.5) instead of exp(-10)"),
    dict(name="v261-mdn-sigma2-reads-sigma1-column", file=MDN,
         old="        ls2 = min(max(yh[1 + 4 * M + k], -smax), smax)",
         new="        ls2 = min(max(yh[1 + 3 * M + k], -smax), smax)",
         tests=[M_LOSS] + OLD_MDN,
         why="sigma2 is read from the s1 columns"),
    dict(name="v261-mdn-mu1-grad-unclipped-sigma", file=MDN,
         old="        d[1 + M + k] = -g * gk * C * (a - rho * b) * np.exp(-min(max(sh1, -smax), smax))",
         new="        d[1 + M + k] = -g * gk * C * (a - rho * b) * np.exp(-sh1)",
         tests=[M_GRAD] + OLD_MDN,
         why="mu1's gradient divides by the unclipped sigma1 where log-sigma1 lies past a bound"),
    dict(name="v261-mdn-split-e-sign", file=MDN,
         old="    e = 1.0 / (1.0 + np.exp(-yhat[:, 0]))",
         new="    e = 1.0 / (1.0 + np.exp(yhat[:, 0]))",
         tests=[T_MDN + "test_split_e_and_rho_against_their_formulas"] + OLD_MDN,
         why="mdn_split (sampling) gives the end-of-stroke probability as sigmoid(-e_hat): 1 - e"),
    # ---- CTC: lnrnn/kernels/ctc.py ----
    dict(name="v261-ctc-no-path-gives-log-p-zero", file=CTC,
         old="            return -np.inf, True",
         new="            return 0.0, True",
         tests=[T_CTC + "test_a_label_that_does_not_fit_has_no_loss_and_no_gradient"] + OLD_CTC,
         why="a row whose label has no path gets log p 0 and a gradient instead of p = 0 (loss 0, no gradient)"),
    dict(name="v261-ctc-log-space-emissions-of-previous-step", file=CTC,
         old="            em[s] = lp[t, ext[s]]",
         new="            em[s] = lp[t - 1, ext[s]]",
         tests=[T_CTC + "test_underflowing_rows_in_log_space_against_every_path"] + OLD_CTC,
         why="the log-space alpha recursion adds step t-1's log-probabilities at step t"),
    dict(name="v261-ctc-log13-halves-above-one", file=CTC,
         old="    u = z * 0.5 if z > _SQRT2 else z",
         new="    u = z * 0.5 if z > 1.0 else z",
         tests=[T_CTC + "test_underflowing_rows_in_log_space_against_every_path"] + OLD_CTC,
         why="the log of a three-way sum halves z in (1, sqrt 2] without adding log 2: log-space sums too small"),
]
