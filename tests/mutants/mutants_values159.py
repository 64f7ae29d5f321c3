"""Planted bugs, round 159 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of CTC, the
heads' objectives, the mixture density output and the optimizers, on lines no earlier round mutates: CTC's
log-softmax shifted from 0 instead of the step's first logit, a row of one step scored as a row without steps,
each position's posterior assigned to the class's gradient instead of subtracted from it; the classifier's
running maximum started from class 0's logit without its bias, the regression row's loss a mean over the
outputs, add_bias splitting the flat index by the batch, the device best path keeping the previous class
through a blank, the edit distance's table one column short; the MDN's stable softplus without the absolute
value, log-sigma 1's derivative kept on the clip's edges; Adam's second moment fed with 1 - beta1,
rmsprop_momentum_update's momentum and eps swapped, SGD with momentum 0 running the momentum branch, clipping
with no limit (None) failing.

14 mutants. Against the existing targeted tests alone 5 were caught and 9 missed: CTC's log-softmax shifted from 0
and the one-step row (no old row runs far from 0 or over a single step), the classifier's maximum without class 0's
bias (no old bias lifts class 0 over the next), add_bias by the batch (the old heads' shapes never reach past the
bias), the best path through a blank and the short distance table (no old row reads 1 _ 1 or emits a label at every
step), log-sigma 1's derivative on the clip's edge (old rows pass the edges, never sit on them), SGD with momentum
0 and clipping without a limit (never called so). The new value tests catch every mutant on their own (checked with
the old tests taken off the lists): test_values159_ctc_cuda (loss and gradient against the sum over every one of
the C^Tb paths, collapsed by hand, for rows of an empty label, a repeated label over 2L+1 steps, one class over one
step, two labels over exactly L steps, and rows shifted by -800 and +800; and the CPU twin),
test_values159_losses_cuda (cross-entropy, squared error, add_bias and the CTC rows of masked rows, B != O, against
their definitions in NumPy and the Levenshtein recursion), test_values159_mdn_cuda (the NumPy spec, its central
differences and the CPU twin, with a padded row, a far point and a log-sigma exactly on the clip's edges),
test_values159_optim_cuda (four clipped updates of every rule against the CPU twin and the rules written out, P =
13 over blocks of 4). Dropped before the catalogue as equivalent: ext's label index as (s - 1) // 2 (equal for the
odd s that read a label); the best path's previous class starting at 0 instead of -1 (0 is the blank, dropped
anyway); xent's safe index left at the label on rows not scored (their d is multiplied by 0 and their row written
0); the launch grids sized by another count (every kernel strides over its rows); the clip's `v > bound` as `>=`;
scale_kernel's `s != 1` as `s < 1` (the factor never exceeds 1); alpha filled with 0 instead of -inf (no read
outside the rows' bands). Left out: rho without RHO (1 - 1e-4: too close to 1 for a float64 test to separate from
rounding on most rows) and the scratch buffers left unfilled (what the simulator's fresh memory holds decides, not
the code).

    python tests/mutants/run.py --only 'v159-*'
"""
CTC = "lnrnn/kernels/ctc_cuda.py"
LOSSES = "lnrnn/kernels/losses_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"
OPTIM = "lnrnn/kernels/optim_cuda.py"

# existing tests of these modules
CTC_OLD = ["tests/kernels/test_ctc_cuda.py", "tests/kernels/test_values75_ctc_cuda.py"]
LOSSES_OLD = ["tests/kernels/test_values9_losses_cuda.py", "tests/kernels/test_values22_losses_cuda.py",
              "tests/kernels/test_values97_heads_cuda.py", "tests/kernels/test_values66_rows_cuda.py"]
MDN_OLD = ["tests/kernels/test_values22_mdn_cuda.py", "tests/kernels/test_mdn.py",
           "tests/kernels/test_cuda_bounds.py"]
