"""Planted bugs, round 319 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in what lnrnn predict reads (lnrnn/predict_io.py), where every command writes (lnrnn/files.py) and the
paths lnrnn predict and lnrnn train hand on (lnrnn/commands/predict.py, lnrnn/commands/train.py): bool sequences
refused as not numbers; complex64 sequences let through (only complex128 refused); the range sentence naming the
training minimum for both ends; IDX images of a mnist-rows run refused as not of the MNIST family; a pickled .npy's
ValueError escaping as a traceback; a 3-byte file or one of another magic number refused with read_idx's raw
sentence; a folder's t10k-images.idx3-ubyte (dot-named) not found; read_inputs numbering sequences from 1; a
suffix alone refused under --output; atomic_write's test of the cause inverted; only PermissionError found in a
writer's chain of causes; predict loading the run from --out; train's --out taking an existing file; train's
--config taking a folder.

14 mutants. Against the old targeted files alone: 4 of 14 (missed: bool sequences refused, complex64 let through,
numpy's pickle error escaping, read_idx's raw sentence for a short file, a dot-named images file not found, the
writer's cause test inverted, only permission errors looked for, predict loading its run from --out, train's --out
accepting a file and --config a folder). The new value tests catch every mutant on their own (checked with the old
files taken off the lists): test_values319_predict_io (check_inputs' bool and complex64 inputs; the range sentence
with both ends of [0.5, 2.5] written out; mnist-rows pixels (n, r, c) = 10 (12 n + 4 r + c) / 255 by hand; numpy's
own pickle reason asked of numpy in the test; the 'neither' sentence for a 3-byte file and magic 2457 word for word;
a folder of an images, a labels and a text file; where = [(a, 0, 2), (b, 2, 3)] for files of 2 and 3 sequences;
--out's suffix-alone and folder refusals word for word with nothing made; a writer's ValueError raised as itself
with the old file kept; ENOSPC met inside a writer's clean-up raised as an OSError naming the target, and
write_output_file's full-disk sentence written out) and test_values319_commands (predict with test_values215's faked
run: the path load_run is given; train with its trainer faked to fail if reached: click's refusals of an --out that
is a file and a --config that is a folder, word for word, exit 2, nothing written).

Left out as equivalent: describe_training_data's min(lo, hi) made lo (every task's scale is positive); the .npy
table saved with allow_pickle=True (a structured array of numbers and fixed-width strings holds no object, so
numpy writes the same bytes); unmade_names' limit = None when pathconf fails (not reached on Linux); the temp
file's ".tmp-" prefix and the flush/fsync before the rename (nothing left to see after the rename). Left out as a
near copy: check_output_file's default option made --output (the same slip as named_suffix's, caught by the same
kind of test; test_a_folder_is_refused_under_out reads that sentence). Left out of this round: lnrnn/commands/
eval.py's few unmutated lines (its decorators, the load_run call and the unpacking of evaluate_run's result) need a
run faked through evaluate_run and format_metrics; a read-only folder cannot be tested where the tests run as root.

    python tests/mutants/run.py --only 'v319-*'
"""
PIO = "lnrnn/predict_io.py"
FILES = "lnrnn/files.py"
PREDICT = "lnrnn/commands/predict.py"
TRAIN = "lnrnn/commands/train.py"

T_PIO = "tests/commands/test_values319_predict_io.py::"
T_CMD = "tests/commands/test_values319_commands.py::"
OLD_PIO = ["tests/test_values219_predict_io.py", "tests/commands/test_values277_predict_io.py",
           "tests/commands/test_values258_predict_io.py"]
OLD_FILES = ["tests/commands/test_values229_files_predict_io_paths.py", "tests/commands/test_values277_predict_io.py"]
OLD_PREDICT = ["tests/commands/test_values215_predict_plot.py", "tests/test_values219_predict_io.py"]
OLD_TRAIN = ["tests/commands/test_values237_train_sample.py"]

