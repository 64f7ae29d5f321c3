"""Planted bugs, round 175 (format: tests/mutants/mutants.py): single-line slips in the synthesis window's CUDA twin
(lnrnn/kernels/window_cuda.py), on lines no earlier round mutates: the window backward's d(kappa - u)^2/dkappa
without its factor 2 and its dL/dh loop one unit short; the fused LN cell saving the x side's mean as its rstd and
the cell's rstd as the h side's; the BN path's window kernel clamping a text by B instead of U, BN_t's x side
backward without its gain, the BN step's recurrent product reading h_t for h_{t-1} and its window backward judging
a row active one step early; dL/dh_{t-1} carried from dL/dxw, the LN backward swapping the h side's and the cell's
rstd, LayerNorm's dgx summed against xhat_h, BN's dgc and dbc returned swapped and LayerNorm's dgh returning dgx;
the text check letting a chars array with the wrong number of rows through.

14 mutants. Against the existing targeted tests alone (the seven most direct files, WCUDA_OLD below, with the
baseline run) 13 were caught and 1 missed: v175-text-batch-of-chars-unchecked (no old file passes a chars array
with rows other than the batch's).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values175_window_cuda (the CUDA twin against the CPU twin, lnrnn/kernels/window.py, in float64 with every
option on: a text as long as the row, U = 5 > B = 3, an empty text and one of two characters; rows of length 0,
1 and one stopping a step early; LayerNorm with K = 1 and BatchNorm in training with K = 2 and 2, 4 and 3 running
rows; forward outputs, the saved c and kappa, the running rows and every gradient to 1e-10, and the LayerNorm
gains' gradients told apart; a second chunk, t0 = 2, started from the first chunk's h, c, kappa and w, against
the tail of one CPU run over all four steps; the refusals of a chars array of B + 1 rows, of T = 0 and of a
backward without saved state, word for word).

Left out as equivalent (judged by reading): the window forward's text clamp min(ulen, U) dropped (ulen is checked
to lie in [0, U] before any kernel runs); "if tid == 0" for the saved rstd moved to another thread (one thread
writes either way); the forward slot of step t - 1 taken as (t + 1) % S (the same slot when S = 2, the
inference slots); "if N > B" in _prev_tn as "N >= 2 * B" (N is a multiple of B). The graph paths (_ForwardPlan,
_BackwardPlan) are not mutated here: without a library that captures graphs (the simulator) the twin runs its
step loop.

    python tests/mutants/run.py --only 'v175-*'
"""
WCUDA = "lnrnn/kernels/window_cuda.py"

