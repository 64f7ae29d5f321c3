"""Planted bugs, round 208 (format: tests/mutants/mutants.py): single-line slips in lnrnn sample, lnrnn train,
the shared options and lnrnn data mnist, on lines no earlier round mutates.

lnrnn sample naming the prime's text option as --prime-strokes, taking a free run (--text given as the empty
tuple) for a text run, titling its picture with the model config's cell or with --steps for the run's update,
dropping --attention on its way to the drawing and handing the sampler the --prime-strokes path instead of its
points; lnrnn train counting -q among the options given and hiding --best-metric's default in its help;
--layers read as a float, --data-dir refused by click when the folder does not exist, --device letting 'gpu'
through; lnrnn data mnist asking the mirror without a timeout, downloading into the system's temporary folder
instead of --dest and naming the HTTP reason phrase where the code belongs.

14 mutants. Against the existing targeted tests alone 5 were caught and 9 missed: the title's cell and update
(no old test looks at the title), the prime's path for its points (no old test looks at what the sampler is
handed), -q counted as given (no old test passes -q to a stubbed trainer), --best-metric's default in the help,
--data-dir required to exist (every old --data-dir exists), --device gpu (no old test gives a third device),
the temporary file outside --dest (the rename works within one file system) and the HTTP reason phrase (no old
test makes the mirror answer an HTTP error). The new value tests catch all 14 on their own (checked with the old
tests taken off the lists): test_values208_sample_cli (the sampler and the drawings replaced by stand-ins that
record their arguments: the title spelled here from the saved meta, --count's rows from the option's own
default, --attention as given, the prime's (N,3) points against the file written here, half a prime refused
in the options' names before the run loads, nothing written), test_values208_train_options (the options
counted as given with -q, --layers and --hidden as ints with a fraction refused, --device's two choices, a
missing --data-dir passed on, the help's defaults against TrainConfig's), test_values208_data (urlopen
replaced: the URL and timeout it is asked with against the module's TIMEOUT_S, the temporary file seen in
--dest while downloading and nothing left in the system's temporary folder, the HTTP 404 line word for word,
a --dest under a file naming that file before any request). Dropped before the catalogue as equivalent or
near it: `resp.read()` for `resp.read(1 << 16)` (the same bytes, in one piece), `os.rename` for `os.replace` (the same
on POSIX) and the optimizer choice built from `sorted(OPTIMIZERS)` (the same names). Also left out to keep the
round at 14: --task's help without its default (the same slip as --best-metric's) and a --dest under a file
named as --dest itself (its test is kept in test_values208_data). Not yet planted: `if config_file:` for `is
not None` in lnrnn train (an empty --config would be ignored instead of refused).

    python tests/mutants/run.py --only 'v208-*'
"""
SAMPLE = "lnrnn/commands/sample.py"
TRAIN = "lnrnn/commands/train.py"
OPTIONS = "lnrnn/commands/options.py"
DATA = "lnrnn/commands/data.py"

# existing tests of these modules
SAMPLE_OLD = ["tests/commands/test_values143_sample_cli.py", "tests/commands/test_values99_sample_cli.py",
              "tests/commands/test_values126_sample_cli.py", "tests/commands/test_values52_sample_cli.py",
              "tests/commands/test_values69_sample_errors.py", "tests/commands/test_sample_text.py"]
TRAIN_OLD = ["tests/commands/test_values143_train_cli.py", "tests/commands/test_values13_train_command.py",
             "tests/commands/test_values_train_command.py", "tests/commands/test_values69_train_options.py",
             "tests/commands/test_values125_train_options.py"]
OPTIONS_OLD = ["tests/commands/test_values143_train_cli.py", "tests/commands/test_values_options.py",
               "tests/commands/test_values32_options_errors.py", "tests/commands/test_values69_train_options.py",
               "tests/commands/test_values125_train_options.py"]
DATA_OLD = ["tests/commands/test_values_data.py", "tests/commands/test_values131_data.py",
            "tests/commands/test_values173_info_data.py", "tests/commands/test_values69_data.py",
            "tests/commands/test_values17_data.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/commands/test_values208_sample_cli.py"]
TRAIN_NEW = ["tests/commands/test_values208_train_options.py"]
OPTIONS_NEW = ["tests/commands/test_values208_train_options.py"]
DATA_NEW = ["tests/commands/test_values208_data.py"]

