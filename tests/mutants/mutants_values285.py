"""Planted bugs, round 285 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CTC, attention-window and mixture-density CPU kernels (lnrnn/kernels/ctc.py, window.py, mdn.py),
thirteenth pass: the softmax scaled by 1/C instead of 1/z; the rescaled alpha step emitting class i instead of
position i's class; the last step's posteriors taken from beta alone; a row of one step treated as a row of none;
the log-space backward given the 0/1 skip factors instead of their 0/-inf logs; a row reading the label of its
chunk's index; the window's kappa leaving its last component unwritten, phi leaving out the first component, the
backward's dL/dphi gathered for all but the last character, the factor 2 of dL/dkappa made 1; the MDN's pi
max-shift taken from e_hat, the responsibilities' sum leaving out the first component, dL/dmu1 scaled by sigma2
and the gradient's rho without its bound (1 - 1e-4).

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values285_ctc (loss, logz and gradient of every
row against the sum over every alignment path: rows of one step, a repeated label on 2L+1 = 5 steps, its shortest
3 and a too-short 2 (loss 0, gradient 0, logz -inf), the empty label, CTC_ROW_CHUNKS + 3 rows each with its own
label, log-space rows 800 nats down with a barred and an allowed skip; the gradient also against central
differences), test_values285_window (kappa, phi and w of every step against Graves's formulas written out from
the kernel's h_t at U 5, K 3 and texts of 5, 2 and 0 characters, h_t against lnrnn.reference; the gradients of
kappa0, w0, h0, Wp and bp against central differences over ragged steps), test_values285_mdn (the loss at K 1 and
3 with rho = +-0.9992 against the mixture density written out, its gradient against central differences, one
component's loss the same at pi_hat -800, 750 and 800 as at 0). Left out as equivalent: _lse3's m > low made
m >= low (three -inf terms then give low plus a finite log, about -1.8e308, whose exp is 0 as -inf's is); the
rescale test's c <= RESCALE_HI made < (a sum of exactly 2^100 rescaled or not gives the same posteriors and log
p); _beta_sum's c accumulating the posteriors instead of beta (only the rescale and underflow decisions read it,
and the log-space fallback gives the same numbers); alpha's view al = alpha[k, :, 2:] made [1:] (the log-space
path writes and reads the same view); K = min(B, CTC_ROW_CHUNKS) made min(B - 1, ...) (the chunks still cover
every row). Left out as flaky: the loops that zero logp and grad past a row's steps and w_t before its scatter
(np.empty's leftover memory may already hold the zeros).

    python tests/mutants/run.py --only 'v285-*'
"""
CTC = "lnrnn/kernels/ctc.py"
WINDOW = "lnrnn/kernels/window.py"
MDN = "lnrnn/kernels/mdn.py"

T_CTC = "tests/kernels/test_values285_ctc.py::"
T_WIN = "tests/kernels/test_values285_window.py::"
T_MDN = "tests/kernels/test_values285_mdn.py::"
OLD_CTC = ["tests/kernels/test_ctc.py", "tests/kernels/test_values261_ctc.py", "tests/kernels/test_values250_ctc.py"]
OLD_WIN = ["tests/kernels/test_values261_window.py", "tests/kernels/test_values57_window.py"]
OLD_MDN = ["tests/kernels/test_mdn.py", "tests/kernels/test_values261_mdn.py", "tests/kernels/test_values282_mdn.py"]

CTC_ONE = T_CTC + "test_rows_of_one_step_against_every_path_and_the_softmax"
CTC_REP = T_CTC + "test_repeat_on_2l_plus_1_steps_its_shortest_and_too_short"
CTC_CHUNKS = T_CTC + "test_more_rows_than_row_chunks_each_with_its_own_label"
CTC_LOG = T_CTC + "test_log_space_rows_with_a_repeat_and_a_skip_against_every_path"
WIN_FWD = T_WIN + "test_kappa_phi_and_w_are_the_formulas_written_out"
WIN_GRAD = T_WIN + "test_window_gradients_against_central_differences_over_ragged_texts"
MDN_LOSS = T_MDN + "test_loss_near_unit_correlation_is_the_density_written_out"
MDN_GRAD = T_MDN + "test_gradient_near_unit_correlation_against_central_differences"
MDN_ONE = T_MDN + "test_one_component_takes_the_whole_weight_whatever_its_pi_hat"

