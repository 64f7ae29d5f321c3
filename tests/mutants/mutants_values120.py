"""Planted bugs, round 120 (format: tests/mutants/mutants.py): single-line slips in the sampler, the
window model and the window's CPU kernel, on lines no earlier round mutates (a fifth pass): the sampler's window
reading a primed line's codes without the prime's text, an unprimed line's free steps counted from step 1 (a
BatchNorm model's inference then reads the next step's running rows), the attention plot greying the line's
first character with the prime's, prime strokes let through without their text; the window layer handing the
kernel h's running mean and variance swapped, the stack's backward dropping a middle layer's dL/dy from the layer
above and running the upper layers bottom up (both invisible on two layers), the window layer's backward
unclipped whatever clip_gates says; the kernel's BN_t backward at inference statistics without the running rstd,
BN_t at inference without eps, BN_t in training normalized by the unbiased variance, the backward's time loop
stopping before step 0, and LayerNorm's h-side backward written into the x side's buffer.

13 mutants. Against the existing targeted tests alone (the four most direct files of each list, SAMPLE_OLD,
MODEL_OLD, WINDOW_OLD below, with the baseline run) 6 were caught and 7 missed: the prime's text left out of the
window (no old test compares a primed line's points with what its text should draw), the free steps from step 1
(no old sampler test runs a BatchNorm model with running rows that differ by step), the attention labels (no old
test reads the plot's label colours), the swapped BN rows (no old model test runs the BN window layer at
inference against the reference), the two three-layer backward bugs (the old stack gradchecks use two layers) and
the dropped clip (the clip is checked at the kernel, not through the layer). The five kernel mutants and the prime
pair were caught by the old tests.
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values120_sampler (the points and phi of primed rows of two lines of their own lengths, LayerNorm, against
one inference forward of WindowStack over the prime's points and the drawn points, reading the prime's codes then
the line's, and the head's draws from its outputs in the same random stream; the same for unprimed rows of a
BatchNorm model whose running rows differ by step; the attention plot's grey labels against prime_chars; the
prime pair refused either way), test_values120_window_model (the BN window layer at inference against
lnrnn.reference's forward with running rows of its own per step and eps 0.3; a three-layer stack's dx, every
weight gradient and the upper layers' dh0, dc0 against central differences; the LayerNorm window layer with
clip_gates 0.04 against the reference's clipped backward, a bound that changes dx) and test_values120_window (the
kernel on strokes of 4, 2 and 3 steps: BN_t at inference against the reference's forward, its gradients and the
BN_t and LayerNorm training gradients against central differences of sum(dy y + dw w) over the active steps, BN_t
in training and its running rows against the reference).

Left out as equivalent (judged by reading, not run): w summed over all U characters instead of the first ulen[b]
(phi is zeroed past ulen[b], so the padded characters add 0), and likewise dL/dphi read for all U characters in
the backward (the sums over u stop at ulen[b]); the inference slots of c and kappa narrowed to one (S2 = min(T, 1):
c_t and kappa_t are formed element by element from the same slot's c_{t-1} and kappa_{t-1}, as round 84 found);
the chunk width m = B // nch + 1 in place of the rounded-up quotient plus one (still at least the largest chunk's
rows: only the gap between chunks is lost); the sampler's padded codes filled with 1 instead of 0 (never read past
ulen[b]); step_phi taken from phi[-1] instead of phi[0] (a step has T = 1).

    python tests/mutants/run.py --only 'v120-*'
"""
SAMPLE = "lnrnn/sample.py"
MODEL = "lnrnn/model/window.py"
WINDOW = "lnrnn/kernels/window.py"

# existing tests of these modules (the most direct ones)
SAMPLE_OLD = ["tests/test_values87_sampler.py", "tests/test_values99_sampler.py", "tests/test_values109_sampler.py",
              "tests/commands/test_values69_sample_errors.py"]
MODEL_OLD = ["tests/model/test_values84_synthesis.py", "tests/model/test_values103_window_model.py",
             "tests/model/test_values_window.py", "tests/model/test_values67_window.py"]
WINDOW_OLD = ["tests/kernels/test_values84_window.py", "tests/kernels/test_values103_window.py",
              "tests/kernels/test_window.py", "tests/kernels/test_values73_window.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values120_sampler.py"]
MODEL_NEW = ["tests/model/test_values120_window_model.py"]
WINDOW_NEW = ["tests/kernels/test_values120_window.py"]

