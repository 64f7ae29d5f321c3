"""Planted bugs, round 353 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the optimizers (lnrnn/training/optim.py, lnrnn/kernels/optim.py), the learning-curve pictures
(lnrnn/training/plot.py) and the memory estimate's check (lnrnn/training/memory.py), eighteenth pass: every
optimizer's slot count one short (adam 1, rmsprop 0); a flat buffer's update number stuck at 1, so Adam's bias
correction of every update is the first one's; a state loaded with a layout keeping its slots by name, so the
resumed run starts from zero moments; SGD's and Graves's RMSProp's hyper-parameters cast to float32 on float64
parameters; PDF dropped from the picture formats; a Curves of no kind taken for a classifier; the loss panels'
run indices counted from 1; --loss-label not passed on to the loss panels; one axes per metric instead of per
panel, so a second loss kind's panel is not drawn; SVG text written as paths; a cgroup limit read with its
newline, so it never caps MemAvailable; the data part's hint worded 'a shorter --steps', so a refusal from
--steps offers --steps twice.

13 mutants. Against the old targeted files alone (each mutant's v353 files taken off its list): 10 of 13 caught;
missed: the PDF format dropped, the loss label not passed, the axes made per metric. The new value tests catch
every mutant on
their own (checked with the old files taken off the lists): test_values353_optim (Adam, Graves's RMSProp centred
and not, SGD plain and with momentum over three float64 updates whose gradients lie past, exactly at and under the
clipping bound, against the formulas written out in the test with Adam's m / (1 - beta1^k), v / (1 - beta2^k) to
1e-13; a state saved with a layout of sizes 4 and (1, 5), its named slots against the hand moments, loaded into a
fresh Adam and run on equal to the uninterrupted run; the slots each kind keeps at its defaults and with momentum
0), test_values353_plot (panels of a classifier, a CTC run and a run of no kind under the --loss-label given;
the SVG's axis labels, panel titles, legend and title written out and each run's points mapped back onto its
history; the figure's axes one per panel; a PDF written and other suffixes refused word for word with nothing
written), test_values353_memory (available_bytes from stand-in cgroup v2 and v1 files ending in a newline; the
refusal with the task's sequences largest and --steps the length's source written out word for word).

Left out as equivalent: lnrnn/kernels/optim.py's clip_scale returning 1.0 instead of None below the bound
(multiplying by 1.0 leaves every gradient bit as it is); its clip_grad_norm testing ``if scale:`` for ``is not
None`` (a scale that is not None is max_norm / (norm + 1e-6) > 0); SGD._update's hyper["momentum"] read with a
default (the key is always set by __init__ and by load_state_dict). Left out as needing a CUDA device: the
device branch of Optimizer._slot (a host slot copied to the device once). Left out as a crash rather than a
value: `if avg is not None` inverted in rmsprop_momentum_update (None *= alpha raises at once).

    python tests/mutants/run.py --only 'v353-*'
"""
TOPT = "lnrnn/training/optim.py"
KOPT = "lnrnn/kernels/optim.py"
PLOT = "lnrnn/training/plot.py"
MEM = "lnrnn/training/memory.py"

T_OPT = "tests/training/test_values353_optim.py::"
T_PLOT = "tests/training/test_values353_plot.py::"
T_MEM = "tests/training/test_values353_memory.py::"
OLD_OPT = ["tests/training/test_optim.py", "tests/training/test_values323_optim.py"]
OLD_PLOT = ["tests/training/test_values323_plot.py", "tests/training/test_values283_plot.py"]
OLD_MEM = ["tests/training/test_values323_memory.py", "tests/training/test_values279_memory.py"]

