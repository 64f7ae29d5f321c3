"""Planted bugs, round 75 (format: tests/mutants/mutants.py): single-line slips in four CUDA twins, on lines no
earlier round mutates: CTC's log-softmax normalizer starting at class 1, its forward's extended labelling one
short, beta's stay term emitting at step t and its skip over the blank asked at s instead of s+2; RMSProp with
momentum keeping the whole velocity, centred RMSProp's mean of g weighted by alpha, adam_update passing 1 - beta1
as the second moment's weight, the clipping factor without CLIP_EPS; BatchNorm's running variance folded in
without the n / (n - 1) correction, a step's mean counting the row that ended just before it, inference with eps
outside the square root, the backward's sum of dy xhat taken without rstd; the window's Gaussians given alpha's
width, d k_hat without the chain through exp, the text check letting code C through and reading one character
past each row's text, take_columns reading its add at the source column.

17 mutants. Against the existing targeted tests alone 16 were caught and 1 missed: take_columns' add read at
a's column c0 + j (the old tests never pass an add with c0 > 0). The new value tests catch every mutant on their
own (checked with the old tests taken off the lists): test_values75_ctc_cuda (loss and gradient against the sum
over all 3^5 paths of each row, collapsed by hand, on labels 1 1 and 1 2 2, a padded row of 3 steps, an empty
label, dloss not 1; the CPU twin on the same rows), test_values75_optim_cuda (three clipped updates of RMSProp
with momentum, plain and centred, and of Adam with its bias corrections spelled out, against the rules written
in NumPy; clipping against sqrt(sum g^2) and max_norm / (norm + CLIP_EPS)), test_values75_batchnorm_cuda (each
step's statistics over the rows still running, the running rows with the unbiased variance, inference through
the running rows, and dx, dgain, dbias against central differences of sum(dy y) over the running rows),
test_values75_window_cuda (the window's forward and backward kernels launched for one step against the
definition and central differences, a padded row's dy ignored; _text's code check over each row's own text;
take_columns and join_columns against NumPy slicing and concatenation). All in float64 under the simulator with
blocks of 4 threads or tiles of 3, shapes that are not multiples of them.

Dropped as equivalent: ext reading labels[b, (s - 1) // 2] (s is odd there: the same index); the log-softmax's
max starting later or ending earlier (any shift cancels); the q != -inf test before the gradient's
subtraction (exp(-inf) is 0); alpha's fill value before the forward (only positions the forward writes are
read); the scale kernel's test s != 1 made s != 0 (a factor of 1 changes nothing, 0 never comes); join_columns
advancing c0 only for parts with elements (an empty part of the output's T and B has no columns); the x side's
per-row loop striding by blockDim.x (tiles are square). Left out as unreliable: beta's last step not written and
the gradient not zero-filled (what an empty device array holds is not defined).

    python tests/mutants/run.py --only 'v75-*'
"""
CTC = "lnrnn/kernels/ctc_cuda.py"
OPT = "lnrnn/kernels/optim_cuda.py"
BN = "lnrnn/kernels/batchnorm_cuda.py"
WIN = "lnrnn/kernels/window_cuda.py"

# existing tests of these modules
CTC_OLD = ["tests/kernels/test_ctc_cuda.py", "tests/kernels/test_values22_losses_cuda.py"]
OPT_OLD = ["tests/training/test_device_update.py", "tests/training/test_device_update_more.py",
           "tests/kernels/test_values30_optim_cuda.py"]
BN_OLD = ["tests/kernels/test_cuda_kernels.py::test_batchnorm_matches_cpu",
          "tests/kernels/test_cuda_kernels.py::test_batchnorm_masked_matches_cpu",
          "tests/kernels/test_cuda_blocksizes.py::test_batchnorm_odd_tiles"]
WIN_OLD = ["tests/kernels/test_window_cuda.py", "tests/kernels/test_values60_window_cuda.py",
           "tests/kernels/test_values38_window_cuda.py"]


