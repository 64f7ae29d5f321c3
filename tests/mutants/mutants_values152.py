"""Planted bugs, round 152 (format: tests/mutants/mutants.py): single-line slips in the synthesis window's CUDA twin
(lnrnn/kernels/window_cuda.py), on lines no earlier round mutates: the window row projecting only alpha and beta
(the kappa steps left unwritten), phi written only over the text (the rest of the row keeps what it held), w added
to instead of assigned, the window backward reading beta from the kappa steps, dropping dL/dphi and weighting by
beta instead of alpha; the fused LN cell's c side normalized over G, its saved rstd_c holding rstd_h and its
backward swapping the x and h sides' rstd; BN_t's x side without its bias and its cell side folding running rows
by the h side's count; the loop backward reading c_t as c_{t-1}, LayerNorm's dgh paired with xhat_x and step 0
skipped.

14 mutants. Against the existing targeted tests alone (the six most direct files, WCUDA_OLD below, with the
baseline run) all 14 were caught and none missed: the old files already compare the twin with the spec and the
CPU twin on LN, BN and no norm with ragged texts and lengths. The value tests below were written all the same, to
catch these slips on their own and on shapes the old files do not use (K = 1, C = 3).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values152_window_cuda (the CUDA twin against the CPU twin, lnrnn/kernels/window.py, in float64 with every
option on: texts of 0, 1 and 3 characters with valid codes past each, rows of their own lengths with one that runs
a single step, LayerNorm with K = 1, BatchNorm in training with 2, 4 and 3 running rows on the x side, the h side
and the cell, and no norm with K = 2; B 3, H 5, C 3, U 5 on row kernels of 4 threads and tiles of 3: forward
outputs, the saved c and kappa, the running rows and every gradient to 1e-10; phi exactly 0 past each text and w
0 without one; one step of the window kernel into outputs that held NaN against the window's definition written
out in NumPy, for K = 1 and K = 2).

Left out as equivalent (judged by reading): the kappa update loop run by every thread instead of strided (each
thread writes the same value); BN_t's x side writing its rows with a stride of 1 (the same values written again);
the default (m, rs, g) of an out-of-range column in x_bwd (never stored). The graph paths (_ForwardPlan,
_BackwardPlan) are not mutated here: without a library that captures graphs (the simulator) the twin runs
its step loop.

    python tests/mutants/run.py --only 'v152-*'
"""
WCUDA = "lnrnn/kernels/window_cuda.py"

# existing tests of this module (the most direct ones)
WCUDA_OLD = ["tests/kernels/test_window_cuda.py", "tests/kernels/test_values84_window_cuda.py",
             "tests/kernels/test_values60_window_cuda.py", "tests/kernels/test_values103_window_cuda.py",
             "tests/kernels/test_values75_window_cuda.py", "tests/kernels/test_values38_window_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WCUDA_NEW = ["tests/kernels/test_values152_window_cuda.py"]

MUTANTS = [
    # ---- the window row and its backward ----
    dict(name="v152-window-row-kappa-steps-not-projected", file=WCUDA,
         old="    for j in range(tid, 3 * K, n):\n",
         new="    for j in range(tid, 2 * K, n):\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="only alpha and beta are projected: exp(k_hat) keeps whatever abk's last third held"),
    dict(name="v152-window-row-phi-only-over-text", file=WCUDA,
         old="    for u in range(tid, phi.shape[0], n):",
         new="    for u in range(tid, L, n):",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="phi is written only for u < ulen: past a row's text it keeps what the buffer held instead of 0"),
    dict(name="v152-window-row-w-added-to", file=WCUDA,
         old="        w[cls] = s\n",
         new="        w[cls] += s\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="w_t is added to the buffer's old contents instead of assigned"),
    dict(name="v152-window-bwd-beta-from-kappa-steps", file=WCUDA,
         old="        be = abk[K + k]\n",
         new="        be = abk[2 * K + k]\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the backward reads beta_k from abk's third part (exp(k_hat)): off by one block of K"),
    dict(name="v152-window-bwd-dphi-dropped", file=WCUDA,
         old="            ed = math.exp(-be * (d * d)) * g\n",
         new="            ed = math.exp(-be * (d * d))\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dL/dphi(u) left out of every sum: the window's gradients ignore what the layers above ask of w"),
    dict(name="v152-window-bwd-beta-for-alpha", file=WCUDA,
         old="            ae = a * ed\n",
         new="            ae = be * ed\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the beta and kappa sums are weighted by beta_k instead of alpha_k"),
    # ---- the fused LayerNorm cell ----
    dict(name="v152-cell-fwd-c-side-over-G", file=WCUDA,
         old="one, inv_g, one / dt(H),",
         new="one, inv_g, inv_g,",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the cell's LayerNorm divides its sums over H columns by G"),
    dict(name="v152-cell-fwd-rstd-c-saved-as-h", file=WCUDA,
         old="            rstd_c_t[bb] = r_c\n",
         new="            rstd_c_t[bb] = r_h\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the saved rstd of the cell's LayerNorm is the h side's: the backward scales dc by the wrong 1/sigma"),
    dict(name="v152-cell-bwd-rstd-x-h-swapped", file=WCUDA,
         old="        r = (rstd_x_t[bb], rstd_h_t[bb], rstd_c_t[bb]) if ln else (one, one, one)",
         new="        r = (rstd_h_t[bb], rstd_x_t[bb], rstd_c_t[bb]) if ln else (one, one, one)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the cell backward takes the h side's rstd for the x side's and back"),
    # ---- BatchNorm ----
    dict(name="v152-bn-x-side-bias-dropped", file=WCUDA,
         old="                xn[r, k] = (xw_s[r, k] - m) * rs * gx[k] + b[k]",
         new="                xn[r, k] = (xw_s[r, k] - m) * rs * gx[k]",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="BN_t's x side leaves out the gates' bias b"),
    dict(name="v152-bn-cell-rows-folded-by-h-count", file=WCUDA,
         old="training, t < Tsh, t < Tsc,",
         new="training, t < Tsh, t < Tsh,",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the cell's running rows are folded while the h side has a row: a step past the cell's last row "
             "folds into that last row again"),
    # ---- the loop backward ----
    dict(name="v152-bwd-step-c-prev-of-step-t", file=WCUDA,
         old="        sv = (a.gates[t], a.xw[t], a.hhat[t], a.c0 if t == 0 else a.c[t - 1], a.tc[t], a.chat[t])",
         new="        sv = (a.gates[t], a.xw[t], a.hhat[t], a.c0 if t == 0 else a.c[t], a.tc[t], a.chat[t])",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the cell backward reads c_t where it needs c_{t-1} (forget gate's gradient) after step 0"),
    dict(name="v152-bwd-after-dgh-paired-with-xhat-x", file=WCUDA,
         old="        colsum_launch(a.DA2, rows2d(a.hhat), d1, d1, SUM_PROD, a.dgh, pg, stream)",
         new="        colsum_launch(a.DA2, rows2d(a.xw), d1, d1, SUM_PROD, a.dgh, pg, stream)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="LayerNorm's dgh sums dL/da times the x side's xhat: dgh comes out as dgx"),
    dict(name="v152-loop-bwd-skips-step-0", file=WCUDA,
         old="    for t in range(T - 1, -1, -1):\n        step(t, 0)",
         new="    for t in range(T - 1, 0, -1):\n        step(t, 0)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the loop backward stops before step 0: nothing of step 0 reaches x, the weights or the initial state"),
]
