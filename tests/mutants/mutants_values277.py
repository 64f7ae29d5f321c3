"""Planted bugs, round 277 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the public API (lnrnn/api.py), prediction input/output (lnrnn/predict_io.py), output checks
(lnrnn/files.py) and the commands (plot, read, data): predict's width refusal naming 'the run' instead of the run
folder; a per-step regression's values NaN everywhere but past the lengths; predict's documented default
batch_size=500 made 50; check_inputs reading (N,T,I) as (N,I,T); the training range's top read from its
minimum; the value span said high to low; the step count's plural inverted; read_inputs naming the folder
instead of the IDX file inside it whose length differs; IDX images for another task naming the file for the
task; a link to nowhere named by its resolved path instead of its target; nearest_existing returning the path
it was given (a file under folders not made yet refused); plot's same-folder refusal with the spellings
swapped; read's --batch-size refusal naming --beam's value; the MNIST check naming the file's own shape as
MNIST's.

14 mutants. Against the old targeted files alone: 4 of 14 caught (missed: predict's width refusal not naming the
run, per-step regression NaNs inverted, a default batch of 50, the range's top read from its minimum, the span high
to low, '1 steps', length and task refusals naming the wrong path, read's --batch-size refusal naming --beam, the
MNIST shape unnamed). The new value tests catch every mutant on their own (checked with the old files taken off the
lists): test_values277_predict_io (check_inputs of (2,3,1) taken and (2,1,3) refused with its shape;
check_like_training at slack 0.25 of [0, 4]: -1 and 5 taken, 5.5 refused, the span low to high, 1 step and 8 steps
against 2 to 7; a folder's IDX file of 6 steps after a .npy of 4, the file named; IDX images for an npz run naming
npz; a relative link to nowhere named by its target; a file under two missing folders taken, nothing made),
test_values277_api (a per-step regression LSTM fitted here, its values against the LSTM recomputed in NumPy float64
from the export, NaN past lengths 1..4 and the .csv rows (sequence, step) for each step up to each length; the width
refusal naming the run folder; 60 sequences at the default batch size told to the progress once), test_values277_cli
(plot a ./a refused naming a first; read --beam 3 --batch-size 0 refused with 0 before any run is loaded, nothing
written; verify of a labels file of 5 against MNIST's (10000,)). Left out as equivalent: predict's `int(value)` of
_count made `value` (an np.integer indexes and slices alike); load_run's device not passed on (the default is 'cpu',
the only device a CPU test can ask for); read_inputs' plural `!= 1` made `> 1` (check_inputs refuses 0 steps first);
the first file named by parts[-1] instead of parts[0] for the length (every earlier part has the first one's
length); _read_one's images ndim/dtype check with `and` (read_idx of IMAGES_MAGIC gives only 3-d uint8). Left out as
too costly for a cheap test: require_reader/read's beam and batch-size defaults (a CTC reader run on a stroke task),
sample_run's count refusal (a synthesis run), prepare_output_file's makedirs failure after check_output_file passed
(a race).

    python tests/mutants/run.py --only 'v277-*'
"""
API = "lnrnn/api.py"
PRED = "lnrnn/predict_io.py"
FILES = "lnrnn/files.py"
PLOT = "lnrnn/commands/plot.py"
READ = "lnrnn/commands/read.py"
DATA = "lnrnn/commands/data.py"

T_IO = "tests/commands/test_values277_predict_io.py::"
T_API = "tests/commands/test_values277_api.py::"
T_CLI = "tests/commands/test_values277_cli.py::"
T_READ = "tests/commands/test_values437_read.py::"   # the read refusal, in a file named after read
OLD_IO = ["tests/test_values219_predict_io.py", "tests/test_values214_predict_io.py"]
OLD_API = ["tests/test_values214_api.py", "tests/test_values161_api.py"]
OLD_FILES = ["tests/commands/test_files_unmade_names.py", "tests/commands/test_values229_files_predict_io_paths.py"]
OLD_CLI = ["tests/commands/test_values46_plot_runs.py", "tests/commands/test_values215_predict_plot.py"]

