"""Planted bugs, round 146 (format: tests/mutants/mutants.py): single-line slips in the window's CPU kernel
(lnrnn/kernels/window.py), on lines no earlier round mutates (a sixth pass): the gates without the bias b when
there is no norm, the cell's input and forget gates exchanged, LayerNorm's h side centred on the x side's mean
and its variance taken about it, the cell's LayerNorm mean divided by G, BN_t's h side scaled by the x side's
gain, w_t missing the text's last character, float32's exp(-beta (kappa - u)^2) reduced by ln 2's high part
only; in the backward 1 - tanh for 1 - tanh^2, the carried dL/dc through the input gate, dL/dalpha without the
exp factor, LayerNorm's h-side backward with the x side's 1/std, dbx and dgh exchanged when the partials are
unpacked, dWp from the first part of steps alone; window_sequences handing back win as kappa; the text check
letting chars of another row count through.

16 mutants. Against the existing targeted tests alone (WINDOW_OLD below, with the baseline run) 15 were caught
and 1 missed: chars with more rows than the batch (no old test passes chars of the wrong row count; the old text
tests check ulen's bounds and the character codes). The new value tests catch every mutant on their own (checked
with the old tests taken off the lists): test_values146_window (the forward, NORM_NONE and LayerNorm, K = 1 and
K = 3, texts of 5, 1, 0 and 3 characters and rows of their own lengths, against a NumPy loop written from Graves
(2013) eq. 46-51 one row, step and character at a time, window_sequences' c and kappa included; float32 against
that loop in float64; BN_t in training against lnrnn.reference; a sequence run in two calls, the first's h, c,
kappa and w_T handed to the second, against one call; every gradient, NORM_NONE and LayerNorm, against central
differences in float64 of sum(dy y + dw w) over the active (step, row) pairs; the text check refusing chars of
B + 1 rows and naming U in ulen's message). Dropped before the catalogue as equivalent or near it: the saved c
and kappa of keep=False on one row instead of two (each step reads c_{t-1} and kappa_{t-1} element by element
before writing the same element), the chunk width m without its + 1 or rounded down plus one (never fewer rows
than the largest chunk), w_t scattered over every U position instead of the first ulen (phi is 0 past ulen and
the padded codes add 0 to some column). Also left out: slips that read np.empty buffers before they are written
(w_t's columns not cleared, X_t gathered from ws[t + 1]): their values are whatever the allocator left, so a
test could not count on seeing them.

    python tests/mutants/run.py --only 'v146-*'
"""
WIN = "lnrnn/kernels/window.py"

# existing tests of the window's CPU kernel
WINDOW_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values73_window.py",
              "tests/kernels/test_values84_window.py", "tests/kernels/test_values103_window.py",
              "tests/kernels/test_values120_window.py", "tests/kernels/test_values57_window.py",
              "tests/kernels/test_values45_window.py", "tests/kernels/test_values42_window_text.py",
              "tests/kernels/test_values11_window.py", "tests/kernels/test_values31_window.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WINDOW_NEW = ["tests/kernels/test_values146_window.py"]

