"""Planted bugs, round 433 (format: tests/mutants/mutants.py): the survivors of a fifth random sample
(tests/mutants/random_sample.py --seed 5 --count 40, after round 432) and their neighbours: a checkpoint's records
that are lists (lnrnn/training/setup.py: resume_problem), how a picture shows a metric lnrnn does not know
(lnrnn/training/plot.py), the devices lnrnn.torch takes (lnrnn/interop/torch.py: check_tensors), a writer's task
read in another run's alphabet (lnrnn/data/strokes.py: StrokeTask.as_trained) and the heads the finite-difference
check builds (lnrnn/gradcheck.py: check_model), twenty-ninth pass.

The planted bugs: a checkpoint's list records passed over (all but epoch_sums), the old list of four epoch sums
refused as not a table, rows that are not tables resumed; a metric lnrnn does not know drawn or noted as a
percentage; a CPU tensor beside a CUDA one, or tensors on cuda:0 and cuda:1, passed to the kernels; a writer's task
given the run's alphabet only when the run has none, a task without texts given one, the run's own alphabet noted as
another; the mixture density check built with 3 components or on the last step, the classifier check with 4 classes.
13 mutants. Every old file named after each module (OLD_*, as random_sample.py --all-named judges) catches 3 of 13:
the legend's note, the mixture density check on the last step (refused by the head) and the classifier's 4 classes.
The new files alone (test_values433_*) catch 13 of 13, so NEW + OLD does too (not run separately). How they were
found: the fifth sample caught 30 of 40 by the 8 most relevant files, 33 of 40 by every named file; of the 7 missed,
1 on a CUDA-only line, 1 equivalent (Numba's stencil flag), 5 planted here with their neighbours. Real bug: tensors
on two CUDA devices passed check_tensors (it compared device types); it now compares devices.

    python tests/mutants/run.py --only 'v433-*'
"""
SETUP, PLOT, TORCH = "lnrnn/training/setup.py", "lnrnn/training/plot.py", "lnrnn/interop/torch.py"
STROKES, GRADCHECK = "lnrnn/data/strokes.py", "lnrnn/gradcheck.py"
NEW_SETUP = ["tests/training/test_values433_setup.py"]
NEW_PLOT = ["tests/training/test_values433_plot.py"]
NEW_TORCH = ["tests/interop/test_values433_torch.py"]
NEW_STROKES = ["tests/data/test_values433_strokes.py"]
NEW_GRADCHECK = ["tests/test_values433_gradcheck.py"]
# every file named after each module, as a developer who changed it would run them (pytest -k <name>, less the
# slow ones: random_sample.py --all-named)
OLD_SETUP = ["tests/training/test_values114_setup.py", "tests/training/test_values142_setup.py",
             "tests/training/test_values180_setup_finetune.py", "tests/training/test_values210_setup_update.py",
             "tests/training/test_values260_setup.py", "tests/training/test_values279_plan_setup_evaluation.py",
             "tests/training/test_values321_setup.py", "tests/training/test_values348_setup.py",
             "tests/training/test_values371_runconfig_setup.py", "tests/training/test_values399_setup.py",
             "tests/training/test_values428_setup.py", "tests/training/test_values63_setup.py",
             "tests/training/test_values9_setup.py", "tests/training/test_values_setup.py"]
