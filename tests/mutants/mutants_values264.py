"""Planted bugs, round 264 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CUDA twins of the losses, heads and optimizers run under Numba's simulator (lnrnn/kernels/ctc_cuda.py,
mdn_cuda.py, losses_cuda.py, optim_cuda.py), twelfth pass: the CTC recursion never started for a row of one step;
alpha emitting the step before's log-probability; log p read one step early; the mixture density's first offset
scaled by the second sigma; the gradient of mu1 taking an unclipped log-sigma below the clip; the correlation's
1 / (1 - rho^2) made from tanh instead of rho; the classifier's log-softmax without the bias; clip_and_scale's
column taken modulo the row count; the clip computed and not applied; the best path's edit distance read from a
column never filled; SGD stepping with the raw gradient instead of the velocity; Adam's first moment decayed by
beta2; Adam's eps without its bias correction; the norm's partials striding by thread index.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values264_ctc_mdn_cuda (CTC at T = 4, B = 3,
C = 4 over rows of 4, 1 and 0 steps against lnrnn/reference.py's NumPy CTC, loss, log p and gradient, zero past
each row's steps; the mixture density at M = 2 with log-sigmas at -10 / 10 and just past them, the loss against
reference.mdn_nll and the gradient against the CPU twin), test_values264_losses_optim_cuda (softmax
cross-entropy with a bias that moves the prediction, a label of -1 and a masked row, by definition; clip_and_scale
of a (3, 7) gradient at the bound and 2^-40 past it against np.clip; ctc_rows against decode.best_path_array and
the Levenshtein table; SGD with momentum and Adam at updates 1 and 2 written out with the bias corrections;
clip_grad_norm at a norm of exactly 6 over 11 entries in two blocks, kept at the limit 6 and scaled just below it).
Every new file runs in a few seconds with -n 0.

Left out as equivalent: ctc_cuda's ext reading labels[b, (s - 1) // 2] (s is odd there); the posterior test
q != -inf made q > -inf; the block count of either CTC kernel or of mdn_cuda's grid changed (every loop strides over
the grid, so any positive count covers every row); the alpha buffer's fill value (every position a row reads is
written first); xent's `c == safe` made `c == lab` (a row not scored has g = 0 and its loss written 0 after); clip
`v > bound` made `>=` (v = bound either way); optim's `denom = s + eps` read back from sq[i] (just stored);
scale_kernel's `s != 1` test dropped (a product by 1 is exact). Left out as a change only past float64's range: the
log-softmax's maximum taken over fewer classes (shift-invariant unless exp overflows). Left out as flaky: the CTC
gradient's zero fill dropped (empty device memory may already be zero).

    python tests/mutants/run.py --only 'v264-*'
"""
CTC = "lnrnn/kernels/ctc_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"
LOSSES = "lnrnn/kernels/losses_cuda.py"
OPTIM = "lnrnn/kernels/optim_cuda.py"

T_CM = "tests/kernels/test_values264_ctc_mdn_cuda.py::"
T_LO = "tests/kernels/test_values264_losses_optim_cuda.py::"
OLD_CTC = ["tests/kernels/test_ctc_cuda.py", "tests/kernels/test_values207_ctc_mdn_cuda.py"]
OLD_MDN = ["tests/kernels/test_values159_mdn_cuda.py", "tests/kernels/test_values207_ctc_mdn_cuda.py"]
OLD_LOSSES = ["tests/kernels/test_values97_heads_cuda.py", "tests/kernels/test_values22_losses_cuda.py"]
OLD_OPTIM = ["tests/kernels/test_values159_optim_cuda.py", "tests/kernels/test_values75_optim_cuda.py"]

