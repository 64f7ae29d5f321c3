"""Planted bugs, round 427 (format: tests/mutants/mutants.py): the survivors of a random sample of single-token bugs
planted outside the kernels and judged by the test files named after each module, and their neighbours: the loop's
stop on an epoch's last batch (lnrnn/training/train.py), the settings' types (lnrnn/training/runconfig.py:
mistyped), the hyper-parameters' ranges (lnrnn/training/optim.py: hyper_problem), lnrnn sample's defaults and
--no-cap (lnrnn/commands/sample.py) and the stroke files' byte limit (lnrnn/data/iamondb.py: read_limited),
twenty-third pass.

The planted bugs: a stop on an epoch's last batch that skips the epoch's end; the settings' number rule inverted, an
Optional setting not checked, a float taken as an int; centred 2 or 0.5 taken (and the Graves optimizer's own 1
refused), a learning rate or eps of 0 taken, a negative decay taken; lnrnn sample's --seed, --count and --steps
defaults changed, --no-cap taking a value; the stroke files' growth past the limit unchecked or off by one, a device
read to its end, the refusal naming the limit as the size. 16 mutants. The old files named after each module
(OLD_TRAIN, OLD_RUNCONFIG, OLD_OPTIM, OLD_SAMPLE, OLD_IAMONDB) catch 1 of 16: the growth check off by one, which
refuses ordinary files. The new files alone (test_values427_train, _runconfig, _optim, _sample, _iamondb) catch 16
of 16, so NEW + OLD does too (not run separately). How they were found: 40 single-token bugs (a comparison, an
arithmetic or boolean operator, a small integer, min for max, True for False) planted at random lines of lnrnn
outside the kernels, each judged by up to 8 test files named after its module or importing it by name: 31 of 39
judged were caught (one more could not be judged: its tests failed without it, on a change then in progress). Of the
8 missed, two sit on lines only the CUDA twins run (judged here without the simulator's files); the other six are
planted here with their neighbours. The checks of mistyped and hyper_problem were already in the suite, in the
resume's damaged-description file, which a change to runconfig.py or optim.py does not find by name: they moved to
files named after their modules, widened to each rule's boundaries. The byte limit read one byte past a file's size
and never looked at it: read_limited now refuses a file that gives more than the limit (a device such as /dev/zero,
a file growing while read).

    python tests/mutants/run.py --only 'v427-*'
"""
NEW_TRAIN = ["tests/training/test_values427_train.py"]
NEW_RUNCONFIG = ["tests/training/test_values427_runconfig.py"]
NEW_OPTIM = ["tests/training/test_values427_optim.py"]
NEW_SAMPLE = ["tests/commands/test_values427_sample.py"]
NEW_IAMONDB = ["tests/data/test_values427_iamondb.py"]
TRAIN = "lnrnn/training/train.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
OPTIM = "lnrnn/training/optim.py"
SAMPLE = "lnrnn/commands/sample.py"
IAMONDB = "lnrnn/data/iamondb.py"
# the files named after each module, as a developer who changed it would run them
OLD_TRAIN = ["tests/commands/test_values13_train_command.py", "tests/commands/test_values143_train_cli.py",
             "tests/commands/test_values125_train_options.py", "tests/training/test_values_train.py",
             "tests/training/test_values202_train_run.py"]
OLD_RUNCONFIG = ["tests/training/test_values102_runconfig.py", "tests/training/test_values13_runconfig.py",
                 "tests/training/test_values209_runconfig.py", "tests/training/test_values266_runconfig.py",
                 "tests/training/test_values348_runconfig.py", "tests/training/test_values_runconfig.py"]
OLD_OPTIM = ["tests/training/test_optim.py", "tests/training/test_values_optim.py",
             "tests/training/test_values118_optim.py", "tests/training/test_values130_optim.py",
             "tests/training/test_values157_optim.py", "tests/training/test_values180_optim.py"]
OLD_SAMPLE = ["tests/commands/test_sample.py", "tests/commands/test_values10_sample.py",
              "tests/commands/test_values126_sample_cli.py", "tests/commands/test_values208_sample_cli.py",
              "tests/commands/test_values400_sample_command.py"]
OLD_IAMONDB = ["tests/data/test_values15_iamondb.py", "tests/data/test_values111_iamondb.py",
               "tests/data/test_values135_iamondb.py", "tests/data/test_values170_iamondb.py",
               "tests/data/test_values249_iamondb_files.py"]