OLD_PLOT = ["tests/commands/test_plot.py", "tests/commands/test_values131_plot.py",
            "tests/commands/test_values173_plot.py", "tests/commands/test_values215_predict_plot.py",
            "tests/commands/test_values253_plot.py", "tests/commands/test_values349_plot.py",
            "tests/commands/test_values372_cli_plot.py", "tests/commands/test_values426_plot.py",
            "tests/commands/test_values46_plot_runs.py", "tests/commands/test_values69_plot_info.py",
            "tests/training/test_values118_plot.py", "tests/training/test_values145_plot.py",
            "tests/training/test_values185_plot.py", "tests/training/test_values20_plot.py",
            "tests/training/test_values222_plot.py", "tests/training/test_values251_plot.py",
            "tests/training/test_values266_plot.py", "tests/training/test_values283_plot.py",
            "tests/training/test_values323_plot.py", "tests/training/test_values34_plot.py",
            "tests/training/test_values353_plot.py", "tests/training/test_values372_plot.py",
            "tests/training/test_values95_plot.py", "tests/training/test_values9_plot.py",
            "tests/training/test_values_plot.py"]
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_torch_cell.py", "tests/interop/test_torch_refusals_as_passed.py",
             "tests/interop/test_values107_torch.py", "tests/interop/test_values121_torch.py",
             "tests/interop/test_values132_torch.py", "tests/interop/test_values14_torch.py",
             "tests/interop/test_values160_torch.py", "tests/interop/test_values16_torch.py",
             "tests/interop/test_values192_torch.py", "tests/interop/test_values212_torch.py",
             "tests/interop/test_values224_torch.py", "tests/interop/test_values23_torch.py",
             "tests/interop/test_values241_torch.py", "tests/interop/test_values255_torch.py",
             "tests/interop/test_values25_torch.py", "tests/interop/test_values273_torch.py",
             "tests/interop/test_values290_torch.py", "tests/interop/test_values298_torch.py",
             "tests/interop/test_values309_torch.py", "tests/interop/test_values334_torch.py",
             "tests/interop/test_values359_torch.py", "tests/interop/test_values39_torch_lengths.py",
             "tests/interop/test_values41_torch.py", "tests/interop/test_values49_torch.py",
             "tests/interop/test_values49_torch_cell.py", "tests/interop/test_values74_torch_modules.py",
             "tests/interop/test_values74_torch_ops.py", "tests/interop/test_values86_torch.py",
             "tests/interop/test_values98_torch.py", "tests/interop/test_values_torch.py"]
OLD_STROKES = ["tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py",
               "tests/data/test_values109_strokes.py", "tests/data/test_values126_strokes.py",
               "tests/data/test_values12_strokes.py", "tests/data/test_values164_strokes.py",
               "tests/data/test_values200_strokes.py", "tests/data/test_values20_strokes.py",
               "tests/data/test_values21_strokes.py", "tests/data/test_values220_strokes.py",
               "tests/data/test_values232_strokes.py", "tests/data/test_values244_strokes.py",
               "tests/data/test_values246_kanjivg_strokes.py", "tests/data/test_values258_strokes.py",
               "tests/data/test_values299_strokes.py", "tests/data/test_values311_strokes.py",
               "tests/data/test_values339_strokes.py", "tests/data/test_values366_strokes_text.py",
               "tests/data/test_values44_strokes.py", "tests/data/test_values53_strokes.py",
               "tests/data/test_values76_strokes.py", "tests/data/test_values89_strokes.py",
               "tests/data/test_values_strokes.py"]
OLD_GRADCHECK = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py",
                 "tests/commands/test_values173_gradcheck_plan.py", "tests/commands/test_values215_gradcheck.py",
                 "tests/commands/test_values253_gradcheck.py", "tests/commands/test_values281_gradcheck_cli.py",
                 "tests/commands/test_values96_gradcheck_plan.py", "tests/test_values118_gradcheck.py",
                 "tests/test_values184_gradcheck.py", "tests/test_values214_gradcheck_files.py",
                 "tests/test_values267_gradcheck.py", "tests/test_values27_gradcheck.py",
                 "tests/test_values281_gradcheck.py", "tests/test_values373_gradcheck.py",
                 "tests/test_values409_gradcheck_problems.py", "tests/test_values430_gradcheck.py",
                 "tests/test_values83_gradcheck.py", "tests/test_values9_gradcheck.py",
                 "tests/test_values_gradcheck.py"]

