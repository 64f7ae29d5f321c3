"""Planted bugs in the run's stop rules, the output-file checks, ``lnrnn data``, the learning curves, the
run's start line, the optimizers' defaults, the built-in tasks and IAM-OnDB, the gradient check's
sampling, the beam search's width, the BLAS thread scope, prewarm, BatchNorm's running statistics, the
layer functions, the kernels' chunks, the device's update and losses, and predict's input checks (format:
tests/mutants/mutants.py). Each is a single-line slip of a kind that happens: a bound one step off, a
swapped pair, a wrong default, a missing term, a rounding choice, a forgotten case.

Written and dropped as equivalent: ``functional.grown`` copying statistics that already have exactly T rows
(``v.shape[0] > T`` for ``>=``). Every caller (RecurrentLayer._grow_buffers, the PyTorch and JAX bindings,
grow_buffers) stores the result in place of the old array before a kernel reads it, so the training
forward updates the stored copy: no output, gradient or statistic differs.

    python tests/mutants/run.py --only 'v9-*'
"""

POLICIES = "tests/training/test_values_train_policies.py"
PARTS = "tests/training/test_stopping_recorder_parts.py"
OUTPATHS = "tests/commands/test_values_output_paths.py"
OUTCHECKS = "tests/commands/test_values_output_checks.py"
DATACMD = "tests/commands/test_values_data.py"
PLOT = "tests/training/test_values_plot.py"
SETUP = "tests/training/test_values_setup.py"
OPTIM = "tests/training/test_optim.py"
OPTIM_V = "tests/training/test_values_optim.py"
TASKS = "tests/data/test_values_tasks.py"
DATA = "tests/data/test_data.py"
IAM = "tests/data/test_values_iamondb.py"
GRADCHECK = "tests/test_values_gradcheck.py"
BEAM = "tests/model/test_beam.py"
SCOPE = "tests/test_threads_scope.py"
PREWARM = "tests/training/test_prewarm.py"
BN = "tests/kernels/test_batchnorm.py"
FUNC = "tests/model/test_functional.py"
LAYERS = "tests/model/test_layers.py"
THREADS = "tests/kernels/test_threads.py"
DEVICE = "tests/training/test_device_update.py"
PIO = "tests/test_values_predict_io.py"
# value tests written for the bugs below that the tests above let through
STOP_T = "tests/training/test_values9_stopping.py"
FILES_T = "tests/commands/test_values9_output_files.py"
DATA_T = "tests/commands/test_values9_data.py"
SETUP_T = "tests/training/test_values9_setup.py"
TASKS_T = "tests/data/test_values9_tasks.py"
IAM_T = "tests/data/test_values9_iamondb.py"
LAYERS_T = "tests/model/test_values9_layers.py"
THREADS_T = "tests/kernels/test_values9_threads.py"
LOSSES_T = "tests/kernels/test_values9_losses_cuda.py"
PIO_T = "tests/test_values9_predict_io.py"

STOPPY = "lnrnn/training/stopping.py"
FILESPY = "lnrnn/files.py"
DATAPY = "lnrnn/commands/data.py"
PLOTPY = "lnrnn/training/plot.py"
SETUPPY = "lnrnn/training/setup.py"
OPTIMPY = "lnrnn/training/optim.py"
TASKSPY = "lnrnn/data/tasks.py"
IAMPY = "lnrnn/data/iamondb.py"
GRADPY = "lnrnn/gradcheck.py"
BEAMPY = "lnrnn/model/beam.py"
SCOPEPY = "lnrnn/threadscope.py"
PREWARMPY = "lnrnn/training/prewarm.py"
BNPY = "lnrnn/kernels/batchnorm.py"
FUNCPY = "lnrnn/model/functional.py"
LAYERSPY = "lnrnn/model/layers.py"
THREADSPY = "lnrnn/kernels/cpu/threads.py"
OPTCUDA = "lnrnn/kernels/optim_cuda.py"
LOSSCUDA = "lnrnn/kernels/losses_cuda.py"
PIOPY = "lnrnn/predict_io.py"

