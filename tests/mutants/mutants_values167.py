"""Planted bugs, round 167 (format: tests/mutants/mutants.py): single-line slips in the window's CPU kernel
(lnrnn/kernels/window.py), on lines no earlier round mutates (a seventh pass).

Gates, cell and tanh: the tanh block's offset one column too wide (the first output gate is sigmoid - 1), step 1
reading the initial cell c_0 again, tanh without a norm written as 2 sigmoid(z) - 1 = tanh(z/2); LayerNorm's x
side averaged over H instead of G, h_t = o LN(c_t) without the cell's gain, bias and tanh; BN_t of the cell
without its bias, BN_t's variance taking in a row at its first padded step; float32's exp(-beta (kappa - u)^2)
built with the exponent bias 126. Backward: LayerNorm's second projection without xhat, BN_t's backward
averaging over every row instead of the active ones, BN_t's cell backward scaled by the h side's 1/std or
skipped altogether, the gates' bias gradient sent to dbx's partial. The character-code message giving U as the
bound instead of C.

14 mutants. Against the existing targeted tests alone the measurement was cut short (each mutant takes over a
minute to compile and run there): on the four most direct old files (test_window,
test_values146_window, test_values73_window, test_values84_window) the first 4 mutants (the gate offset,
LayerNorm's x mean, c_0 on step one, h without tanh) were run and all 4 caught; the other 10 were not measured
against the old tests. The old text tests match the code message only up to "[0, C)", so the message mutant is
likely missed by them; the old BN_t tests do not take a backward with an empty row and a one-step row.
The new value tests catch all 14 on their own (checked with the old tests taken off the lists):
test_values167_window compares the forward (NORM_NONE, LayerNorm, BN_t in training; B = 5 in two row blocks,
K = 2; texts of 5, 3, 0, 1 and 4 characters, the empty text's codes garbage; lengths 4, 0, 1, 3, 2; initial h, c,
kappa and w given; the sequence run again from step 2 on with the first call's h, c, kappa and w) against a
float64 NumPy loop written from Graves (2013) eq. 46-51 one step, row and character at a time (BN_t's mean and
biased variance over the step's active rows); float32 against that loop; every gradient of all three norms
against central differences in float64 of sum(dy y + dw w) over the active (step, row) pairs, and BN_t's
gradients against lnrnn.reference; the code check's message against C. Several layers are not a matter of
this kernel (it is one layer; the stacks above it have their own tests).
Not planted: slips that read np.empty buffers before they are written (exp(k_hat) left out of the 3K loop), the
rstd row count N exchanged between LN and BN (writes outside the buffer, not a value a test could count on),
keep=False's c and kappa on one row (equivalent: each step reads c_{t-1} element by element before writing it).

    python tests/mutants/run.py --only 'v167-*'
"""
WIN = "lnrnn/kernels/window.py"

# existing tests of the window's CPU kernel
WINDOW_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values146_window.py",
              "tests/kernels/test_values73_window.py", "tests/kernels/test_values84_window.py",
              "tests/kernels/test_values103_window.py", "tests/kernels/test_values120_window.py",
              "tests/kernels/test_values57_window.py", "tests/kernels/test_values45_window.py",
              "tests/kernels/test_values42_window_text.py", "tests/kernels/test_values11_window.py",
              "tests/kernels/test_values31_window.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WINDOW_NEW = ["tests/kernels/test_values167_window.py"]

