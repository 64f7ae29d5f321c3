"""Planted bugs, round 323 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the optimizers (lnrnn/training/optim.py), their update rules (lnrnn/kernels/optim.py), the learning-curve
pictures (lnrnn/training/plot.py) and the memory estimate (lnrnn/training/memory.py): every optimizer's slots one
shared dict (Adam's m and v one array); the base slots_kept one short (Adam counted with one slot, RMSProp with none);
the learning rate's refusal naming self.lr before it exists; SGD at momentum 0 taken for momentum (a None velocity
scaled); Graves's RMSProp decaying its second moment by 1 - alpha; float32 Adam done in float64 and rounded back;
a run logging only training accuracy left out of the accuracy panel; the regression head's loss label under a key
no head has; the figure's height counting panels instead of runs; the training line drawn solid; a one-epoch
run's dot labelled 'train' / 'val' instead of 'training' / 'validation'; the parameter count's product starting at
0; the activation headroom 1.34; the free pages taking over from MemAvailable when it was read.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values323_optim (Adam, Graves's RMSProp centred and not,
and SGD plain and with momentum over three updates of one flat buffer against their formulas written out, the
gradients clipped by the global norm summed by hand, under, at and past the bound; float32 Adam against the same
float32 operations one by one, bit for bit; a state saved after two updates and resumed in a fresh optimizer equal
to three in a row; the slots each kind keeps; the learning rate's refusal word for word), test_values323_plot (an
SVG of three runs: its size in points from the inches, the axes' labels and titles and the legend as text, training
dashed and validation solid, every point mapped back through one affine map per axis onto the history; a one-epoch
run's labels beside its dots; panels' members with a run holding only training accuracy), test_values323_memory (a
two-layer BN-RNN with skip, adam, float32 and --tbptt 4 of 7 counted array by array by hand; available_bytes from
stand-in meminfo and cgroup v1 / v2 files). Left out as equivalent: state_dict's per-name .copy() of a flat
slot (the slot was copied to the host already and the split views are of that fresh copy); clip_scale's
`return None` made 1.0 and the kernel's `if scale is not None` made `if scale` (a factor of 1.0 leaves every finite
and non-finite gradient as it is; a scale is always positive); self.hyper = dict(hyper) (the keyword dict is the
optimizer's own already); load_state_dict's slots rebuilt over the saved names instead of slot_names (state_dict
always saves every slot name); the SGD kernel's `p -= t(lr) * g` made `p -= lr * g` (NumPy keeps a Python float
weak: float32 stays float32). Left out to keep the round at 14 (not equivalent): svg.fonttype 'path' (every SVG
text test here fails with it) and the cgroup loop's `break` made `continue` (test_values323_memory's 'max' case
reads it).

    python tests/mutants/run.py --only 'v323-*'
"""
OPT = "lnrnn/training/optim.py"
RULES = "lnrnn/kernels/optim.py"
PLOT = "lnrnn/training/plot.py"
MEM = "lnrnn/training/memory.py"

T_OPT = "tests/training/test_values323_optim.py::"
T_PLOT = "tests/training/test_values323_plot.py::"
T_MEM = "tests/training/test_values323_memory.py::"
OLD_OPT = ["tests/training/test_optim.py", "tests/training/test_values266_optim.py",
           "tests/kernels/test_values278_optim_rules.py"]
OLD_PLOT = ["tests/training/test_values283_plot.py", "tests/training/test_values266_plot.py"]
OLD_MEM = ["tests/training/test_values279_memory.py", "tests/training/test_values218_memory.py"]

