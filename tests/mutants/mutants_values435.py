"""Planted bugs, round 435 (format: tests/mutants/mutants.py): the two survivors the sixth random sample left
(tests/mutants/random_sample.py --seed 6 --count 40 --all-named) and their neighbours: the finite-difference check's
defaults (lnrnn/gradcheck.py: check_model) and what a Trainer shows by default (lnrnn/training/train.py: quiet),
thirty-first pass.

The planted bugs: check_model's default turned to every step (the sample's rnd6-14), to one layer, to the regression
head, to skip connections, to both directions, to a hidden width equal to the input's; the Trainer's quiet default
turned (the sample's rnd6-25), train()'s, a quiet run that still draws (quiet or not root read as and), the bar's
quiet turned. 10 mutants. Every old file named after each module (OLD_GRADCHECK, OLD_TRAIN) catches 4 of 10, the
last three of train.py's and the bidirectional default (the window's checks then refuse: the synthesis network
cannot be bidirectional). The new files alone (test_values435_gradcheck, test_values435_train) catch 10 of 10, so
NEW + OLD does too (not run separately).

    python tests/mutants/run.py --only 'v435-*'
"""
GRADCHECK = "lnrnn/gradcheck.py"
TRAIN = "lnrnn/training/train.py"
NEW_GRADCHECK = ["tests/test_values435_gradcheck.py"]
NEW_TRAIN = ["tests/training/test_values435_train.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_GRADCHECK = ["tests/test_values118_gradcheck.py", "tests/test_values184_gradcheck.py",
                 "tests/test_values214_gradcheck_files.py", "tests/test_values267_gradcheck.py",
                 "tests/test_values27_gradcheck.py", "tests/test_values281_gradcheck.py",
                 "tests/test_values373_gradcheck.py", "tests/test_values409_gradcheck_problems.py",
                 "tests/test_values430_gradcheck.py", "tests/test_values433_gradcheck.py",
                 "tests/test_values83_gradcheck.py", "tests/test_values9_gradcheck.py",
                 "tests/test_values_gradcheck.py", "tests/commands/test_gradcheck_cli.py",
                 "tests/commands/test_values10_gradcheck.py", "tests/commands/test_values173_gradcheck_plan.py",
                 "tests/commands/test_values215_gradcheck.py", "tests/commands/test_values253_gradcheck.py",
                 "tests/commands/test_values281_gradcheck_cli.py", "tests/commands/test_values96_gradcheck_plan.py"]
OLD_TRAIN = ["tests/commands/test_values237_train_sample.py", "tests/commands/test_values245_train_data.py",
             "tests/commands/test_values125_train_options.py", "tests/commands/test_values13_train_command.py",
             "tests/commands/test_values143_train_cli.py", "tests/commands/test_values367_train_options.py",
             "tests/commands/test_values401_train_options.py", "tests/commands/test_values69_train_options.py",
             "tests/commands/test_values_train_command.py", "tests/training/test_stopping_recorder_parts.py",
             "tests/training/test_values17_train.py", "tests/training/test_values25_training.py",
             "tests/training/test_values33_train.py", "tests/training/test_values393_train.py",
             "tests/training/test_values427_train.py", "tests/training/test_values_train.py",
             "tests/training/test_values_train_schedule.py", "tests/commands/test_pretrained.py",
             "tests/commands/test_values208_train_options.py", "tests/commands/test_values263_train_data.py"]

CHECK_MODEL = ('def check_model(cell, norm, head="classifier", per_step=False, T=5, B=3, I=3, H=4, num_layers=2, '
               'seed=0,\n'
               '                max_elems=40, lengths=None, skip=False, window=0, alphabet=5, bidirectional=False):\n')


def check_model_default(old, new):
    assert old in CHECK_MODEL
    return CHECK_MODEL.replace(old, new, 1)


MUTANTS = [
    dict(name="v435-check-model-every-step-by-default", file=GRADCHECK, old=CHECK_MODEL,
         new=check_model_default("per_step=False", "per_step=True"),
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the default check is of a classifier on every step (the sixth sample's rnd6-14)"),
    dict(name="v435-check-model-one-layer-by-default", file=GRADCHECK, old=CHECK_MODEL,
         new=check_model_default("num_layers=2", "num_layers=1"),
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the default check leaves out a layer fed by another (the stack's inner gradients)"),
    dict(name="v435-check-model-regression-by-default", file=GRADCHECK, old=CHECK_MODEL,
         new=check_model_default('head="classifier"', 'head="regression"'),
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the default check is of another head than its docstring's first"),
    dict(name="v435-check-model-skip-by-default", file=GRADCHECK, old=CHECK_MODEL,
         new=check_model_default("skip=False", "skip=True"),
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the default check's layers read the input beside the layer below"),
    dict(name="v435-check-model-bidirectional-by-default", file=GRADCHECK, old=CHECK_MODEL,
         new=check_model_default("bidirectional=False", "bidirectional=True"),
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the default check runs every layer both ways"),
    dict(name="v435-check-model-shapes-by-default", file=GRADCHECK, old=CHECK_MODEL,
         new=check_model_default("T=5, B=3, I=3, H=4", "T=5, B=3, I=3, H=3"),
         tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the default check's hidden width equals its input width, so a transposed weight is not seen"),
    dict(name="v435-trainer-quiet-by-default", file=TRAIN,
         old=("    def __init__(self, cfg, resume=False, explicit=(), quiet=False, log=None, stream=None, hook=None, "
              "group=None):\n"),
         new=("    def __init__(self, cfg, resume=False, explicit=(), quiet=True, log=None, stream=None, hook=None, "
              "group=None):\n"),
         tests=NEW_TRAIN + OLD_TRAIN,
         why="a Trainer built without quiet shows no bar (the sixth sample's rnd6-25)"),
    dict(name="v435-train-quiet-by-default", file=TRAIN,
         old="def train(cfg, resume=False, explicit=(), quiet=False, log=None, stream=None, hook=None, group=None):\n",
         new="def train(cfg, resume=False, explicit=(), quiet=True, log=None, stream=None, hook=None, group=None):\n",
         tests=NEW_TRAIN + OLD_TRAIN,
         why="train() called without quiet shows no bar"),
    dict(name="v435-trainer-quiet-never", file=TRAIN,
         old="        self.quiet, self.stream, self.hook = quiet or not root, stream, hook\n",
         new="        self.quiet, self.stream, self.hook = quiet and not root, stream, hook\n",
         tests=NEW_TRAIN + OLD_TRAIN,
         why="a quiet run on one process still draws its bar"),
    dict(name="v435-bar-quiet-turned", file=TRAIN,
         old=('                bar = Progress(n, f"epoch {self.epoch + 1}/{cfg.epochs}", stream=self.stream, '
              'quiet=self.quiet,\n'),
         new=('                bar = Progress(n, f"epoch {self.epoch + 1}/{cfg.epochs}", stream=self.stream, '
              'quiet=not self.quiet,\n'),
         tests=NEW_TRAIN + OLD_TRAIN,
         why="the epoch's bar shows in quiet runs and hides in the others"),
]