MUTANTS = [
    # ---- the public API: lnrnn/api.py ----
    dict(name="v277-api-width-refusal-names-the-run", file=API,
         old='    x = check_inputs(x, model.config["input_size"], run.path)',
         new='    x = check_inputs(x, model.config["input_size"])',
         tests=[T_API + "test_a_width_not_the_models_is_refused_naming_the_run_folder"] + OLD_API,
         why="predict's refusal of a width that is not the model's says 'the model of the run' instead of naming "
             "the run folder"),
    dict(name="v277-api-regression-nan-inverted", file=API,
         old="        if every:\n            out[past] = np.nan",
         new="        if not every:\n            out[past] = np.nan",
         tests=[T_API + "test_per_step_values_equal_numpy_and_are_nan_past_each_length"] + OLD_API,
         why="a per-step regression's values past each length are kept (and written as rows), a last-step "
             "regression's all made NaN"),
    dict(name="v277-api-default-batch-size-50", file=API,
         old="def predict(run, x, lengths=None, batch_size=500, progress=None):",
         new="def predict(run, x, lengths=None, batch_size=50, progress=None):",
         tests=[T_API + "test_the_default_batch_size_is_500"] + OLD_API,
         why="predict's documented default of 500 sequences per forward pass made 50"),
    # ---- prediction inputs: lnrnn/predict_io.py ----
    dict(name="v277-predict_io-shape-axes-swapped", file=PRED,
         old="    N, T, I = x.shape",
         new="    N, I, T = x.shape",
         tests=[T_IO + "test_check_inputs_reads_sequences_steps_inputs_in_that_order"] + OLD_IO,
         why="check_inputs takes the steps for the inputs: (N,T,1) sequences refused, (N,1,I) taken"),
    dict(name="v277-predict_io-top-of-range-is-min", file=PRED,
         old='        lo, hi = float(record["min"]), float(record["max"])',
         new='        lo, hi = float(record["min"]), float(record["min"])',
         tests=[T_IO + "test_values_refused_exactly_past_the_range_widened_by_slack"] + OLD_IO,
         why="the training range's top read from its minimum: values inside the range refused"),
    dict(name="v277-predict_io-span-high-to-low", file=PRED,
         old='differs.append(f"their values span {xlo:g} to {xhi:g} where',
         new='differs.append(f"their values span {xhi:g} to {xlo:g} where',
         tests=[T_IO + "test_values_refused_exactly_past_the_range_widened_by_slack"] + OLD_IO,
         why="the refusal says the inputs span their highest value to their lowest"),
    dict(name="v277-predict_io-step-plural-inverted", file=PRED,
         old="""differs.append(f"they have {T} step{'s' * (T != 1)} where the training sequences had {steps[0]} to""",
         new="""differs.append(f"they have {T} step{'s' * (T == 1)} where the training sequences had {steps[0]} to""",
         tests=[T_IO + "test_step_counts_outside_a_range_are_named_in_singular_and_plural"] + OLD_IO,
         why="'they have 1 steps', '8 step' against a range of training lengths"),
    dict(name="v277-predict_io-length-refusal-names-the-folder", file=PRED,
         old="""raise DataError(f"{f} holds sequences of {x.shape[1]} step""",
         new="""raise DataError(f"{path} holds sequences of {x.shape[1]} step""",
         tests=[T_IO + "test_a_folders_idx_file_of_another_length_is_named_itself"] + OLD_IO,
         why="an IDX file of another length inside a folder given as --input is refused naming the folder"),
    dict(name="v277-predict_io-idx-refusal-names-path-for-task", file=PRED,
         old='f"trained on {task}: pass a .npy of sequences instead.")',
         new='f"trained on {path}: pass a .npy of sequences instead.")',
         tests=[T_IO + "test_idx_images_for_an_npz_run_are_refused_naming_the_task"] + OLD_IO,
         why="IDX images for a run of another task: the refusal names the file where the task belongs"),
    # ---- output checks: lnrnn/files.py ----
    dict(name="v277-files-link-named-by-realpath", file=FILES,
         old='raise UserError(f"{here} is a link to {os.readlink(here)}, which does not exist',
         new='raise UserError(f"{here} is a link to {os.path.realpath(here)}, which does not exist',
         tests=[T_IO + "test_a_link_to_nowhere_is_refused_with_its_own_target"] + OLD_FILES,
         why="a link to nowhere is named by its resolved absolute path, not the target it holds"),
    dict(name="v277-files-nearest-existing-returns-path", file=FILES,
         old="        probe = parent\n    return probe",
         new="        probe = parent\n    return path",
         tests=[T_IO + "test_a_file_under_folders_not_made_yet_is_taken_and_nothing_made"] + OLD_FILES,
         why="nearest_existing returns the missing folder itself: a file under folders not made yet is refused"),
    # ---- the commands ----
    dict(name="v277-plot-same-folder-spellings-swapped", file=PLOT,
         old='raise UserError(f"{seen[key]} and {r} are the same run folder; give each run once.")',
         new='raise UserError(f"{r} and {seen[key]} are the same run folder; give each run once.")',
         tests=[T_CLI + "test_plot_of_one_folder_twice_names_the_first_spelling_first"] + OLD_CLI,
         why="plot's refusal of one folder given twice names the later spelling first"),
    dict(name="v277-read-batch-size-refusal-names-beam", file=READ,
         old='        raise UserError(f"--batch-size must be at least 1, not {batch_size}.")',
         new='        raise UserError(f"--batch-size must be at least 1, not {beam}.")',
         tests=[T_READ + "test_read_refuses_batch_size_zero_naming_it"] + OLD_CLI,
         why="lnrnn read's --batch-size refusal names --beam's value"),
    dict(name="v277-data-verify-names-own-shape-as-mnists", file=DATA,
         old='raise DataError(f"{name} holds an array of shape {arr.shape}, not the {shape} of MNIST.")',
         new='raise DataError(f"{name} holds an array of shape {arr.shape}, not the {arr.shape} of MNIST.")',
         tests=[T_CLI + "test_mnist_check_names_the_files_shape_and_mnists"] + OLD_CLI,
         why="the MNIST check says a file of the wrong shape is not 'the (5,) of MNIST': MNIST's shape unnamed"),
]
