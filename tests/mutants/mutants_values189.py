"""Planted bugs, round 189 (format: tests/mutants/mutants.py): single-line slips in the window's CPU kernel
(lnrnn/kernels/window.py), an eighth pass over lines no earlier round mutates: window_lstm_forward letting a
sequence of no steps through, the text check's message showing chars's shape for ulen's; LayerNorm's row backward
summing the gain gradient without the normalized value and scaling every row by the first row's 1/sigma; BN_t's
mean adding a row at its first padded step, its 1/sigma taken of the sum of squares instead of the variance, and
its backward adding the gained dL/dv to the bias gradient; the forward's chunk reading x_t of the chunk's r-th row
instead of the batch's, saving the recurrent side's 1/sigma as the input side's and dropping the cell LN's mean;
the backward's chunk reading the text of the chunk's r-th row, dL/dc_t without the gradient carried from step
t+1, and each weight part's dbp assigned instead of summed.

13 mutants. Against the existing targeted tests alone (test_window, test_values146_window, test_values167_window
and test_values120_window) the measurement was cut short for time after the first four (each mutant recompiles
the window's kernels for all four files, about 80 s): of those, 2 were caught (the LN backward's gain gradient
and its rstd of row 0) and 2 missed: the sequence of no steps (no test passes T = 0; the forward then fails on
a modulo by zero instead of the ValueError) and the message showing chars's shape twice (the old test matches
only "chars must be"). The other nine were not measured against the old tests. The new value tests catch every
mutant on their own (checked with the old tests taken off the lists): test_values189_window compares the
forward of NORM_NONE, LN and BN_t in training (and again from step 1 on, with the first call's final state)
with Graves's (2013) eq. 46-51 and the LSTM written as a NumPy loop over the steps, all rows of a step at once;
float32 against that float64 loop; the batch of 6 rows (two blocks) against each row run alone (one block),
forward and every gradient; every gradient of the three norms against central differences (numeric_grad) of
sum(dy y + dw w) over the active (step, row) pairs; texts of 5, 0, 1, 4, 2 and 5 characters (U = 5 > T = 3),
rows of 3, 0, 1, 3, 2 and 3 steps; the refusals of T = 0 and of a ulen of the wrong shape, with the shapes
named. Dropped before the catalogue as equivalent: c and kappa kept in one row instead of two without keep
(S2 = min(T, 1): each element's update reads only its own old value), the chunk's row count rounded down in
m (B // nch + 1 still holds the largest chunk), lengths instead of lengths[r0:r1] in the backward's BN calls
(BN runs one chunk from row 0). Left out as not deterministic: writes to the wrong row of c or kappa without
keep, and an unzeroed last column of w_t (both read np.empty's leftovers, which may happen to be zero); the
float32 exp's reduction without its rounding (+0.5; within float32's own rounding of -beta (kappa - u)^2 at
the window's sizes: only a direct test of _exp, test_window's, sees it).

    python tests/mutants/run.py --only 'v189-*'
"""
WIN = "lnrnn/kernels/window.py"

# existing tests of this module (the four most direct: the others repeat their checks on other shapes)
WIN_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values146_window.py",
           "tests/kernels/test_values167_window.py", "tests/kernels/test_values120_window.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WIN_NEW = ["tests/kernels/test_values189_window.py"]

