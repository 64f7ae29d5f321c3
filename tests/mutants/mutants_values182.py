"""Planted bugs, round 182 (format: tests/mutants/mutants.py): single-line slips on lines of the CUDA norms, losses
and mixture density kernels that no earlier round mutates: BatchNorm's mean and variance divided by every row of
the batch instead of the rows running at the step, eps added to the standard deviation, the backward's gain left
at 1 and the gain's partial taking the bias's sum, batchnorm_forward_train not passing the lengths, load_lengths
refusing only a longer array; LayerNorm's variance over F - 1 and its backward's second sum not divided by F;
softmax_xent leaving a -1-labelled row's loss unwritten, squared_error's scale and tolerance swapped,
clip_and_scale's row taken by the wrong axis, ctc_rows' edit distance table one short in column 0; the mixture
density's y offset scaled by sigma1 and its log-sum-exp dropping the shift.

14 mutants. Against the existing targeted tests alone 9 were caught and 5 missed: batchnorm_forward_train without
the lengths (the old files call bn_forward, never the wrapper), load_lengths letting a shorter array
through (no old file calls it), the unwritten loss of a row labelled -1 (no old check saw a stale
value there), clip_and_scale by the wrong axis (not called by these old tests) and the edit distance's column 0 (no
old row's distance runs through column 0). Measured on the two or three most direct old files per module
(test_cuda_kernels.py, which also covers both norms, was left off the lists: one mutant's run of it took over four
minutes). The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values182_norms_cuda (batchnorm_forward_train and batchnorm_backward through the wrappers against
reference.py, with lengths 3 0 2 1 3, a row without steps set far off, eps 0.5 and gains away from 1, step 1's
statistics by hand; load_lengths clamping to T against np.minimum and its refusal sentence; LayerNorm on rows of
11 features over blocks of 8 threads against reference.py), test_values182_losses_mdn_cuda (softmax_xent,
squared_error and clip_and_scale against NumPy definitions, with buffers started as NaN, scale and tolerance far
apart and a 5 x 3 d; ctc_rows against the memoized Levenshtein recursion with an all-blank best path; mdn_forward
against reference.mdn_nll and mdn_backward against central differences of it, with a padded point, a far point
and a point of very different sigmas).

Dropped as equivalent: the cross-entropy's safe label taken as the label on rows that are off (their gradient is
scaled by 0 and their loss written 0 either way); BatchNorm's mean and rstd written by every lane instead of lane
0 (all lanes hold the same values); the mixture's pi shifted by another constant than its maximum (the shift
cancels); _grid's ceiling dropped (the grid-stride loop still covers every row); ctc_rows' first "before" class
0 instead of -1 (class 0 is the blank, never emitted).

    python tests/mutants/run.py --only 'v182-*'
"""
BN = "lnrnn/kernels/batchnorm_cuda.py"
LN = "lnrnn/kernels/layernorm_cuda.py"
LOSS = "lnrnn/kernels/losses_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"

# existing tests of these modules
BN_OLD = ["tests/kernels/test_values75_batchnorm_cuda.py", "tests/kernels/test_values97_bn_cuda.py"]
LN_OLD = ["tests/kernels/test_values30_layernorm_cuda.py", "tests/kernels/test_values158_layernorm_cuda.py"]
LOSS_OLD = ["tests/kernels/test_values159_losses_cuda.py", "tests/kernels/test_values22_losses_cuda.py",
            "tests/kernels/test_values9_losses_cuda.py"]