OPTIM_OLD = ["tests/kernels/test_values30_optim_cuda.py", "tests/kernels/test_values75_optim_cuda.py",
             "tests/kernels/test_values97_optim_ln_cuda.py", "tests/kernels/test_values115_heads_optim_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CTC_NEW = ["tests/kernels/test_values159_ctc_cuda.py"]
LOSSES_NEW = ["tests/kernels/test_values159_losses_cuda.py"]
MDN_NEW = ["tests/kernels/test_values159_mdn_cuda.py"]
OPTIM_NEW = ["tests/kernels/test_values159_optim_cuda.py"]

MUTANTS = [
    # ---- CTC ----
    dict(name="v159-ctc-cuda-softmax-max-from-zero", file=CTC,
         old="                m = logits[t, b, 0]\n",
         new="                m = zero\n",
         tests=CTC_NEW + CTC_OLD,
         why="the log-softmax's shift starts from 0 instead of the step's first logit: logits far below 0 "
             "underflow every exp to 0 (log 0), far above 0 overflow"),
    dict(name="v159-ctc-cuda-one-step-row-as-empty", file=CTC,
         old="                if Tb == 0:\n                    lp = zero",
         new="                if Tb <= 1:\n                    lp = zero",
         tests=CTC_NEW + CTC_OLD,
         why="a row of one step is scored as a row without steps: p 1 for an empty label, 0 (loss 0, no "
             "gradient) for a label of one class"),
    dict(name="v159-ctc-cuda-posterior-assigned-not-accumulated", file=CTC,
         old="                        d[t, b, k] = d[t, b, k] - g * math.exp(q - lz)\n",
         new="                        d[t, b, k] = g * math.exp(logp[t, b, k]) - g * math.exp(q - lz)\n",
         tests=CTC_NEW + CTC_OLD,
         why="each position's posterior replaces the class's gradient instead of being subtracted from it: a "
             "class at several positions (the blanks, a repeated label) keeps only the last one's"),
    # ---- classifier, regression and CTC rows ----
    dict(name="v159-losses-cuda-xent-argmax-start-without-bias", file=LOSSES,
         old="            zmax = hw[r, 0] + b[0]\n",
         new="            zmax = hw[r, 0]\n",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the running maximum starts from class 0's logit without its bias: a class between the two "
             "values is taken for the prediction (the loss, shifted by the same zmax, is unchanged)"),
    dict(name="v159-losses-cuda-sqerr-row-mean", file=LOSSES,
         old="            rows[r, 0] = s\n",
         new="            rows[r, 0] = s / O\n",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the regression row's loss is the mean over the outputs where the host head sums them"),
    dict(name="v159-losses-cuda-bias-row-by-batch", file=LOSSES,
         old="            r = q // O\n",
         new="            r = q // B\n",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="add_bias splits the flat index by the batch instead of the outputs: wrong elements, or past "
             "the bias, unless B == O"),
    dict(name="v159-losses-cuda-ctc-repeat-kept-through-blank", file=LOSSES,
         old="                before = best\n",
         new="                    before = best\n",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the best path's previous class is updated only on an emission: a blank between two equal "
             "labels no longer separates them (1 _ 1 reads as 1)"),
    dict(name="v159-losses-cuda-ctc-dist-table-one-short", file=LOSSES,
         old="empty((B, 2, T + 1), np.int64)",
         new="empty((B, 2, T), np.int64)",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the edit distance's table rows hold T columns, not T + 1: a transcription of T labels (a new "
             "class at every step) writes past them"),
    # ---- mixture density ----
    dict(name="v159-mdn-cuda-softplus-without-abs", file=MDN,
         old="math.log1p(math.exp(-abs(eh)))",
         new="math.log1p(math.exp(-eh))",
         tests=MDN_NEW + MDN_OLD,
         why="the stable softplus's log1p(exp(-|x|)) written with -x: wrong for every negative end-of-stroke "
             "logit"),
    dict(name="v159-mdn-cuda-sigma1-grad-at-clip-edge", file=MDN,
         old="if -smax < sh1 < smax else zero",
         new="if -smax <= sh1 <= smax else zero",
         tests=MDN_NEW + MDN_OLD,
         why="a log-sigma exactly at the clip's edge gets the inner derivative where the CPU twin (and the "
             "clip's subgradient it chose) gives 0"),
    # ---- optimizers ----
    dict(name="v159-optim-cuda-adam-v-with-beta1", file=OPTIM,
         old="            vi = vi + one_m_beta2 * gi * gi\n",
         new="            vi = vi + one_m_beta1 * gi * gi\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="Adam's second moment is fed with 1 - beta1 instead of 1 - beta2"),
    dict(name="v159-optim-cuda-rmsprop-momentum-eps-swapped", file=OPTIM,
         old="dt(momentum), dt(eps), centred)",
         new="dt(eps), dt(momentum), centred)",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="rmsprop_momentum_update passes eps as the momentum and the momentum as eps"),
    dict(name="v159-optim-cuda-sgd-momentum-zero-uses-v", file=OPTIM,
         old="    use = bool(momentum)\n",
         new="    use = momentum is not None\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="SGD with momentum 0 still runs the momentum branch: it writes g into v (the CPU twin leaves v "
             "alone) and fails where no v buffer is given"),
    dict(name="v159-optim-cuda-clip-none-max-norm", file=OPTIM,
         old="float(max_norm or 0.0)",
         new="float(max_norm)",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="clip_grad_norm with max_norm None (no clipping, as the CPU twin allows) fails instead of only "
             "measuring the norm"),
]
