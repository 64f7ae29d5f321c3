"""Planted bugs, round 187 (format: tests/mutants/mutants.py): single-line slips in the synthesis window's CUDA twin
(lnrnn/kernels/window_cuda.py), on lines no earlier round mutates.

The window row's w gathered by overwriting instead of summing and its last
component's kappa left unstepped; the window backward weighing components by exp(k_hat) for alpha and starting
dL/dalpha's sum at 1; the fused LN cell normalizing only H of the G columns of xw; the forward step saving the h
side's and the cell's rstd swapped and writing phi into the slot index; the BN step counting the h side's running
rows by the cell's; BatchNorm's backward sharing DA's memory for dL/d(h Wh) and dL/d(X Wx); LayerNorm's DCN of
every step in one row and its dbc summing squares; BN's dgx and dgh returned swapped; dL/dh0 and dL/dc0 returned
swapped; window_sequences handing on tanh(c) for c.

14 mutants. Against the existing targeted tests alone (the eight most direct files, WCUDA_OLD below, with the
baseline run) 14 were caught and 0 missed.
The new value tests catch all 14 on their own (checked with the old tests taken off the lists): test_values187_window_cuda (K = 2 on row blocks of 4 threads, B = 3, 3K = 6, U = 5, texts
naming a character twice, empty and of one character, rows of 0, 1 and 4 steps, LayerNorm and BatchNorm in
training: every output, saved c and kappa, running row and gradient against the CPU twin, lnrnn/kernels/window.py,
to 1e-10; w against sum_u phi(u) onehot(chars[u]) and every kappa stepping forward; a central difference of the
loss along one random direction through every input on the CUDA twin alone against the gradients; a chunk of
three steps without keep from t0 = 1, carrying h, c, kappa and w, against the tail of one CPU run).

Nothing dropped as equivalent in this set. Left out on reading: join_columns' offset (already covered by
test_values103_window_cuda), the plans' graph paths (the simulator runs the step loop), the slot index of step
t - 1 with keep=False (S = 2 makes (t + 1) % S the same slot).

    python tests/mutants/run.py --only 'v187-*'
"""
WCUDA = "lnrnn/kernels/window_cuda.py"