MUTANTS = [
    # ---- the forward: gates, the cell, LayerNorm's h side and cell, the window's w, the float32 exp ----
    dict(name="v146-none-gates-without-bias", file=WIN,
         old="                    a[j] = _sigmoid((xr[j] + hr[j] + b[j]) * gm[j]) * gm[j] - gd[j]",
         new="                    a[j] = _sigmoid((xr[j] + hr[j]) * gm[j]) * gm[j] - gd[j]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="without a norm the gates' preactivations drop the bias b"),
    dict(name="v146-cell-input-and-forget-swapped", file=WIN,
         old="                ct[j] = af[j] * cp[j] + ai[j] * ag[j]",
         new="                ct[j] = ai[j] * cp[j] + af[j] * ag[j]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="c_t = i c_{t-1} + f g: the input gate keeps the old cell and the forget gate writes the new"),
    dict(name="v146-ln-h-side-mean-of-x", file=WIN,
         old="                    mh += hr[j]",
         new="                    mh += xr[j]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="LayerNorm's h side centres h_{t-1} Wh on the mean of X_t Wx"),
    dict(name="v146-ln-h-variance-about-x-mean", file=WIN,
         old="                    d = hr[j] - mh\n                    vh += d * d",
         new="                    d = hr[j] - mx\n                    vh += d * d",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="LayerNorm's h-side variance is taken about the x side's mean"),
    dict(name="v146-ln-cell-mean-over-g", file=WIN,
         old="                mc *= invH",
         new="                mc *= invG",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the cell's LayerNorm divides its sum by G = 4H: the mean is a quarter of the right one"),
    dict(name="v146-bn-h-side-x-gain", file=WIN,
         old="a[j] = _sigmoid((gx[j] * xh[j] + gh[j] * hh[j] + b[j]) * gm[j])",
         new="a[j] = _sigmoid((gx[j] * xh[j] + gx[j] * hh[j] + b[j]) * gm[j])",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t's h side is scaled by the x side's gain gx"),
    dict(name="v146-w-last-character-dropped", file=WIN,
         old="            for u in range(nu):\n                wr[cr[u]] += fr[u]",
         new="            for u in range(nu - 1):\n                wr[cr[u]] += fr[u]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="w_t sums phi over the first ulen - 1 characters: the text's last character never reaches w"),
    dict(name="v146-f32-exp-reduction-without-low-part", file=WIN,
         old="            r = v - k * _LN2_HI - k * _LN2_LO\n            e = one + r",
         new="            r = v - k * _LN2_HI\n            e = one + r",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="float32's exp(-beta (kappa - u)^2) reduces by ln 2's high part only: about k * 2e-4 off relatively"),
    # ---- the backward: the cell, the window's dalpha, LayerNorm's h side, the sums after the loop ----
    dict(name="v146-backward-tanh-derivative-without-square", file=WIN,
         old="                dnr[j] = dh * o * (one - tk * tk)",
         new="                dnr[j] = dh * o * (one - tk)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dL/d(cell output) uses 1 - tanh instead of 1 - tanh^2"),
    dict(name="v146-backward-carried-dc-through-input-gate", file=WIN,
         old="                dcr_r[j] = dc * f",
         new="                dcr_r[j] = dc * i",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dL/dc_{t-1} carried back through the input gate instead of the forget gate"),
    dict(name="v146-window-dalpha-without-exp", file=WIN,
         old="                    sa += g\n",
         new="                    sa += dph[u]\n",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dL/dalpha_k sums dL/dphi without the factor exp(-beta (kappa - u)^2)"),
    dict(name="v146-ln-backward-h-side-reads-x-rstd", file=WIN,
         old="_ln_rows_backward(da, hhat[t, r0:r1], rstd[1, t, r0:r1], gh,",
         new="_ln_rows_backward(da, hhat[t, r0:r1], rstd[0, t, r0:r1], gh,",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="LayerNorm's h-side backward scales by the x side's 1/std"),
    dict(name="v146-dbx-dgh-swapped", file=WIN,
         old="    db, dgx, dbx, dgh, dbh = pg[:, :, :G].sum(axis=0)",
         new="    db, dgx, dgh, dbx, dbh = pg[:, :, :G].sum(axis=0)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the partials' rows unpacked in the wrong order: dbx and dgh exchanged"),
    dict(name="v146-dwp-first-part-only", file=WIN,
         old="pW[2].sum(axis=0)",
         new="pW[2][0]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dWp is the first part's partial alone: the steps of the other parts are lost"),
    # ---- the saved tuple's reader and the text check ----
    dict(name="v146-window-sequences-kappa-from-win", file=WIN,
         old="    return saved[1], saved[10]",
         new="    return saved[1], saved[9]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="window_sequences hands back win ([alpha | beta | exp(k_hat)]) as the per-step kappa"),
    dict(name="v146-text-chars-row-count-unchecked", file=WIN,
         old="    if chars.ndim != 2 or chars.shape[0] != B or ulen.shape != (B,):",
         new="    if chars.ndim != 2 or ulen.shape != (B,):",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="chars with more rows than the batch pass the text check (the extra rows are silently ignored)"),
]
