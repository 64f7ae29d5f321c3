"""Planted bugs, round 103 (format: tests/mutants/mutants.py): single-line slips in the synthesis window, its CPU
kernel, its CUDA twin and the window model, on lines no earlier round mutates: the CPU kernel's window steered by
h_{t-1}, dy read at a row's first padded step, BN's dbx and dbh left as column sums, Graves's clip bounding dL/da
from below only, dWp paired with h_{t-1}, LayerNorm's h side shifted by bx, BN_t's running variance folded without
n/(n-1) and BN_t's backward counting a row at its first padded step; the CUDA twin's column split walking the
input's width, its BN-path window backward reading dy and dw at a row's first padded step and its norm check
refusing NORM_BN; the model's inference forward with lengths keeping nothing for the masked final state, the
window layer's gradients assigned instead of added, and a carried state of three arrays let through.

14 mutants. Against the existing targeted tests alone (the most direct files, WINDOW_OLD, WCUDA_OLD, MODEL_OLD
below, without the baseline run) 10 were caught and 1 missed: v103-cuda-take-columns-width-of-input (none of
the measured files calls the CUDA twin's take_columns; test_synthesis_cuda and test_values75_window_cuda, which do,
were not on the measured lists); the three model mutants were not measured on the old tests (that run was cut short
for time).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values103_window (the layer with LayerNorm written out in NumPy, texts of 1, 0 and 3 characters, phi and w
exactly 0 on the empty text and past each text; every gradient against central differences of sum(dy y + dw w)
over the active (row, step) pairs of strokes of 3, 1 and 2 steps, without a norm and with BN_t; dbx and dbh exactly
0 with BN; BN_t's running rows after a step against the mean and the n/(n-1) variance of the active rows; the
clipped backward against lnrnn.reference's, with a bound that bites both ways), test_values103_window_cuda
(join_columns and take_columns against NumPy; the norm check), test_values84_window_cuda's second step problem,
written for this round (one step of the window's own kernels on B 3, H 5, K 2, C 3, U 4 and blocks of 4 threads,
texts of 1, 0 and 4 characters, into outputs that held NaN, against the definition, its backward against central
differences at a step where one row runs, one is at its first padded step and one past it; the CUDA mutants'
NEW list names both files and catches all three: run.py --only 'v103-cuda-*' with the old file off the lists) and
test_values103_window_model (an inference forward with lengths 3, 1 and 0 against each row run alone; two backward
calls adding up to twice one; the three-array state refused with its message).

Left out as equivalent (judged by reading, not run): the CUDA twin's inference slots narrowed to one (S = min(T, 1)
without keep): c_t and kappa_t are computed element by element from the same slot's c_{t-1} and kappa_{t-1}, so one
slot gives the same numbers (as round 84 found for the CPU kernel).

    python tests/mutants/run.py --only 'v103-*'
"""
WINDOW = "lnrnn/kernels/window.py"
WCUDA = "lnrnn/kernels/window_cuda.py"
MODEL = "lnrnn/model/window.py"

# existing tests of these modules (the most direct ones)
WINDOW_OLD = ["tests/kernels/test_values84_window.py", "tests/kernels/test_window.py",
              "tests/kernels/test_values73_window.py", "tests/kernels/test_values57_window.py"]