MUTANTS = [
    # ---- CTC: lnrnn/kernels/ctc.py ----
    dict(name="v285-ctc-softmax-scaled-by-class-count", file=CTC,
         old="    r, lz = 1.0 / z, np.log(z)",
         new="    r, lz = 1.0 / C, np.log(z)",
         tests=[CTC_ONE, CTC_REP] + OLD_CTC,
         why="the softmax y is divided by the class count, not by its sum: every rescaled loss and gradient is off"),
    dict(name="v285-ctc-alpha-emits-class-i", file=CTC,
         old="    for i in range(n):                           # the emissions gathered first: the recursion is then "
             "contiguous\n        em[i] = yt[ext[i]]",
         new="    for i in range(n):                           # the emissions gathered first: the recursion is then "
             "contiguous\n        em[i] = yt[i]",
         tests=[CTC_REP, CTC_CHUNKS] + OLD_CTC,
         why="alpha's step t > 0 emits the probability of class i (the band's offset) instead of position i's class"),
    dict(name="v285-ctc-last-step-posteriors-from-beta", file=CTC,
         old="        w = at[i] * bn[i]",
         new="        w = bn[i]",
         tests=[CTC_REP, CTC_CHUNKS] + OLD_CTC,
         why="the last step's posteriors are beta alone (1 on the last two positions), not alpha beta: its gradient "
             "splits evenly between the last label and the final blank"),
    dict(name="v285-ctc-one-step-row-as-no-step", file=CTC,
         old="    if Tb == 0:\n        return (0.0 if Sb == 1 else -np.inf), True",
         new="    if Tb <= 1:\n        return (0.0 if Sb == 1 else -np.inf), True",
         tests=[CTC_ONE] + OLD_CTC,
         why="a row of one step is scored as a row of none: the empty label gets p = 1, any other p = 0 (loss 0)"),
    dict(name="v285-ctc-log-backward-gets-skip-factors", file=CTC,
         old="_row_backward_log(logp[:, b, :], al, lz, ext[k], skl[k], Tb,",
         new="_row_backward_log(logp[:, b, :], al, lz, ext[k], skm[k], Tb,",
         tests=[CTC_LOG] + OLD_CTC,
         why="the log-space backward adds the 0/1 skip factors as logs: a barred skip between repeats is let through "
             "and an allowed one weighted by e"),
    dict(name="v285-ctc-row-reads-chunk-label", file=CTC,
         old="            _row_classes(labels[b], Sb, ext[k], skm[k], skl[k], blk[k])",
         new="            _row_classes(labels[k], Sb, ext[k], skm[k], skl[k], blk[k])",
         tests=[CTC_CHUNKS] + OLD_CTC,
         why="a row reads the label of its chunk's index: past CTC_ROW_CHUNKS rows, rows are scored against "
             "another row's label"),
    # ---- the attention window: lnrnn/kernels/window.py ----
    dict(name="v285-window-kappa-last-component-unwritten", file=WINDOW,
         old="            kn = kappa[tn, bb]\n            for j in range(K):",
         new="            kn = kappa[tn, bb]\n            for j in range(K - 1):",
         tests=[WIN_FWD] + OLD_WIN,
         why="kappa_t's last component is never advanced (left as whatever the buffer held): phi and w are wrong"),
    dict(name="v285-window-phi-drops-first-component", file=WINDOW,
         old="            for j in range(K):  # phi(t,u) summed over k in order, one pass over u per k",
         new="            for j in range(1, K):  # phi(t,u) summed over k in order, one pass over u per k",
         tests=[WIN_FWD] + OLD_WIN,
         why="phi leaves out the first Gaussian of the window (with K 1, phi and w are 0)"),
    dict(name="v285-window-dphi-misses-last-character", file=WINDOW,
         old="            for u in range(nu):\n                dph[u] = dwr[cr[u]]",
         new="            for u in range(nu - 1):\n                dph[u] = dwr[cr[u]]",
         tests=[WIN_GRAD] + OLD_WIN,
         why="the backward's dL/dphi is gathered for all but the text's last character (that one keeps a stale value)"),
    dict(name="v285-window-dkappa-factor-two-made-one", file=WINDOW,
         old="    two = dt.type(2.0)\n    PT = rec_pack(WhT, Bc)",
         new="    two = dt.type(1.0)\n    PT = rec_pack(WhT, Bc)",
         tests=[WIN_GRAD] + OLD_WIN,
         why="dL/dkappa loses the 2 of d(kappa - u)^2/dkappa: kappa0's and k_hat's gradients are halved in that term"),
    # ---- the mixture density: lnrnn/kernels/mdn.py ----
    dict(name="v285-mdn-pi-shift-from-e-hat", file=MDN,
         old="    pmax = yh[1]\n",
         new="    pmax = yh[0]\n",
         tests=[MDN_ONE] + OLD_MDN,
         why="the softmax over pi_hat is shifted by e_hat: with pi_hat far from e_hat the exps under- or overflow "
             "and the loss is NaN or infinite"),
    dict(name="v285-mdn-responsibility-sum-skips-first", file=MDN,
         old="    for k in range(M):\n        s += np.exp(gamma[k] - lmax)",
         new="    for k in range(1, M):\n        s += np.exp(gamma[k] - lmax)",
         tests=[MDN_LOSS, MDN_GRAD] + OLD_MDN,
         why="the log-sum-exp over components leaves out the first: the loss and responsibilities are wrong "
             "(with one component, infinite)"),
    dict(name="v285-mdn-dmu1-scaled-by-sigma2", file=MDN,
         old="        sh1 = yh[1 + 3 * M + k]",
         new="        sh1 = yh[1 + 4 * M + k]",
         tests=[MDN_GRAD] + OLD_MDN,
         why="the backward reads log sigma1 from sigma2's column: dL/dmu1 is divided by sigma2 and sigma1's clip "
             "test looks at sigma2"),
    dict(name="v285-mdn-backward-rho-unbounded", file=MDN,
         old="        rho = rmax * th",
         new="        rho = th",
         tests=[MDN_GRAD] + OLD_MDN,
         why="the backward's rho drops the bound 1 - 1e-4: near +-1 every gradient through C = 1/(1 - rho^2) is off "
             "by percents"),
]
