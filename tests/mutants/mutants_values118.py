"""Planted bugs, round 118 (format: tests/mutants/mutants.py): single-line slips in the learning curves, the
optimizers, the progress lines, the memory plan, fine-tuning, the diagnostics, the judge and the gradient
check, on lines no earlier round mutates (a fourth pass): metric_names keeping a metric once per key, a log
axis for any widely spread metric rather than the loss alone, a run recording a metric for training only left
out of its panel; Adam's betas swapped, Graves's RMSProp never centred, plain RMSProp taking alpha as its eps;
Progress.update assigning the count instead of adding it; _prod summing a shape, the memory refusal hinting
every part; fine-tuning's refusal telling the user to give this run's own value; per_step's head gradient
entering the bottom layer of a stack without skip; the judge's refusal of a writer without attention naming
the reader's folder; numeric_grad's outer forward point at +eps and SCALE_FLOOR a hundred times lower.

14 mutants. Against the existing targeted tests alone 10 were caught and 4 missed: the log axis for any metric
(no old test plots a percentage spanning more than LOG_SPAN), a training-only metric left out (old records hold
both splits), fine-tuning's fix naming this run's value (old tests read the message's start only) and the
judge's refusal naming the reader's folder (no old test refuses an unconditioned writer through check_judge
with both paths told apart). Measured on the most direct old files only (the *_OLD lists below). The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values118_plot (panels, y scales and lines read back through matplotlib's axes against the records,
in percent where the metric is one), test_values118_optim (Adam with betas of its own and at the paper's
defaults, Graves's centred RMSProp and plain RMSProp written again in NumPy over several steps, flat and as
a dict; state saved after two steps carrying on in a fresh optimizer), test_values118_progress_memory
(counts, rate and ETA on a clock set by hand, a count reaching 1000; _prod and a two-layer RNN's parameter
bytes counted from the cell's shapes; the refusal's hints against the one-tenth rule), test_values118_finetune
(each shape setting's refusal as one whole sentence), test_values118_diagnostics_judge (the top layer's
last-step dL/dh of a two-layer stack against the classifier head's gradient in NumPy; the writer's folder in
the refusal), test_values118_gradcheck (fourth-order differences exact for a quartic, second-order for a
quadratic and off by eps^2 for a cube; rel_error against its definition at the 1% floor; a planted 1% slip
failing the check). Dropped before the catalogue as equivalent or near it: sample_idx's `size <= k` as
`size < k` (a full draw without replacement, sorted, is the same arange; only the generator's later draws
move); state_dict's layout split without the host copy (each part is copied again afterwards); the report's
plural rule `!= 1` as `> 1` (a summary of no lines is never reported).

    python tests/mutants/run.py --only 'v118-*'
"""
PLOT = "lnrnn/training/plot.py"
OPT = "lnrnn/training/optim.py"
PROGRESS = "lnrnn/training/progress.py"
MEMORY = "lnrnn/training/memory.py"
FINETUNE = "lnrnn/training/finetune.py"
DIAG = "lnrnn/diagnostics.py"
JUDGE = "lnrnn/judge.py"
GRADCHECK = "lnrnn/gradcheck.py"

# existing tests of these modules (the most direct ones)
PLOT_OLD = ["tests/training/test_values_plot.py", "tests/training/test_values34_plot.py",
            "tests/training/test_values95_plot.py"]
OPT_OLD = ["tests/training/test_optim.py", "tests/training/test_values_optim.py",
           "tests/training/test_values64_optim.py", "tests/training/test_values95_optim.py"]
PROGRESS_OLD = ["tests/training/test_values_progress.py", "tests/training/test_values70_progress.py",
                "tests/training/test_values95_progress.py"]
MEMORY_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values70_memory.py",
              "tests/training/test_values95_memory.py"]
FINETUNE_OLD = ["tests/training/test_finetune.py", "tests/training/test_values_finetune.py",
                "tests/training/test_values63_finetune.py", "tests/training/test_values95_finetune.py"]
