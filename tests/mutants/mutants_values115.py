"""Planted bugs, round 115 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins, a fourth pass on
lines no earlier round mutates: BatchNorm's variance summed over a row's first padded step, normalizing by the
unbiased variance, and training's dx taking off the centred instead of the normalized x; the tiled GEMM's inner
size of a transposed A read from the wrong axis and colsum_ln centring each row by the column's mean; block_sum2's
second sum read from lane 1 and dot_col's strided tail walking every row; ctc_rows' edit distance table with its
first row one short and the best path starting each step's maximum from step 0's blank; the mixture density's
log(1 - rho^2) without its half; Adam's eps_hat under the square root and clip_grad_norm's norm left squared;
CTC's beta stopping before step 0 and its log-softmax dropping the max it shifted by.

14 mutants. Against the existing targeted tests alone 12 were caught and 2 missed: colsum_ln centred by the
column's mean (the old GEMM files do not call colsum_ln; LayerNorm's tests reach it elsewhere) and the edit
distance's first row one short (no old test scores a row with no labels whose best path emits something).
Measured with run.py --no-baseline on the most direct old files (the lists below). The new value tests catch every
mutant on their own (checked with the old tests taken off the lists): test_values115_bn_gemm_cuda (BatchNorm's
training y, mean, rstd, running rows and gradients against the per-step definition over lengths 3, 1, 0, 3 with
padded entries holding values; tiled_matmul in every transpose with K = 7, M = 3, N = 5, accumulating into an
output holding values, against A @ B; colsum, colsum_prod and colsum_ln over 21 rows against NumPy's sums;
block_sum2 over 7 lanes and dot_col at strides 1, 2, 3 in kernels written there, against NumPy),
test_values115_heads_optim_cuda (ctc_rows against np.argmax's best path collapsed by hand and the Levenshtein
recursion; mdn against lnrnn.reference.mdn_nll and its central differences with correlations far from 0; Adam over
two steps after clip_grad_norm, one norm above the limit and one below, against the paper's bias-corrected rule;
CTC's loss and gradient against the sum over every one of the C^Tb paths, labels as long as T, a repeat, a short
row and a row without steps, logits near 25). The first-row mutant is seen through the scratch table's unwritten
cell, which holds 0 on a fresh allocation (not the distance 2 the test wants). Dropped before the catalogue as
equivalent: ext's label index written (s - 1) // 2 (the same for every odd s), clip_scale's "v > bound" as ">="
(a value at the bound is set to itself), and colsum_parts rounding down (only the number of partial blocks
changes, never the sum).

    python tests/mutants/run.py --only 'v115-*'
"""
BN = "lnrnn/kernels/batchnorm_cuda.py"
GEMM = "lnrnn/kernels/cuda/gemm_cuda.py"
LOSSES = "lnrnn/kernels/losses_cuda.py"
ROWS = "lnrnn/kernels/cuda/rows_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"
OPTIM = "lnrnn/kernels/optim_cuda.py"
CTC = "lnrnn/kernels/ctc_cuda.py"

# existing tests of these modules
BN_OLD = ["tests/kernels/test_values97_bn_cuda.py", "tests/kernels/test_values75_batchnorm_cuda.py"]
GEMM_OLD = ["tests/kernels/test_values82_gemm_cuda.py", "tests/kernels/test_values30_gemm_cuda.py"]
LOSSES_OLD = ["tests/kernels/test_values97_heads_cuda.py", "tests/kernels/test_values22_losses_cuda.py",
              "tests/kernels/test_values9_losses_cuda.py"]
ROWS_OLD = ["tests/kernels/test_values82_rows_cuda.py", "tests/kernels/test_values66_rows_cuda.py"]
MDN_OLD = ["tests/kernels/test_values97_heads_cuda.py", "tests/kernels/test_values22_mdn_cuda.py"]
OPTIM_OLD = ["tests/kernels/test_values97_optim_ln_cuda.py", "tests/kernels/test_values75_optim_cuda.py",
             "tests/kernels/test_values30_optim_cuda.py"]