MUTANTS = [
    # ---- the boundary: the step count and the text's shapes ----
    dict(name="v189-forward-lets-zero-steps-through", file=WIN,
         old="    if T == 0:\n        raise ValueError(\"window_lstm_forward needs at least one time step",
         new="    if T < 0:\n        raise ValueError(\"window_lstm_forward needs at least one time step",
         tests=WIN_NEW + WIN_OLD,
         why="x with T = 0 passes the check: the forward fails later on a modulo by zero (S2 = 0) instead of "
             "saying that it needs a step"),
    dict(name="v189-text-shape-message-shows-chars-twice", file=WIN,
         old="got {chars.shape} and {ulen.shape}\")",
         new="got {chars.shape} and {chars.shape}\")",
         tests=WIN_NEW + WIN_OLD,
         why="the refusal of a ulen of the wrong shape prints chars's shape in its place: the user is told the "
             "wrong array's shape"),
    # ---- LayerNorm's row backward (the three LNs of NORM_LN) ----
    dict(name="v189-ln-backward-dgain-without-xhat", file=WIN,
         old="            dgain[j] += dr[j] * hr[j]\n            dbias[j] += dr[j]\n        s1 = zero",
         new="            dgain[j] += dr[j]\n            dbias[j] += dr[j]\n        s1 = zero",
         tests=WIN_NEW + WIN_OLD,
         why="_ln_rows_backward's gain gradient sums dL/dv without the normalized value: dgx, dgh and dgc "
             "equal the bias gradients"),
    dict(name="v189-ln-backward-rstd-of-row-0", file=WIN,
         old="        rstd = rs[r]\n",
         new="        rstd = rs[0]\n",
         tests=WIN_NEW + WIN_OLD,
         why="every row of a chunk's LN backward scales by the chunk's first row's 1/sigma: dL/dv of the other "
             "rows (so dx, dh0, the weights) is off"),
    # ---- BN_t's columns, forward and backward ----
    dict(name="v189-bn-mean-sums-the-row-that-just-ended", file=WIN,
         old="            if t < lengths[r]:\n                vr = v[r]\n                for j in range(F):\n"
             "                    mean[j] += vr[j]",
         new="            if t <= lengths[r]:\n                vr = v[r]\n                for j in range(F):\n"
             "                    mean[j] += vr[j]",
         tests=WIN_NEW + WIN_OLD,
         why="BN_t's mean adds a row at its first padded step (t == lengths[b]) while n does not count it: the "
             "mean, so every normalized value and h, is wrong at a row's end"),
    dict(name="v189-bn-rstd-of-the-sum-of-squares", file=WIN,
         old="            rs[j] = one / np.sqrt(var + eps)",
         new="            rs[j] = one / np.sqrt(rs[j] + eps)",
         tests=WIN_NEW + WIN_OLD,
         why="BN_t in training takes 1/sqrt of the sum of squared deviations, not of their mean: with n >= 2 "
             "active rows the normalized values shrink by sqrt(n)"),
    dict(name="v189-bn-backward-dbias-gained", file=WIN,
         old="                dbias[j] += dr[j]\n    inv =",
         new="                dbias[j] += u\n    inv =",
         tests=WIN_NEW + WIN_OLD,
         why="BN_t's backward adds dL/dv times the gain to the bias gradient: dbc is gc times too large"),
    # ---- the forward's chunk loop ----
    dict(name="v189-forward-x-of-the-chunks-row", file=WIN,
         old="x[t, r0 + r], ws[t, r0 + r]",
         new="x[t, r], ws[t, r0 + r]",
         tests=WIN_NEW + WIN_OLD,
         why="X_t gathers x_t of the chunk's r-th row instead of the batch's row r0 + r: every chunk after the "
             "first reads the first chunk's inputs"),
    dict(name="v189-forward-ln-rstd-x-side-stores-h-side", file=WIN,
         old="                rstd[0, ts, bb] = rx",
         new="                rstd[0, ts, bb] = rh",
         tests=WIN_NEW + WIN_OLD,
         why="the saved 1/sigma of the input side's LN is the recurrent side's: the forward is right, the "
             "backward through X_t Wx (dx, dw0, dWx, dgx) scales by the wrong sigma"),
    dict(name="v189-forward-ln-cell-mean-dropped", file=WIN,
         old="                    u = (ct[j] - mc) * sc",
         new="                    u = ct[j] * sc",
         tests=WIN_NEW + WIN_OLD,
         why="the cell's LayerNorm scales c_t without taking its mean off: h_t (and the saved chat) wrong "
             "whenever the cell's mean is not 0"),
    # ---- the backward's chunk loop and the weight parts ----
    dict(name="v189-backward-chars-of-the-chunks-row", file=WIN,
         old="dP[t, bb], chars[bb]",
         new="dP[t, bb], chars[r]",
         tests=WIN_NEW + WIN_OLD,
         why="the backward gathers dL/dphi by the text of the chunk's r-th row: rows of a later chunk take "
             "another row's characters (the forward is right)"),
    dict(name="v189-backward-dc-without-the-carry", file=WIN,
         old="                dc = src[j] + dcr_r[j]",
         new="                dc = src[j]",
         tests=WIN_NEW + WIN_OLD,
         why="dL/dc_t leaves out the gradient carried from step t+1 (f dL/dc_{t+1}): only the last step's "
             "cell gradient is right"),
    dict(name="v189-weight-part-dbp-assigned", file=WIN,
         old="            sb[j] += dpi[j]",
         new="            sb[j] = dpi[j]",
         tests=WIN_NEW + WIN_OLD,
         why="each part's dbp keeps the last (step, row)'s dL/dp_t instead of summing them all"),
]
