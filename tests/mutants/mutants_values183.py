"""Planted bugs, round 183 (format: tests/mutants/mutants.py): single-line slips in prediction files and export, on
lines no earlier catalogue mutates: check_inputs letting a 1-D array through to an IndexError, and offering
"(N,T)" by the inputs' width instead of the model's; a .npy read with pickle allowed; a text file with a bad
IDX magic number refused with read_idx's message instead of predict's, and an upper-case .NPY suffix missed;
an empty folder let through to "no input given"; a record with a minimum and no maximum ending in a KeyError;
a regression's index column from 1 and its values cast to float32; lnrnn predict calling last-step regression
values "per step"; the export's names of the norm of h Wh's gain and bias swapped, the metadata left out of the
file, a JSON list for a header read on to an AttributeError, and a name without a suffix said to "end in".

14 mutants. Against the existing targeted tests alone 8 were caught and 6 missed: the "(N,T)" offered by the
inputs' width (no old test refused a width-2 array for a model of one input), the .npy read with pickle (no old
test fed predict an object array), the bad magic number and the upper-case .NPY (no old test read a text file
as an input), the record without a maximum (every old record had both ends) and the message calling last-step
values per step (no old test read a regression run's message). The new value tests catch every mutant on their
own (checked with the old tests taken off the lists): test_values183_predict_io (check_inputs' exact sentences for
a 1-D array and for widths other than the model's, against the message's definition; the refusals of a .npy
needing pickle with numpy's own words, a text file, an upper-case .NPY text file and a folder without IDX
images; check_like_training with a record of one end; an untrained LN-LSTM regression run through lnrnn predict,
its .npy and .csv row for row against lnrnn.api.predict on the same sequences, and the exact message; a 1-D
array, NaN and a pickled .npy refused by lnrnn predict in one line with nothing written) and
test_values183_export (a safetensors reader written from the format's definition; an LN-LSTM with every
parameter random, its exported tensors run through the README's LN-LSTM equations against lnrnn.api.predict;
the metadata's format, step, gate order and model config; a JSON-list header refused by lnrnn's reader in its
sentence; an --out without a suffix refused as having none before the run is loaded, writing nothing).
Dropped before the catalogue as equivalent: N and T unpacked in the other order in check_inputs (only their
zero is tested, by one condition for both), `if not record` as `if record is None` in check_like_training (an
empty record checks nothing either way), predict's batch size not passed on (it affects memory only) and the
tensors written unsorted (the offsets still cover the data back to back).

    python tests/mutants/run.py --only 'v183-*'
"""
EXPORT = "lnrnn/interop/export.py"
PIO = "lnrnn/predict_io.py"
PREDICT_CMD = "lnrnn/commands/predict.py"

# existing tests of these modules
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values10_export.py",
              "tests/interop/test_values13_export.py", "tests/interop/test_values23_export.py",
              "tests/interop/test_values41_export.py", "tests/interop/test_values63_export.py",
              "tests/interop/test_values116_export.py", "tests/interop/test_values128_export.py",
              "tests/interop/test_values156_export.py", "tests/interop/test_predict_export.py",
              "tests/commands/test_values46_suffixes.py"]
PIO_OLD = ["tests/test_values_predict_io.py", "tests/test_values9_predict_io.py", "tests/test_values14_predict_io.py",
           "tests/test_values21_predict_io.py", "tests/test_values34_predict_io.py",
           "tests/test_values54_predict_io.py", "tests/test_values80_predict_io.py",
           "tests/test_values91_predict_io.py", "tests/test_values112_predict_io.py",
           "tests/test_values131_predict_io.py", "tests/commands/test_values156_predict_io.py"]