MUTANTS = [
    # ---- the sampler: the window's text, the free steps' clock, primes ----
    dict(name="v120-sample-window-text-without-prime", file=SAMPLE,
         old="    for b, c in enumerate(full):\n        codes[b, :len(c)] = c",
         new="    for b, c in enumerate(lines):\n        codes[b, :len(c)] = c",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a primed row's window reads the line's codes alone (the prime's text left out) over the full length"),
    dict(name="v120-sample-free-steps-from-step-1", file=SAMPLE,
         old="    t0 = 0\n    if pre_pts is not None:",
         new="    t0 = 1\n    if pre_pts is not None:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="an unprimed line's free steps count from 1: BatchNorm's inference reads step t+1's running rows"),
    dict(name="v120-attention-prime-labels-one-too-many", file=SAMPLE,
         old="        if u < row.prime_chars:",
         new="        if u <= row.prime_chars:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the attention plot greys the line's first character as if the prime had written it"),
    dict(name="v120-prime-pair-one-way", file=SAMPLE,
         old="    if (prime_strokes is None) != (prime_text is None):",
         new="    if prime_strokes is None and prime_text is not None:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="prime strokes without their text are let through (only the other half of the pair is checked)"),
    # ---- the window model: BN rows, the stack's backward, the gate clip ----
    dict(name="v120-window-bn-rows-h-mean-and-var-swapped", file=MODEL,
         old='("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")',
         new='("rmx", "rvx", "rvh", "rmh", "rmc", "rvc")',
         tests=MODEL_NEW + MODEL_OLD,
         why="the window layer hands the kernel h's running variance as its mean and its mean as its variance"),
    dict(name="v120-stack-backward-drops-grad-from-above", file=MODEL,
         old="k.take_columns(dy, j * H, (j + 1) * H, dh_above)",
         new="k.take_columns(dy, j * H, (j + 1) * H)",
         tests=MODEL_NEW + MODEL_OLD,
         why="a middle layer's dL/dy loses the share that flows back from the layer above it"),
    dict(name="v120-stack-backward-layers-bottom-up", file=MODEL,
         old="for j in reversed(range(1, len(self.layers))):",
         new="for j in range(1, len(self.layers)):",
         tests=MODEL_NEW + MODEL_OLD,
         why="the layers above the window run their backward from the bottom up: dh from above reaches the wrong one"),
    dict(name="v120-window-backward-clip-dropped", file=MODEL,
         old='p["Wp"], self.norm_code,\n            self.clip_gates)',
         new='p["Wp"], self.norm_code,\n            0.0)',
         tests=MODEL_NEW + MODEL_OLD,
         why="the window layer's backward runs unclipped whatever clip_gates says"),
    # ---- the CPU kernel: BN_t at inference, BN_t's variance, the backward's steps, LN's buffers ----
    dict(name="v120-kernel-bn-inference-backward-without-rstd", file=WINDOW,
         old="                xr[j] = rs[j] * (dr[j] * gain[j])\n",
         new="                xr[j] = dr[j] * gain[j]\n",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t's backward at inference statistics drops the running rstd: dx is off by 1/sqrt(rv + eps)"),
    dict(name="v120-kernel-bn-inference-rstd-without-eps", file=WINDOW,
         old="rs[j] = one / np.sqrt(rv[row, j] + eps)",
         new="rs[j] = one / np.sqrt(rv[row, j])",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t at inference divides by sqrt(running variance) without eps"),
    dict(name="v120-kernel-bn-normalized-by-unbiased-var", file=WINDOW,
         old="            var = rs[j] * inv\n",
         new="            var = rs[j] * inv * unbiased\n",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t in training normalizes by the unbiased n/(n-1) variance, which only the running row should take"),
    dict(name="v120-kernel-backward-skips-step-0", file=WINDOW,
         old="    for t in range(T - 1, -1, -1):",
         new="    for t in range(T - 1, 0, -1):",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the backward's time loop stops before step 0: its gradients and the initial state's are never formed"),
    dict(name="v120-kernel-ln-shares-dxw-dhw", file=WINDOW,
         old="dHW = dXW if norm == NORM_NONE else",
         new="dHW = dXW if norm != NORM_BN else",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="with LayerNorm dL/d(h Wh) is written into dL/d(X Wx)'s buffer: the h side's overwrites the x side's"),
]
