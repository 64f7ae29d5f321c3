"""Planted bugs, round 91 (format: tests/mutants/mutants.py): single-line slips at the boundary where a
user's input meets the commands, on lines no earlier round mutates: predict's check_inputs letting a 1-D array or
fewer inputs per step than the model reads through, IDX images of a pmnist run read in plain pixel order, a
folder's dotted t10k-images.idx3-ubyte passed over and no input at all reaching np.concatenate (predict_io.py);
fresh_default passing over an existing folder that holds no run, newest_default counting default folders without
a checkpoint and check_writable probing a file in --out's way as a folder (rundir.py); a run's checkpoint.npz named
as its checkpoint no longer read through the description beside it and --keep's copies written without their
arrays (checkpoint.py); the '..' check of an output path reading it after abspath dropped the missing folder
(files.py); lnrnn sample checking --count with --steps' value (commands/sample.py); lnrnn train taking an empty
--out for none (commands/train.py); lnrnn data's verification expecting each kind's magic number of the other and
--dest's line comparing an absolute probe with a relative --dest (commands/data.py); a new run into a folder that
holds one refused only by the loop, after the task is loaded and the model built (training/setup.py).

16 mutants. Against the existing targeted tests alone 9 were caught and 7 missed: check_inputs' 1-D array and its
fewer inputs (the old targeted tests call it on 2-D and 3-D arrays of the model's width only), the dotted IDX name
(no old folder holds one), no input at all (no test calls read_inputs without paths), the empty --out of lnrnn
train (the old tests give it to check_writable, not to the command, which turns it into runs/default), --dest's
relative path (the old tests pass absolute ones, where both compare alike) and the existing run refused late
(the loop's own check gives the same line, with nothing written either way). The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values91_predict_io (arrays of 0, 1 and 4 axes and widths above and below the model's refused naming the
shapes; (N,T) against x[..., None] element by element; IDX files written here by the format's definition and read
for mnist, pmnist and mnist-rows against pixel order, rows, and pmnist's permutation redrawn from its docstring;
a folder's files under both names, in name order, with the labels file, a text file and a folder of that name left
out), test_values91_rundir (the first default folder without a run, counted by hand over empty and held folders;
the newest checkpoint by its description's mtime, empty and newer folders skipped, only empty folders a one-line
refusal; a file as --out or in its way named as a file, nothing made, and the write probe only ever a folder),
test_values91_checkpoint (the folder, a trailing separator, checkpoint.json, checkpoint-*.npz and checkpoint.npz
all read back the saved arrays bit for bit; another cell, hidden size, head or layer count named alone in the
refusal; --keep 1, 2 and 3 over four saves keep the last N, each loading its own step's arrays),
test_values91_files (a '..' out of a missing folder refused naming that folder, at one and two levels, and out of
an existing one written where the operating system puts it; a trailing separator, a folder and an empty name
refused with nothing made) and test_values91_commands (sample's --count and --steps below 1 named with their own
values before the run is read; train's empty --out and a run folder that holds a run refused in one line before
the task is loaded, the run's files byte for byte as they were; build() refusing before resolve(); data's verify
of IDX files of the right shape judged by the published MD5, of the other kind by the magic number; --dest that
cannot be written named with "would be created" only when it is missing). Dropped as equivalent: the '..'
check's `if up is not None` as `if up` (a missing head is never empty), _os_error_within testing IOError for
OSError (one class) and missing_before_up splitting on "/" for os.sep (the same on POSIX).

    python tests/mutants/run.py --only 'v91-*'
"""
PREDICT_IO = "lnrnn/predict_io.py"
RUNDIR = "lnrnn/training/rundir.py"
CKPT = "lnrnn/training/checkpoint.py"
FILES = "lnrnn/files.py"
SAMPLE = "lnrnn/commands/sample.py"
TRAIN = "lnrnn/commands/train.py"
DATA = "lnrnn/commands/data.py"
SETUP = "lnrnn/training/setup.py"

# existing tests of these modules
PREDICT_OLD = ["tests/test_values_predict_io.py", "tests/test_values9_predict_io.py",
               "tests/test_values14_predict_io.py", "tests/test_values21_predict_io.py",
               "tests/test_values34_predict_io.py", "tests/test_values54_predict_io.py",
               "tests/test_values80_predict_io.py", "tests/commands/test_values_output_paths.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py",
              "tests/training/test_values40_rundir.py", "tests/training/test_values63_rundir.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values14_checkpoint.py",
            "tests/training/test_values19_checkpoint.py", "tests/training/test_values63_checkpoint.py",
            "tests/training/test_values20_recorder_keep.py"]
