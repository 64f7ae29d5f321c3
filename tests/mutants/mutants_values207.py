"""Planted bugs, round 207 (format: tests/mutants/mutants.py): single-line slips on lines of the CUDA BatchNorm, CTC
and mixture density kernels that no earlier round mutates: bn_forward writing only the running mean back into a
host array, col_backward reading its two lane sums the wrong way round, bn_backward returning dbias for dgain and
back, the lanes' stride over the batch one row short in the statistics, device_lengths passing B and T swapped; CTC's
log-add-exp losing a finite term next to -inf, the log-softmax shifted by its max only, the alpha recursion and
the gradient loop a step short, every row scaled by row 0's dloss; the mixture's end-of-stroke sigmoid of the
wrong sign, rho read from the log sigma2 block, pi saved unnormalized and the backward's z1 and z2 swapped.

14 mutants. Against the existing targeted tests alone 13 were caught and 1 missed: CTC's log-add-exp returning
-inf when its second term is -inf (in exact arithmetic it never meets a finite first term unless a logit is -inf:
a row's unreachable positions lie beyond its reachable ones on both sides, and no old test masks a class off).
Measured on the three most direct old files per module. The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values207_bn_cuda (bn_forward and bn_backward against
BatchNorm written by hand in NumPy over the rows that run at each step, lengths 3 0 1 3 2 with a far-off row
without steps, the last row running at two steps and an empty fourth step that folds nothing; host running
statistics updated in place; dgain and dbias apart; lengths=None as every row; inference with running row
min(t, Ts - 1)), test_values207_ctc_mdn_cuda (CTC's loss and gradient against the sum over every one of the C^Tb
paths of each row, collapsed by hand, with a repeated label, an empty label, rows of different lengths, dloss
different per row and the blank masked off by a -inf logit at one row's first step; mdn_forward against
reference.mdn_nll and mdn_backward against central differences of it, with a padded point, a point 6 standard
deviations off, end-of-stroke logits of both signs and rho away from 0).

Dropped as equivalent: CTC's alpha buffer filled with 0 instead of -inf (every entry the kernels read is written
first), its test q != -inf removed before the posterior's subtraction (exp(-inf) is 0), the log-softmax's or the
mixture weights' max taken over fewer classes (any shift cancels), mdn_cuda's _grid without the ceiling (the
grid-stride loop still covers every point).

    python tests/mutants/run.py --only 'v207-*'
"""
BN = "lnrnn/kernels/batchnorm_cuda.py"
CTC = "lnrnn/kernels/ctc_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"

# existing tests of these modules (the most direct ones)
BN_OLD = ["tests/kernels/test_values182_norms_cuda.py", "tests/kernels/test_values75_batchnorm_cuda.py",
          "tests/kernels/test_values97_bn_cuda.py"]
CTC_OLD = ["tests/kernels/test_values159_ctc_cuda.py", "tests/kernels/test_values75_ctc_cuda.py",
           "tests/kernels/test_ctc_cuda.py"]