CTC_OLD = ["tests/kernels/test_values97_heads_cuda.py", "tests/kernels/test_values75_ctc_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BN_NEW = ["tests/kernels/test_values115_bn_gemm_cuda.py"]
GEMM_NEW = ["tests/kernels/test_values115_bn_gemm_cuda.py"]
LOSSES_NEW = ["tests/kernels/test_values115_heads_optim_cuda.py"]
ROWS_NEW = ["tests/kernels/test_values115_bn_gemm_cuda.py"]
MDN_NEW = ["tests/kernels/test_values115_heads_optim_cuda.py"]
OPTIM_NEW = ["tests/kernels/test_values115_heads_optim_cuda.py"]
CTC_NEW = ["tests/kernels/test_values115_heads_optim_cuda.py"]

MUTANTS = [
    # ---- BatchNorm's twin: the variance's rows and divisor, training's dx ----
    dict(name="v115-bn-variance-over-a-padded-step", file=BN,
         old="            if t < lengths[b]:\n                d = x2[b, k] - m",
         new="            if t <= lengths[b]:\n                d = x2[b, k] - m",
         tests=BN_NEW + BN_OLD,
         why="the variance's sum also takes each row's first padded step (t == length), so a step where a row "
             "has just ended is normalized by a variance that counts its padding"),
    dict(name="v115-bn-unbiased-variance-normalizes", file=BN,
         old="    var = tot[0, tx] * inv_n\n    if update",
         new="    var = tot[0, tx] / max(n - one, one)\n    if update",
         tests=BN_NEW + BN_OLD,
         why="training normalizes by the unbiased variance (n - 1) instead of the batch's biased one; the running "
             "variance folds it in with a second correction"),
    dict(name="v115-bn-backward-projection-without-rstd", file=BN,
         old="(s1 + (x2[b, k] - m) * rs * s2) * inv_n)",
         new="(s1 + (x2[b, k] - m) * s2) * inv_n)",
         tests=BN_NEW + BN_OLD,
         why="training's dx takes off the centred x instead of the normalized x times the mean of dy * xhat"),
    # ---- gemm: the inner size of a transposed A, LayerNorm's column sums ----
    dict(name="v115-gemm-inner-size-of-transposed-a", file=GEMM,
         old="        K = A.shape[0] if trans_a else A.shape[1]",
         new="        K = A.shape[1] if trans_a else A.shape[1]",
         tests=GEMM_NEW + GEMM_OLD,
         why="with trans_a, A is (K,M): the kernel runs over M products instead of K, dropping (or padding with "
             "zeros) the products past the smaller"),
    dict(name="v115-colsum-ln-mean-by-column", file=GEMM,
         old="                    d *= (X[r, j] - mean[r]) * rstd[r]",
         new="                    d *= (X[r, j] - mean[j]) * rstd[r]",
         tests=GEMM_NEW + GEMM_OLD,
         why="colsum_ln (LayerNorm's gain gradient) centres each row by the mean of the row numbered as the column"),
    # ---- rows: block_sum2's second sum, dot_col's strided tail ----
    dict(name="v115-rows-block-sum2-second-from-lane-1", file=ROWS,
         old="    a, b = sh[0], sh[w]\n",
         new="    a, b = sh[0], sh[1]\n",
         tests=ROWS_NEW + ROWS_OLD,
         why="block_sum2 returns the first sum's lane 1 partial as the second sum"),
    dict(name="v115-rows-dot-col-tail-step-1", file=ROWS,
         old="        s0 += v[i] * W[i, col]\n        i += step\n",
         new="        s0 += v[i] * W[i, col]\n        i += 1\n",
         tests=ROWS_NEW + ROWS_OLD,
         why="dot_col's tail (fewer than 8 strided terms left) walks every row instead of every step-th: a split "
             "matvec's group adds the other groups' rows too"),
    # ---- losses: the edit distance's first row, the best path's maximum ----
    dict(name="v115-ctc-rows-first-row-one-short", file=LOSSES,
         old="            for j in range(n + 1):\n                dist[r, 0, j] = j",
         new="            for j in range(n):\n                dist[r, 0, j] = j",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the edit distance table's first row stops one short: a row with no labels reads its last cell from "
             "whatever the scratch held"),
    dict(name="v115-ctc-rows-best-from-step-0", file=LOSSES,
         old="                best, m = 0, logp[t, r, 0]",
         new="                best, m = 0, logp[0, r, 0]",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the best path starts each step's maximum from step 0's blank: a step whose classes all lie below it "
             "reads as a blank"),
    # ---- mdn: the correlation's log term ----
    dict(name="v115-mdn-log-one-minus-rho2-without-half", file=MDN,
         old="- ls1 - ls2 - half * math.log(omr) - half * Z / omr",
         new="- ls1 - ls2 - math.log(omr) - half * Z / omr",
         tests=MDN_NEW + MDN_OLD,
         why="the bivariate normal's log density takes log(1 - rho^2) whole instead of half of it"),
    # ---- optim: Adam's denominator, the clipping norm ----
    dict(name="v115-adam-eps-inside-the-root", file=OPTIM,
         old="            p[i] = p[i] - step * mi / (math.sqrt(vi) + eps_hat)",
         new="            p[i] = p[i] - step * mi / math.sqrt(vi + eps_hat)",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="Adam adds eps_hat under the square root instead of to it"),
    dict(name="v115-clip-norm-not-rooted", file=OPTIM,
         old="            n = math.sqrt(s)\n",
         new="            n = s\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="clip_grad_norm reports and clips by the squared norm"),
    # ---- CTC: beta's first step, the log-softmax's shift ----
    dict(name="v115-ctc-beta-stops-before-step-0", file=CTC,
         old="            for t in range(Tb - 2, -1, -1):",
         new="            for t in range(Tb - 2, 0, -1):",
         tests=CTC_NEW + CTC_OLD,
         why="beta's backward recursion stops at step 1: step 0's gradient reads a beta never computed"),
    dict(name="v115-ctc-log-partition-without-max", file=CTC,
         old="                lz = m + math.log(z)",
         new="                lz = math.log(z)",
         tests=CTC_NEW + CTC_OLD,
         why="the log-softmax's partition drops the max it shifted by: log p is off by the step's max logit"),
]