MUTANTS = [
    dict(name="v427-stop-on-the-last-batch-skips-the-epochs-end", file=TRAIN,
         old="                        if self.batch_in_epoch < nb:\n                            break\n",
         new="                        if self.batch_in_epoch <= nb:\n                            break\n",
         tests=NEW_TRAIN + OLD_TRAIN,
         why="a run stopped on an epoch's last batch neither evaluates nor ends the epoch: its checkpoint says "
             "batch 3 of 3"),
    dict(name="v427-mistyped-number-rule-inverted", file=RUNCONFIG,
         old="        ok = isinstance(value, (int, float) if kind is float else kind)\n",
         new="        ok = isinstance(value, (int, float) if kind is not float else kind)\n",
         tests=NEW_RUNCONFIG + OLD_RUNCONFIG,
         why="every text setting is called mistyped, and an int learning rate too: no run resumes"),
    dict(name="v427-mistyped-optional-skipped", file=RUNCONFIG,
         old="        if value is None and optional:\n            continue\n",
         new="        if optional:\n            continue\n",
         tests=NEW_RUNCONFIG + OLD_RUNCONFIG,
         why="an Optional setting of another type (hidden 8.0, skip 'false') is not checked"),
    dict(name="v427-mistyped-int-takes-a-float", file=RUNCONFIG,
         old="        ok = isinstance(value, (int, float) if kind is float else kind)\n",
         new="        ok = isinstance(value, (int, float) if kind in (float, int) else kind)\n",
         tests=NEW_RUNCONFIG + OLD_RUNCONFIG,
         why="hidden 8.0 passes as an int, and later sizes an array with a float"),
    dict(name="v427-centred-two-taken", file=OPTIM,
         old='        if name == "centred" and v not in (0, 1):\n',
         new='        if name == "centred" and v not in (0, 2):\n',
         tests=NEW_OPTIM + OLD_OPTIM,
         why="the Graves optimizer's own centred 1.0 is refused (no such run resumes) and 2 is taken"),
    dict(name="v427-centred-between-taken", file=OPTIM,
         old='        if name == "centred" and v not in (0, 1):\n',
         new='        if name == "centred" and not 0 <= v <= 1:\n',
         tests=NEW_OPTIM + OLD_OPTIM,
         why="centred 0.5 is taken: half a centring the update does not have"),
    dict(name="v427-lr-zero-taken", file=OPTIM,
         old='        if name in ("lr", "eps") and not v > 0:\n',
         new='        if name in ("lr", "eps") and v < 0:\n',
         tests=NEW_OPTIM + OLD_OPTIM,
         why="a learning rate of 0 (a run that never moves) or eps 0 (a division by zero) is taken"),
    dict(name="v427-negative-decay-taken", file=OPTIM,
         old='        if name in ("beta1", "beta2", "alpha", "momentum") and not 0 <= v < 1:\n',
         new='        if name in ("beta1", "beta2", "alpha", "momentum") and not v < 1:\n',
         tests=NEW_OPTIM + OLD_OPTIM,
         why="a negative decay factor is taken"),
    dict(name="v427-sample-seed-default-one", file=SAMPLE,
         old='@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,',
         new='@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,',
         tests=NEW_SAMPLE + OLD_SAMPLE,
         why="no --seed is not --seed 0, as the help says: the same command draws another picture after an "
             "upgrade"),
    dict(name="v427-sample-no-cap-takes-a-value", file=SAMPLE,
         old='@click.option("--no-cap", is_flag=True, default=False,\n',
         new='@click.option("--no-cap", is_flag=False, default=False,\n',
         tests=NEW_SAMPLE + OLD_SAMPLE,
         why="--no-cap swallows the option after it as its value"),
    dict(name="v427-sample-count-default-one", file=SAMPLE,
         old='@click.option("--count", type=int, default=4, show_default=True,\n',
         new='@click.option("--count", type=int, default=1, show_default=True,\n',
         tests=NEW_SAMPLE + OLD_SAMPLE,
         why="one sample where four are documented"),
    dict(name="v427-sample-steps-default", file=SAMPLE,
         old='@click.option("--steps", type=int, default=700, show_default=True,\n',
         new='@click.option("--steps", type=int, default=7000, show_default=True,\n',
         tests=NEW_SAMPLE + OLD_SAMPLE,
         why="ten times the documented points: a default sample takes minutes"),
    dict(name="v427-limit-growth-unchecked", file=IAMONDB,
         old="    if len(raw) > limit:\n",
         new="    if len(raw) > limit + 1:\n",
         tests=NEW_IAMONDB + OLD_IAMONDB,
         why="a file that grew past the limit while it was read (or /dev/zero) is parsed"),
    dict(name="v427-limit-growth-off-by-one", file=IAMONDB,
         old="    if len(raw) > limit:\n",
         new="    if len(raw) >= limit:\n",
         tests=NEW_IAMONDB + OLD_IAMONDB,
         why="a file of exactly the limit that grew to it is refused"),
    dict(name="v427-limit-reads-everything", file=IAMONDB,
         old="            raw = f.read(limit + 1)\n",
         new="            raw = f.read()\n",
         tests=NEW_IAMONDB + OLD_IAMONDB,
         why="a device of endless bytes is read to the end of memory"),
    dict(name="v427-limit-growth-words-say-the-limit", file=IAMONDB,
         old='f"{size:,} bytes, said); it is not a file of this data set.")\n',
         new='f"{limit:,} bytes, said); it is not a file of this data set.")\n',
         tests=NEW_IAMONDB + OLD_IAMONDB,
         why="the refusal says the file's size was the limit"),
]
