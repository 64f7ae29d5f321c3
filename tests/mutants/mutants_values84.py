"""Planted bugs, round 84 (format: tests/mutants/mutants.py): single-line slips in the synthesis window, its CPU
kernel, its CUDA twin and the window model, on lines no earlier round mutates: the CPU kernel's inference loop
reading c and kappa of step t-1 from the slot of S (two steps back on every even step), X_t taking w_{t-1} without
its last class, w_t written over w_{t-1}'s row, the carried-in w0 ignored and dWx's window rows taken from
dL/d(h_{t-1} Wh) (the same without a norm); the CUDA twin's p_t summed over H - 1 units, w_t's last class never
written, dphi reading dw in place of dw_next, dL/dkappa's sum without alpha, dL/da_hat without the chain through
exp, dL/dh_t through the window without k_hat's columns, a text that fills its row refused and dWx's window rows
paired with w_t instead of w_{t-1}; the model checking a carried (h, c, kappa, w) state against swapped widths
and the stack's backward taking the layer below's dL/dh one column late.

15 mutants. Against the existing targeted tests alone 15 were caught and 0 missed (the window's old tests
compare the kernels with the NumPy spec, both twins with each other and the model with central differences).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values84_window (the CPU kernel against the layer without a norm written out in NumPy, phi exactly 0 past
each text and positive at its last character; keep=False against keep=True over 5 steps; a sequence in two calls
with (h, c, kappa, w) carried against one call, kappa_T - kappa_0 against the saved exp(k_hat) summed over the
steps; every gradient, x, the initial h, c, kappa and w, weights, biases and LayerNorm's gains and shifts,
against central differences of the kernel's forward in float64, without a norm and with LN),
test_values84_window_cuda (one step of the window's kernels on B 3, H 5, K 3, C 4, U 5 and blocks of 4 threads,
into outputs that held NaN, against the definition, and its backward against central differences, a padded row's
dy ignored; the text check taking a text that fills its row; the whole layer, forward and backward, against the
CPU twin) and test_values84_synthesis (a two-layer stack in float64 with K != C: two calls with the state carried
against one, kappa_T against kappa_0 plus the steps; dx, the weight gradients of both layers and the carried-in
state's gradients against central differences, without a norm and with LN; one inference step's step_phi and
step_end, phi at ulen[b] + 1, against the definition). Texts of 1, 5 (or 4) and 3 characters throughout, codes
past each text out of range, never read.

Dropped as equivalent: the inference slots of c and kappa made one (S2 = 1 without keep: c_t and kappa_t are
computed element by element from the same slot's c_{t-1} and kappa_{t-1}, so one slot gives the same numbers),
and the chunks' scratch rows counted as B // nch + 1 (never fewer than the largest chunk: only the gap between
two chunks' rows is lost).

    python tests/mutants/run.py --only 'v84-*'
"""
WINDOW = "lnrnn/kernels/window.py"
WCUDA = "lnrnn/kernels/window_cuda.py"
MODEL = "lnrnn/model/window.py"

# existing tests of these modules
WINDOW_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values11_window.py",
              "tests/kernels/test_values31_window.py", "tests/kernels/test_values42_window_text.py",
              "tests/kernels/test_values45_window.py", "tests/kernels/test_values57_window.py",
              "tests/kernels/test_values73_window.py"]
WCUDA_OLD = ["tests/kernels/test_window_cuda.py", "tests/kernels/test_values38_window_cuda.py",
             "tests/kernels/test_values60_window_cuda.py", "tests/kernels/test_values75_window_cuda.py"]