MUTANTS = [
    # ---- CTC: lnrnn/kernels/ctc_cuda.py ----
    dict(name="v264-ctc-start-needs-two-steps", file=CTC,
         old="            if Tb > 0:\n                for s in range(tid, Sb, nt):",
         new="            if Tb > 1:\n                for s in range(tid, Sb, nt):",
         tests=[T_CM + "test_ctc_loss_at_lengths_t_one_and_zero_equals_the_reference",
                T_CM + "test_ctc_gradient_at_lengths_t_one_and_zero_equals_the_reference"] + OLD_CTC,
         why="alpha's first step is written only for rows of two steps or more: a row of one step has p = 0, "
             "loss 0 and no gradient"),
    dict(name="v264-ctc-alpha-emits-step-before", file=CTC,
         old="                    alpha[b, t, s] = a + logp[t, b, ext(labels, b, s)]",
         new="                    alpha[b, t, s] = a + logp[t - 1, b, ext(labels, b, s)]",
         tests=[T_CM + "test_ctc_loss_at_lengths_t_one_and_zero_equals_the_reference",
                T_CM + "test_ctc_gradient_at_lengths_t_one_and_zero_equals_the_reference"] + OLD_CTC,
         why="each step of the recursion emits the step before's log-probability: the loss of every row of two "
             "steps or more is wrong"),
    dict(name="v264-ctc-logz-one-step-early", file=CTC,
         old="                    lp = alpha[b, Tb - 1, Sb - 1]",
         new="                    lp = alpha[b, Tb - 2, Sb - 1]",
         tests=[T_CM + "test_ctc_loss_at_lengths_t_one_and_zero_equals_the_reference",
                T_CM + "test_ctc_gradient_at_lengths_t_one_and_zero_equals_the_reference"] + OLD_CTC,
         why="log p takes the last position one step before the row's end (and the one before it at the end)"),
    # ---- mixture density: lnrnn/kernels/mdn_cuda.py ----
    dict(name="v264-mdn-offset1-scaled-by-sigma2", file=MDN,
         old="                a = (tg[0] - yh[1 + M + k]) * math.exp(-ls1)",
         new="                a = (tg[0] - yh[1 + M + k]) * math.exp(-ls2)",
         tests=[T_CM + "test_mdn_loss_at_and_past_the_log_sigma_clip_equals_the_spec",
                T_CM + "test_mdn_gradient_at_and_past_the_log_sigma_clip_equals_the_cpu_twin"] + OLD_MDN,
         why="the first coordinate's standardized offset divides by the second coordinate's sigma"),
    dict(name="v264-mdn-dmu1-unclipped-below", file=MDN,
         old="d[n, 1 + M + k] = -g * gk * C * (a - rho * b) * math.exp(-min(max(sh1, -smax), smax))",
         new="d[n, 1 + M + k] = -g * gk * C * (a - rho * b) * math.exp(-min(sh1, smax))",
         tests=[T_CM + "test_mdn_gradient_at_and_past_the_log_sigma_clip_equals_the_cpu_twin"] + OLD_MDN,
         why="dL/dmu1 divides by the raw sigma below the clip: a log-sigma past -SMAX gets a gradient e^(0.25) "
             "too large for every 0.25 past"),
    dict(name="v264-mdn-backward-c-from-tanh", file=MDN,
         old="                C = one / (one - rho * rho)",
         new="                C = one / (one - th * th)",
         tests=[T_CM + "test_mdn_gradient_at_and_past_the_log_sigma_clip_equals_the_cpu_twin"] + OLD_MDN,
         why="the backward's 1 / (1 - rho^2) uses tanh before the RHO scale: every mean's and log-sigma's "
             "gradient is off where rho is not 0"),
    # ---- heads: lnrnn/kernels/losses_cuda.py ----
    dict(name="v264-losses-xent-logp-without-bias", file=LOSSES,
         old="                logp = ((hw[r, c] + b[c]) - zmax) - lse",
         new="                logp = (hw[r, c] - zmax) - lse",
         tests=[T_LO + "test_softmax_xent_with_bias_label_minus_one_and_mask_by_definition"] + OLD_LOSSES,
         why="the log-probabilities (loss and gradient) leave out the bias the maximum and the sum took"),
    dict(name="v264-losses-clip-column-mod-rows", file=LOSSES,
         old="            o = q - r * d.shape[1]",
         new="            o = q - r * d.shape[0]",
         tests=[T_LO + "test_clip_and_scale_at_and_just_past_the_bound"] + OLD_LOSSES,
         why="clip_and_scale's column strides by the row count: on a gradient that is not square, entries are "
             "clipped twice or not at all"),
    dict(name="v264-losses-clip-not-applied", file=LOSSES,
         old="            d[r, o] = v * scale",
         new="            d[r, o] = d[r, o] * scale",
         tests=[T_LO + "test_clip_and_scale_at_and_just_past_the_bound"] + OLD_LOSSES,
         why="the clipped value is computed and thrown away: --clip-output only scales"),
    dict(name="v264-losses-ctc-distance-last-column-skipped", file=LOSSES,
         old="                for j in range(1, n + 1):",
         new="                for j in range(1, n):",
         tests=[T_LO + "test_ctc_rows_best_path_distance_over_lengths_t_one_and_zero"] + OLD_LOSSES,
         why="the Levenshtein table's last column is never filled: the edit distance read there is the first "
             "row's n (or a stale value)"),
    # ---- optimizers: lnrnn/kernels/optim_cuda.py ----
    dict(name="v264-optim-sgd-steps-raw-gradient", file=OPTIM,
         old="                gi = vi\n            p[i] = p[i] - lr * gi",
         new="                gi = vi\n            p[i] = p[i] - lr * g[i]",
         tests=[T_LO + "test_sgd_momentum_at_updates_one_and_two"] + OLD_OPTIM,
         why="SGD keeps the velocity and steps with the raw gradient: equal at update 1 (v = g), wrong from 2"),
    dict(name="v264-optim-adam-m-decayed-by-beta2", file=OPTIM,
         old="            mi = m[i] * beta1",
         new="            mi = m[i] * beta2",
         tests=[T_LO + "test_adam_at_updates_one_and_two_with_bias_corrections"] + OLD_OPTIM,
         why="Adam's first moment decays at beta2: no difference at update 1 (m = 0), wrong from 2"),
    dict(name="v264-optim-adam-eps-uncorrected", file=OPTIM,
         old="                      dt(eps_hat))",
         new="                      dt(eps))",
         tests=[T_LO + "test_adam_at_updates_one_and_two_with_bias_corrections"] + OLD_OPTIM,
         why="Adam's eps is added to sqrt(v) unscaled: eps applies to the biased v, not the bias-corrected one"),
    dict(name="v264-optim-norm-partials-stride-from-thread", file=OPTIM,
         old="        for i in range(cuda.grid(1), g.shape[0], cuda.gridsize(1)):\n            gi = float64(g[i])",
         new="        for i in range(cuda.threadIdx.x, g.shape[0], cuda.gridsize(1)):\n            gi = float64(g[i])",
         tests=[T_LO + "test_clip_grad_norm_at_the_limit_keeps_and_just_below_scales"] + OLD_OPTIM,
         why="every block sums the first block's slice of g^2: with two blocks some entries count twice, others "
             "never, and the norm and the clipping are wrong"),
]