MDN_OLD = ["tests/kernels/test_values159_mdn_cuda.py", "tests/kernels/test_values22_mdn_cuda.py",
           "tests/kernels/test_mdn.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
NORM_NEW = ["tests/kernels/test_values182_norms_cuda.py"]
LOSS_NEW = ["tests/kernels/test_values182_losses_mdn_cuda.py"]

MUTANTS = [
    # ---- batchnorm_cuda: statistics over the valid rows, rstd, backward's gain and partial sums, the wrappers ----
    dict(name="v182-bn-mean-over-all-rows", file=BN,
         old="    inv_n = one / max(n, one)\n",
         new="    inv_n = one / max(B, 1)\n",
         tests=NORM_NEW + BN_OLD,
         why="the step's mean and variance divide by every row of the batch, padded ones included, instead of the "
             "rows that run at this step"),
    dict(name="v182-bn-eps-outside-the-root", file=BN,
         old="    return m, one / math.sqrt(var + eps)",
         new="    return m, one / (math.sqrt(var) + eps)",
         tests=NORM_NEW + BN_OLD,
         why="training rstd adds eps to the standard deviation instead of the variance"),
    dict(name="v182-bn-backward-unit-gain", file=BN,
         old="        m, rs, g = mean[st, k], rstd[st, k], gain[k]",
         new="        m, rs, g = mean[st, k], rstd[st, k], one",
         tests=NORM_NEW + BN_OLD,
         why="the backward kernel reads the saved statistics but leaves the gain at 1: dx is not scaled by gain"),
    dict(name="v182-bn-pgain-takes-the-bias-sum", file=BN,
         old="            pgain[st, k] = s2",
         new="            pgain[st, k] = s1",
         tests=NORM_NEW + BN_OLD,
         why="a copy-paste slip: the gain's per-step partial is the sum of dy (the bias's) instead of dy xhat"),
    dict(name="v182-bn-train-drops-lengths", file=BN,
         old="    return bn_forward(x, gain, bias, running_mean, running_var, True, momentum, eps, lengths)",
         new="    return bn_forward(x, gain, bias, running_mean, running_var, True, momentum, eps)",
         tests=NORM_NEW + BN_OLD,
         why="batchnorm_forward_train forgets to pass the lengths: every padded row counts in the statistics"),
    dict(name="v182-bn-load-lengths-lets-a-short-array-through", file=BN,
         old="    if lengths.shape != dst.shape:",
         new="    if lengths.shape[0] > dst.shape[0]:",
         tests=NORM_NEW + BN_OLD,
         why="load_lengths refuses only longer lengths: a shorter array reaches the kernel, which reads past its "
             "end, instead of the one-sentence refusal"),
    # ---- layernorm_cuda: the variance's divisor, backward's second sum ----
    dict(name="v182-ln-unbiased-variance", file=LN,
         old="    v = block_sum(sh, s) * inv_f",
         new="    v = block_sum(sh, s) / (F - 1)",
         tests=NORM_NEW + LN_OLD,
         why="the row's variance divides by F - 1 (the sample variance) instead of F"),
    dict(name="v182-ln-backward-s2-not-averaged", file=LN,
         old="        s2 = block_sum(sh, s2) * inv_f",
         new="        s2 = block_sum(sh, s2)",
         tests=NORM_NEW + LN_OLD,
         why="backward's sum of dy g xhat is not divided by F: dx's xhat term is F times too large"),
    # ---- losses_cuda: a masked-off row's loss, swapped launch arguments, clip's row index, CTC's first column ----
    dict(name="v182-xent-unlabelled-row-keeps-its-loss", file=LOSS,
         old="            if not on:\n                rows[r, 0] = 0.0",
         new="            if not on and lab >= 0:\n                rows[r, 0] = 0.0",
         tests=LOSS_NEW + LOSS_OLD,
         why="a row labelled -1 (on = False) never writes its loss: rows keeps whatever the buffer held"),
    dict(name="v182-sqerr-scale-and-tolerance-swapped", file=LOSS,
         old="t(scale), t(tolerance), d, rows)",
         new="t(tolerance), t(scale), d, rows)",
         tests=LOSS_NEW + LOSS_OLD,
         why="squared_error passes tolerance as the gradient's scale and scale as the tolerance"),
    dict(name="v182-clip-scale-row-by-the-wrong-axis", file=LOSS,
         old="            r = q // d.shape[1]",
         new="            r = q // d.shape[0]",
         tests=LOSS_NEW + LOSS_OLD,
         why="clip_scale splits the flat index by the row count instead of the row width: on a non-square d "
             "some entries are scaled twice or never, or the index runs past the end"),
    dict(name="v182-ctc-rows-first-column-one-short", file=LOSS,
         old="                dist[r, a, 0] = i",
         new="                dist[r, a, 0] = i - 1",
         tests=LOSS_NEW + LOSS_OLD,
         why="the edit distance table's column 0 (i labels against an empty transcription) counts i - 1 edits"),
    # ---- mdn_cuda: the second coordinate's scale, the log-sum-exp's shift ----
    dict(name="v182-mdn-z2-scaled-by-sigma1", file=MDN,
         old="                b = (tg[1] - yh[1 + 2 * M + k]) * math.exp(-ls2)",
         new="                b = (tg[1] - yh[1 + 2 * M + k]) * math.exp(-ls1)",
         tests=LOSS_NEW + MDN_OLD,
         why="a copy-paste slip: the y offset is divided by sigma1 instead of sigma2"),
    dict(name="v182-mdn-lse-drops-the-shift", file=MDN,
         old="            lse = lmax + math.log(s)",
         new="            lse = math.log(s)",
         tests=LOSS_NEW + MDN_OLD,
         why="the mixture's log-sum-exp forgets to add back the maximum it shifted by: nll and gamma are off by "
             "lmax (zero only when the best component's log density is exactly 0)"),
]
