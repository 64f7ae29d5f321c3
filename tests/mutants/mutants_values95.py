"""Planted bugs, round 95 (format: tests/mutants/mutants.py): single-line slips in the optimizers, the update,
the learning curves, the progress lines, the memory plan and fine-tuning, on lines no earlier round mutates:
global_norm returning the sum of squares, Adam's bias correction one step ahead and its first moment decayed
by beta2, make_optimizer dropping the rate, 'rmsprop-momentum' saved as 'rmsprop', SGD's default without
momentum, the flat clip's scale with the norm and the limit swapped, Graves's RMSProp without eps under the
root; nonfinite's message check inverted; the curves' line styles swapped, the x label always 'updates', NaN
points kept; a progress bar wider than its width; the host's evaluation batch on cuda counted at
--batch-size rows; fine-tuning comparing only the heads' metric settings and saying a decay change backwards.

16 mutants. Against the existing targeted tests alone 13 were caught and 3 missed: the three in plot.py (no
old test reads a line's style, the x label for epochs or seconds, or a NaN value in the records). Measured on
the most direct old files only (test_optim, test_values_optim, test_values64_optim; test_values_update,
test_values58_host_update; test_values_plot, test_values34_plot; test_values_progress, test_values70_progress;
test_values_memory, test_values70_memory; test_values_finetune, test_values14_finetune, test_values63_finetune):
the full old lists below take too long to run per mutant on one core. The new value tests catch every mutant
on their own (checked with the old tests taken off the lists): test_values95_optim (make_optimizer's kinds
over four steps against Adam's Algorithm 1 with m-hat and v-hat, Graves's equations with eps under the root
and PyTorch's momentum SGD, written here in NumPy; Adam's first step as lr times the gradient's sign; each
kind's saved name; clipping a dict and the flat kernel below, at and above the limit and with a NaN, against
the norm summed here), test_values95_update (the host update on a stand-in trainer: clip by the global norm,
then one SGD step, by hand; nonfinite's three outcomes), test_values95_plot (each panel's lines read back:
values, x, style per split, axis labels, a lone point's label and x range), test_values95_progress (bar,
rate, ETA and elapsed time on a clock set by hand), test_values95_memory (parameters with each optimizer's
slots and the cuda host batches, counted by hand; format_bytes' units), test_values95_finetune (heads of
another kind or scoring refused though the shapes fit, the tolerance alone accepted; the decay change's
words). Dropped before the catalogue as equivalent or near it: RMSPropMomentum's own default of centred
(both optimizers the package offers pass it explicitly); the host update's "first update" flag inverted (it
only arms the backward prewarm, which changes no value).

    python tests/mutants/run.py --only 'v95-*'
"""
OPT = "lnrnn/training/optim.py"
KOPT = "lnrnn/kernels/optim.py"
UPDATE = "lnrnn/training/update.py"
PLOT = "lnrnn/training/plot.py"
PROGRESS = "lnrnn/training/progress.py"
MEMORY = "lnrnn/training/memory.py"
FINETUNE = "lnrnn/training/finetune.py"

# existing tests of these modules
OPT_OLD = ["tests/training/test_optim.py", "tests/training/test_values_optim.py",
           "tests/training/test_values9_optim.py", "tests/training/test_values13_optim.py",
           "tests/training/test_values19_optim.py", "tests/training/test_values36_optim.py",
           "tests/training/test_values64_optim.py"]
UPDATE_OLD = ["tests/training/test_values_update.py", "tests/training/test_values33_update.py",
              "tests/training/test_values43_update.py", "tests/training/test_values64_update.py",
              "tests/training/test_values58_host_update.py"]
PLOT_OLD = ["tests/training/test_values_plot.py", "tests/training/test_values9_plot.py",
            "tests/training/test_values20_plot.py", "tests/training/test_values34_plot.py",
            "tests/commands/test_plot.py"]
PROGRESS_OLD = ["tests/training/test_values_progress.py", "tests/training/test_values10_progress.py",
                "tests/training/test_values32_progress_logs.py", "tests/training/test_values70_progress.py"]
MEMORY_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values10_memory.py",
              "tests/training/test_values36_memory.py", "tests/training/test_values70_memory.py"]
