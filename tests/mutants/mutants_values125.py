"""Planted bugs, round 125 (format: tests/mutants/mutants.py): single-line slips in the train, read and eval
commands, the shared options and the CLI entry, a fifth pass, on lines no earlier round mutates: a UserError
printed as its repr, Ctrl-C's Interrupted exiting 1, every UserError raised as click's plain exception (exit 1),
-h dropped from the help options; lnrnn train's --lr-decay an integer, --log-every's default the batch size's,
rank 0 training alone when the MPI group cannot start and the other ranks exiting 0; --init defaulting to
identity, --steps a float, --task's help listing each task's loader instead of its description; lnrnn read's
--beam defaulting to 2 and its --out written as Latin-1; eval --json naming the set by --split.

14 mutants. Against the existing targeted tests alone (the two to three most direct files per module) 10 were
caught and 4 missed: -h dropped (no test asked for -h), --steps a float (every test gives whole numbers, which
arrive as 7.0 and pass the trainer's checks), --task's help from the loader (no test reads --task's help) and
--out as Latin-1 (the old tests' transcriptions are all ASCII). The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values125_cli (the Error: line against str() of the
error raised, the exit code against the error class's own, Ctrl-C's line and 130 for eval and read, -h's output
against --help's for the group and three commands), test_values125_train_options (lnrnn train with no options
against TrainConfig() field by field, every [default: ...] in --help against TrainConfig's field, each option's
value and type as given, refused types and each range check one past its bound as one Error: line naming the
option with no folder made and the task loader patched to fail, the bound itself reaching the loader; --task's
help against the registry's descriptions; a launcher without mpi4py stubbed on rank 0 and rank 1),
test_values125_read_eval (lnrnn read's stdout against lnrnn.read on the reader of test_values_api_read, with no
--beam and with 1 and 3; the beam lnrnn read passes by default against lnrnn.api.read's signature and --help;
--out's bytes against the texts encoded as UTF-8 by the test; --beam/--batch-size 1 taken and 0 refused before
the run is loaded; eval --json against evaluate_run on each --set). Dropped as equivalent or near it: `raise e`
returned instead of raised in _write_error (the caller raises what it gets, the same error either way); the
--tbptt/--bptt option's explicit name dropped (click names it tbptt from its first long flag anyway). Also
left out: --time-budget an integer (the same slip as --lr-decay's, caught by the same test).

    python tests/mutants/run.py --only 'v125-*'
"""
CLI = "lnrnn/cli.py"
TRAIN = "lnrnn/commands/train.py"
OPTIONS = "lnrnn/commands/options.py"
READ = "lnrnn/commands/read.py"
EVAL = "lnrnn/commands/eval.py"

# existing tests of these modules (the most direct ones)
CLI_OLD = ["tests/commands/test_commands_careful.py", "tests/commands/test_values32_options_errors.py"]
TRAIN_OLD = ["tests/commands/test_values69_train_options.py", "tests/commands/test_values_train_command.py",
             "tests/commands/test_values13_train_command.py"]
OPTIONS_OLD = ["tests/commands/test_values_options.py", "tests/commands/test_values69_train_options.py",
               "tests/commands/test_values39_bad_values.py"]
READ_OLD = ["tests/commands/test_values_read.py", "tests/commands/test_values26_read.py",
            "tests/commands/test_values62_read.py"]