MODEL_OLD = ["tests/model/test_values_window.py", "tests/model/test_values10_window.py",
             "tests/model/test_values14_window.py", "tests/model/test_values16_window.py",
             "tests/model/test_values24_window.py", "tests/model/test_values42_window.py",
             "tests/model/test_values52_window.py", "tests/model/test_values67_window.py",
             "tests/model/test_synthesis.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WINDOW_NEW = ["tests/kernels/test_values84_window.py"]
WCUDA_NEW = ["tests/kernels/test_values84_window_cuda.py"]
MODEL_NEW = ["tests/model/test_values84_synthesis.py"]

MUTANTS = [
    # ---- the CPU kernel: the window fed forward, kappa's slots, the initial window, a gradient ----
    dict(name="v84-window-inference-previous-slot-of-S", file=WINDOW,
         old="        tp = (t - 1) % S2   # row of c_{t-1} and kappa_{t-1} (t > 0)",
         new="        tp = (t - 1) % S    # row of c_{t-1} and kappa_{t-1} (t > 0)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="without keep (S = 1, S2 = 2) every even step reads c and kappa of two steps back: kappa forgets a step"),
    dict(name="v84-window-last-class-not-fed-forward", file=WINDOW,
         old="            for i in range(C):\n                Xr[I + i] = wt[i]",
         new="            for i in range(C - 1):\n                Xr[I + i] = wt[i]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="X_t takes w_{t-1} without its last class: the gates read a stale column there"),
    dict(name="v84-window-w-written-over-previous", file=WINDOW,
         old="            wr, fr, cr = ws[t + 1, bb], phi[t, bb], chars[bb]",
         new="            wr, fr, cr = ws[t, bb], phi[t, bb], chars[bb]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="w_t is written into w_{t-1}'s row: the next step reads an unwritten row, w0 is overwritten"),
    dict(name="v84-window-initial-window-dropped", file=WINDOW,
         old="    ws[0] = w0\n",
         new="    ws[0] = 0\n",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the carried-in window w0 is ignored: a sequence run in two calls differs from one call"),
    dict(name="v84-window-dWx-window-rows-from-dHW", file=WINDOW,
         old="    gemm(Wprev[a:e], dXW[a:e], pWx[k, I:], True)  # W_prev^T dXW",
         new="    gemm(Wprev[a:e], dHW[a:e], pWx[k, I:], True)  # W_prev^T dXW",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dWx's window rows take dL/d(h_{t-1} Wh): the same without a norm, wrong with LN or BN"),
    # ---- the CUDA twin: the window's kernels, the text check, the products after the loop ----
    dict(name="v84-wcuda-p-drops-last-unit", file=WCUDA,
         old="        abk[j] = math.exp(dot_col(h, Wp, j, 0, h.shape[0], 1, zero) + bp[j])",
         new="        abk[j] = math.exp(dot_col(h, Wp, j, 0, h.shape[0] - 1, 1, zero) + bp[j])",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="p_t = h_t Wp sums over H - 1 units: the last hidden unit never moves the window"),
    dict(name="v84-wcuda-w-last-class-unwritten", file=WCUDA,
         old="    for cls in range(tid, w.shape[0], n):  # gather",
         new="    for cls in range(tid, w.shape[0] - 1, n):  # gather",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="w_t's last class is never written: it keeps what the buffer held"),
    dict(name="v84-wcuda-bwd-dw-next-replaced-by-dw", file=WCUDA,
         old="            g = dw_next[cls]  # dphi(u) = dL/dw_t[chars[u]]",
         new="            g = dw[cls]  # dphi(u) = dL/dw_t[chars[u]]",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dphi reads dw where it should read dw_next: dL/dw_t through X_{t+1} is dropped, dw counted twice"),
    dict(name="v84-wcuda-bwd-dkappa-without-alpha", file=WCUDA,
         old="            s2 += ae * d",
         new="            s2 += ed * d",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dL/dkappa's sum drops alpha: kappa's and k_hat's gradients are wrong wherever alpha != 1"),
    dict(name="v84-wcuda-bwd-dalpha-without-chain", file=WCUDA,
         old="        dp[k] = s0 * a",
         new="        dp[k] = s0",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dL/da_hat is dL/dalpha: the chain through alpha = exp(a_hat) is dropped"),
    dict(name="v84-wcuda-bwd-dh-drops-k-hat", file=WCUDA,
         old="        v = dot_col(dp, WpT, j, 0, 3 * K, 1, zero)",
         new="        v = dot_col(dp, WpT, j, 0, 2 * K, 1, zero)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dL/dh_t through the window sums dp Wp^T over alpha's and beta's columns only, not k_hat's"),
    dict(name="v84-wcuda-text-full-row-rejected", file=WCUDA,
         old="    if B and (ulen_h.min() < 0 or ulen_h.max() > U):",
         new="    if B and (ulen_h.min() < 0 or ulen_h.max() >= U):",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="a text that fills its row (ulen = U) is refused"),
    dict(name="v84-wcuda-dWxC-rows-of-step-t", file=WCUDA,
         old="        gemm(seq[:N - B], D[B:], out, trans_a=True, accumulate=True)",
         new="        gemm(seq[B:], D[B:], out, trans_a=True, accumulate=True)",
         tests=WCUDA_NEW + WCUDA_OLD,
         why="dWx's window rows pair dL/d(X_t Wx) with w_t instead of w_{t-1} (and dWh with h_t for h_{t-1})"),
    # ---- the model: the carried state, the stack's backward ----
    dict(name="v84-model-state-widths-swapped", file=MODEL,
         old='zip(("h0", "c0", "kappa0", "w0"), state, (H, H, K, C)))',
         new='zip(("h0", "c0", "kappa0", "w0"), state, (H, H, C, K)))',
         tests=MODEL_NEW + MODEL_OLD,
         why="a carried (h, c, kappa, w) state is checked against the swapped widths and refused when K != C"),
    dict(name="v84-model-dh-above-off-by-one", file=MODEL,
         old="            dh_above = k.take_columns(d_in, I, I + H)",
         new="            dh_above = k.take_columns(d_in, I + 1, I + H + 1)",
         tests=MODEL_NEW + MODEL_OLD,
         why="the layer below's dL/dh is taken one column late: its last unit gets w's first column's gradient"),
]