MUTANTS = [
    # ---- what predict reads: lnrnn/predict_io.py ----
    dict(name="v319-pio-bool-sequences-refused", file=PIO,
         old="    if x.dtype == object or not (np.issubdtype(x.dtype, np.number) or x.dtype == bool):",
         new="    if x.dtype == object or not np.issubdtype(x.dtype, np.number):",
         tests=[T_PIO + "test_bool_sequences_are_read_as_they_are"] + OLD_PIO,
         why="bool sequences (ink or not) are refused as not numbers"),
    dict(name="v319-pio-complex64-let-through", file=PIO,
         old="    if np.issubdtype(x.dtype, np.complexfloating):",
         new="    if x.dtype == np.complex128:",
         tests=[T_PIO + "test_complex_sequences_of_either_width_are_refused"] + OLD_PIO,
         why="complex64 sequences pass the check and lose their imaginary parts in the cast"),
    dict(name="v319-pio-range-upper-end-said-lower", file=PIO,
         old='                           f"to {hi:g}")',
         new='                           f"to {lo:g}")',
         tests=[T_PIO + "test_range_sentence_names_both_ends_of_the_training_range"] + OLD_PIO,
         why="the refusal says the training data spanned its minimum to its minimum"),
    dict(name="v319-pio-mnist-rows-images-refused", file=PIO,
         old="    if task not in MNIST_TASKS:",
         new="    if task not in MNIST_TASKS[:2]:",
         tests=[T_PIO + "test_mnist_rows_images_are_read_row_by_row"] + OLD_PIO,
         why="IDX images given to a mnist-rows run are refused as if the run were of another task"),
    dict(name="v319-pio-pickle-error-escapes", file=PIO,
         old="        except ValueError as e:  # object arrays (pickle), a damaged header, ...",
         new="        except TypeError as e:  # object arrays (pickle), a damaged header, ...",
         tests=[T_PIO + "test_a_pickled_npy_is_refused_with_numpys_own_reason"] + OLD_PIO,
         why="a .npy that needs pickle ends in numpy's ValueError traceback instead of one sentence"),
    dict(name="v319-pio-short-file-raw-idx-error", file=PIO,
         old='        if "magic number" not in str(e) and "too short" not in str(e):',
         new='        if "magic number" not in str(e) or "too short" not in str(e):',
         tests=[T_PIO + "test_a_short_file_or_another_magic_number_is_neither[3-bytes]",
                T_PIO + "test_a_short_file_or_another_magic_number_is_neither[magic-2457]"] + OLD_PIO,
         why="a file that is neither .npy nor IDX is refused with read_idx's sentence, which lists no input kind"),
    dict(name="v319-pio-dot-named-images-file-missed", file=PIO,
         old='                       and ("images-idx3-ubyte" in os.path.basename(p) or "images.idx3-ubyte" in '
             'os.path.basename(p)))',
         new='                       and "images-idx3-ubyte" in os.path.basename(p))',
         tests=[T_PIO + "test_a_folder_finds_an_images_file_named_with_a_dot"] + OLD_PIO,
         why="a folder holding t10k-images.idx3-ubyte is refused as holding no images file"),
    dict(name="v319-pio-first-index-from-one", file=PIO,
         old="    parts, where, start = [], [], 0",
         new="    parts, where, start = [], [], 1",
         tests=[T_PIO + "test_read_inputs_numbers_the_first_files_sequences_from_zero"] + OLD_PIO,
         why="each file's first sequence is said to be one further on than it is"),
    # ---- where commands write: lnrnn/files.py ----
    dict(name="v319-files-suffix-alone-under-output", file=FILES,
         old='def named_suffix(path, suffixes, option="--out"):',
         new='def named_suffix(path, suffixes, option="--output"):',
         tests=[T_PIO + "test_a_suffix_alone_is_refused_under_out"] + OLD_FILES,
         why="predict's refusal of --out runs/.csv names an option that does not exist"),
    dict(name="v319-files-cause-test-inverted", file=FILES,
         old="        if cause is None:\n            raise",
         new="        if cause is not None:\n            raise",
         tests=[T_PIO + "test_a_writers_own_error_is_raised_as_it_is_and_the_old_file_kept",
                T_PIO + "test_a_full_disk_inside_a_writers_clean_up_names_the_target"] + OLD_FILES,
         why="a writer's own error becomes an AttributeError, and a full disk escapes unnamed"),
    dict(name="v319-files-only-permission-errors-found", file=FILES,
         old="        if isinstance(e, OSError):\n            return e",
         new="        if isinstance(e, PermissionError):\n            return e",
         tests=[T_PIO + "test_a_full_disk_inside_a_writers_clean_up_names_the_target"] + OLD_FILES,
         why="a full disk met by a writer that fails again in its clean-up ends in a traceback"),
    # ---- the paths the commands hand on ----
    dict(name="v319-predict-run-loaded-from-out", file=PREDICT,
         old="    run = load_run(path)\n    require_predictable(run)",
         new="    run = load_run(out)\n    require_predictable(run)",
         tests=[T_CMD + "test_predict_loads_the_run_named_by_checkpoint"] + OLD_PREDICT,
         why="predict loads its run from the --out path instead of --checkpoint"),
    dict(name="v319-train-out-may-be-a-file", file=TRAIN,
         old='@click.option("--out", type=click.Path(file_okay=False), default=None, metavar="RUN_FOLDER",',
         new='@click.option("--out", type=click.Path(), default=None, metavar="RUN_FOLDER",',
         tests=[T_CMD + "test_train_refuses_an_out_that_is_a_file"] + OLD_TRAIN,
         why="an --out that is an existing file reaches the trainer instead of click's refusal"),
    dict(name="v319-train-config-may-be-a-folder", file=TRAIN,
         old='@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",',
         new='@click.option("--config", "config_file", type=click.Path(), default=None, metavar="FILE",',
         tests=[T_CMD + "test_train_refuses_a_config_that_is_a_folder"] + OLD_TRAIN,
         why="a --config that is a folder is read as a file instead of click's refusal"),
]
