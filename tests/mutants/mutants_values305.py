"""Planted bugs, round 305 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the output checks (lnrnn/files.py), the prediction inputs and tables (lnrnn/predict_io.py), the
public API's defaults (lnrnn/api.py) and lnrnn sample's early refusals (lnrnn/commands/sample.py): a link to
nowhere, a name past NAME_MAX and a writer's full disk refused naming --out whatever option the caller checked;
write_error probing the temporary folder instead of the one asked about; a folder given to read_inputs read as
one file instead of its IDX images files; a classifier table's probability column taken from the whole
probability matrix; evaluate_run defaulting to the training set; sample_run drawing 70 points by default;
export_run defaulting to a format export does not have; a prime past the cap refused naming its own point count
as the cap; --npz under another suffix refused naming --out's path.

11 mutants. Against the old targeted files alone: not measured yet. The old targeted files are
test_files_unmade_names and test_values229_files_predict_io_paths (files), test_values219_predict_io and
test_values214_predict_io (predict_io), test_values214_api and test_values_eval_predict (api),
test_values272_sample_cli (sample). The new value tests catch every mutant on their own (checked with the old files
taken off the lists): test_values305_files_predict_io_outputs (refusals word for word with the option given, --npz
and --judge-out, and nothing left in the folder; write_error's errno for a file and a missing folder; a folder's two
IDX files in name order with the pixels / 255 by hand; a classifier's csv and npy tables written out here; sample's
refusals before any run is loaded, 20,001 points against the cap of 20,000), test_values305_api (evaluate_run
against the same call with which='val'; sample_run's arguments reaching the sampler against lnrnn sample's shown
defaults 700, 1, 0, 0; export_run's file read back as safetensors by its definition: an 8-byte little-endian header
length, then the JSON header whose shapes are export's and whose offsets add up to the file's size).

Left out as equivalent: predict_io's IDX images check 'images.ndim != 3 or images.dtype != np.uint8' made 'and'
(read_idx with the images magic 2051 already fixes uint8 and 3 dimensions); input_files' 'does not exist'
refusal dropped (_read_one says the same sentence); umask's 'Umask:' key misspelt (the fallback asks os.umask for
the same value); the .npy table saved with allow_pickle=True (a structured array of numbers pickles nothing).
Left out as not checkable here: write_error's read-only folder (the tests run as root, which writes anyway).
Left out as too costly for a cheap test: fit's default cell='ln-lstm' (a training run compiles the LN-LSTM's
training kernels: over a minute on a cold cache).

    python tests/mutants/run.py --only 'v305-*'
"""
FILES = "lnrnn/files.py"
PRED = "lnrnn/predict_io.py"
API = "lnrnn/api.py"
SAMPLE = "lnrnn/commands/sample.py"

T_OUT = "tests/commands/test_values305_files_predict_io_outputs.py::"
T_API = "tests/commands/test_values305_api.py::"
OLD_FILES = ["tests/commands/test_files_unmade_names.py", "tests/commands/test_values229_files_predict_io_paths.py"]
OLD_PRED = ["tests/test_values219_predict_io.py", "tests/test_values214_predict_io.py"]
OLD_API = ["tests/test_values214_api.py", "tests/commands/test_values_eval_predict.py"]
OLD_SAMPLE = ["tests/commands/test_values272_sample_cli.py"]

