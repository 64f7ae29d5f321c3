"""Planted bugs, round 131 (format: tests/mutants/mutants.py): single-line slips in the data, predict and plot
commands, prediction inputs and output files, on lines no earlier round mutates: lnrnn data mnist verifying the
content against the .gz file's MD5, refusing a damaged file already in --dest instead of downloading it again,
and naming the .gz file's MD5 as the content's in the line after a download; a uint8 .npy for an MNIST-family
run scaled by 1/256, IDX images read column by column, pmnist's permutation inverted, a folder's subfolder named
like an IDX file read as one, check_like_training comparing the sequences' count with the training length; lnrnn
predict reading the training record from the model config (none: any length let through); lnrnn plot keeping
the runs seen by their spelling, and relabelling runs that share a folder name by that name again; umask()'s
fallback leaving the umask at 0o022, and prepare_output_file's refusals naming --out whatever the option.

13 mutants. Against the existing targeted tests alone 10 were caught and 3 missed: the line after a download
naming the .gz file's MD5 (no test read the MD5 in that line), lnrnn predict reading the record from the config
(the old predict tests give sequences of the training length, or refuse before the record is read), and
umask()'s fallback (no test made /proc unreadable). The new value tests catch every mutant on their own (checked
with the old tests taken off the lists): test_values131_data (downloads faked, urlopen serving two small IDX
files gzipped here, their MD5s computed here with hashlib: the kept files are the bytes served, each line names
the content's MD5, a torn file present is fetched again and a verified one is not, content one byte off is one
'Error:' line with nothing left), test_values131_predict_io (a uint8 .npy against value / 255, IDX images
written byte by byte against pixel (r, c) at step r*cols + c and the task's permutation applied element by
element, a folder's files only, the training length compared with axis 1), test_values131_predict (through
CliRunner: another length refused before the model runs with nothing written, --force's .csv and .npy row for
row against lnrnn.api.predict on the same inputs, a bad --out refused before the run is loaded),
test_values131_plot (a run given twice refused before any run is read, the labels drawn and the written SVG's
legend, a PNG read back with matplotlib, a bad --out refused before reading), test_values131_files (os.umask
read before and after with /proc made unreadable; the option named by prepare_output_file and
write_output_file's refusals, the writer never called, nothing written). Dropped before the catalogue as
equivalent or near it: the download's chunk size (any size gives the same bytes), predict's --batch-size
passed as its default (memory only; the float sums differ by 1e-11), the per-step regression rows kept by
any(...) instead of all(...) of the NaN outputs (a model's padded steps are NaN in every output). Also left
out: the progress bar's totals (stderr under -q only) and lnrnn export, whose lines left unmutated are its
message (safetensors is not installed where the tests run).

    python tests/mutants/run.py --only 'v131-*'
"""
DATA = "lnrnn/commands/data.py"
PREDICT = "lnrnn/commands/predict.py"
PLOT = "lnrnn/commands/plot.py"
PIO = "lnrnn/predict_io.py"
FILES = "lnrnn/files.py"

# existing tests of these modules
DATA_OLD = ["tests/commands/test_values_data.py", "tests/commands/test_values9_data.py",
            "tests/commands/test_values17_data.py", "tests/commands/test_values37_data.py",
            "tests/commands/test_values69_data.py"]
PREDICT_OLD = ["tests/commands/test_values_eval_predict.py", "tests/interop/test_predict_export.py"]
PIO_OLD = ["tests/test_values112_predict_io.py", "tests/test_values9_predict_io.py",
           "tests/test_values14_predict_io.py", "tests/test_values21_predict_io.py",
           "tests/test_values34_predict_io.py", "tests/test_values54_predict_io.py",
           "tests/test_values80_predict_io.py", "tests/test_values91_predict_io.py"]
PLOT_OLD = ["tests/commands/test_plot.py", "tests/commands/test_values46_plot_runs.py",
            "tests/commands/test_values69_plot_info.py"]
