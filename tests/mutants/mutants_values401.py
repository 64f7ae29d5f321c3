"""Planted bugs, round 401 (format: tests/mutants/mutants.py): single-line slips in the train command
(lnrnn/commands/train.py) and the options it shares (lnrnn/commands/options.py), twentieth pass, planted before
any test was written for them.

The planted bugs: --state-noise defaulting to 0 (BN cells on tasks that begin alike lose their 0.1); --head
defaulting to mdn; --time-budget taking whole seconds only; --best-metric without cer; --reproducible on by default;
a read-only file system met mid-run ending in a traceback; --keep defaulting to 1; --eval-every defaulting to
--log-every's 10; --clip defaulting to --clip-gates' 0 (clipping off); -q no longer short for --quiet; --forget-bias
taking whole numbers only; --skip without its --no-skip; --save-every-seconds taking whole seconds only; --data-dir
refusing a file (the npz tasks' .npz). 14 mutants. The old targeted files alone (the train command's and the shared
options' test files in OLD) catch 10 of 14; missed: --best-metric cer refused, --no-skip gone, --save-every-seconds
in whole seconds, --data-dir refusing a file. test_values401_train_options checks, with the trainer replaced by a
recorder, every option left out against TrainConfig's field, fractional seconds and biases, --skip and --no-skip,
--data-dir naming a file, the trainer's own lists of best metrics and heads as choices, -q in every command that has
--quiet, and each documented file-system refusal's line and advice word for word. NEW + OLD catch 14 of 14; the new
file alone catches 14 of 14. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v401-*'
"""
TRAIN = "lnrnn/commands/train.py"
OPTIONS = "lnrnn/commands/options.py"
NEW = ["tests/commands/test_values401_train_options.py"]
OLD = [
    "tests/commands/test_values_train_command.py",
    "tests/commands/test_values13_train_command.py",
    "tests/commands/test_values69_train_options.py",
    "tests/commands/test_values125_train_options.py",
    "tests/commands/test_values143_train_cli.py",
    "tests/commands/test_values208_train_options.py",
    "tests/commands/test_values237_train_sample.py",
    "tests/commands/test_values245_train_data.py",
    "tests/commands/test_values263_train_data.py",
    "tests/commands/test_values367_train_options.py",
    "tests/commands/test_values_options.py",
    "tests/commands/test_values32_options_errors.py",
    "tests/commands/test_values229_options.py",
    "tests/commands/test_values271_options_info.py",
    "tests/commands/test_values322_info_options.py",
]

MUTANTS = [
    dict(name="v401-train-state-noise-default-zero", file=TRAIN,
         old='@click.option("--state-noise", type=float, default=D.state_noise,',
         new='@click.option("--state-noise", type=float, default=0.0,',
         tests=NEW + OLD,
         why="--state-noise left out is 0, not the task's default: BN cells on mnist or digits lose their 0.1 noise"),
    dict(name="v401-train-head-default-mdn", file=TRAIN,
         old='@click.option("--head", type=click.Choice(["mdn", "ctc"]), default=D.head,',
         new='@click.option("--head", type=click.Choice(["mdn", "ctc"]), default="mdn",',
         tests=NEW + OLD,
         why="--head left out is mdn: every task that is not a stroke task is refused for naming a head"),
    dict(name="v401-train-time-budget-whole-seconds", file=TRAIN,
         old='@click.option("--time-budget", type=float,',
         new='@click.option("--time-budget", type=int,',
         tests=NEW + OLD,
         why="--time-budget 0.5 or 90.5 is refused: only whole seconds parse"),
    dict(name="v401-train-best-metric-without-cer", file=TRAIN,
         old='click.Choice(["loss", "acc", "cer", "none"])',
         new='click.Choice(["loss", "acc", "none"])',
         tests=NEW + OLD,
         why="--best-metric cer, the reader's own metric, is refused by the command line"),
    dict(name="v401-train-reproducible-on-by-default", file=TRAIN,
         old='@click.option("--reproducible", is_flag=True, default=D.reproducible,',
         new='@click.option("--reproducible", is_flag=True, default=True,',
         tests=NEW + OLD,
         why="every run is --reproducible (block by block, slower) though the flag was not given"),
    dict(name="v401-train-read-only-disk-traceback", file=TRAIN,
         old="errno.EPERM, errno.EROFS, errno.EIO)",
         new="errno.EPERM, errno.EIO)",
         tests=NEW + OLD,
         why="a run folder on a file system remounted read-only mid-run ends in a traceback, not one line"),
    dict(name="v401-train-keep-default-one", file=TRAIN,
         old='@click.option("--keep", type=int, default=D.keep,',
         new='@click.option("--keep", type=int, default=1,',
         tests=NEW + OLD,
         why="--keep left out keeps one checkpoint besides the latest (checkpoints/update-N/ fills the disk)"),
    dict(name="v401-train-eval-every-from-log-every", file=TRAIN,
         old='@click.option("--eval-every", type=int, default=D.eval_every,',
         new='@click.option("--eval-every", type=int, default=D.log_every,',
         tests=NEW + OLD,
         why="--eval-every left out evaluates every 10 updates, not at epoch ends only"),
    dict(name="v401-train-clip-default-from-clip-gates", file=TRAIN,
         old='@click.option("--clip", type=float, default=D.clip,',
         new='@click.option("--clip", type=float, default=D.clip_gates,',
         tests=NEW + OLD,
         why="--clip left out is 0: gradient-norm clipping is off by default"),
    dict(name="v401-options-quiet-without-q", file=OPTIONS,
         old='quiet_option = click.option("--quiet", "-q",',
         new='quiet_option = click.option("--quiet",',
         tests=NEW + OLD,
         why="-q, the documented short form of --quiet, is no longer an option of any command"),
    dict(name="v401-options-forget-bias-whole-numbers", file=OPTIONS,
         old='click.option("--forget-bias", type=float,',
         new='click.option("--forget-bias", type=int,',
         tests=NEW + OLD,
         why="--forget-bias 0.5 is refused: only whole numbers parse"),
    dict(name="v401-options-skip-without-no-skip", file=OPTIONS,
         old='click.option("--skip/--no-skip",',
         new='click.option("--skip",',
         tests=NEW + OLD,
         why="--no-skip is gone: a strokes run cannot turn Graves's skip connections off"),
    dict(name="v401-train-save-every-seconds-whole", file=TRAIN,
         old='"--save-every-seconds", type=float,',
         new='"--save-every-seconds", type=int,',
         tests=NEW + OLD,
         why="--save-every-seconds 0.5 or 90.5 is refused: only whole seconds parse"),
    dict(name="v401-options-data-dir-folders-only", file=OPTIONS,
         old='"--data-dir", type=click.Path(), default=D.data_dir,',
         new='"--data-dir", type=click.Path(file_okay=False), default=D.data_dir,',
         tests=NEW + OLD,
         why="--data-dir x.npz, the npz and strokes-npz tasks' own file, is refused as a file"),
]