MUTANTS = [
    dict(name="v433-setup-lists-passed-over", file=SETUP,
         old='or (top == "epoch_sums" and isinstance(meta[top], list)):',
         new='or (top != "epoch_sums" and isinstance(meta[top], list)):',
         tests=NEW_SETUP + OLD_SETUP,
         why="every record that is a list is passed over but epoch_sums, and the old epoch_sums list is refused"),
    dict(name="v433-setup-old-epoch-sums-checked-as-a-table", file=SETUP,
         old=' or (top == "epoch_sums" and isinstance(meta[top], list)):',
         new=":",
         tests=NEW_SETUP + OLD_SETUP,
         why="the list of four epoch sums lnrnn 0.1 wrote is refused as not a table"),
    dict(name="v433-setup-rows-any-list", file=SETUP,
         old="return None if isinstance(value, list) and all(isinstance(r, dict) for r in value) else",
         new="return None if isinstance(value, list) else",
         tests=NEW_SETUP + OLD_SETUP,
         why="metrics or lr_changes rows that are not tables are resumed"),
    dict(name="v433-plot-unknown-metric-in-percent", file=PLOT,
         old="        percent = METRIC_INFO.get(m, (m, False))[1]\n",
         new="        percent = METRIC_INFO.get(m, (m, True))[1]\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="a metric lnrnn does not know is drawn times 100"),
    dict(name="v433-plot-unknown-metric-noted-in-percent", file=PLOT,
         old="    label, percent = METRIC_INFO.get(metric, (metric, False))\n",
         new="    label, percent = METRIC_INFO.get(metric, (metric, True))\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="the legend notes a metric lnrnn does not know as a percentage"),
    dict(name="v433-torch-cpu-beside-cuda-taken", file=TORCH,
         old="    if len(devices) > 1 or not {d.type for d in devices} <= {\"cpu\", \"cuda\"}:\n",
         new="    if len(devices) > 2 or not {d.type for d in devices} <= {\"cpu\", \"cuda\"}:\n",
         tests=NEW_TORCH + OLD_TORCH,
         why="a CPU tensor beside a CUDA one is passed to the kernels"),
    dict(name="v433-torch-two-cuda-devices-taken", file=TORCH,
         old="    devices = {t.device for _, t in named}   # cuda:0 and cuda:1 are two\n"
             "    if len(devices) > 1 or not {d.type for d in devices} <= {\"cpu\", \"cuda\"}:\n",
         new="    devices = {t.device.type for _, t in named}\n"
             "    if len(devices) > 1 or not devices <= {\"cpu\", \"cuda\"}:\n",
         tests=NEW_TORCH + OLD_TORCH,
         why="tensors on cuda:0 and cuda:1 count as one device"),
    dict(name="v433-strokes-run-alphabet-only-when-none", file=STROKES,
         old="        if alphabet is not None and self.alphabet is not None and alphabet != self.alphabet:\n",
         new="        if alphabet is None and self.alphabet is not None and alphabet != self.alphabet:\n",
         tests=NEW_STROKES + OLD_STROKES,
         why="a writer's task keeps its own alphabet under a run with another, and loses it under a run without"),
    dict(name="v433-strokes-run-alphabet-given-to-a-task-without-texts", file=STROKES,
         old="        if alphabet is not None and self.alphabet is not None and alphabet != self.alphabet:\n",
         new="        if alphabet is not None and alphabet != self.alphabet:\n",
         tests=NEW_STROKES + OLD_STROKES,
         why="a task without texts is given the run's alphabet"),
    dict(name="v433-strokes-same-alphabet-noted", file=STROKES,
         old="        if alphabet is not None and self.alphabet is not None and alphabet != self.alphabet:\n",
         new="        if alphabet is not None and self.alphabet is not None:\n",
         tests=NEW_STROKES + OLD_STROKES,
         why="the run's own alphabet is noted in the description as another"),
    dict(name="v433-gradcheck-mdn-three-components", file=GRADCHECK,
         old='hc = ({"kind": "mdn", "components": 2, "per_step": True} if',
         new='hc = ({"kind": "mdn", "components": 3, "per_step": True} if',
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the mixture density check builds 3 components where its docstring names 2"),
    dict(name="v433-gradcheck-mdn-last-step", file=GRADCHECK,
         old='hc = ({"kind": "mdn", "components": 2, "per_step": True} if',
         new='hc = ({"kind": "mdn", "components": 2, "per_step": per_step} if',
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the mixture density check follows per_step, where the head reads every step"),
    dict(name="v433-gradcheck-four-classes", file=GRADCHECK,
         old='outputs = {"classifier": 3, "regression": 2, "mdn": 13}[head]',
         new='outputs = {"classifier": 4, "regression": 2, "mdn": 13}[head]',
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the classifier check builds 4 classes where its docstring names 3"),
]