MUTANTS = [
    # ---- the forward: gate offsets, LayerNorm's x side, the cell, tanh, BN_t's cell and variance, float32 exp ----
    dict(name="v167-gate-offset-block-end-inclusive", file=WIN,
         old="gd[j] = one if 2 * H <= j < 3 * H else zero",
         new="gd[j] = one if 2 * H <= j <= 3 * H else zero",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the tanh block's offset reaches one column too far: the first output gate is sigmoid - 1"),
    dict(name="v167-ln-x-mean-over-h", file=WIN,
         old="                mx *= invG",
         new="                mx *= invH",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="LayerNorm's x side divides its sum of G columns by H: the mean is four times too large"),
    dict(name="v167-cell-reads-c0-on-step-one", file=WIN,
         old="            cp = c0[bb] if t == 0 else c[tp, bb]",
         new="            cp = c0[bb] if t <= 1 else c[tp, bb]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="off by one: step 1 reads the initial cell c_0 again instead of c_1"),
    dict(name="v167-ln-h-without-tanh", file=WIN,
         old="                    tr[j] = v\n                    yr[j] = ao[j] * v\n"
             "            elif norm == NORM_NONE:",
         new="                    tr[j] = v\n                    yr[j] = ao[j] * u\n"
             "            elif norm == NORM_NONE:",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="with LayerNorm h_t = o * LN(c_t) (the normalized cell before its gain, bias and tanh)"),
    dict(name="v167-none-tanh-half-argument", file=WIN,
         old="                    v = two * _sigmoid(two * ct[j]) - one",
         new="                    v = two * _sigmoid(ct[j]) - one",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="without a norm the cell's tanh is written 2 sigmoid(z) - 1 = tanh(z/2)"),
    dict(name="v167-bn-cell-without-bias", file=WIN,
         old="                    v = two * _sigmoid(two * (gc[j] * ch[j] + bc[j])) - one",
         new="                    v = two * _sigmoid(two * (gc[j] * ch[j])) - one",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t of the cell drops its bias bc"),
    dict(name="v167-bn-variance-counts-row-at-its-end", file=WIN,
         old="            if t < lengths[r]:\n                vr = v[r]\n                for j in range(F):\n"
             "                    d = vr[j] - mean[j]",
         new="            if t <= lengths[r]:\n                vr = v[r]\n                for j in range(F):\n"
             "                    d = vr[j] - mean[j]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t's variance takes in a row at its first padded step (the mean does not)"),
    dict(name="v167-f32-exp-exponent-bias-126", file=WIN,
         old="(np.int32(k) + np.int32(127)) << np.int32(23)",
         new="(np.int32(k) + np.int32(126)) << np.int32(23)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="float32's exp(-beta (kappa - u)^2) builds 2^k with the exponent bias 126: every term halved"),
    # ---- the backward: LayerNorm rows, BN_t columns, the cell's norm, the bias partial ----
    dict(name="v167-ln-backward-s2-without-xhat", file=WIN,
         old="            s2 += u * hr[j]",
         new="            s2 += u",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="LayerNorm's backward projects on the plain sum of dL/dxhat instead of its product with xhat"),
    dict(name="v167-bn-backward-mean-over-batch", file=WIN,
         old="    inv = dv.dtype.type(1.0) / dv.dtype.type(max(n, 1))",
         new="    inv = dv.dtype.type(1.0) / dv.dtype.type(B)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t's backward averages over every row of the batch, padded ones included, not the active n"),
    dict(name="v167-bn-cell-backward-h-side-rstd", file=WIN,
         old="_bn_cols_backward(dcn, chat[t, r0:r1], rstd[2, t], gc,",
         new="_bn_cols_backward(dcn, chat[t, r0:r1], rstd[1, t], gc,",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t's cell backward scales by the h side's 1/std (first H of G columns) instead of the cell's"),
    dict(name="v167-bn-cell-backward-skipped", file=WIN,
         old="            src = dcn[r] if norm == NORM_NONE else dcc[r]",
         new="            src = dcn[r] if norm != NORM_LN else dcc[r]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="with BN_t dL/dc_t is taken before the cell's norm: its backward result is never read"),
    dict(name="v167-db-into-dbx-partial", file=WIN,
         old="            pdb = pg[0]",
         new="            pdb = pg[2]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the gates' bias gradient goes to the row of dbx's partials: db stays zero"),
    # ---- the text check's message ----
    dict(name="v167-code-message-names-u", file=WIN,
         old="[0, C) = [0, {C}), got {used.min()}",
         new="[0, C) = [0, {U}), got {used.min()}",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the character-code message gives U (the text's width) as the bound instead of C"),
]