FILES_OLD = ["tests/test_values12_files.py", "tests/test_values23_files.py", "tests/test_values63_files.py",
             "tests/test_values91_files.py", "tests/test_values116_files.py",
             "tests/commands/test_values9_output_files.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
DATA_NEW = ["tests/commands/test_values131_data.py"]
PREDICT_NEW = ["tests/commands/test_values131_predict.py"]
PIO_NEW = ["tests/test_values131_predict_io.py"]
PLOT_NEW = ["tests/commands/test_values131_plot.py"]
FILES_NEW = ["tests/test_values131_files.py"]

MUTANTS = [
    # ---- lnrnn data mnist: the checksum verified, a damaged file already present, the line after a download ----
    dict(name="v131-verify-against-the-gz-md5", file=DATA,
         old="    md5, shape = MNIST[name][:2]",
         new="    md5, shape = MNIST[name][2], MNIST[name][1]",
         tests=DATA_NEW + DATA_OLD,
         why="verify compares the MD5 of the uncompressed content with the published MD5 of the .gz file: every "
             "genuine download is refused as 'the mirror serves different data'"),
    dict(name="v131-damaged-present-file-refused-not-replaced", file=DATA,
         old="                pass  # replace it with a fresh copy",
         new="                raise  # replace it with a fresh copy",
         tests=DATA_NEW + DATA_OLD,
         why="a file already in --dest that fails verification (a torn earlier copy) stops the command instead "
             "of being downloaded again"),
    dict(name="v131-download-line-names-the-gz-md5", file=DATA,
         old="content MD5 {MNIST[name][0]} verified",
         new="content MD5 {MNIST[name][2]} verified",
         tests=DATA_NEW + DATA_OLD,
         why="the line after a download says 'content MD5' but prints the .gz file's MD5, not the content's "
             "that was verified"),
    # ---- prediction inputs: uint8 scale, IDX pixel order, pmnist's permutation, a folder's files ----
    dict(name="v131-uint8-scaled-by-1-over-256", file=PIO,
         old="    return 1.0 / 255.0 if task in MNIST_TASKS else 1.0",
         new="    return 1.0 / 256.0 if task in MNIST_TASKS else 1.0",
         tests=PIO_NEW + PIO_OLD,
         why="a uint8 .npy for an MNIST-family run is scaled by 1/256: 255 reads as 0.996, not the task's 1.0"),
    dict(name="v131-idx-read-column-by-column", file=PIO,
         old="        x = images.reshape(n, rows * cols, 1)",
         new="        x = images.transpose(0, 2, 1).reshape(n, rows * cols, 1)",
         tests=PIO_NEW + PIO_OLD,
         why="IDX images for mnist/pmnist runs are read column by column, not row-major pixel by pixel as the "
             "task reads its own"),
    dict(name="v131-pmnist-inverse-permutation", file=PIO,
         old="x = x[:, pmnist_permutation(rows * cols)]",
         new="x = x[:, np.argsort(pmnist_permutation(rows * cols))]",
         tests=PIO_NEW + PIO_OLD,
         why="pmnist images are put in the inverse of the task's permutation: step t gets pixel perm^-1[t]"),
    dict(name="v131-input-folder-takes-subfolders", file=PIO,
         old='glob.glob(os.path.join(path, "*")) if os.path.isfile(p)',
         new='glob.glob(os.path.join(path, "*")) if os.path.exists(p)',
         tests=PIO_NEW + PIO_OLD,
         why="a folder given as --input reads a subfolder named like an IDX images file as one, and fails on it"),
    dict(name="v131-steps-compared-with-n", file=PIO,
         old='    T, steps = x.shape[1], record.get("steps")',
         new='    T, steps = x.shape[0], record.get("steps")',
         tests=PIO_NEW + PIO_OLD,
         why="check_like_training compares the number of sequences, not their length, with the training length"),
    # ---- lnrnn predict: the training record ----
    dict(name="v131-predict-record-from-config", file=PREDICT,
         old="training_record(run.meta))",
         new="training_record(run.config))",
         tests=PREDICT_NEW + PREDICT_OLD,
         why="lnrnn predict reads the training record from the model config, which holds none: sequences of "
             "another length than the training data's are predicted without a word"),
    # ---- lnrnn plot: one run twice, labels of runs sharing a name ----
    dict(name="v131-plot-seen-keyed-by-spelling", file=PLOT,
         old="        seen[key] = r",
         new="        seen[r] = r",
         tests=PLOT_NEW + PLOT_OLD,
         why="the runs seen are kept by their spelling, not their real path: 'r' and './r' are drawn as two runs"),
    dict(name="v131-plot-clash-labels-stay-basenames", file=PLOT,
         old="            d.label = os.path.normpath(r)",
         new="            d.label = os.path.basename(os.path.normpath(r))",
         tests=PLOT_NEW + PLOT_OLD,
         why="runs/a/r and runs/b/r are relabelled by their folder names again: both still 'r' in the legend"),
    # ---- lnrnn.files: the umask fallback, the option a prepared file's refusal names ----
    dict(name="v131-umask-fallback-leaves-0o022", file=FILES,
         old="    mask = os.umask(0o022)\n    os.umask(mask)\n",
         new="    mask = os.umask(0o022)\n",
         tests=FILES_NEW + FILES_OLD,
         why="where /proc cannot be read, reading the umask leaves the process's umask at 0o022"),
    dict(name="v131-prepare-names-out-whatever-the-option", file=FILES,
         old="    check_output_file(path, option)\n    folder",
         new="    check_output_file(path)\n    folder",
         tests=FILES_NEW + FILES_OLD,
         why="prepare_output_file's (and write_output_file's) refusals name --out even for --npz or --judge-out"),
]
