"""Planted bugs, round 446 (format: tests/mutants/mutants.py): the real survivors of a nineteenth and twentieth random
sample (tests/mutants/random_sample.py --seed N --count 40 --all-named: seed 19 on the tree after round 445, 34 of
40 caught; seed 20 on the same tree, 34 of 40) and two left from the eighteenth, with their neighbours, forty-first
pass.

Seed 19's 6 missed: 3 equivalent (the stack's join computed for the last layer too and never read; the CTC head's
unread labels filled with -2 for -1; the regression head's device targets reshaped with -2 for -1, which NumPy 2.4
reads as the one unknown size), 2 near (evaluation's alphabet size defaulting to 1 where a window model's config
lacks it, which none does; the beam's pruning bound tot0 - v, which only skips fewer hopeless candidates), 1 real:
functional.forward's row blocks counted from the input width, not the batch (rnd19-01: the same bits, rows being
independent, but fewer threads on a narrow input; no file watched the count). Seed 20's 6 missed: 1 equivalent (the
distributed update's list of runners of a cell without BN k1 + k0 long, read only to k1 - k0), 1 on a CUDA-only line
caught by the CUDA model files (rnd20-24: planted here with them), 4 real for the files named after their modules:
build's BN reduce for groups of more than 2 (rnd20-08: two ranks each normalize by their own half), the sample
command's --out default no longer shown in --help (rnd20-12), a save that fell due while the loss was high forgotten
(rnd20-20: caught by test_values_train_policies and test_values47_saves, named after no module), the y ratio of
StrokeTask.as_trained read from a third scale (rnd20-28: caught by test_values425_other_data only). Seed 18's window
line (rnd18-33), reached only by one-step chunks on the device, is taken up here too.

The planted bugs: the forward's blocks of the input width or of the steps, the backward's of the steps; the window
layer's and the recurrent layer's device statistics taken whole at t0 == 1 (CUDA); the device statistics read before
they are uploaded (CUDA); the BN reduce for groups of more than 2, or of 1 too; sample's --out and --steps defaults
hidden from --help; a waiting save forgotten, or not held at the first high update; the y ratio from a third scale
or the x ratio. 14 mutants. The old files named after each module (OLD_*, the synthesis, layer and model CUDA files
for the device lines) catch 1 of 14 (the device statistics read before their upload); the new files alone catch the
other 13 (NEW + OLD: 14 of 14).

    python tests/mutants/run.py --only 'v446-*'
"""
FUNCTIONAL = "lnrnn/model/functional.py"
WINDOW = "lnrnn/model/window.py"
LAYERS = "lnrnn/model/layers.py"
MODELS = "lnrnn/model/models.py"
SETUP = "lnrnn/training/setup.py"
SAMPLE = "lnrnn/commands/sample.py"
RECORDER = "lnrnn/training/recorder.py"
STROKES = "lnrnn/data/strokes.py"
NEW_FUNCTIONAL = ["tests/model/test_values446_blocks.py"]
NEW_SYNTHESIS_CUDA = ["tests/model/test_values446_synthesis_cuda.py"]
NEW_SETUP = ["tests/training/test_values446_setup.py"]
NEW_SAMPLE = ["tests/commands/test_values446_sample_cli_defaults.py"]
NEW_RECORDER = ["tests/training/test_values446_recorder.py"]
NEW_STROKES = ["tests/data/test_values446_strokes.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges; the command's
# own folder for the sample command)
OLD_FUNCTIONAL = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
                  "tests/model/test_values148_functional.py", "tests/model/test_values169_functional.py",
                  "tests/model/test_values16_functional.py", "tests/model/test_values204_functional.py",
                  "tests/model/test_values22_functional.py", "tests/model/test_values234_functional.py",
                  "tests/model/test_values252_functional.py", "tests/model/test_values310_functional.py",
                  "tests/model/test_values343_functional.py", "tests/model/test_values364_functional.py",
                  "tests/model/test_values384_functional.py", "tests/model/test_values438_functional.py",
                  "tests/model/test_values440_functional.py", "tests/model/test_values51_functional.py",
                  "tests/model/test_values77_functional.py"]
OLD_SETUP = ["tests/training/test_values114_setup.py", "tests/training/test_values142_setup.py",
             "tests/training/test_values180_setup_finetune.py", "tests/training/test_values210_setup_update.py",
             "tests/training/test_values260_setup.py", "tests/training/test_values279_plan_setup_evaluation.py",
             "tests/training/test_values321_setup.py", "tests/training/test_values348_setup.py",
             "tests/training/test_values371_runconfig_setup.py", "tests/training/test_values399_setup.py",
             "tests/training/test_values428_setup.py", "tests/training/test_values433_setup.py",
             "tests/training/test_values445_setup.py", "tests/training/test_values63_setup.py",
             "tests/training/test_values9_setup.py", "tests/training/test_values_setup.py"]