# value tests written for the bugs below (first, so that a caught mutant stops there)
CTC_NEW = ["tests/kernels/test_values75_ctc_cuda.py"]
OPT_NEW = ["tests/kernels/test_values75_optim_cuda.py"]
BN_NEW = ["tests/kernels/test_values75_batchnorm_cuda.py"]
WIN_NEW = ["tests/kernels/test_values75_window_cuda.py"]

MUTANTS = [
    # ---- CTC's CUDA twin: the log-softmax, the extended length, beta's emission and skip ----
    dict(name="v75-ctc-cuda-normalizer-skips-class-0", file=CTC,
         old="                for c in range(C):\n                    z += math.exp(",
         new="                for c in range(1, C):\n                    z += math.exp(",
         tests=CTC_NEW + CTC_OLD,
         why="the log-softmax's normalizer starts at class 1 like the max before it: log p leaves out the blank's "
             "mass, every log p is too large and the loss too small"),
    dict(name="v75-ctc-cuda-extended-length-without-final-blank", file=CTC,
         old="            Tb, Sb = input_lengths[b], 2 * label_lengths[b] + 1\n",
         new="            Tb, Sb = input_lengths[b], 2 * label_lengths[b]\n",
         tests=CTC_NEW + CTC_OLD,
         why="the forward pass's extended labelling is one short: the paths ending on the trailing blank are lost "
             "and log p ends on the last label and the blank before it"),
    dict(name="v75-ctc-cuda-beta-emission-of-step-t", file=CTC,
         old="                    a = beta[b, t + 1, s] + logp[t + 1, b, ext(labels, b, s)]\n",
         new="                    a = beta[b, t + 1, s] + logp[t, b, ext(labels, b, s)]\n",
         tests=CTC_NEW + CTC_OLD,
         why="beta's stay-in-place term adds step t's emission instead of step t+1's: the posteriors, so the "
             "gradient, are wrong wherever two steps' log p differ"),
    dict(name="v75-ctc-cuda-beta-skip-tested-at-s", file=CTC,
         old="                    if s + 2 < Sb and skip(labels, b, s + 2):\n",
         new="                    if s + 2 < Sb and skip(labels, b, s):\n",
         tests=CTC_NEW + CTC_OLD,
         why="beta's skip over a blank asks whether s (not s+2) may be skipped to: across a repeated label "
             "(a a) beta jumps the blank the path must emit, and the gradient weighs impossible paths"),
    # ---- the optimizers' CUDA twin: RMSProp with momentum, centred; Adam's v; clipping ----
    dict(name="v75-optim-cuda-rmsprop-momentum-not-decayed", file=OPT,
         old="            vi = v[i] * momentum\n            vi = vi - lr",
         new="            vi = v[i]\n            vi = vi - lr",
         tests=OPT_NEW + OPT_OLD,
         why="RMSProp with momentum keeps the whole velocity: from the second update on every step is too long"),
    dict(name="v75-optim-cuda-centred-mean-weighted-by-alpha", file=OPT,
         old="                a = a + one_m_alpha * gi\n",
         new="                a = a + alpha * gi\n",
         tests=OPT_NEW + OPT_OLD,
         why="centred RMSProp's running mean of g takes alpha (not 1 - alpha) of the new gradient: the mean, so "
             "the denominator, is wrong from the first update"),
    dict(name="v75-optim-cuda-adam-v-weighted-by-one-minus-beta1", file=OPT,
         old="dt(beta2), dt(1 - beta2), dt(step),",
         new="dt(beta2), dt(1 - beta1), dt(step),",
         tests=OPT_NEW + OPT_OLD,
         why="adam_update passes 1 - beta1 as the second moment's weight: v is 100 times too large with the "
             "default betas and the steps too short"),
    dict(name="v75-optim-cuda-clip-scale-without-eps", file=OPT,
         old="                scale[0] = max_norm / (n + CLIP_EPS)\n",
         new="                scale[0] = max_norm / n\n",
         tests=OPT_NEW + OPT_OLD,
         why="the clipping factor leaves out CLIP_EPS: the CUDA twin's clipped gradient differs from the CPU "
             "twin's (and the spec's) in the last digits"),
    # ---- BatchNorm's CUDA twin: running variance, padded rows, inference, dgain ----
    dict(name="v75-bn-cuda-running-var-without-unbias", file=BN,
         old="momentum * var * unbias\n",
         new="momentum * var\n",
         tests=BN_NEW + BN_OLD,
         why="the running variance folds in the biased batch variance (divided by n, not n - 1)"),
    dict(name="v75-bn-cuda-mean-counts-a-padded-row", file=BN,
         old="            if t < lengths[b]:\n                s += x2[b, k]\n",
         new="            if t <= lengths[b]:\n                s += x2[b, k]\n",
         tests=BN_NEW + BN_OLD,
         why="a step's mean (and its count) takes in each row that ended just before it: the statistics of "
             "the step after a row's last one are the padded row's too"),
    dict(name="v75-bn-cuda-inference-eps-outside-sqrt", file=BN,
         old="            return rm_row[k], one / math.sqrt(rv_row[k] + eps)\n",
         new="            return rm_row[k], one / (math.sqrt(rv_row[k]) + eps)\n",
         tests=BN_NEW + BN_OLD,
         why="inference normalizes by sqrt(running var) + eps instead of sqrt(running var + eps)"),
    dict(name="v75-bn-cuda-dgain-sum-without-rstd", file=BN,
         old="                s2 += dy2[b, k] * (x2[b, k] - m) * rs\n",
         new="                s2 += dy2[b, k] * (x2[b, k] - m)\n",
         tests=BN_NEW + BN_OLD,
         why="the backward's sum of dy xhat uses x - mean, not xhat: dgain and dx are off by the factor rstd"),
    # ---- the window's CUDA twin: phi's widths, d k_hat, the text check, take_columns' add ----
    dict(name="v75-window-cuda-phi-width-from-alpha", file=WIN,
         old="                s += abk[k] * math.exp(-abk[K + k] * (d * d))\n",
         new="                s += abk[k] * math.exp(-abk[k] * (d * d))\n",
         tests=WIN_NEW + WIN_OLD,
         why="phi's Gaussians take their width from alpha (abk[k]) instead of beta (abk[K + k])"),
    dict(name="v75-window-cuda-dkhat-without-exp", file=WIN,
         old="        dp[2 * K + k] = dk * abk[2 * K + k]\n",
         new="        dp[2 * K + k] = dk\n",
         tests=WIN_NEW + WIN_OLD,
         why="d k_hat leaves out the chain through exp: kappa_t = kappa_{t-1} + exp(k_hat), so dL/dk_hat = "
             "dL/dkappa_t exp(k_hat)"),
    dict(name="v75-window-cuda-text-code-C-accepted", file=WIN,
         old="used.min() < 0 or used.max() >= C)",
         new="used.min() < 0 or used.max() > C)",
         tests=WIN_NEW + WIN_OLD,
         why="a character code equal to C (one past the last class) passes the check and w_t is written past "
             "its C columns"),
    dict(name="v75-window-cuda-text-checks-the-padding", file=WIN,
         old="    used = chars[np.arange(U)[None, :] < ulen_h[:, None]]\n",
         new="    used = chars[np.arange(U)[None, :] <= ulen_h[:, None]]\n",
         tests=WIN_NEW + WIN_OLD,
         why="the code check reads one character past each row's text: a row padded with -1 (or any code) "
             "after its last character is refused"),
    dict(name="v75-window-cuda-take-columns-add-at-source-column", file=WIN,
         old="            v += add[t, b, j]\n",
         new="            v += add[t, b, c0 + j]\n",
         tests=WIN_NEW + WIN_OLD,
         why="take_columns(a, c0, c1, add) reads add (T,B,c1-c0) at a's column c0 + j instead of its own j"),
]
