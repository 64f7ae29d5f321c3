"""Planted bugs, round 214 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the Python API, the prediction files, the finite-difference check and the output-file functions.

Covered: predict reading T off the inputs' last axis; fit refusing any existing out folder (not only one
holding a run) and naming an unknown training option unquoted; the training record's step count compared with
the first length instead of the longest and a task's stored inputs recorded without its scale; IDX images' rows
and columns swapped for mnist-rows; several input files joined along the steps axis; a prediction file given as
many rows as it has columns; numeric_grad's order 2 running the five-point stencil, flatten() copying every array
(so all are refused) and the saved value read from the array instead of its flat view; check_output_file's
'..' test matching '.', nearest_existing starting at the path's parent, and a full disk reported as a
permissions problem.

14 mutants. Against the existing targeted tests alone 11 were caught and 3 missed: fit into an existing empty
folder (the old fits write into folders that do not exist yet), a task's scale dropped from the record (no
old test builds the record of a scaled task) and the no-space hint (no old test makes a write fail with
ENOSPC). The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values214_api (predict in batches of two over five rows, a partial last batch, with lengths 1 and T and
without lengths, against the LSTM recomputed in NumPy float64 from the run's export; evaluate_run's loss and
accuracy against the mean cross-entropy and the share of right argmaxes recomputed the same way; fit's
refusals word for word with the run's files untouched), test_values214_predict_io (the record by hand, IDX
images of 3x2 pixels written here and read row by row and pixel by pixel, two .npy files stacked, per-step
predictions written to .csv and .npy and read back as the five (index, step, class, probability) rows worked
out by hand), test_values214_gradcheck_files (numeric_grad of a x^5 + b x^3 against the closed-form
truncation of each order, 5x^4 - 4h^4 and 5x^4 + 10x^2h^2 + h^4, every element put back, chosen indices in
the order asked; a transposed view refused; check_output_file's refusals of '..' from a missing folder, a file
where the folder should be, a trailing separator and a folder, word for word with nothing written; a write that
fails with ENOSPC, EACCES or EIO leaving nothing and naming its hint). Dropped as equivalent or near it:
sample_idx's size <= k as < (the sorted permutation of every index is the same range), the per-step output's
astype(float64) (the buffer is float64 already), atomic_write's folder without abspath (mkstemp with dir ''
writes in the working folder, where the relative path points too), dropping predict's lengths from the
network call of a one-way stack (each step depends only on the steps before it, and the last-step selection
uses the lengths itself), numeric_grad's output buffer in the array's dtype (float32 perturbations round far
more than the stored result). Not tested: the refusal of a read-only folder (the tests may run as root, for
whom a folder's mode does not stop a write).

    python tests/mutants/run.py --only 'v214-*'
"""
API = "lnrnn/api.py"
PIO = "lnrnn/predict_io.py"
GRAD = "lnrnn/gradcheck.py"
FILES = "lnrnn/files.py"

# existing tests of these modules (the most direct ones)
API_OLD = ["tests/test_values196_api.py", "tests/test_values161_api.py", "tests/test_values140_api.py"]
PIO_OLD = ["tests/test_values131_predict_io.py", "tests/test_values112_predict_io.py",
           "tests/test_values91_predict_io.py"]
GRAD_OLD = ["tests/test_values184_gradcheck.py", "tests/test_values118_gradcheck.py",
            "tests/test_values83_gradcheck.py"]