OLD_RECORDER = ["tests/training/test_stopping_recorder_parts.py", "tests/training/test_values102_recorder.py",
                "tests/training/test_values10_recorder.py", "tests/training/test_values122_recorder.py",
                "tests/training/test_values12_recorder.py", "tests/training/test_values134_recorder_resume.py",
                "tests/training/test_values20_recorder.py", "tests/training/test_values20_recorder_keep.py",
                "tests/training/test_values21_recorder.py", "tests/training/test_values243_train_recorder_summary.py",
                "tests/training/test_values274_recorder.py", "tests/training/test_values335_recorder.py",
                "tests/training/test_values362_recorder.py", "tests/training/test_values36_recorder.py",
                "tests/training/test_values398_recorder.py"]
OLD_STROKES = ["tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py",
               "tests/data/test_values109_strokes.py", "tests/data/test_values126_strokes.py",
               "tests/data/test_values12_strokes.py", "tests/data/test_values164_strokes.py",
               "tests/data/test_values200_strokes.py", "tests/data/test_values20_strokes.py",
               "tests/data/test_values21_strokes.py", "tests/data/test_values220_strokes.py",
               "tests/data/test_values232_strokes.py", "tests/data/test_values244_strokes.py",
               "tests/data/test_values246_kanjivg_strokes.py", "tests/data/test_values258_strokes.py",
               "tests/data/test_values299_strokes.py", "tests/data/test_values311_strokes.py",
               "tests/data/test_values339_strokes.py", "tests/data/test_values366_strokes_text.py",
               "tests/data/test_values433_strokes.py", "tests/data/test_values441_strokes.py",
               "tests/data/test_values44_strokes.py", "tests/data/test_values53_strokes.py",
               "tests/data/test_values76_strokes.py", "tests/data/test_values89_strokes.py",
               "tests/data/test_values_strokes.py"]
OLD_SAMPLE = ["tests/commands/test_sample.py", "tests/commands/test_sample_text.py",
              "tests/commands/test_values10_sample.py", "tests/commands/test_values126_sample_cli.py",
              "tests/commands/test_values12_sample.py", "tests/commands/test_values143_sample_cli.py",
              "tests/commands/test_values14_sample.py", "tests/commands/test_values208_sample_cli.py",
              "tests/commands/test_values20_sample.py", "tests/commands/test_values21_sample.py",
              "tests/commands/test_values221_sample_cli.py", "tests/commands/test_values237_train_sample.py",
              "tests/commands/test_values256_sampler.py", "tests/commands/test_values272_sample_cli.py",
              "tests/commands/test_values292_sample_text.py", "tests/commands/test_values300_sampler.py",
              "tests/commands/test_values308_sampler.py", "tests/commands/test_values322_data_sample.py",
              "tests/commands/test_values367_sample.py", "tests/commands/test_values400_sample_command.py",
              "tests/commands/test_values427_sample.py", "tests/commands/test_values428_sample.py",
              "tests/commands/test_values42_sampler.py", "tests/commands/test_values52_sample_cli.py",
              "tests/commands/test_values52_sampler.py", "tests/commands/test_values69_sample_errors.py",
              "tests/commands/test_values99_sample_cli.py", "tests/commands/test_values_sampler_rule.py"]
# the CUDA files that run a synthesis model's or a layer's update on the device, under the simulator
OLD_SYNTHESIS_CUDA = ["tests/model/test_synthesis_cuda.py", "tests/model/test_values441_synthesis_cuda.py"]
OLD_LAYERS_CUDA = ["tests/model/test_cuda_layers.py", "tests/model/test_values22_layers_cuda.py"]
CUDA_MODELS = ["tests/model/test_values20_models_cuda.py", "tests/model/test_values139_models_cuda.py"]

BLOCKS_F = ("                                         batch_blocks(x.shape[1]), lengths if spec.masked_kernel else "
            "None,")
BLOCKS_B = "                                   batch_blocks(B), **seed)"
STATS = ("            bufs = self.device_views[2] if t0 == 0 else {n: v[t0:t0 + T] for n, v in "
         "self.device_views[2].items()}")