PREDICT_CMD_OLD = ["tests/commands/test_values131_predict.py", "tests/commands/test_values_eval_predict.py",
                   "tests/commands/test_values156_predict_io.py", "tests/interop/test_predict_export.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
EXPORT_NEW = ["tests/interop/test_values183_export.py"]
PREDICT_NEW = ["tests/commands/test_values183_predict_io.py"]

MUTANTS = [
    # ---- lnrnn/predict_io.py: the inputs' checks, the files read, the regression columns ----
    dict(name="v183-pio-1d-array-let-through", file=PIO,
         old="    if x.ndim == 2:\n",
         new="    if x.ndim <= 2:\n",
         tests=PREDICT_NEW + PIO_OLD,
         why="a 1-D array is taken for (N,T) and indexed as 2-D: an IndexError instead of the one-sentence refusal "
             "of its shape"),
    dict(name="v183-pio-n-t-offered-by-the-inputs-width", file=PIO,
         old="f\"{' or (N,T)' if input_size == 1 else ''}).\")",
         new="f\"{' or (N,T)' if I == 1 else ''}).\")",
         tests=PREDICT_NEW + PIO_OLD,
         why="the width refusal offers (N,T) when the inputs have one value per step, not when the model reads "
             "one"),
    dict(name="v183-pio-npy-read-with-pickle", file=PIO,
         old="x = np.load(path, allow_pickle=False)",
         new="x = np.load(path, allow_pickle=True)",
         tests=PREDICT_NEW + PIO_OLD,
         why="a .npy that needs pickle is unpickled (running whatever it holds) instead of refused"),
    dict(name="v183-pio-bad-magic-raises-read-idx-message", file=PIO,
         old='if "magic number" not in str(e) and "too short" not in str(e):',
         new='if "magic number" not in str(e) or "too short" not in str(e):',
         tests=PREDICT_NEW + PIO_OLD,
         why="a text file with a bad IDX magic number is refused with read_idx's message (expected 2051) instead "
             "of saying it is neither a .npy nor an IDX file and what predict reads"),
    dict(name="v183-pio-npy-suffix-case-sensitive", file=PIO,
         old='if str(path).lower().endswith((".npy", ".npz")):',
         new='if str(path).endswith((".npy", ".npz")):',
         tests=PREDICT_NEW + PIO_OLD,
         why="a file named X.NPY that is no NumPy file is read as IDX images and refused as neither, instead of "
             "saying what it is"),
    dict(name="v183-pio-empty-folder-let-through", file=PIO,
         old="        if not found:\n",
         new="        if found is None:\n",
         tests=PREDICT_NEW + PIO_OLD,
         why="a folder without IDX images gives no files: predict says no input was given, not that the folder "
             "holds none"),
    dict(name="v183-pio-range-needs-min-or-max", file=PIO,
         old='if "min" in record and "max" in record:',
         new='if "min" in record or "max" in record:',
         tests=PREDICT_NEW + PIO_OLD,
         why="a training record with a minimum and no maximum (or the other way) fails with a KeyError instead of "
             "skipping the range check"),
    dict(name="v183-pio-regression-index-from-1", file=PIO,
         old='cols = [("index", "<i8", np.arange(len(v)))]',
         new='cols = [("index", "<i8", np.arange(1, len(v) + 1))]',
         tests=PREDICT_NEW + PIO_OLD,
         why="a last-step regression's index column counts from 1, not from 0 as documented"),
    dict(name="v183-pio-regression-values-float32", file=PIO,
         old="v = np.asarray(predictions.values, np.float64)",
         new="v = np.asarray(predictions.values, np.float32)",
         tests=PREDICT_NEW + PIO_OLD,
         why="a regression's values go through float32: the .npy's <f8 field holds them rounded to 7 digits"),
    # ---- lnrnn predict: the message ----
    dict(name="v183-predict-cmd-regression-called-per-step", file=PREDICT_CMD,
         old='"regression": "predicted values", "regression-step"',
         new='"regression": "predicted values per step", "regression-step"',
         tests=PREDICT_NEW + PREDICT_CMD_OLD,
         why="lnrnn predict says it wrote values per step for a last-step regression"),
    # ---- lnrnn/interop/export.py: names, metadata, the reader's header check, the suffix message ----
    dict(name="v183-export-norm-hh-gain-and-bias-names-swapped", file=EXPORT,
         old='"gh": ("norm_hh_weight", False), "bh": ("norm_hh_bias", False),',
         new='"gh": ("norm_hh_bias", False), "bh": ("norm_hh_weight", False),',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="an LN cell's gain of the norm of h Wh is exported as its bias and the bias as its gain"),
    dict(name="v183-export-metadata-not-written", file=EXPORT,
         old="write_safetensors(str(path), tensors, meta)",
         new="write_safetensors(str(path), tensors)",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the exported file has no __metadata__: no gate order, model config or step beside the weights"),
    dict(name="v183-export-reader-takes-a-list-header", file=EXPORT,
         old="    if not isinstance(header, dict):\n",
         new="    if header is None:\n",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="a header that is a JSON list is read on, failing with an AttributeError instead of the ValueError "
             "that says the header is not a JSON object"),
    dict(name="v183-export-no-suffix-said-to-end-in", file=EXPORT,
         old='said = f"ends in {ext}" if ext else "has no suffix"',
         new='said = f"ends in {ext}" if text else "has no suffix"',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="an --out without a suffix is refused as one that \"ends in \" (nothing), not one that has no suffix"),
]