# existing tests of this module (the most direct ones)
WCUDA_OLD = ["tests/kernels/test_values152_window_cuda.py", "tests/kernels/test_window_cuda.py",
             "tests/kernels/test_values84_window_cuda.py", "tests/kernels/test_values60_window_cuda.py",
             "tests/kernels/test_values103_window_cuda.py", "tests/kernels/test_values75_window_cuda.py",
             "tests/kernels/test_values38_window_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WCUDA_NEW = ["tests/kernels/test_values175_window_cuda.py"]

MUTANTS = [
    # ---- the window row's backward ----
    dict(name="v175-window-bwd-square-derivative-without-two", file=WCUDA,
         old="    two = one + one\n",
         new="    two = one\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="d/dkappa of (kappa - u)^2 loses its factor 2: dL/dkappa and everything before it is off"),
    dict(name="v175-window-bwd-dh-last-unit-unwritten", file=WCUDA,
         old="    for j in range(tid, dh.shape[0], n):\n",
         new="    for j in range(tid, dh.shape[0] - 1, n):\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="off by one: the last hidden unit's dL/dh_t keeps the previous step's value"),
    # ---- the fused LayerNorm cell ----
    dict(name="v175-ln-cell-saves-mean-as-rstd-x", file=WCUDA,
         old="                rstd_x_t[bb] = r_x\n",
         new="                rstd_x_t[bb] = m_x\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the x side's saved rstd holds its mean: the backward rescales dL/dxw by the wrong factor"),
    dict(name="v175-ln-cell-saves-rstd-c-as-rstd-h", file=WCUDA,
         old="            rstd_h_t[bb] = r_h\n",
         new="            rstd_h_t[bb] = r_c\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the h side's saved rstd holds the cell's"),
    # ---- the BN path's window kernel and x side ----
    dict(name="v175-bn-window-text-clamped-by-batch", file=WCUDA,
         old="        window_row(y_t[bb], Wp, bp, kappa_prev[bb], chars[bb], min(ulen[bb], chars.shape[1]),\n"
             "                   (abk_t[bb], kappa_t[bb], phi_t[bb], w_t[bb]), dt(1.0))",
         new="        window_row(y_t[bb], Wp, bp, kappa_prev[bb], chars[bb], min(ulen[bb], chars.shape[0]),\n"
             "                   (abk_t[bb], kappa_t[bb], phi_t[bb], w_t[bb]), dt(1.0))",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="wrong axis: the BN path's window clamps a text to B characters instead of U (texts longer than B cut)"),
    dict(name="v175-bn-x-bwd-gain-dropped", file=WCUDA,
         old="            m, rs, g = mean_s[k], rstd_s[k], gx[k]\n",
         new="            m, rs, g = mean_s[k], rstd_s[k], one\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="BN_t's x side backward forgets its gain: dL/dxw is not scaled by gx"),
    dict(name="v175-bn-step-hw-from-this-step", file=WCUDA,
         old="        gemm(v.h0 if t == 0 else v.y[t - 1], v.Wh, v.hws[k])\n",
         new="        gemm(v.h0 if t == 0 else v.y[t], v.Wh, v.hws[k])\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="off by one: the BN path's recurrent product reads h_t (not yet written) instead of h_{t-1}"),
    dict(name="v175-bn-window-bwd-active-one-step-late", file=WCUDA,
         old="        window_bwd[B, tpb, stream]((a.dy[t], a.dw[t], a.dw_next), a.lengths, t,\n",
         new="        window_bwd[B, tpb, stream]((a.dy[t], a.dw[t], a.dw_next), a.lengths, t + 1,\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the BN path's window backward judges a row active one step early: its last step's dy and dw are dropped"),
    # ---- the loop backward and its gradients ----
    dict(name="v175-carry-dh-from-dxw", file=WCUDA,
         old="    gemm(v.dHW[t], v.WhT, v.dh_next)\n",
         new="    gemm(v.dXW[t], v.WhT, v.dh_next)\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dL/dh_{t-1} is carried from the x side's dL/dxw (the same buffer only without a norm)"),
    dict(name="v175-ln-bwd-rstd-h-and-c-swapped", file=WCUDA,
         old="        rs = (a.rstd[0, t], a.rstd[1, t], a.rstd[2, t]) if ln else (d1, d1, d1)\n",
         new="        rs = (a.rstd[0, t], a.rstd[2, t], a.rstd[1, t]) if ln else (d1, d1, d1)\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the LN backward reads the cell's rstd for the h side and the h side's for the cell"),
    dict(name="v175-ln-dgx-paired-with-hhat", file=WCUDA,
         old="        colsum_launch(a.DA2, rows2d(a.xw), d1, d1, SUM_PROD, a.dgx, pg, stream)\n",
         new="        colsum_launch(a.DA2, rows2d(a.hhat), d1, d1, SUM_PROD, a.dgx, pg, stream)\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="LayerNorm's dgx is summed against the h side's xhat instead of the x side's"),
    dict(name="v175-bn-norm-grads-gc-bc-swapped", file=WCUDA,
         old="    return dgx, zeros(G, dgx.dtype), dgh, zeros(G, dgx.dtype), dgc, dbc\n",
         new="    return dgx, zeros(G, dgx.dtype), dgh, zeros(G, dgx.dtype), dbc, dgc\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="swapped: the BN cell's dgc and dbc come back in each other's places"),
    dict(name="v175-ln-grads-dgh-is-dgx", file=WCUDA,
         old="copy(db), take(a.dgh).reshape(G)",
         new="copy(db), take(a.dgx).reshape(G)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="wrong variable: LayerNorm's dgh returns dgx"),
    # ---- the text check ----
    dict(name="v175-text-batch-of-chars-unchecked", file=WCUDA,
         old="    if chars.ndim != 2 or chars.shape[0] != B or ulen_h.shape != (B,):\n",
         new="    if chars.ndim != 2 or ulen_h.shape != (B,):\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="a chars array with the wrong number of rows gets through the check"),
]