FILES_OLD = ["tests/test_values171_files.py", "tests/test_values131_files.py", "tests/test_values116_files.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
API_NEW = ["tests/test_values214_api.py"]
PIO_NEW = ["tests/test_values214_predict_io.py"]
GRAD_NEW = ["tests/test_values214_gradcheck_files.py"]
FILES_NEW = ["tests/test_values214_gradcheck_files.py"]

MUTANTS = [
    # ---- the Python API: predict's T, fit's refusals ----
    dict(name="v214-api-predict-T-from-the-input-axis", file=API,
         old="    N, T = x.shape[0], x.shape[1]\n",
         new="    N, T = x.shape[0], x.shape[-1]\n",
         tests=API_NEW + API_OLD,
         why="predict reads T off the inputs' last axis (I): lengths up to the real T are refused, the last-step "
             "selection and the mask past a row's end use the wrong count"),
    dict(name="v214-api-fit-refuses-any-existing-out", file=API,
         old="    if checkpoint_exists(out):\n",
         new="    if os.path.exists(out):\n",
         tests=API_NEW + API_OLD,
         why="fit refuses an existing empty folder as out as if it held a run"),
    dict(name="v214-api-fit-unknown-option-unquoted", file=API,
         old='raise UserError(f"fit() takes no training option {name!r}; the options are: {known}.")',
         new='raise UserError(f"fit() takes no training option {name}; the options are: {known}.")',
         tests=API_NEW + API_OLD,
         why="the refusal of an unknown training option names it without quotes, unlike every other refusal"),
    # ---- prediction files and the training record ----
    dict(name="v214-pio-lengths-differ-compared-with-the-first", file=PIO,
         old="    if lengths is not None and len(lengths) and int(np.min(lengths)) != int(np.max(lengths)):",
         new="    if lengths is not None and len(lengths) and int(np.min(lengths)) != int(lengths[0]):",
         tests=PIO_NEW + PIO_OLD,
         why="varied lengths whose first is the shortest are recorded as one step count (the first) instead of "
             "[min, max]"),
    dict(name="v214-pio-task-data-scale-dropped", file=PIO,
         old='    return describe_training_data(task.x_train, scale=getattr(task, "scale", 1.0))',
         new='    return describe_training_data(task.x_train)',
         tests=PIO_NEW + PIO_OLD,
         why="a task that stores its inputs scaled is recorded with the unscaled range"),
    dict(name="v214-pio-idx-rows-and-cols-swapped", file=PIO,
         old="    n, rows, cols = images.shape\n",
         new="    n, cols, rows = images.shape\n",
         tests=PIO_NEW + PIO_OLD,
         why="mnist-rows of non-square images reads cols steps of rows values: each sequence is the image's "
             "bytes re-cut, not its rows"),
    dict(name="v214-pio-inputs-joined-along-steps", file=PIO,
         old="    return np.concatenate(parts), where\n",
         new="    return np.concatenate(parts, axis=1), where\n",
         tests=PIO_NEW + PIO_OLD,
         why="several input files are joined along the steps axis instead of stacked as more sequences"),
    dict(name="v214-pio-rows-counted-as-columns", file=PIO,
         old="    rows = len(cols[0][2])\n",
         new="    rows = len(cols)\n",
         tests=PIO_NEW + PIO_OLD,
         why="the prediction file holds as many rows as there are columns (3 or 4), not one per prediction"),
    # ---- the finite-difference check ----
    dict(name="v214-grad-order-2-runs-the-4th-order-stencil", file=GRAD,
         old="        if order == 4:\n",
         new="        if order >= 2:\n",
         tests=GRAD_NEW + GRAD_OLD,
         why="order=2 silently returns the five-point difference: the second-order truncation (eps^2 f'''/6) "
             "the caller asked for is gone"),
    dict(name="v214-grad-flatten-copies", file=GRAD,
         old="    flat = arr.reshape(-1)  # a view: arr must be contiguous\n",
         new="    flat = arr.flatten()  # a view: arr must be contiguous\n",
         tests=GRAD_NEW + GRAD_OLD,
         why="flatten always copies: every array is refused as not contiguous"),
    dict(name="v214-grad-old-value-from-the-array", file=GRAD,
         old="        old = flat[k]\n",
         new="        old = arr[k]\n",
         tests=GRAD_NEW + GRAD_OLD,
         why="the saved value indexes the array itself: for a matrix, a row (or past the rows), so the "
             "perturbations are wrong and the element is not restored"),
    # ---- output files (lnrnn/files.py) ----
    dict(name="v214-files-dot-taken-for-up", file=FILES,
         old='        if part == "..":\n',
         new='        if part == ".":\n',
         tests=FILES_NEW + FILES_OLD,
         why="a path that goes up ('..') from a missing folder is let through (and './x' is checked instead)"),
    dict(name="v214-files-nearest-existing-starts-at-parent", file=FILES,
         old="    probe = path\n    while not os.path.exists(probe):",
         new="    probe = os.path.dirname(path)\n    while not os.path.exists(probe):",
         tests=FILES_NEW + FILES_OLD,
         why="the nearest existing folder skips the path itself: a file named as the output's folder is not "
             "seen and the write fails later"),
    dict(name="v214-files-no-space-hint-says-writable", file=FILES,
         old='        return "free some space there"\n',
         new='        return "make the folder writable"\n',
         tests=FILES_NEW + FILES_OLD,
         why="a full disk is reported as a permissions problem"),
]