KEPT = "        if stats is not None and all(a.shape[0] >= T for d in stats for a in d.values()):"
REDUCE = "    if group.size > 1:  # BatchNorm statistics of the global batch (LN and plain cells ignore it)"
OUT = '@click.option("--out", type=click.Path(dir_okay=False), default="samples.png", show_default=True,'
STEPS = '@click.option("--steps", type=int, default=700, show_default=True,'
WAIT = "        if due and t.high_streak > 0:\n            t.save_pending = True"
RATIO = "            ratio = np.array([self.scale[0] / scale[0], self.scale[1] / scale[1]], np.float32)"

MUTANTS = [
    dict(name="v446-forward-blocks-of-the-input-width", file=FUNCTIONAL, old=BLOCKS_F,
         new=BLOCKS_F.replace("x.shape[1]", "x.shape[2]"), tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL,
         why="a layer's forward splits its batch by the input's width: one thread for a one-pixel input (rnd19-01)"),
    dict(name="v446-forward-blocks-of-the-steps", file=FUNCTIONAL, old=BLOCKS_F,
         new=BLOCKS_F.replace("x.shape[1]", "x.shape[0]"), tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL,
         why="a layer's forward splits its batch by the number of steps"),
    dict(name="v446-backward-blocks-of-the-steps", file=FUNCTIONAL, old=BLOCKS_B,
         new=BLOCKS_B.replace("(B)", "(T)"), tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL,
         why="a layer's backward splits its batch by the number of steps"),
    dict(name="v446-window-device-statistics-whole-at-step-1", file=WINDOW, old=STATS,
         new=STATS.replace("t0 == 0", "t0 == 1"), tests=NEW_SYNTHESIS_CUDA + OLD_SYNTHESIS_CUDA,
         why="a window layer's chunk from step 1 on the device updates the statistics of step 0 (rnd18-33; CUDA)"),
    dict(name="v446-layer-device-statistics-whole-at-step-1", file=LAYERS, old=STATS,
         new=STATS.replace("t0 == 0", "t0 == 1"), tests=NEW_SYNTHESIS_CUDA + OLD_LAYERS_CUDA,
         why="a BN layer's chunk from step 1 on the device updates the statistics of step 0 (CUDA)"),
    dict(name="v446-device-statistics-none-read-as-kept", file=MODELS, old=KEPT,
         new=KEPT.replace("is not None", "is None"), tests=CUDA_MODELS,
         why="the first device update of a BN model reads statistics it has not uploaded yet (rnd20-24; CUDA)"),
    dict(name="v446-group-of-two-without-batch-statistics", file=SETUP, old=REDUCE,
         new=REDUCE.replace("> 1", "> 2"), tests=NEW_SETUP + OLD_SETUP,
         why="two MPI processes each normalize by their own half of the batch (rnd20-08)"),
    dict(name="v446-group-of-one-through-the-allreduce", file=SETUP, old=REDUCE,
         new=REDUCE.replace("> 1", ">= 1"), tests=NEW_SETUP + OLD_SETUP,
         why="one process runs the synchronized BatchNorm kernels for nothing"),
    dict(name="v446-sample-out-default-hidden", file=SAMPLE, old=OUT, new=OUT.replace("True", "False"),
         tests=NEW_SAMPLE + OLD_SAMPLE, why="lnrnn sample --help no longer says where the picture goes (rnd20-12)"),
    dict(name="v446-sample-steps-default-hidden", file=SAMPLE, old=STEPS, new=STEPS.replace("True", "False"),
         tests=NEW_SAMPLE + OLD_SAMPLE, why="lnrnn sample --help no longer says how many points a line may have"),
    dict(name="v446-waiting-save-forgotten", file=RECORDER, old=WAIT, new=WAIT.replace("True", "False"),
         tests=NEW_RECORDER + OLD_RECORDER,
         why="a save that fell due while the loss was high is never written (rnd20-20)"),
    dict(name="v446-first-high-update-saves", file=RECORDER, old=WAIT, new=WAIT.replace("> 0", "> 1"),
         tests=NEW_RECORDER + OLD_RECORDER,
         why="a save due at the first update above the blow-up level is written, not held back"),
    dict(name="v446-run-units-y-of-another-axis", file=STROKES, old=RATIO,
         new=RATIO.replace("self.scale[1] / scale[1]", "self.scale[2] / scale[1]"),
         tests=NEW_STROKES + OLD_STROKES, why="other data read in a run's units fails on its y offsets (rnd20-28)"),
    dict(name="v446-run-units-y-by-the-x-ratio", file=STROKES, old=RATIO,
         new=RATIO.replace("self.scale[1] / scale[1]", "self.scale[0] / scale[0]"),
         tests=NEW_STROKES + OLD_STROKES, why="other data's dy divided by the run's x scale"),
]