MDN_OLD = ["tests/kernels/test_values182_losses_mdn_cuda.py", "tests/kernels/test_values159_mdn_cuda.py",
           "tests/kernels/test_values22_mdn_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BN_NEW = ["tests/kernels/test_values207_bn_cuda.py"]
CTC_NEW = ["tests/kernels/test_values207_ctc_mdn_cuda.py"]
MDN_NEW = ["tests/kernels/test_values207_ctc_mdn_cuda.py"]

MUTANTS = [
    # ---- batchnorm_cuda: host running statistics, backward's sums, the wrapper's outputs, the lanes' rows ----
    dict(name="v207-bn-running-var-not-written-back", file=BN,
         old="        write_back(((rm, rm_host), (rv, rv_host)))",
         new="        write_back(((rm, rm_host),))",
         tests=BN_NEW + BN_OLD,
         why="bn_forward copies only the running mean back into a host array: a host running_var keeps its old "
             "values while the CPU twin updates it in place"),
    dict(name="v207-bn-backward-sums-swapped", file=BN,
         old="    s1, s2 = tot[0, tx], tot[1, tx]",
         new="    s1, s2 = tot[1, tx], tot[0, tx]",
         tests=BN_NEW + BN_OLD,
         why="col_backward reads the lanes' sum of dy xhat as the sum of dy and back: dx and both partials wrong"),
    dict(name="v207-bn-backward-gain-bias-swapped", file=BN,
         old="    return dx, colsum(pgain), colsum(pbias)",
         new="    return dx, colsum(pbias), colsum(pgain)",
         tests=BN_NEW + BN_OLD,
         why="bn_backward returns dbias where dgain belongs and back"),
    dict(name="v207-bn-stats-skip-the-last-row", file=BN,
         old="    if valid:\n        for b in range(ty, B, cuda.blockDim.y):\n            if t < lengths[b]:\n"
             "                s += x2[b, k]",
         new="    if valid:\n        for b in range(ty, B - 1, cuda.blockDim.y):\n            if t < lengths[b]:\n"
             "                s += x2[b, k]",
         tests=BN_NEW + BN_OLD,
         why="an off-by-one in the lanes' stride over the batch: the last row never counts in the step's mean "
             "(nor in its count)"),
    dict(name="v207-bn-device-lengths-t-and-b-swapped", file=BN,
         old="    return to_device(as_lengths(lengths, T, B))",
         new="    return to_device(as_lengths(lengths, B, T))",
         tests=BN_NEW + BN_OLD,
         why="device_lengths passes B and T the wrong way round: host lengths are checked against (T,) and "
             "lengths=None becomes T rows of B steps"),
    # ---- ctc_cuda: log-add-exp with -inf, the normalization, the last step, the row's dloss ----
    dict(name="v207-ctc-lse-of-minus-inf-returns-minus-inf", file=CTC,
         old="        if b == ninf:\n            return a",
         new="        if b == ninf:\n            return b",
         tests=CTC_NEW + CTC_OLD,
         why="log(exp(a) + exp(-inf)) returns -inf instead of a: a path through a position next to one made "
             "unreachable by a -inf logit is lost"),
    dict(name="v207-ctc-logp-shifted-by-the-max-only", file=CTC,
         old="                    logp[t, b, c] = logits[t, b, c] - lz",
         new="                    logp[t, b, c] = logits[t, b, c] - m",
         tests=CTC_NEW + CTC_OLD,
         why="log-softmax subtracts the max but not the log of the sum: the log-probabilities are not "
             "normalized"),
    dict(name="v207-ctc-alpha-stops-a-step-early", file=CTC,
         old="            for t in range(1, Tb):",
         new="            for t in range(1, Tb - 1):",
         tests=CTC_NEW + CTC_OLD,
         why="the alpha recursion stops before the row's last step: its final alphas stay -inf"),
    dict(name="v207-ctc-every-row-takes-row-0s-dloss", file=CTC,
         old="logz[b], dloss[b]",
         new="logz[b], dloss[0]",
         tests=CTC_NEW + CTC_OLD,
         why="the backward scales every row's gradient by the first row's dloss"),
    dict(name="v207-ctc-gradient-skips-the-last-step", file=CTC,
         old="            for t in range(tid, Tb, nt):\n                for c in range(C):\n                    d[t",
         new="            for t in range(tid, Tb - 1, nt):\n                for c in range(C):\n                    d[t",
         tests=CTC_NEW + CTC_OLD,
         why="the gradient loop stops a step short: the row's last step keeps a zero gradient"),
    # ---- mdn_cuda: the end-of-stroke probability, rho's column, pi's normalization, backward's z1/z2 ----
    dict(name="v207-mdn-eos-sigmoid-sign", file=MDN,
         old="            e[n] = one / (one + math.exp(-yh[0]))",
         new="            e[n] = one / (one + math.exp(yh[0]))",
         tests=MDN_NEW + MDN_OLD,
         why="the end-of-stroke probability is sigmoid(-yhat0): the loss (taken by softplus) is right, its "
             "gradient is not"),
    dict(name="v207-mdn-rho-from-the-sigma2-column", file=MDN,
         old="                rho = rmax * math.tanh(yh[1 + 5 * M + k])",
         new="                rho = rmax * math.tanh(yh[1 + 4 * M + k])",
         tests=MDN_NEW + MDN_OLD,
         why="the forward reads the correlation from the log sigma2 block (one block early)"),
    dict(name="v207-mdn-pi-not-normalized", file=MDN,
         old="                pi[n, k] = math.exp(yh[1 + k] - lse_pi)",
         new="                pi[n, k] = math.exp(yh[1 + k] - pmax)",
         tests=MDN_NEW + MDN_OLD,
         why="the saved mixture weights are shifted by the max only, not normalized: the gradient of the pi "
             "logits is wrong (the loss, which uses lse_pi, is not)"),
    dict(name="v207-mdn-backward-z1-z2-swapped", file=MDN,
         old="                gk, a, b = gamma[n, k], z1[n, k], z2[n, k]",
         new="                gk, a, b = gamma[n, k], z2[n, k], z1[n, k]",
         tests=MDN_NEW + MDN_OLD,
         why="the backward reads the saved standardized offsets the wrong way round"),
]
