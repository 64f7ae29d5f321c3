"""Planted bugs, round 116 (format: tests/mutants/mutants.py): single-line slips in the commands, the
exports, the output checks, the run folders and the stroke files, a fourth pass on lines no earlier round
mutates: write_output_file only checking a path whose folders do not exist yet (none created); check_writable
probing the run folder itself (a fresh --out refused), RunLock.release going on without a held lock; save_npz
storing the training set as the validation split, find_file returning a folder's .npz by its bare name, a
sketch-rnn file's validation array always read as 'valid', read_lines taking a .npy line unchecked; W_hh
exported untransposed, the safetensors header length written big-endian; lnrnn data mnist looking for the
gzip magic bytes in the wrong order and refusing a --dest that exists; lnrnn train's failed write naming the
run folder instead of the file; lnrnn sample --attention without --text let through unless --judge is given.

13 mutants. Against the existing targeted tests alone 10 were caught and 3 missed (measured with
--no-baseline): RunLock.release before acquire or a second time (no test released an unheld lock), a
sketch-rnn file whose validation array is named 'val' (the old files name it 'valid'), and the failed write
naming the run folder (no test gave the OSError a file name). The new value tests catch every mutant on their
own (checked with the old tests taken off the lists): test_values116_files (the bytes written, the folders
created two levels deep, a folder, a trailing separator, an empty name, a path through a file and a
read-only folder refused with nothing written; the read-only case is skipped under root),
test_values116_rundir (a run folder not yet there accepted and nothing created; fresh_default past
default-9 and default-99 against the smallest free number computed here; release never removing another
run's lock file), test_values116_stroke_files (files written here with numpy: both splits of save_npz read
back sequence by sequence, find_file from another working directory, sketch-rnn's 'valid' and 'val',
NaN, (N, 2) and a pen of 0.5 refused in a .npy line), test_values116_export (a plain LSTM's and a plain RNN's
export parsed by the format's definition drives an LSTM/RNN written here in PyTorch's convention, whose
last hidden state must equal the model's last_outputs), test_values116_commands (through CliRunner with the
run loader, the trainer or the downloader faked: sample --attention without --text and export's bad paths
refused in one Error: line before the run is read, nothing written; train's ENOSPC naming the file and the
resume command; verify of a gzip labels file against its IDX bytes and MD5 computed here; mnist into an
existing --dest). Dropped before the catalogue as equivalent: lnrnn export passing "safetensors" instead of
its --format (FORMATS holds that one format and click's Choice takes nothing else). Left out: the umask
fallback not restoring the mask (reached only where /proc/self/status cannot be read).

    python tests/mutants/run.py --only 'v116-*'
"""
FILES = "lnrnn/files.py"
RUNDIR = "lnrnn/training/rundir.py"
STROKES = "lnrnn/data/stroke_files.py"
EXPORT = "lnrnn/interop/export.py"
DATA = "lnrnn/commands/data.py"
TRAIN = "lnrnn/commands/train.py"
SAMPLE = "lnrnn/commands/sample.py"

# existing tests of these modules
FILES_OLD = ["tests/test_values63_files.py", "tests/test_values91_files.py", "tests/test_values23_files.py",
             "tests/test_values12_files.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py",
              "tests/training/test_values40_rundir.py", "tests/training/test_values63_rundir.py",
              "tests/training/test_values91_rundir.py"]
STROKES_OLD = ["tests/data/test_values_stroke_files.py", "tests/data/test_values10_stroke_files.py",
               "tests/data/test_values21_stroke_files.py", "tests/data/test_values53_stroke_files.py",
               "tests/data/test_values81_stroke_files.py"]
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values10_export.py",
              "tests/interop/test_values13_export.py", "tests/interop/test_values23_export.py",
              "tests/interop/test_values41_export.py", "tests/interop/test_values63_export.py"]
DATA_OLD = ["tests/commands/test_values_data.py", "tests/commands/test_values9_data.py",
            "tests/commands/test_values17_data.py", "tests/commands/test_values37_data.py",
            "tests/commands/test_values69_data.py"]
TRAIN_OLD = ["tests/commands/test_values_train_command.py", "tests/commands/test_values13_train_command.py",
             "tests/commands/test_values69_train_options.py"]