WCUDA_OLD = ["tests/kernels/test_window_cuda.py"]
MODEL_OLD = ["tests/model/test_values84_synthesis.py", "tests/model/test_values_window.py",
             "tests/model/test_values67_window.py", "tests/model/test_synthesis.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WINDOW_NEW = ["tests/kernels/test_values103_window.py"]
WCUDA_NEW = ["tests/kernels/test_values103_window_cuda.py", "tests/kernels/test_values84_window_cuda.py"]
MODEL_NEW = ["tests/model/test_values103_window_model.py"]

MUTANTS = [
    # ---- the CPU kernel: the window's input, masks, BN, the clip, a weight gradient ----
    dict(name="v103-window-moved-by-h-prev", file=WINDOW,
         old="        gemm(hs[t + 1, r0:r1], Wp, pw, False)",
         new="        gemm(hs[t, r0:r1], Wp, pw, False)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="p_t = h_{t-1} Wp: the window is steered by the previous step's h (h0 at step 0)"),
    dict(name="v103-window-dy-read-at-first-padded-step", file=WINDOW,
         old="            active = t < lengths[bb]\n            a, tr, dyr",
         new="            active = t <= lengths[bb]\n            a, tr, dyr",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the cell's backward reads dy at step lengths[b], the row's first padded step"),
    dict(name="v103-window-bn-dbx-dbh-not-zeroed", file=WINDOW,
         old="        dbx, dbh = np.zeros(G, dt), np.zeros(G, dt)",
         new="        pass",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="with BN, dbx and dbh return the BN backward's column sums though BN_t has no shift on x and h"),
    dict(name="v103-window-clip-upper-bound-dropped", file=WINDOW,
         old="                    dar[j] = min(max(dar[j], -clip), clip)",
         new="                    dar[j] = max(dar[j], -clip)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="Graves's clip bounds dL/da from below only: large positive derivatives pass"),
    dict(name="v103-window-dWp-from-h-prev", file=WINDOW,
         old="    gemm(Hcur[a:e], dP[a:e], pWp[k], True)        # H^T dP",
         new="    gemm(Hprev[a:e], dP[a:e], pWp[k], True)       # H^T dP",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dWp pairs dL/dp_t with h_{t-1}: p_t reads h_t"),
    dict(name="v103-window-ln-h-side-shift-from-x", file=WINDOW,
         old="(v * gh[j] + bh[j])",
         new="(v * gh[j] + bx[j])",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="with LN the h side's normalized product is shifted by bx: bh never read, bx counted twice"),
    dict(name="v103-window-bn-running-variance-biased", file=WINDOW,
         old="                rv[t, j] = (one - momentum) * rv[t, j] + momentum * var * unbiased",
         new="                rv[t, j] = (one - momentum) * rv[t, j] + momentum * var",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t's running variance folds the biased batch variance (no n/(n-1))"),
    dict(name="v103-window-bn-backward-counts-first-padded-row", file=WINDOW,
         old="        if t < lengths[r]:\n            n += 1\n            dr, hr = dv[r], vhat[r]",
         new="        if t <= lengths[r]:\n            n += 1\n            dr, hr = dv[r], vhat[r]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t's backward sums take a row at its first padded step: the column sums and n one row too many"),
    # ---- the CUDA twin ----
    dict(name="v103-cuda-take-columns-width-of-input", file=WCUDA,
         old="    T, B, W = out.shape",
         new="    T, B, W = a.shape",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="take_columns walks the input's width, not the slice's: wrong elements, writes past the slice"),
    dict(name="v103-cuda-window-bwd-dy-at-first-padded-step", file=WCUDA,
         old="s < lengths[bb], dkappa[bb], (abk_s[bb], kappa_s[bb]),\n"
             "                       chars[bb], min(ulen[bb], chars.shape[1]), WpT, dp_t[bb], dh_t[bb], dt(1.0))",
         new="s <= lengths[bb], dkappa[bb], (abk_s[bb], kappa_s[bb]),\n"
             "                       chars[bb], min(ulen[bb], chars.shape[1]), WpT, dp_t[bb], dh_t[bb], dt(1.0))",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the BN path's window backward takes dy and dw at a row's first padded step"),
    dict(name="v103-cuda-check-norm-refuses-bn", file=WCUDA,
         old="    if norm not in (NORM_NONE, NORM_LN, NORM_BN):",
         new="    if norm not in (NORM_NONE, NORM_LN):",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the CUDA twin refuses NORM_BN, a norm it runs"),
    # ---- the model ----
    dict(name="v103-model-lengths-without-keep-saves-nothing", file=MODEL,
         old="            bool(keep or lengths is not None))",
         new="            bool(keep))",
         tests=MODEL_NEW + MODEL_OLD,
         why="an inference forward with lengths keeps no saved tuple: the masked final state cannot be read"),
    dict(name="v103-model-grads-assigned", file=MODEL,
         old="                self.grads[n] += k.to_host(d)",
         new="                self.grads[n] = k.to_host(d)",
         tests=MODEL_NEW + MODEL_OLD,
         why="the window layer's parameter gradients replace the accumulated ones (and leave the flat view)"),
    dict(name="v103-model-three-array-state-taken", file=MODEL,
         old="        if len(state) not in (2, 4):",
         new="        if len(state) not in (2, 3, 4):",
         tests=MODEL_NEW + MODEL_OLD,
         why="a state of (h, c, kappa) passes the check and fails deep in the kernel call"),
]