MUTANTS = [
    # ---- the optimizers: lnrnn/training/optim.py ----
    dict(name="v323-optim-slots-one-shared-dict", file=OPT,
         old="        self.slots = {name: {} for name in self.slot_names}",
         new="        self.slots = dict.fromkeys(self.slot_names, {})",
         tests=[T_OPT + "test_adam_three_clipped_updates_against_the_bias_corrected_moments",
                T_OPT + "test_graves_rmsprop_three_clipped_updates_against_eqs_38_to_41[True]"] + OLD_OPT,
         why="every slot name maps to one shared dict: Adam's m and v (Graves's sq, avg and v) are one array"),
    dict(name="v323-optim-base-slots-kept-one-short", file=OPT,
         old="        return len(self.slot_names)",
         new="        return len(self.slot_names) - 1",
         tests=[T_OPT + "test_slots_each_kind_keeps",
                T_MEM + "test_bn_rnn_with_skip_and_adam_counted_by_hand",
                T_MEM + "test_slots_counted_per_kind"] + OLD_OPT + OLD_MEM,
         why="Adam and RMSProp report one slot fewer than they keep: the memory estimate counts too few bytes"),
    dict(name="v323-optim-lr-refusal-names-self-lr", file=OPT,
         old='raise UserError(f"the learning rate must be a positive number, not {lr}.")',
         new='raise UserError(f"the learning rate must be a positive number, not {self.lr}.")',
         tests=[T_OPT + "test_a_learning_rate_that_is_not_positive_is_refused_naming_it"] + OLD_OPT,
         why="the refusal reads self.lr, not set yet: an AttributeError traceback instead of the sentence"),
    # ---- the update rules: lnrnn/kernels/optim.py ----
    dict(name="v323-rules-sgd-momentum-zero-not-plain", file=RULES,
         old="    if momentum:\n        v *= t(momentum)",
         new="    if momentum is not None:\n        v *= t(momentum)",
         tests=[T_OPT + "test_sgd_three_clipped_updates_plain_and_with_momentum[0.0]"] + OLD_OPT,
         why="momentum 0.0 is taken for momentum: plain SGD scales its absent (None) velocity and fails"),
    dict(name="v323-rules-graves-sq-decayed-by-complement", file=RULES,
         old="    sq *= t(alpha)\n    sq += t(1 - alpha) * g * g\n    denom",
         new="    sq *= t(1 - alpha)\n    sq += t(1 - alpha) * g * g\n    denom",
         tests=[T_OPT + "test_graves_rmsprop_three_clipped_updates_against_eqs_38_to_41[True]",
                T_OPT + "test_graves_rmsprop_three_clipped_updates_against_eqs_38_to_41[False]"] + OLD_OPT,
         why="Graves's RMSProp keeps 1 - alpha of its old second moment instead of alpha"),
    dict(name="v323-rules-adam-float64-arithmetic", file=RULES,
         old="def adam_update(p, m, v, g, lr, beta1, beta2, eps, k):\n    t = p.dtype.type",
         new="def adam_update(p, m, v, g, lr, beta1, beta2, eps, k):\n    t = np.float64",
         tests=[T_OPT + "test_adam_in_float32_is_float32_arithmetic_step_by_step"] + OLD_OPT,
         why="float32 Adam is computed in float64 and rounded back: not the float32 arithmetic the CUDA twin does"),
    # ---- learning curves: lnrnn/training/plot.py ----
    dict(name="v323-plot-has-looks-at-val-only", file=PLOT,
         old='run.records + run.updates for split in ("train", "val"))',
         new='run.records + run.updates for split in ("val",))',
         tests=[T_PLOT + "test_a_run_logging_only_training_accuracy_is_in_the_accuracy_panel"] + OLD_PLOT,
         why="a run that logs training accuracy but no validation is left out of the accuracy panel"),
    dict(name="v323-plot-regression-label-wrong-key", file=PLOT,
         old='"regression": "squared error"',
         new='"mse": "squared error"',
         tests=[T_PLOT + "test_three_runs_read_back_from_the_svg",
                T_PLOT + "test_a_one_epoch_run_carries_its_values_beside_the_dots",
                T_PLOT + "test_a_run_logging_only_training_accuracy_is_in_the_accuracy_panel"] + OLD_PLOT,
         why="a regression head's loss axis is labelled under a key no head has: plain 'loss'"),
    dict(name="v323-plot-height-counts-panels", file=PLOT,
         old="4.6 + 0.22 * len(runs)",
         new="4.6 + 0.22 * len(layout)",
         tests=[T_PLOT + "test_three_runs_read_back_from_the_svg"] + OLD_PLOT,
         why="the figure grows by panels, not by runs: a legend of many runs is squeezed"),
    dict(name="v323-plot-training-line-not-dashed", file=PLOT,
         old="ax.plot(*zip(*pts), style, color=color",
         new="ax.plot(*zip(*pts), color=color",
         tests=[T_PLOT + "test_three_runs_read_back_from_the_svg"] + OLD_PLOT,
         why="the style is not passed on: training epoch means drawn solid like validation"),
    dict(name="v323-plot-lone-dot-named-by-split-key", file=PLOT,
         old='ax.annotate(f"{name} {value}"',
         new='ax.annotate(f"{split} {value}"',
         tests=[T_PLOT + "test_a_one_epoch_run_carries_its_values_beside_the_dots"] + OLD_PLOT,
         why="a one-epoch run's dots are labelled 'train' / 'val' instead of 'training' / 'validation'"),
    # ---- the memory estimate: lnrnn/training/memory.py ----
    dict(name="v323-memory-prod-starts-at-zero", file=MEM,
         old="    n = 1\n    for s in shape:",
         new="    n = 0\n    for s in shape:",
         tests=[T_MEM + "test_bn_rnn_with_skip_and_adam_counted_by_hand"] + OLD_MEM,
         why="every weight array counts 0 elements: the parameters are the head's alone"),
    dict(name="v323-memory-headroom-134", file=MEM,
         old="HEADROOM = 1.25            #",
         new="HEADROOM = 1.34            #",
         tests=[T_MEM + "test_bn_rnn_with_skip_and_adam_counted_by_hand"] + OLD_MEM,
         why="the activations' headroom is the top of the measured range, not 1.25"),
    dict(name="v323-memory-free-pages-override-memavailable", file=MEM,
         old="    if avail is None:\n        try:",
         new="    if avail is not None:\n        try:",
         tests=[T_MEM + "test_available_bytes_from_meminfo_pages_and_cgroup"] + OLD_MEM,
         why="free pages replace MemAvailable when it was read, and are not used when it is missing"),
]
