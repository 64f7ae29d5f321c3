"""Planted bugs, round 293 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the attention-window kernels, fourteenth pass: the CPU twin (lnrnn/kernels/window.py) returning the
saved window row [alpha | beta | exp(k_hat)] as the final kappa; the forward's exp of p_t stopping after beta
(exp(k_hat) never written, kappa moved by leftover memory); the backward's initial-state gradients of every chunk
written to the first chunk's rows; dL/dw_t of the step leaving out the last code; the window's backward skipping
its last Gaussian; the beta sum starting at 1; the input gate's gradient without its i factor. The CUDA twin
(lnrnn/kernels/window_cuda.py): phi starting at 1 (past the text too); phi leaving out the last Gaussian; dL/dalpha
summing dL/dphi without the exp factor; dL/dbeta without alpha; training and keep swapped on their way in; the
backward's BatchNorm always in its training form.

13 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values293_window (kappa, phi and w of every step
written out from the kernel's own h_t at U 1, 5 and 7 with texts of length 0 and U in one batch, h_t against
lnrnn.reference.window_lstm_forward, the final kappa, w and h with and without the saved tuple; every gradient
against central differences in float64 over two row chunks with ragged steps and the last code in a text),
test_values293_window_cuda (the CUDA twin under Numba's simulator against the CPU twin with BatchNorm at B 3, H 5,
K 2, U 4 in training and evaluation, every output, saved sequence, running row and gradient; phi past a text
exactly 0). Left out as equivalent: the inference slots of c and kappa made 1 instead of min(T, 2) (each step reads
and writes the same element of a slot, in place, so one slot gives the same numbers); the work arrays' row count
-(-B // nch) + 1 made B // nch + 1 (the extra row between chunks still leaves room for the largest chunk at every
B). Left out as flaky: the forward's zeroing of w's first column skipped (np.empty's leftover memory may hold
zeros).

    python tests/mutants/run.py --only 'v293-*'
"""
CPU = "lnrnn/kernels/window.py"
CUDA = "lnrnn/kernels/window_cuda.py"

T_CPU = "tests/kernels/test_values293_window.py::"
T_CUDA = "tests/kernels/test_values293_window_cuda.py::"
OLD_CPU = ["tests/kernels/test_values285_window.py", "tests/kernels/test_values261_window.py",
           "tests/kernels/test_values146_window.py"]
OLD_CUDA = ["tests/kernels/test_values262_window_cuda.py", "tests/kernels/test_values152_window_cuda.py",
            "tests/kernels/test_window_cuda.py"]

FWD = [T_CPU + "test_kappa_phi_and_w_are_the_formulas_written_out"]
BWD = [T_CPU + "test_every_gradient_against_central_differences_over_two_chunks"]
TWIN = [T_CUDA + "test_bn_layer_at_b3_h5_k2_u4_equals_the_cpu_twin"]

MUTANTS = [
    # ---- the CPU twin: lnrnn/kernels/window.py ----
    dict(name="v293-cpu-final-kappa-from-win", file=CPU,
         old="    c, kappa = saved[1], saved[10]\n",
         new="    c, kappa = saved[1], saved[9]\n",
         tests=FWD + OLD_CPU,
         why="the final kappa returned is the last step's [alpha | beta | exp(k_hat)] row (3K wide), not kappa_T"),
    dict(name="v293-cpu-exp-stops-before-k-hat", file=CPU,
         old="            for j in range(3 * K):\n",
         new="            for j in range(2 * K):\n",
         tests=FWD + OLD_CPU,
         why="exp(k_hat) is never written: kappa moves by whatever the saved window row held"),
    dict(name="v293-cpu-initial-grads-to-first-chunk", file=CPU,
         old="        r0, r1 = chunk_bounds(B, nch, k)\n",
         new="        r0, r1 = chunk_bounds(B, nch, 0)\n",
         tests=BWD + OLD_CPU,
         why="every chunk's dh0, dc0, dkappa0 and dw0 land on the first chunk's rows; later rows keep garbage"),
    dict(name="v293-cpu-dw-of-step-drops-last-code", file=CPU,
         old="            for j in range(C):\n                dwr[j] = (dw[t, bb, j] if active else zero) + dnr[j]",
         new="            for j in range(C - 1):\n                dwr[j] = (dw[t, bb, j] if active else zero) + dnr[j]",
         tests=BWD + OLD_CPU,
         why="dL/dw_t's last column is stale: dL/dphi of every character with code C - 1 is wrong"),
    dict(name="v293-cpu-window-backward-skips-last-gaussian", file=CPU,
         old="            for j in range(K):\n                al, be, ka = wn[j], wn[K + j], kn[j]\n                sa = zero",
         new="            for j in range(K - 1):\n                al, be, ka = wn[j], wn[K + j], kn[j]\n                sa = zero",
         tests=BWD + OLD_CPU,
         why="the last Gaussian's dL/dp_t is never written and its dL/dkappa not carried"),
    dict(name="v293-cpu-beta-sum-starts-at-one", file=CPU,
         old="                sb = zero  # sum_u e dphi d^2",
         new="                sb = one  # sum_u e dphi d^2",
         tests=BWD + OLD_CPU,
         why="dL/db_hat is off by alpha beta at every step and row, text or none"),
    dict(name="v293-cpu-input-gate-grad-drops-i", file=CPU,
         old="                dai[j] = dc * g * i * (one - i)",
         new="                dai[j] = dc * g * (one - i)",
         tests=BWD + OLD_CPU,
         why="the input gate's sigmoid derivative loses its i factor: dL/da_i and every gradient through it"),
    # ---- the CUDA twin: lnrnn/kernels/window_cuda.py ----
    dict(name="v293-cuda-phi-starts-at-one", file=CUDA,
         old="        s = zero\n        if u < L:",
         new="        s = one\n        if u < L:",
         tests=TWIN + OLD_CUDA,
         why="phi is 1 higher at every position, past the text too, and w by the count of each code"),
    dict(name="v293-cuda-phi-skips-last-gaussian", file=CUDA,
         old="            for k in range(K):\n                d = kappa[k] - pos",
         new="            for k in range(K - 1):\n                d = kappa[k] - pos",
         tests=TWIN + OLD_CUDA,
         why="phi sums the first K - 1 Gaussians only"),
    dict(name="v293-cuda-dalpha-without-exp", file=CUDA,
         old="            s0 += ed\n",
         new="            s0 += g\n",
         tests=TWIN + OLD_CUDA,
         why="dL/dalpha sums dL/dphi without the Gaussian's exp(-beta (kappa - u)^2) factor"),
    dict(name="v293-cuda-dbeta-without-alpha", file=CUDA,
         old="            s1 += ae * (d * d)\n",
         new="            s1 += ed * (d * d)\n",
         tests=TWIN + OLD_CUDA,
         why="dL/dbeta's sum leaves out alpha"),
    dict(name="v293-cuda-training-and-keep-swapped", file=CUDA,
         old="    training, keep, eps = bool(training), bool(keep), float(eps)\n",
         new="    training, keep, eps = bool(keep), bool(training), float(eps)\n",
         tests=TWIN + OLD_CUDA,
         why="an evaluation run that keeps its saved tuple normalizes by the batch and returns no saved tuple"),
    dict(name="v293-cuda-backward-bn-always-training", file=CUDA,
         old="    training = bool(training)\n",
         new="    training = True\n",
         tests=TWIN + OLD_CUDA,
         why="the backward after an evaluation forward runs BatchNorm's training backward (batch-statistics terms)"),
]