EVAL_OLD = ["tests/commands/test_values_eval_predict.py", "tests/commands/test_values116_commands.py",
            "tests/commands/test_values119_commands.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CLI_NEW = ["tests/commands/test_values125_cli.py"]
TRAIN_NEW = ["tests/commands/test_values125_train_options.py"]
OPTIONS_NEW = ["tests/commands/test_values125_train_options.py"]
READ_NEW = ["tests/commands/test_values125_read_eval.py"]
EVAL_NEW = ["tests/commands/test_values125_read_eval.py"]

MUTANTS = [
    # ---- the CLI entry: a UserError's line and exit code, Ctrl-C's, -h ----
    dict(name="v125-cli-error-line-is-the-repr", file=CLI,
         old="super().__init__(str(err))",
         new="super().__init__(repr(err))",
         tests=CLI_NEW + CLI_OLD,
         why="a user's error is printed as the exception's repr: 'Error: UserError(\"...\")' instead of its sentence"),
    dict(name="v125-cli-interrupted-exits-1", file=CLI,
         old="    exit_code = 130",
         new="    exit_code = 1",
         tests=CLI_NEW + CLI_OLD,
         why="Ctrl-C in a command other than train exits 1, not 130 as the shell reports a process SIGINT ended"),
    dict(name="v125-cli-user-error-as-plain-click-exception", file=CLI,
         old="            raise _UserFacingError(e) from None",
         new="            raise click.ClickException(str(e)) from None",
         tests=CLI_NEW + CLI_OLD,
         why="every UserError exits with click's 1, whatever the error's own exit code (2; 3 for a diverged run)"),
    dict(name="v125-cli-no-short-help-option", file=CLI,
         old='context_settings={"help_option_names": ["-h", "--help"]}',
         new='context_settings={"help_option_names": ["--help"]}',
         tests=CLI_NEW + CLI_OLD,
         why="-h is no longer help: `lnrnn -h` and `lnrnn train -h` are refused as unknown options"),
    # ---- lnrnn train: option types and defaults, the MPI group's failure ----
    dict(name="v125-train-lr-decay-an-int", file=TRAIN,
         old='"--lr-decay", type=float',
         new='"--lr-decay", type=int',
         tests=TRAIN_NEW + TRAIN_OLD,
         why="--lr-decay 0.5 is refused as not an integer (and the decay can only be 0 or 1)"),
    dict(name="v125-train-log-every-default-from-batch-size", file=TRAIN,
         old='"--log-every", type=int, default=D.log_every',
         new='"--log-every", type=int, default=D.batch_size',
         tests=TRAIN_NEW + TRAIN_OLD,
         why="--log-every's default is the batch size's (16), not TrainConfig's 10 (and --help shows 16)"),
    dict(name="v125-train-rank0-group-error-swallowed", file=TRAIN,
         old="            raise SystemExit(2) from None\n        raise",
         new="            raise SystemExit(2) from None\n        return distributed.SINGLE",
         tests=TRAIN_NEW + TRAIN_OLD,
         why="under a launcher without mpi4py rank 0 trains alone as one process instead of saying what to install"),
    dict(name="v125-train-other-ranks-exit-0", file=TRAIN,
         old="raise SystemExit(2) from None",
         new="raise SystemExit(0) from None",
         tests=TRAIN_NEW + TRAIN_OLD,
         why="the ranks other than 0 exit 0 when the group cannot start: the launcher sees success"),
    # ---- the shared options ----
    dict(name="v125-options-init-default-identity", file=OPTIONS,
         old="default=D.init, show_default=True",
         new='default="identity", show_default=True',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="--init defaults to identity blocks, not TrainConfig's orthogonal (and --help shows identity)"),
    dict(name="v125-options-steps-a-float", file=OPTIONS,
         old='"--steps", type=int',
         new='"--steps", type=float',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="--steps 7.5 is taken (a float sequence length reaches the config) and 7 arrives as 7.0"),
    dict(name="v125-options-task-help-from-the-loader", file=OPTIONS,
         old='f"{k}: {v[1]}"',
         new='f"{k}: {v[0]}"',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="--task's help lists each task's loader function instead of its description"),
    # ---- lnrnn read ----
    dict(name="v125-read-beam-default-2", file=READ,
         old='"--beam", type=int, default=1,',
         new='"--beam", type=int, default=2,',
         tests=READ_NEW + READ_OLD,
         why="lnrnn read searches a beam of 2 by default, not the best path lnrnn.read and the help promise"),
    dict(name="v125-read-out-file-latin1", file=READ,
         old='text.encode("utf-8")',
         new='text.encode("latin-1")',
         tests=READ_NEW + READ_OLD,
         why="--out writes Latin-1, not UTF-8: a kana or kanji reader's transcriptions fail to encode"),
    # ---- lnrnn eval ----
    dict(name="v125-eval-json-set-from-split", file=EVAL,
         old='"set": which',
         new='"set": split',
         tests=EVAL_NEW + EVAL_OLD,
         why="eval --json names the set by --split (null when omitted) instead of --set's val or train"),
]