MUTANTS = [
    # ---- lnrnn sample ----
    dict(name="v208-sample-prime-text-named-as-strokes", file=SAMPLE,
         old='"prime_text": "--prime-text"}',
         new='"prime_text": "--prime-strokes"}',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the CLI's name for prime_text is copied from the line before: half a prime is refused as "
             "'--prime-strokes needs --prime-strokes' (or names the wrong option for the text)"),
    dict(name="v208-sample-free-run-taken-as-text", file=SAMPLE,
         old="    if texts:\n        if ctx.get_parameter_source",
         new="    if texts is not None:\n        if ctx.get_parameter_source",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--text is a tuple, () when not given, never None: a free run counts its 0 lines as its rows and "
             "--attention or --judge without --text are no longer refused"),
    dict(name="v208-sample-title-model-cell", file=SAMPLE,
         old='    cell = meta.get("train", {}).get("cell", "?")',
         new='    cell = meta.get("model", {}).get("cell", "?")',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the picture's title takes the model config's cell (the bare 'lstm' without its norm) instead of the "
             "cell the run was trained with ('ln-lstm')"),
    dict(name="v208-sample-title-update-is-steps", file=SAMPLE,
         old="update {meta.get('step')}, bias",
         new="update {steps}, bias",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the title's update is --steps (the points per sample), not the update the run was saved at"),
    dict(name="v208-sample-attention-not-drawn", file=SAMPLE,
         old="draw_written(lines, out, title, attention=attention)",
         new="draw_written(lines, out, title, attention=False)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--attention is checked and accepted but never reaches the drawing: no phi panel beneath the lines"),
    dict(name="v208-sample-prime-path-not-points", file=SAMPLE,
         old="prime_strokes=prime_points, prime_text=prime_text)",
         new="prime_strokes=prime_strokes, prime_text=prime_text)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the sampler gets the --prime-strokes path instead of the (N,3) points read and checked from it"),
    # ---- lnrnn train and the shared options ----
    dict(name="v208-train-explicit-from-ctx-params", file=TRAIN,
         old="    explicit = {k for k in options if ctx.get_parameter_source(k) in",
         new="    explicit = {k for k in ctx.params if ctx.get_parameter_source(k) in",
         tests=TRAIN_NEW + TRAIN_OLD,
         why="the options counted as given are taken from all the command's parameters: -q (and --resume, "
             "--config) count as training options given"),
    dict(name="v208-train-best-metric-default-hidden", file=TRAIN,
         old='              show_default=True,\n              help="Keep RUN_FOLDER/best/',
         new='              show_default=False,\n              help="Keep RUN_FOLDER/best/',
         tests=TRAIN_NEW + TRAIN_OLD,
         why="--best-metric's help no longer says its default (loss)"),
    dict(name="v208-options-layers-float", file=OPTIONS,
         old='click.option("--layers", type=int,',
         new='click.option("--layers", type=float,',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="--layers is read as a float: 2 arrives as 2.0 and 1.5 passes the option check"),
    dict(name="v208-options-data-dir-must-exist", file=OPTIONS,
         old='"--data-dir", type=click.Path(), default=D.data_dir',
         new='"--data-dir", type=click.Path(exists=True), default=D.data_dir',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="click refuses a --data-dir that does not exist before the task's loader can say what to pass and "
             "where to get it"),
    dict(name="v208-options-device-gpu-let-through", file=OPTIONS,
         old='type=click.Choice(["cpu", "cuda"]), default=D.device',
         new='type=click.Choice(["cpu", "cuda", "gpu"]), default=D.device',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="--device accepts 'gpu', which no backend knows: the run starts and fails later instead of click "
             "refusing it"),
    # ---- lnrnn data mnist ----
    dict(name="v208-data-no-timeout", file=DATA,
         old="urllib.request.urlopen(url, timeout=TIMEOUT_S)",
         new="urllib.request.urlopen(url)",
         tests=DATA_NEW + DATA_OLD,
         why="the request has no timeout: a mirror that stops answering hangs the download forever"),
    dict(name="v208-data-temp-outside-dest", file=DATA,
         old='tempfile.mkstemp(prefix=".download-", dir=os.path.dirname(dest_path))',
         new='tempfile.mkstemp(prefix=".download-")',
         tests=DATA_NEW + DATA_OLD,
         why="the download goes to the system's temporary folder: the final rename may cross file systems "
             "(and fail) and a broken download leaves its part outside --dest"),
    dict(name="v208-data-http-reason-for-code", file=DATA,
         old="answered HTTP {e.code} for",
         new="answered HTTP {e.reason} for",
         tests=DATA_NEW + DATA_OLD,
         why="the HTTP refusal names the reason phrase where its code belongs ('HTTP Not Found')"),
]