MUTANTS = [
    # ---- lnrnn/training/stopping.py ----
    dict(name="v9-stop-blowup-at-the-level", file=STOPPY,
         old="t.initial_loss > 0 and loss > level else 0",
         new="t.initial_loss > 0 and loss >= level else 0",
         tests=[POLICIES],
         why="a loss of exactly BLOWUP_FACTOR times the first one counts toward the blow-up streak"),
    dict(name="v9-stop-reached-budget-keeps-its-seconds", file=STOPPY,
         old='"used_s": 0.0 if t.reached == "time_budget" else round(self.budget_seconds(), 3)}',
         new='"used_s": round(self.budget_seconds(), 3)}',
         tests=[POLICIES, PARTS],
         why="a --time-budget the run used up is lifted, but its seconds are still counted for the next resume"),
    dict(name="v9-stop-finished-epochs-not-nothing-left", file=STOPPY,
         old="        if trainer.epoch >= c.epochs:",
         new="        if trainer.epoch > c.epochs:",
         tests=[POLICIES, PARTS, STOP_T],
         why="a resumed run that has finished exactly --epochs epochs is not told that nothing is left"),
    dict(name="v9-stop-voted-signal-swapped", file=STOPPY,
         old="return signal.SIGINT if t.votes[1] > 0 else signal.SIGTERM",
         new="return signal.SIGTERM if t.votes[1] > 0 else signal.SIGINT",
         tests=[POLICIES, PARTS],
         why="a group stopped by another rank's SIGINT says SIGTERM, and the other way round"),
    dict(name="v9-stop-budget-used-exactly-not-over", file=STOPPY,
         old="return c.time_budget is not None and self.budget_seconds() >= c.time_budget",
         new="return c.time_budget is not None and self.budget_seconds() > c.time_budget",
         tests=[POLICIES, PARTS, STOP_T],
         why="a --time-budget used to the second does not stop the run"),
    # ---- lnrnn/files.py ----
    dict(name="v9-files-quota-not-a-space-error", file=FILESPY,
         old="(errno.ENOSPC, errno.EDQUOT, errno.EFBIG)",
         new="(errno.ENOSPC, errno.EFBIG)",
         tests=[OUTPATHS, OUTCHECKS, FILES_T],
         why="a full disk quota (EDQUOT) is not told to free space"),
    dict(name="v9-files-umask-ignored", file=FILESPY,
         old="os.fchmod(fd, 0o666 & ~umask())  # what open() would have given the file",
         new="os.fchmod(fd, 0o666)  # what open() would have given the file",
         tests=[OUTPATHS, OUTCHECKS, FILES_T],
         why="every file lnrnn writes is world-writable whatever the user's umask"),
    dict(name="v9-files-where-inverted", file=FILESPY,
         old='where = "" if probe == os.path.dirname(target) else',
         new='where = "" if probe != os.path.dirname(target) else',
         tests=[OUTPATHS, OUTCHECKS, FILES_T],
         why="a read-only folder above missing ones is named without saying where the file would be created"),
    # ---- lnrnn/commands/data.py ----
    dict(name="v9-cmd-data-download-owner-only", file=DATAPY,
         old="    os.fchmod(fd, 0o666 & ~umask())  # the mode open() would give (mkstemp alone: owner-only)\n",
         new="",
         tests=[DATACMD, DATA_T],
         why="downloaded MNIST files keep mkstemp's owner-only mode"),
    dict(name="v9-cmd-data-test-subset-by-t", file=DATAPY,
         old='"test": [n for n in MNIST if n.startswith("t10k")]',
         new='"test": [n for n in MNIST if n.startswith("t")]',
         tests=[DATACMD, DATA_T],
         why="--subset test also downloads the training pair (train-... starts with t too)"),
    # ---- lnrnn/training/plot.py ----
    dict(name="v9-plot-log-span-inclusive", file=PLOTPY,
         old="max(vals) / min(vals) > LOG_SPAN",
         new="max(vals) / min(vals) >= LOG_SPAN",
         tests=[PLOT],
         why="a loss spanning exactly LOG_SPAN gets a log axis"),
    dict(name="v9-plot-final-note-fraction-as-percent", file=PLOTPY,
         old='value = f"{100 * v:.2f}%" if percent else f"{v:.4f}"',
         new='value = f"{v:.2f}%" if percent else f"{v:.4f}"',
         tests=[PLOT, "tests/commands/test_plot.py"],
         why="the legend's final validation accuracy 0.9 reads 0.90% instead of 90.00%"),
    dict(name="v9-plot-points-unscaled", file=PLOTPY,
         old="pts = [(float(r[x]), float(r[key]) * scale) for r in rows if r.get(key) is not None",
         new="pts = [(float(r[x]), float(r[key])) for r in rows if r.get(key) is not None",
         tests=[PLOT, "tests/commands/test_plot.py"],
         why="accuracy is drawn as a fraction on an axis labelled in percent"),
    # ---- lnrnn/training/setup.py ----
    dict(name="v9-setup-decay-one-named", file=SETUPPY,
         old="if c.lr_decay != 1 else ''}",
         new="if c.lr_decay else ''}",
         tests=[SETUP, SETUP_T],
         why="the start line says 'decay 1/epoch' for a run without decay"),
    dict(name="v9-setup-clip-gates-shows-clip-output", file=SETUPPY,
         old='("clip-gates", c.clip_gates))',
         new='("clip-gates", c.clip_output))',
         tests=[SETUP, SETUP_T],
         why="the start line reports --clip-output's value under --clip-gates"),
    # ---- lnrnn/training/optim.py ----
    dict(name="v9-optim-rmsprop-default-alpha", file=OPTIMPY,
         old="    def __init__(self, lr=1e-3, alpha=0.99, eps=1e-8):",
         new="    def __init__(self, lr=1e-3, alpha=0.9, eps=1e-8):",
         tests=[OPTIM, OPTIM_V],
         why="plain RMSProp's default decay 0.9 instead of 0.99"),
    dict(name="v9-optim-graves-eps", file=OPTIMPY,
         old="class GravesRMSProp(RMSPropMomentum):\n    kind = \"rmsprop-graves\"\n\n"
             "    def __init__(self, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4, centred=True):",
         new="class GravesRMSProp(RMSPropMomentum):\n    kind = \"rmsprop-graves\"\n\n"
             "    def __init__(self, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-8, centred=True):",
         tests=[OPTIM, OPTIM_V],
         why="rmsprop-graves takes eps 1e-8 instead of Graves's 1e-4"),
    # ---- lnrnn/data/tasks.py ----
    dict(name="v9-tasks-split-of-every-sample-refused", file=TASKSPY,
         old="    if a + b > len(x):",
         new="    if a + b >= len(x):",
         tests=[TASKS, DATA],
         why="--split A/B that uses every sample of the pool is refused"),
    dict(name="v9-tasks-adding-second-never-last", file=TASKSPY,
         old="    second = rng.integers(half, T, n)",
         new="    second = rng.integers(half, T - 1, n)",
         tests=[TASKS, DATA],
         why="the adding problem's second marker never falls on the last step"),
    dict(name="v9-tasks-copy-shape-one-block-short", file=TASKSPY,
         old='    T, I = _copy_delay(spec) + 2 * COPY_SYMBOLS, COPY_ALPHABET + 2',
         new='    T, I = _copy_delay(spec) + COPY_SYMBOLS, COPY_ALPHABET + 2',
         tests=[TASKS, DATA, TASKS_T],
         why="the copy task's shape before building has 10 steps fewer than the sequences built"),
    # ---- lnrnn/data/iamondb.py ----
    dict(name="v9-iam-forms-count-lines", file=IAMPY,
         old="    n_forms = len({form_of(p)[0] for p in files})",
         new="    n_forms = len(files)",
         tests=[IAM, "tests/data/test_strokes_data.py"],
         why="the number of forms is the number of lines"),
    dict(name="v9-iam-skipped-counts-unsplit-lines", file=IAMPY,
         old="        skipped = len(files) - len(keep)",
         new="        skipped = len(all_files) - len(keep)",
         tests=[IAM, "tests/data/test_text_strokes.py", IAM_T],
         why="lines outside the official split count as lines skipped for want of a transcription"),
    dict(name="v9-iam-text-not-stripped", file=IAMPY,
         old="        texts.append(lines[k - 1].strip() or None if lines is not None else None)",
         new="        texts.append(lines[k - 1] or None if lines is not None else None)",
         tests=[IAM, "tests/data/test_text_strokes.py", IAM_T],
         why="a CSR line's leading spaces, or a line of spaces, become text"),
    # ---- lnrnn/gradcheck.py ----
    dict(name="v9-gradcheck-sample-with-replacement", file=GRADPY,
         old="rng.choice(arr.size, size=k, replace=False)",
         new="rng.choice(arr.size, size=k, replace=True)",
         tests=[GRADCHECK],
         why="the sampled elements may repeat: fewer than max_elems distinct ones are checked"),
    # ---- lnrnn/model/beam.py ----
    dict(name="v9-beam-width-counts-one-label-less", file=BEAMPY,
         old="        level *= max(classes - 1, 0)",
         new="        level *= max(classes - 2, 0)",
         tests=[BEAM],
         why="the width the search needs counts one label too few: a narrower beam than asked for"),
    dict(name="v9-beam-prefixes-least-probable-first", file=BEAMPY,
         old="return sorted(out, key=lambda kv: (-kv[1], kv[0]))",
         new="return sorted(out, key=lambda kv: (kv[1], kv[0]))",
         tests=[BEAM],
         why="prefix_beams lists the least probable prefix first"),
    # ---- lnrnn/threadscope.py ----
    dict(name="v9-scope-wait-policy-overrides-the-users", file=SCOPEPY,
         old='    if given is None:\n        os.environ["OMP_WAIT_POLICY"] = WAIT_POLICY',
         new='    if True:\n        os.environ["OMP_WAIT_POLICY"] = WAIT_POLICY',
         tests=[SCOPE],
         why="a user's OMP_WAIT_POLICY is replaced by passive and stays replaced"),
    # ---- lnrnn/training/prewarm.py ----
    dict(name="v9-prewarm-reaped-key-forgotten", file=PREWARMPY,
         old="        children[key] = None  # done: not started again for this key in this process",
         new="        del children[key]  # done: not started again for this key in this process",
         tests=[PREWARM],
         why="a kind of loop whose child finished starts another child at the next forward"),
    # ---- lnrnn/kernels/batchnorm.py ----
    dict(name="v9-bn-running-mean-momentum-swapped", file=BNPY,
         old="            rm[k] = (one - mom) * rm[k] + mom * m_[k]",
         new="            rm[k] = mom * rm[k] + (one - mom) * m_[k]",
         tests=[BN],
         why="the running mean keeps 1 - momentum of the batch mean (the other convention), the variance does not"),
    # ---- lnrnn/model/functional.py ----
    dict(name="v9-func-all-t-lengths-masked", file=FUNCPY,
         old="    if np.all(a == T):\n        return None",
         new="    if np.all(a == T) and False:\n        return None",
         tests=[FUNC, LAYERS],
         why="lengths of all T take the masked path instead of the unmasked one"),
    # ---- lnrnn/model/layers.py ----
    dict(name="v9-layers-chunk-grows-to-its-length-only", file=LAYERSPY,
         old="            self._grow_buffers(t0 + T)",
         new="            self._grow_buffers(T)",
         tests=[LAYERS, FUNC, LAYERS_T],
         why="a training chunk from step t0 grows the statistics to T rows, not t0 + T"),
    # ---- lnrnn/kernels/cpu/threads.py ----
    dict(name="v9-threads-chunk-bounds-rounded-up", file=THREADSPY,
         old="    return (k * n) // nchunks, ((k + 1) * n) // nchunks",
         new="    return (k * n) // nchunks, -(-(k + 1) * n // nchunks)",
         tests=[THREADS, THREADS_T],
         why="a chunk's end rounds up while the next one's start rounds down: rows run twice"),
    # ---- lnrnn/kernels/optim_cuda.py ----
    dict(name="v9-optim-cuda-rmsprop-eps-under-root", file=OPTCUDA,
         old="            p[i] = p[i] - lr * gi / (math.sqrt(s) + eps)",
         new="            p[i] = p[i] - lr * gi / math.sqrt(s + eps)",
         tests=[f"{DEVICE}::test_three_updates_equal_the_cpu_optimizer"],
         why="the device's plain RMSProp puts eps under the root (the momentum form's place)"),
    # ---- lnrnn/kernels/losses_cuda.py ----
    dict(name="v9-losses-cuda-tolerance-inclusive", file=LOSSCUDA,
         old="                if not abs(err) < tolerance:",
         new="                if abs(err) > tolerance:",
         tests=[f"{DEVICE}::test_head_objective_kernels_equal_the_host_heads", LOSSES_T],
         why="a prediction exactly the tolerance away counts as correct on the device, not on the host"),
    # ---- lnrnn/predict_io.py ----
    dict(name="v9-pio-equal-lengths-record-padded-steps", file=PIOPY,
         old="else int(lengths[0])",
         new="else int(x.shape[1])",
         tests=[PIO, PIO_T],
         why="a training set whose rows all have one length shorter than T is recorded with T steps"),
    dict(name="v9-pio-margin-of-the-top", file=PIOPY,
         old="        margin = slack * (hi - lo)",
         new="        margin = slack * hi",
         tests=[PIO, PIO_T],
         why="the slack is a fraction of the largest training value, not of the range's width"),
]