MUTANTS = [
    # ---- output checks: lnrnn/files.py ----
    dict(name="v305-files-link-names-out", file=FILES,
         old='                            f"cannot be written there; choose another {option}.")',
         new='                            f"cannot be written there; choose another --out.")',
         tests=[T_OUT + "test_a_link_to_nowhere_is_refused_naming_the_option_given"] + OLD_FILES,
         why="a link to nowhere checked for --npz or --judge-out tells the user to choose another --out"),
    dict(name="v305-files-long-name-names-out", file=FILES,
         old='                            f"the file system allows; choose a shorter {option}.")',
         new='                            f"the file system allows; choose a shorter --out.")',
         tests=[T_OUT + "test_a_name_of_256_bytes_is_refused_naming_the_option_given"] + OLD_FILES,
         why="a name past NAME_MAX checked for another option tells the user to shorten --out"),
    dict(name="v305-files-full-disk-names-out", file=FILES,
         old='                        f"{option}; nothing was written.") from None',
         new='                        f"--out; nothing was written.") from None',
         tests=[T_OUT + "test_a_full_disk_is_refused_naming_the_option_and_leaves_nothing"] + OLD_FILES,
         why="a full disk met writing --judge-out (or --npz) is refused telling the user to choose another --out"),
    dict(name="v305-files-write-probe-not-in-folder", file=FILES,
         old="        with tempfile.TemporaryFile(dir=folder):",
         new="        with tempfile.TemporaryFile():",
         tests=[T_OUT + "test_write_error_probes_inside_the_folder_it_is_given"] + OLD_FILES,
         why="the write probe is made in the temporary folder: a folder that cannot take a file passes the check "
             "and the command fails only at its write, after the computation"),
    # ---- prediction inputs and tables: lnrnn/predict_io.py ----
    dict(name="v305-pred-folder-not-expanded", file=PRED,
         old="        for f in input_files(str(path)):",
         new="        for f in [str(path)]:",
         tests=[T_OUT + "test_a_folder_input_is_its_idx_files_in_name_order"] + OLD_PRED,
         why="a folder given to --input is read as one file (refused as unreadable) instead of its IDX images files"),
    dict(name="v305-pred-probability-matrix", file=PRED,
         old="    prob = np.asarray(predictions.probability, np.float64)",
         new="    prob = np.asarray(predictions.probabilities, np.float64)",
         tests=[T_OUT + "test_a_classifier_table_holds_the_chosen_class_probability"] + OLD_PRED,
         why="a classifier's probability column is taken from the (N,C) matrix, not the chosen class's probability"),
    # ---- the public API's defaults: lnrnn/api.py ----
    dict(name="v305-api-evaluate-defaults-to-train", file=API,
         old='def evaluate_run(run, which="val", data_dir=None, split=None, batch_size=None):',
         new='def evaluate_run(run, which="train", data_dir=None, split=None, batch_size=None):',
         tests=[T_API + "test_evaluate_run_defaults_to_the_validation_set"] + OLD_API,
         why="evaluate_run without which reports the training set's metrics as if they were the validation set's"),
    dict(name="v305-api-sample-default-steps-70", file=API,
         old="def sample_run(run, steps=700, count=1, bias=0.0, seed=0, progress=None, text=None, prime_strokes=None,",
         new="def sample_run(run, steps=70, count=1, bias=0.0, seed=0, progress=None, text=None, prime_strokes=None,",
         tests=[T_API + "test_sample_run_passes_the_documented_defaults_on"] + OLD_API,
         why="sample_run draws 70 points by default where lnrnn sample draws 700"),
    dict(name="v305-api-export-default-npz", file=API,
         old='def export_run(run, path, fmt="safetensors"):',
         new='def export_run(run, path, fmt="npz"):',
         tests=[T_API + "test_export_run_writes_safetensors_by_default"] + OLD_API,
         why="export_run without fmt asks for a format export does not have and is refused"),
    # ---- lnrnn sample's early refusals: lnrnn/commands/sample.py ----
    dict(name="v305-sample-prime-cap-names-count", file=SAMPLE,
         old='                        f"{SAMPLE_MAX_STEPS:,} a prime may have (the model reads each as one step); give a shorter "',
         new='                        f"{len(prime_points):,} a prime may have (the model reads each as one step); give a shorter "',
         tests=[T_OUT + "test_a_prime_past_the_cap_is_refused_naming_the_cap"] + OLD_SAMPLE,
         why="a prime past the cap is refused as 'more than the 20,001 a prime may have': the cap is not named"),
    dict(name="v305-sample-npz-suffix-names-out", file=SAMPLE,
         old='            raise UserError(f"--npz {npz} would hold an .npz archive under another name (lnrnn read and numpy "',
         new='            raise UserError(f"--npz {out} would hold an .npz archive under another name (lnrnn read and numpy "',
         tests=[T_OUT + "test_npz_under_another_suffix_is_refused_naming_its_own_path"] + OLD_SAMPLE,
         why="--npz under another suffix is refused naming the picture's path (--out) as the --npz file"),
]
