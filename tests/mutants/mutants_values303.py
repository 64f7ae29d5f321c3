"""Planted bugs, round 303 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the attention window's CPU kernel (lnrnn/kernels/window.py) and the CTC CPU kernel
(lnrnn/kernels/ctc.py), sixteenth pass: inference (keep=False) writing kappa_t over the row of kappa_{t-1} two
steps back; the backward's sum_u e dphi d starting at 1; the backward's window pass skipping the last row of a
chunk; the forward's window pass skipping the last row of a chunk; the code check bounding codes by C + 1; dbp
taken from the first part of steps only; the gradients of the initial state copied for every row chunk but the
last; LayerNorm's gain and bias gradients zeroed as if the norm were none; the CTC loss +log p; a row whose label
cannot fit given loss inf (zero_infinity off); the rescaled backward taken for the rows that ran in log space and
skipped for the others; alpha's recursion starting at step 2; beta carried without step t+1's emission.

13 mutants. Against the old targeted files alone: not measured yet.
The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values303_window (phi, kappa and w of every step against Graves's eq. 46-51 written out from the returned
h_t, at U 1, 4 and 7 with text lengths 0, 1 and U in one batch of three rows in two row chunks, keep on and off;
every gradient of NORM_NONE and LayerNorm against central differences in float64 from a state carried over from
a first call; the code refusal word for word), test_values303_ctc (loss, logz and gradient against the
brute-force sum over every alignment with a repeated label, a label of length 0, T exactly 2L+1, T too short and
a row of two steps; PyTorch's ctc_loss with zero_infinity on and off; central differences; the per-sequence mean
by hand against PyTorch's reduction='mean' gradient, each step's gradient summing to 0).

Left out as equivalent: S2 = min(T, 1) without keep (c_t and kappa_t then overwrite c_{t-1} and kappa_{t-1}
element by element after reading them: the same numbers); al = alpha[k, :, 1:] (the log-space forward and
backward both read through the same view); _row_classes clearing skm and skl over Sb only (past Sb they multiply
beta entries that are 0, or add to -inf); the rescaling tests of the rescaled recursions (a step not rescaled
underflows into the exact log-space path; beta's scale cancels in the posteriors over their sum); the drop
bookkeeping (ldrop, nd, lb > limit) that only chooses between two exact paths; the rescaled backward's
posteriors reading alpha two positions down (al[t, lo:] for al[t, 2 + lo:]): at step 0 the band is positions
0 and 1, which then read alpha's two zero pad entries, the posteriors' sum is 0 and every row falls back to the
exact log-space backward (the same gradients to 1e-15; caught by no test, old or new). Left out as reading np.empty's
leftover memory (flaky): w_t's columns cleared from 1, p = 0 rows' gradient cleared one step short, logp and grad
past input_lengths cleared from class 1.

    python tests/mutants/run.py --only 'v303-*'
"""
WIN = "lnrnn/kernels/window.py"
CTC = "lnrnn/kernels/ctc.py"

T_WIN = "tests/kernels/test_values303_window.py::"
T_CTC = "tests/kernels/test_values303_ctc.py::"
OLD_WIN = ["tests/kernels/test_window.py", "tests/kernels/test_values285_window.py",
           "tests/kernels/test_values261_window.py"]
OLD_CTC = ["tests/kernels/test_ctc.py", "tests/kernels/test_values285_ctc.py",
           "tests/kernels/test_values261_ctc.py"]

PHI = T_WIN + "test_phi_kappa_and_w_by_graves_formulas"
GRAD = T_WIN + "test_backward_from_a_carried_state_against_central_differences"
BRUTE = T_CTC + "test_loss_logz_and_gradient_by_every_alignment"
ZINF = T_CTC + "test_infeasible_row_as_zero_infinity_on_and_off"
MEAN = T_CTC + "test_per_sequence_mean_and_per_step_gradient_by_hand"
CDIFF = T_CTC + "test_gradient_against_central_differences"