SAMPLE_OLD = ["tests/commands/test_values69_sample_errors.py", "tests/commands/test_values52_sample_cli.py",
              "tests/commands/test_values99_sample_cli.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
FILES_NEW = ["tests/test_values116_files.py"]
RUNDIR_NEW = ["tests/training/test_values116_rundir.py"]
STROKES_NEW = ["tests/data/test_values116_stroke_files.py"]
EXPORT_NEW = ["tests/interop/test_values116_export.py"]
DATA_NEW = ["tests/commands/test_values116_commands.py"]
TRAIN_NEW = ["tests/commands/test_values116_commands.py"]
SAMPLE_NEW = ["tests/commands/test_values116_commands.py"]

MUTANTS = [
    # ---- output files and run folders ----
    dict(name="v116-files-write-output-makes-no-folder", file=FILES,
         old="    prepare_output_file(path, option)\n    try:\n        atomic_write(",
         new="    check_output_file(path, option)\n    try:\n        atomic_write(",
         tests=FILES_NEW + FILES_OLD,
         why="write_output_file only checks the path: a --out in a folder that does not exist yet fails to be "
             "written (the missing folders are never created)"),
    dict(name="v116-rundir-check-writable-probes-the-run-folder", file=RUNDIR,
         old="    e = write_error(probe)\n    if e is not None:\n        where = f\"the run folder",
         new="    e = write_error(path)\n    if e is not None:\n        where = f\"the run folder",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="check_writable tries a file in the run folder itself rather than its nearest existing folder: a "
             "fresh --out that does not exist yet is refused as unwritable"),
    dict(name="v116-rundir-release-twice-closes-none", file=RUNDIR,
         old="        if self.fd is None:\n            return\n        try:\n            os.unlink(self.path)",
         new="        if self.fd is None:\n            pass\n        try:\n            os.unlink(self.path)",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="RunLock.release without a held lock (never acquired, or released already) goes on: it removes a "
             "lock file another run may hold and closes None"),
    # ---- stroke files ----
    dict(name="v116-strokes-save-npz-val-from-train", file=STROKES,
         old='**pack("val_", val)}',
         new='**pack("val_", train)}',
         tests=STROKES_NEW + STROKES_OLD,
         why="save_npz stores the training sequences under val_strokes/val_lengths: the file's own validation "
             "split is lost"),
    dict(name="v116-strokes-find-file-bare-name", file=STROKES,
         old="    return os.path.join(data_dir, found[0])",
         new="    return found[0]",
         tests=STROKES_NEW + STROKES_OLD,
         why="find_file returns the one .npz of a --data-dir folder by its bare name, which is read relative to "
             "the working directory instead of the folder"),
    dict(name="v116-strokes-sketchrnn-val-key-fixed", file=STROKES,
         old='"val": _object_sequences(data[val], path, val)}',
         new='"val": _object_sequences(data["valid"], path, val)}',
         tests=STROKES_NEW + STROKES_OLD,
         why="a sketch-rnn file's validation array is always read as 'valid': a file naming it 'val' fails with "
             "a KeyError (a traceback) instead of loading"),
    dict(name="v116-strokes-read-lines-npy-unchecked", file=STROKES,
         old='            return [_line(_check_rows(data, text, "the array"), text, 0)]',
         new='            return [_line(np.asarray(data, np.float64), text, 0)]',
         tests=STROKES_NEW + STROKES_OLD,
         why="read_lines takes a .npy line without checking its rows: NaN points, a pen of 0.5 or an (N, 2) "
             "array go through to the model"),
    # ---- exports ----
    dict(name="v116-export-weight-hh-not-transposed", file=EXPORT,
         old='"Wh": ("weight_hh", True)',
         new='"Wh": ("weight_hh", False)',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the recurrent weights are exported as lnrnn keeps them, (H, G), not PyTorch's (G, H): "
             "torch.nn.LSTM refuses them, and a square plain RNN silently runs with W_hh transposed"),
    dict(name="v116-export-header-length-big-endian", file=EXPORT,
         old='f.write(struct.pack("<Q", len(text)))',
         new='f.write(struct.pack(">Q", len(text)))',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the header length is written big-endian: the safetensors format (and every other reader) reads "
             "a little-endian u64"),
    # ---- lnrnn data mnist ----
    dict(name="v116-data-verify-gzip-magic-reversed", file=DATA,
         old='    if raw[:2] == b"\\x1f\\x8b":',
         new='    if raw[:2] == b"\\x8b\\x1f":',
         tests=DATA_NEW + DATA_OLD,
         why="verify looks for the gzip magic bytes in the wrong order: a downloaded .gz is never decompressed "
             "and every good file is refused as not IDX"),
    dict(name="v116-data-check-dest-existing-refused", file=DATA,
         old="            os.makedirs(dest, exist_ok=True)",
         new="            os.makedirs(dest)",
         tests=DATA_NEW + DATA_OLD,
         why="check_dest creates --dest without exist_ok: a folder that already exists (the usual case on a "
             "second run) is refused as unwritable"),
    # ---- lnrnn train and sample refusals ----
    dict(name="v116-train-write-error-names-the-folder", file=TRAIN,
         old="{e.filename or 'into the run folder ' + str(out)}",
         new="{'into the run folder ' + str(out)}",
         tests=TRAIN_NEW + TRAIN_OLD,
         why="a failed write names the run folder, never the file the OS refused (checkpoint, metrics, curve)"),
    dict(name="v116-sample-attention-without-text-let-through", file=SAMPLE,
         old="    elif attention:\n",
         new="    elif attention and judge_path is not None:\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--attention without --text is refused only alongside --judge: alone it reads the run and "
             "samples, and the drawing has no window to show"),
]