MUTANTS = [
    # ---- optimizers: lnrnn/training/optim.py ----
    dict(name="v353-optim-slots-kept-one-short", file=TOPT,
         old="        return len(self.slot_names)\n",
         new="        return len(self.slot_names) - 1\n",
         tests=[T_OPT + "test_slots_kept_at_defaults_and_settings"] + OLD_OPT + OLD_MEM,
         why="every optimizer without its own count keeps one slot fewer: adam 1, rmsprop 0 (the memory "
             "estimate's parameters part short by one or two copies)"),
    dict(name="v353-optim-flat-step-count-stuck-at-one", file=TOPT,
         old="            self.step_count += 1\n            self._update(FLAT, params, grads)",
         new="            self.step_count = 1\n            self._update(FLAT, params, grads)",
         tests=[T_OPT + "test_adam_three_updates_bias_corrected_by_their_own_numbers",
                T_OPT + "test_resumed_with_a_layout_equals_three_in_a_row"] + OLD_OPT,
         why="a flat buffer's update number stays 1: Adam corrects every update's moments as the first's, and a "
             "saved state says step 1"),
    dict(name="v353-optim-load-layout-inverted", file=TOPT,
         old="        if layout is not None:\n",
         new="        if layout is None:\n",
         tests=[T_OPT + "test_resumed_with_a_layout_equals_three_in_a_row"] + OLD_OPT,
         why="slots loaded with a layout stay named per parameter: the flat step finds none and starts from "
             "zero moments, so a resumed run differs from an uninterrupted one"),
    # ---- update rules: lnrnn/kernels/optim.py ----
    dict(name="v353-kernels-sgd-float32-scalars", file=KOPT,
         old="def sgd_update(p, v, g, lr, momentum):\n    t = p.dtype.type",
         new="def sgd_update(p, v, g, lr, momentum):\n    t = np.float32",
         tests=[T_OPT + "test_sgd_three_updates_in_float64[0.0]",
                T_OPT + "test_sgd_three_updates_in_float64[0.5]"] + OLD_OPT,
         why="SGD's learning rate and momentum are rounded to float32 on float64 parameters"),
    dict(name="v353-kernels-graves-float32-scalars", file=KOPT,
         old="def rmsprop_momentum_update(p, sq, avg, v, g, lr, alpha, momentum, eps):\n    t = p.dtype.type",
         new="def rmsprop_momentum_update(p, sq, avg, v, g, lr, alpha, momentum, eps):\n    t = np.float32",
         tests=[T_OPT + "test_graves_rmsprop_three_updates_in_float64[True]",
                T_OPT + "test_graves_rmsprop_three_updates_in_float64[False]"] + OLD_OPT,
         why="Graves's RMSProp rounds lr, alpha, momentum and eps to float32 on float64 parameters"),
    # ---- learning curves: lnrnn/training/plot.py ----
    dict(name="v353-plot-pdf-dropped", file=PLOT,
         old='FORMATS = (".png", ".svg", ".pdf")',
         new='FORMATS = (".png", ".svg")',
         tests=[T_PLOT + "test_pdf_written_and_other_suffixes_refused"] + OLD_PLOT,
         why="a .pdf --out is refused, and the refusal lists two formats"),
    dict(name="v353-plot-curves-kind-default-classifier", file=PLOT,
         old="    kind: Optional[str] = None\n",
         new='    kind: Optional[str] = "classifier"\n',
         tests=[T_PLOT + "test_panels_split_the_loss_by_kind_with_the_label_given",
                T_PLOT + "test_four_panels_read_back_from_the_svg"] + OLD_PLOT,
         why="a run of unknown kind (and every (label, records) pair) is drawn as a classifier's cross-entropy, "
             "not under --loss-label"),
    dict(name="v353-plot-loss-kinds-indices-from-one", file=PLOT,
         old="    for k, run in enumerate(runs):\n        label = LOSS_LABELS",
         new="    for k, run in enumerate(runs, 1):\n        label = LOSS_LABELS",
         tests=[T_PLOT + "test_panels_split_the_loss_by_kind_with_the_label_given",
                T_PLOT + "test_four_panels_read_back_from_the_svg"] + OLD_PLOT,
         why="the loss panels' run indices are counted from 1: each loss is drawn for the next run, the last "
             "one out of range"),
    dict(name="v353-plot-loss-label-not-passed", file=PLOT,
         old="            for label, idx in loss_kinds(runs, loss_label).items():",
         new="            for label, idx in loss_kinds(runs).items():",
         tests=[T_PLOT + "test_panels_split_the_loss_by_kind_with_the_label_given",
                T_PLOT + "test_four_panels_read_back_from_the_svg",
                T_PLOT + "test_the_figure_has_one_axes_per_panel"] + OLD_PLOT,
         why="--loss-label is not passed on: a run of unknown kind's loss axis says 'loss'"),
    dict(name="v353-plot-axes-per-metric", file=PLOT,
         old="    axes = fig.subplots(1, len(layout), squeeze=False)[0]",
         new="    axes = fig.subplots(1, len(metrics), squeeze=False)[0]",
         tests=[T_PLOT + "test_four_panels_read_back_from_the_svg",
                T_PLOT + "test_the_figure_has_one_axes_per_panel"] + OLD_PLOT,
         why="one axes per metric: with losses of several kinds the later loss panels are not drawn"),
    dict(name="v353-plot-svg-text-as-paths", file=PLOT,
         old='{"svg.fonttype": "none",',
         new='{"svg.fonttype": "path",',
         tests=[T_PLOT + "test_four_panels_read_back_from_the_svg"] + OLD_PLOT,
         why="the SVG's labels are drawn as glyph paths: no text to search, a much larger file"),
    # ---- memory check: lnrnn/training/memory.py ----
    dict(name="v353-memory-cgroup-limit-not-stripped", file=MEM,
         old="                lim = f.read().strip()",
         new="                lim = f.read()",
         tests=[T_MEM + "test_a_cgroup_limit_ending_in_a_newline_caps_meminfo[files0-1999000]",
                T_MEM + "test_a_cgroup_limit_ending_in_a_newline_caps_meminfo[files1-8000]"] + OLD_MEM,
         why="the cgroup limit keeps its newline, is never all digits, and never caps MemAvailable"),
    dict(name="v353-memory-data-hint-shorter-steps", file=MEM,
         old='    "data": ("the task\'s sequences", "a smaller --steps"),',
         new='    "data": ("the task\'s sequences", "a shorter --steps"),',
         tests=[T_MEM + "test_refusal_with_steps_largest_names_steps_once"] + OLD_MEM,
         why="the data part's hint is worded unlike the --steps hint put first: a refusal offers --steps twice"),
]