FINETUNE_OLD = ["tests/training/test_finetune.py", "tests/training/test_values_finetune.py",
                "tests/training/test_values14_finetune.py", "tests/training/test_values63_finetune.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
OPT_NEW = ["tests/training/test_values95_optim.py"]
UPDATE_NEW = ["tests/training/test_values95_update.py"]
PLOT_NEW = ["tests/training/test_values95_plot.py"]
PROGRESS_NEW = ["tests/training/test_values95_progress.py"]
MEMORY_NEW = ["tests/training/test_values95_memory.py"]
FINETUNE_NEW = ["tests/training/test_values95_finetune.py"]

MUTANTS = [
    # ---- the optimizers and the clipping ----
    dict(name="v95-global-norm-squared", file=OPT,
         old="    return math.sqrt(total)",
         new="    return total",
         tests=OPT_NEW + OPT_OLD,
         why="global_norm returns the sum of squares: clip_grad_norm reports and clips by ||g||^2"),
    dict(name="v95-adam-bias-correction-one-step-ahead", file=OPT,
         old='h["beta2"], h["eps"], self.step_count)',
         new='h["beta2"], h["eps"], self.step_count + 1)',
         tests=OPT_NEW + OPT_OLD,
         why="Adam's bias correction uses k + 1: the first update is not lr * sign(g) and every later one is off"),
    dict(name="v95-make-optimizer-drops-lr", file=OPT,
         old="    return OPTIMIZERS[kind](lr=lr)",
         new="    return OPTIMIZERS[kind]()",
         tests=OPT_NEW + OPT_OLD,
         why="make_optimizer ignores --lr: every run trains at the optimizer's default rate"),
    dict(name="v95-momentum-rmsprop-kind-rmsprop", file=OPT,
         old='    kind = "rmsprop-momentum"',
         new='    kind = "rmsprop"',
         tests=OPT_NEW + OPT_OLD,
         why="MomentumRMSProp saves its state as plain 'rmsprop' and accepts a plain RMSProp's state"),
    dict(name="v95-sgd-default-without-momentum", file=OPT,
         old="    def __init__(self, lr=0.01, momentum=0.9):",
         new="    def __init__(self, lr=0.01, momentum=0.0):",
         tests=OPT_NEW + OPT_OLD,
         why="SGD's default momentum is 0: 'sgd' from make_optimizer is plain SGD, not momentum 0.9"),
    dict(name="v95-kernel-clip-scale-arguments-swapped", file=KOPT,
         old="    scale = clip_scale(float(norm[0]), max_norm)",
         new="    scale = clip_scale(max_norm, float(norm[0]))",
         tests=OPT_NEW + OPT_OLD,
         why="the flat clip passes the limit as the norm: it scales small gradients up and leaves big ones"),
    dict(name="v95-kernel-centred-rmsprop-without-eps", file=KOPT,
         old="    denom = sq + t(eps)",
         new="    denom = sq",
         tests=OPT_NEW + OPT_OLD,
         why="Graves's RMSProp drops eps from under the square root"),
    dict(name="v95-kernel-adam-first-moment-decays-by-beta2", file=KOPT,
         old="    m *= t(beta1)",
         new="    m *= t(beta2)",
         tests=OPT_NEW + OPT_OLD,
         why="Adam's first moment decays by beta2: step 1 is unchanged (m starts at 0), later steps are not"),
    # ---- the update ----
    dict(name="v95-nonfinite-check-inverted", file=UPDATE,
         old='    if "NaN or infinite" not in str(e):',
         new='    if "NaN or infinite" in str(e):',
         tests=UPDATE_NEW + UPDATE_OLD,
         why="nonfinite re-raises the kernels' NaN errors raw and swallows every other ValueError"),
    # ---- learning curves ----
    dict(name="v95-plot-train-solid-val-dashed", file=PLOT,
         old='            for split, style in (("train", "--"), ("val", "-")):',
         new='            for split, style in (("train", "-"), ("val", "--")):',
         tests=PLOT_NEW + PLOT_OLD,
         why="the line styles are swapped: validation dashed, the training means solid, against the legend"),
    dict(name="v95-plot-xlabel-always-updates", file=PLOT,
         old="        ax.set_xlabel(X_AXES[x])",
         new='        ax.set_xlabel(X_AXES["step"])',
         tests=PLOT_NEW + PLOT_OLD,
         why="the x axis says 'updates' when the curves are drawn against epochs or seconds"),
    dict(name="v95-plot-points-keep-nan", file=PLOT,
         old="    return [p for p in pts if math.isfinite(p[0]) and math.isfinite(p[1])]",
         new="    return pts",
         tests=PLOT_NEW + PLOT_OLD,
         why="_points keeps NaN and infinite values: a diverged epoch breaks the line and the annotation"),
    # ---- progress ----
    dict(name="v95-progress-bar-too-long", file=PROGRESS,
         old='        bar = "#" * fill + "." * (self.width - fill)',
         new='        bar = "#" * fill + "." * self.width',
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="the bar's dots are always width long: a part-done bar is wider than width"),
    # ---- memory plan ----
    dict(name="v95-memory-device-eval-counts-training-rows", file=MEMORY,
         old='        "evaluation": int(HEADROOM * isz * evaluation) if on_host else isz * T * Be * I,',
         new='        "evaluation": int(HEADROOM * isz * evaluation) if on_host else isz * T * B * I,',
         tests=MEMORY_NEW + MEMORY_OLD,
         why="on cuda the evaluation batch on the host is counted with --batch-size rows, not --eval-batch-size"),
    # ---- fine-tuning ----
    dict(name="v95-finetune-head-compares-only-metric-settings", file=FINETUNE,
         old="    head = {k: v for k, v in head.items() if k not in HEAD_METRIC_ONLY} if isinstance(head, dict)",
         new="    head = {k: v for k, v in head.items() if k in HEAD_METRIC_ONLY} if isinstance(head, dict)",
         tests=FINETUNE_NEW + FINETUNE_OLD,
         why="load_into compares only the heads' tolerance: a source of another head is not refused by --head"),
    dict(name="v95-finetune-decay-change-said-backwards", file=FINETUNE,
         old='        text += f", decay {da:g} -> {db:g} per epoch"',
         new='        text += f", decay {db:g} -> {da:g} per epoch"',
         tests=FINETUNE_NEW + FINETUNE_OLD,
         why="the log says the decay changes from the new value to the old one"),
]