DIAG_OLD = ["tests/test_diagnostics.py", "tests/test_values_diagnostics.py", "tests/test_values70_diagnostics.py"]
JUDGE_OLD = ["tests/test_values70_judge.py", "tests/test_values12_judge.py", "tests/test_values20_judge.py"]
GRADCHECK_OLD = ["tests/test_values_gradcheck.py", "tests/test_values9_gradcheck.py",
                 "tests/test_values27_gradcheck.py", "tests/test_values83_gradcheck.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
PLOT_NEW = ["tests/training/test_values118_plot.py"]
OPT_NEW = ["tests/training/test_values118_optim.py"]
PROGRESS_NEW = ["tests/training/test_values118_progress_memory.py"]
MEMORY_NEW = ["tests/training/test_values118_progress_memory.py"]
FINETUNE_NEW = ["tests/training/test_values118_finetune.py"]
DIAG_NEW = ["tests/test_values118_diagnostics_judge.py"]
JUDGE_NEW = ["tests/test_values118_diagnostics_judge.py"]
GRADCHECK_NEW = ["tests/test_values118_gradcheck.py"]

MUTANTS = [
    # ---- learning curves ----
    dict(name="v118-plot-metric-named-once-per-record", file=PLOT,
         old='if split in ("train", "val") and m and m not in names:',
         new='if split in ("train", "val") and m:',
         tests=PLOT_NEW + PLOT_OLD,
         why="metric_names keeps a metric once per key that names it: the figure draws each metric's panel again"),
    dict(name="v118-plot-log-scale-on-any-metric", file=PLOT,
         old='        if m == "loss" and use_log_scale(seen):',
         new='        if use_log_scale(seen):',
         tests=PLOT_NEW + PLOT_OLD,
         why="an accuracy that rises more than twentyfold (1% to 90%) is drawn on a log axis, meant for losses only"),
    dict(name="v118-plot-has-only-validation", file=PLOT,
         old='for r in run.records + run.updates for split in ("train", "val"))',
         new='for r in run.records + run.updates for split in ("val",))',
         tests=PLOT_NEW + PLOT_OLD,
         why="a run that records a metric for training only is left out of that metric's panel"),
    # ---- optimizers ----
    dict(name="v118-optim-adam-betas-swapped", file=OPT,
         old="super().__init__(lr, beta1=float(beta1), beta2=float(beta2), eps=float(eps))",
         new="super().__init__(lr, beta1=float(beta2), beta2=float(beta1), eps=float(eps))",
         tests=OPT_NEW + OPT_OLD,
         why="Adam keeps beta2 as the first moment's decay and beta1 as the second's (only non-default betas show "
             "in the hyper-parameters; the defaults are swapped too)"),
    dict(name="v118-optim-graves-never-centred", file=OPT,
         old="    def __init__(self, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4, centred=True):\n"
             "        super().__init__(lr, alpha, momentum, eps, centred)",
         new="    def __init__(self, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4, centred=True):\n"
             "        super().__init__(lr, alpha, momentum, eps, False)",
         tests=OPT_NEW + OPT_OLD,
         why="Graves's RMSProp drops its centring: the running mean's square never comes off the second moment"),
    dict(name="v118-optim-rmsprop-eps-from-alpha", file=OPT,
         old="super().__init__(lr, alpha=float(alpha), eps=float(eps))",
         new="super().__init__(lr, alpha=float(alpha), eps=float(alpha))",
         tests=OPT_NEW + OPT_OLD,
         why="plain RMSProp keeps alpha as its eps (a copy-paste slip): every step is divided by sqrt(sq) + 0.99"),
    # ---- progress lines ----
    dict(name="v118-progress-done-assigned", file=PROGRESS,
         old="        self.done += n\n",
         new="        self.done = n\n",
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="update sets the count to the last batch's size instead of adding it: counts, bar and ETA go wrong"),
    # ---- the memory plan ----
    dict(name="v118-memory-prod-sums", file=MEMORY,
         old="        n *= int(s)\n",
         new="        n += int(s)\n",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="_prod adds a shape's sizes (from 1) instead of multiplying them: a weight matrix counts I + H + 1"),
    dict(name="v118-memory-hints-every-part", file=MEMORY,
         old="    hints = [WHAT[k][1] for k in big if counted[k] >= 0.1 * train_peak]\n",
         new="    hints = [WHAT[k][1] for k in big]\n",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="the refusal suggests shrinking every part, even ones under a tenth of the peak that cannot help"),
    # ---- fine-tuning ----
    dict(name="v118-finetune-fix-gives-our-value", file=FINETUNE,
         old='    fix = f"give {what} {theirs}" if what.startswith("--") else "train on a task of the same shape"',
         new='    fix = f"give {what} {ours}" if what.startswith("--") else "train on a task of the same shape"',
         tests=FINETUNE_NEW + FINETUNE_OLD,
         why="the refusal tells the user to give the value this run already has, not the source's"),
    # ---- diagnostics ----
    dict(name="v118-diagnostics-head-gradient-into-layer-0", file=DIAG,
         old="(dY.copy() if l == L - 1 else np.zeros_like(ys[l]))",
         new="(dY.copy() if l == 0 else np.zeros_like(ys[l]))",
         tests=DIAG_NEW + DIAG_OLD,
         why="without skip the head's gradient enters the bottom layer and the top layer gets none of it"),
    # ---- the judge ----
    dict(name="v118-judge-unconditioned-writer-names-reader", file=JUDGE,
         old='raise UserError(f"{writer_name} ({writer.path}) writes no given text',
         new='raise UserError(f"{writer_name} ({reader.path}) writes no given text',
         tests=JUDGE_NEW + JUDGE_OLD,
         why="refusing a writer without attention names the reader's folder as the writer's"),
    # ---- the gradient check ----
    dict(name="v118-gradcheck-order4-outer-step-eps", file=GRADCHECK,
         old="            flat[k] = old + 2 * eps\n",
         new="            flat[k] = old + eps\n",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the fourth-order difference takes its outer forward point at +eps, not +2 eps"),
    dict(name="v118-gradcheck-scale-floor-lower", file=GRADCHECK,
         old="SCALE_FLOOR = 1e-2  #",
         new="SCALE_FLOOR = 1e-4  #",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="elements below 1% of the largest are judged on their own scale: rounding in tiny gradients fails "
             "checks that should pass"),
]