FILES_OLD = ["tests/test_values12_files.py", "tests/test_values23_files.py", "tests/test_values63_files.py",
             "tests/commands/test_values_output_checks.py", "tests/commands/test_values21_paths.py",
             "tests/commands/test_values9_output_files.py", "tests/commands/test_values46_suffixes.py",
             "tests/commands/test_values_output_paths.py"]
SAMPLE_OLD = ["tests/commands/test_values69_sample_errors.py", "tests/commands/test_values52_sample_cli.py"]
TRAIN_OLD = ["tests/commands/test_values_train_command.py", "tests/commands/test_values13_train_command.py",
             "tests/commands/test_values69_train_options.py"]
DATA_OLD = ["tests/commands/test_values_data.py", "tests/commands/test_values9_data.py",
            "tests/commands/test_values17_data.py", "tests/commands/test_values37_data.py",
            "tests/commands/test_values69_data.py"]
SETUP_OLD = ["tests/training/test_values_setup.py", "tests/training/test_values9_setup.py",
             "tests/training/test_values63_setup.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
PREDICT_NEW = ["tests/test_values91_predict_io.py"]
RUNDIR_NEW = ["tests/training/test_values91_rundir.py"]
CKPT_NEW = ["tests/training/test_values91_checkpoint.py"]
FILES_NEW = ["tests/test_values91_files.py"]
SAMPLE_NEW = ["tests/commands/test_values91_commands.py"]
TRAIN_NEW = ["tests/commands/test_values91_commands.py"]
DATA_NEW = ["tests/commands/test_values91_commands.py"]
SETUP_NEW = ["tests/commands/test_values91_commands.py"]

MUTANTS = [
    # ---- predict's inputs: shapes, widths, pmnist's order, a folder's files, no input ----
    dict(name="v91-check-inputs-one-axis-let-through", file=PREDICT_IO,
         old="    if x.ndim != 3:",
         new="    if x.ndim > 3:",
         tests=PREDICT_NEW + PREDICT_OLD,
         why="a 1-D array passes the shape check and fails on unpacking N, T, I: a ValueError traceback in place "
             "of the line naming (N,T) or (N,T,I)"),
    dict(name="v91-check-inputs-fewer-inputs-let-through", file=PREDICT_IO,
         old="    if I != input_size:",
         new="    if I > input_size:",
         tests=PREDICT_NEW + PREDICT_OLD,
         why="sequences with fewer inputs per step than the model reads pass the check (the kernels then read "
             "past each step's inputs or fail deep inside)"),
    dict(name="v91-idx-images-pmnist-left-unpermuted", file=PREDICT_IO,
         old='        if task == "pmnist":',
         new='        if task == "mnist":',
         tests=PREDICT_NEW + PREDICT_OLD,
         why="IDX images given to a pmnist run are read in plain pixel order, and a mnist run's in pmnist's "
             "permutation: every prediction is made on pixels in an order the model never saw"),
    dict(name="v91-input-folder-dotted-idx-name-skipped", file=PREDICT_IO,
         old='                       and ("images-idx3-ubyte" in os.path.basename(p) or "images.idx3-ubyte" in '
             'os.path.basename(p)))',
         new='                       and ("images-idx3-ubyte" in os.path.basename(p)))',
         tests=PREDICT_NEW + PREDICT_OLD,
         why="a folder's t10k-images.idx3-ubyte (the dotted name of some copies) is not found: the folder is "
             "refused as holding no IDX images file"),
    dict(name="v91-read-inputs-no-paths-untold", file=PREDICT_IO,
         old="    if not parts:",
         new="    if parts is None:",
         tests=PREDICT_NEW + PREDICT_OLD,
         why="no input paths reach np.concatenate([]): a ValueError traceback in place of 'pass --input'"),
    # ---- run folders: the default folders, a file in the way ----
    dict(name="v91-fresh-default-skips-an-empty-base", file=RUNDIR,
         old="    taken = {n for n, p in default_folders(base) if holds_run(p)}",
         new="    taken = {n for n, p in default_folders(base)}",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="every existing default folder counts as taken, run or not: an empty runs/default (or a -2 left "
             "by a run that failed before writing) is passed over for the next number"),
    dict(name="v91-newest-default-counts-an-empty-folder", file=RUNDIR,
         old="    runs = [p for _, p in default_folders(base) if checkpoint_exists(p)]",
         new="    runs = [p for _, p in default_folders(base) if os.path.isdir(p)]",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="--resume without --out counts default folders without a checkpoint: getmtime of their missing "
             "checkpoint.json raises a FileNotFoundError traceback, and with none at all there is no clear line"),
    dict(name="v91-check-writable-file-let-through", file=RUNDIR,
         old="    if not os.path.isdir(probe):\n        what =",
         new="    if not os.path.exists(probe):\n        what =",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="an --out that is a file (or lies under one) is not named as a file: the probe then fails as an "
             "unwritable folder and the line blames permissions"),
    # ---- checkpoints: a checkpoint-*.npz named in place of its folder, --keep's copies ----
    dict(name="v91-load-checkpoint-npz-name-needs-a-dash", file=CKPT,
         old='os.path.basename(path).startswith("checkpoint") and',
         new='os.path.basename(path).startswith("checkpoint-") and',
         tests=CKPT_NEW + CKPT_OLD,
         why="a run's checkpoint.npz (the documented runs/x/checkpoint.npz) named as the checkpoint is no longer "
             "read through the run's description beside it: 'no checkpoint at'"),
    dict(name="v91-keep-past-arrays-not-copied", file=CKPT,
         old="        if not os.path.exists(os.path.join(dest, name)):",
         new="        if os.path.exists(os.path.join(dest, name)):",
         tests=CKPT_NEW + CKPT_OLD,
         why="--keep writes each kept copy's description but never links or copies its arrays: the kept "
             "checkpoints name an arrays file that is missing"),
    # ---- output files: a path going up from a missing folder ----
    dict(name="v91-output-up-from-missing-checked-resolved", file=FILES,
         old="    up = missing_before_up(text)",
         new="    up = missing_before_up(os.path.abspath(text))",
         tests=FILES_NEW + FILES_OLD,
         why="the '..' check reads the path after abspath has dropped 'missing/..': it never fires, and "
             "--out missing/../x.csv passes every check to fail at the write"),
    # ---- commands: sample's --count, train's empty --out, data's verification and --dest ----
    dict(name="v91-sample-count-checked-as-steps", file=SAMPLE,
         old='    for what, v in (("--steps", steps), ("--count", count)):',
         new='    for what, v in (("--steps", steps), ("--count", steps)):',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--count is checked with --steps' value: --count 0 or -1 passes and the run is read and sampled"),
    dict(name="v91-train-empty-out-gets-a-default", file=TRAIN,
         old='    if options["out"] is None:',
         new='    if not options["out"]:',
         tests=TRAIN_NEW + TRAIN_OLD,
         why="--out '' is taken for no --out: the run goes to runs/default[-N] in place of the line saying the "
             "empty --out names no folder"),
    dict(name="v91-data-verify-magic-by-wrong-name", file=DATA,
         old='    arr = parse_idx(raw, name, IMAGES_MAGIC if "images" in name else LABELS_MAGIC)',
         new='    arr = parse_idx(raw, name, IMAGES_MAGIC if "labels" in name else LABELS_MAGIC)',
         tests=DATA_NEW + DATA_OLD,
         why="verify expects the images' magic number of the labels files and the labels' of the images: every "
             "genuine file fails as having the wrong magic number"),
    dict(name="v91-check-dest-where-compares-relative", file=DATA,
         old='        where = "" if probe == os.path.abspath(dest) else',
         new='        where = "" if probe == dest else',
         tests=DATA_NEW + DATA_OLD,
         why="a relative --dest that exists and cannot be written is said to be one that 'would be created' "
             "there (probe is absolute, dest not)"),
    # ---- setup: an existing run refused before any work ----
    dict(name="v91-build-existing-run-not-refused-first", file=SETUP,
         old="    elif group.root and checkpoint_exists(cfg.out):",
         new="    elif not group.root and checkpoint_exists(cfg.out):",
         tests=SETUP_NEW + SETUP_OLD,
         why="a new run into a folder that holds one is not refused before the task is loaded and the model "
             "built: the data is read (MNIST: downloaded files parsed) and kernels compiled before the loop's "
             "own check says so"),
]