MUTANTS = [
    # ---- the window: lnrnn/kernels/window.py ----
    dict(name="v303-window-keepless-kappa-row", file=WIN,
         old="        tn = t % S2         # row of c_t and kappa_t",
         new="        tn = t % S          # row of c_t and kappa_t",
         tests=[PHI] + OLD_WIN,
         why="without keep, c_t and kappa_t always go to row 0 while step t reads row (t-1) % 2: from step 2 on "
             "kappa_{t-1} is a row never written"),
    dict(name="v303-window-backward-sk-starts-at-one", file=WIN,
         old="                sk = zero  # sum_u e dphi d",
         new="                sk = one  # sum_u e dphi d",
         tests=[GRAD] + OLD_WIN,
         why="dL/dkappa_t gets an extra -2 beta alpha per component: dkappa0, dWp, dbp and everything below wrong"),
    dict(name="v303-window-backward-last-row-of-chunk-skipped", file=WIN,
         old="        for r in range(Bc):\n            bb = r0 + r\n            active = t < lengths[bb]\n"
             "            dwr, dnr = dwt[r], dwn[r]",
         new="        for r in range(Bc - 1):\n            bb = r0 + r\n            active = t < lengths[bb]\n"
             "            dwr, dnr = dwt[r], dwn[r]",
         tests=[GRAD] + OLD_WIN,
         why="the backward's window pass skips each chunk's last row: its dL/dp_t and dL/dkappa are never made"),
    dict(name="v303-window-forward-last-row-of-chunk-skipped", file=WIN,
         old="        for r in range(Bc):\n            bb = r0 + r\n            wn, pr = win[ts, bb], pw[r]",
         new="        for r in range(Bc - 1):\n            bb = r0 + r\n            wn, pr = win[ts, bb], pw[r]",
         tests=[PHI] + OLD_WIN,
         why="the forward's window skips each chunk's last row: its phi, kappa and w are never computed"),
    dict(name="v303-window-code-bound-c-plus-one", file=WIN,
         old="    chars, ulen = _text(chars, ulen, B, C)\n    U = chars.shape[1]\n    lengths = as_lengths",
         new="    chars, ulen = _text(chars, ulen, B, C + 1)\n    U = chars.shape[1]\n    lengths = as_lengths",
         tests=[T_WIN + "test_code_past_c_refused_naming_c"] + OLD_WIN,
         why="the forward accepts code C (written past w's last column) and its refusal names [0, C+1)"),
    dict(name="v303-window-dbp-first-part-only", file=WIN,
         old="    dbp = pW[3][:, :3 * K].sum(axis=0)",
         new="    dbp = pW[3][0, :3 * K]",
         tests=[GRAD] + OLD_WIN,
         why="dbp is the first part of steps' column sums only: the later steps' share of the window bias lost"),
    dict(name="v303-window-state-grads-last-chunk-missing", file=WIN,
         old="    for k in range(nch):  # each chunk's final carries",
         new="    for k in range(nch - 1):  # each chunk's final carries",
         tests=[GRAD] + OLD_WIN,
         why="dh0, dc0, dkappa0 and dw0 of the last row chunk are never copied out (left as np.empty)"),
    dict(name="v303-window-ln-norm-grads-zeroed", file=WIN,
         old="    if norm == NORM_NONE:\n        dgx, dbx, dgh, dbh, dgc, dbc = (np.zeros_like(v)",
         new="    if norm != NORM_BN:\n        dgx, dbx, dgh, dbh, dgc, dbc = (np.zeros_like(v)",
         tests=[GRAD] + OLD_WIN,
         why="LayerNorm's gains and biases get zero gradients, as if the layer had no norm"),
    # ---- CTC: lnrnn/kernels/ctc.py ----
    dict(name="v303-ctc-loss-sign", file=CTC,
         old="            loss[b] = -lz",
         new="            loss[b] = lz",
         tests=[BRUTE, ZINF, MEAN, CDIFF] + OLD_CTC,
         why="the loss is log p, not -log p"),
    dict(name="v303-ctc-infeasible-loss-inf", file=CTC,
         old="    loss = np.zeros(B, dtype=dt)",
         new="    loss = np.full(B, np.inf, dtype=dt)",
         tests=[BRUTE, ZINF] + OLD_CTC,
         why="a row whose label cannot fit keeps loss inf (zero_infinity off) while its gradient is 0"),
    dict(name="v303-ctc-exact-backward-inverted", file=CTC,
         old="            if exact:\n                exact = _row_backward(",
         new="            if not exact:\n                exact = _row_backward(",
         tests=[BRUTE, MEAN, CDIFF] + OLD_CTC,
         why="the rescaled backward runs for rows that ran in log space and is skipped for the rest: their "
             "gradient never written"),
    dict(name="v303-ctc-alpha-from-step-two", file=CTC,
         old="        if t > 0:\n            lo, hi = _band(t, Tb, Sb)",
         new="        if t > 1:\n            lo, hi = _band(t, Tb, Sb)",
         tests=[BRUTE, MEAN, CDIFF] + OLD_CTC,
         why="alpha[1] is never computed: a two-step row's p is step 0's band sum, longer rows read a stale row"),
    dict(name="v303-ctc-beta-without-emission", file=CTC,
         old="        v = bn[i] * em[i]\n        bt[i] = v",
         new="        v = bn[i]\n        bt[i] = v",
         tests=[BRUTE, MEAN, CDIFF] + OLD_CTC,
         why="beta[t] sums beta[t+1] without step t+1's emission: the posteriors and gradient wrong"),
]