# existing tests of this module (the most direct ones)
WCUDA_OLD = ["tests/kernels/test_values175_window_cuda.py", "tests/kernels/test_values152_window_cuda.py",
             "tests/kernels/test_window_cuda.py", "tests/kernels/test_values84_window_cuda.py",
             "tests/kernels/test_values60_window_cuda.py", "tests/kernels/test_values103_window_cuda.py",
             "tests/kernels/test_values75_window_cuda.py", "tests/kernels/test_values38_window_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WCUDA_NEW = ["tests/kernels/test_values187_window_cuda.py"]

MUTANTS = [
    # ---- the window row's forward and backward ----
    dict(name="v187-window-fwd-gather-keeps-last-position", file=WCUDA,
         old="                s += phi[u]\n",
         new="                s = phi[u]\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="w[c] holds phi at the last position of character c instead of the sum over all its positions: a "
             "character met twice in the text loses its earlier weight"),
    dict(name="v187-window-fwd-last-kappa-not-stepped", file=WCUDA,
         old="    for k in range(tid, K, n):\n        kappa[k] = kappa_prev[k]",
         new="    for k in range(tid, K - 1, n):\n        kappa[k] = kappa_prev[k]",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="off by one: the last mixture component's kappa keeps the value the output array held (K >= 2 shows it)"),
    dict(name="v187-window-bwd-alpha-reads-kappa-step", file=WCUDA,
         old="        a = abk[k]\n",
         new="        a = abk[2 * K + k]\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="wrong block of abk: the backward weighs each component by exp(k_hat) instead of alpha"),
    dict(name="v187-window-bwd-alpha-sum-starts-at-one", file=WCUDA,
         old="        s0 = zero  # sum_u e dphi",
         new="        s0 = one  # sum_u e dphi",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dL/dalpha's sum starts at 1: every alpha gets a gradient, even with an empty text"),
    # ---- the fused LayerNorm cell ----
    dict(name="v187-ln-cell-normalizes-a-quarter-of-xw", file=WCUDA,
         old="            for j in range(tid, G, cuda.blockDim.x):\n",
         new="            for j in range(tid, H, cuda.blockDim.x):\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the x side's LayerNorm writes xhat over the first H of the G = 4H gate columns only"),
    # ---- the time loops ----
    dict(name="v187-fwd-step-saves-rstd-h-and-c-swapped", file=WCUDA,
         old="        rs = (a.rstd[0, k], a.rstd[1, k], a.rstd[2, k]) if ln else (d1, d1, d1)\n",
         new="        rs = (a.rstd[0, k], a.rstd[2, k], a.rstd[1, k]) if ln else (d1, d1, d1)\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the forward saves the h side's rstd where the backward reads the cell's, and the other way round"),
    dict(name="v187-fwd-step-phi-in-the-slot", file=WCUDA,
         old="a.chars, a.ulen),\n                                 (a.abk[k], a.kappa[k], a.phi[t], a.w[t]))",
         new="a.chars, a.ulen),\n                                 (a.abk[k], a.kappa[k], a.phi[k], a.w[t]))",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="phi (T,B,U) of every step written into the slot index: without keep (two slots) steps 2.. of phi are "
             "never written and the slots overwritten"),
    dict(name="v187-bn-step-running-rows-h-and-c-swapped", file=WCUDA,
         old="    Tsx, Tsh, Tsc = rmx.shape[0], rmh.shape[0], rmc.shape[0]\n",
         new="    Tsx, Tsh, Tsc = rmx.shape[0], rmc.shape[0], rmh.shape[0]\n",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the h side's running rows counted by the cell's: past the shorter count the wrong row is used and "
             "folded"),
    dict(name="v187-bwd-arrays-bn-shares-da", file=WCUDA,
         old="    own = norm != NORM_NONE  #",
         new="    own = norm == NORM_LN  #",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="BatchNorm's dL/d(h Wh) and dL/d(X Wx) share DA's memory as if there were no norm: one overwrites "
             "the other"),
    dict(name="v187-bwd-step-dcn-one-slot", file=WCUDA,
         old="a.DCN[t if ln else 0]",
         new="a.DCN[0]",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="LayerNorm's dL/d(cell norm) of every step written into step 0's row: dgc and dbc see only the "
             "last one written"),
    dict(name="v187-ln-dbc-sums-squares", file=WCUDA,
         old="colsum_launch(a.DCN2, a.DCN2, d1, d1, SUM, a.dbc, ph, stream)",
         new="colsum_launch(a.DCN2, a.DCN2, d1, d1, SUM_PROD, a.dbc, ph, stream)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="the cell norm's bias gradient sums DCN * DCN instead of DCN"),
    dict(name="v187-bn-norm-grads-dgx-dgh-swapped", file=WCUDA,
         old="dgx, dgh, dgc, dbc = (take(m)",
         new="dgh, dgx, dgc, dbc = (take(m)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="BatchNorm's x side and h side gain gradients returned in each other's place"),
    dict(name="v187-gradients-dh0-dc0-swapped", file=WCUDA,
         old="(a.dh_next, a.dc_next, a.dkappa, a.dw_next, a.dWx, a.dWh)",
         new="(a.dc_next, a.dh_next, a.dkappa, a.dw_next, a.dWx, a.dWh)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dL/dh0 and dL/dc0 returned in each other's place"),
    dict(name="v187-window-sequences-reads-tanh-c", file=WCUDA,
         old="return saved[10], saved[15]",
         new="return saved[11], saved[15]",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="off by one in the saved tuple: the per-step c handed on is tanh(c)"),
]
