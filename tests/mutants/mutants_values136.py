"""Planted bugs, round 136 (format: tests/mutants/mutants.py): single-line slips in the built-in tasks, the
npz task and TaskData, a sixth pass on lines no earlier round mutates: a --split past the digits pool quoting
only the validation count; --split on MNIST splitting the train files instead of the t10k files; validation
images of another width let through; a short --steps quoted as the least steps; the copy task scored per
sequence; a Path --data-dir kept as a Path in the spec; an option's default winning over the value given; the
npz file loaded with pickle allowed; x of rank 1 indexed as (N, T); fractional labels in y_val blamed on y; a
negative label quoted as the bound; the out-of-range message counting the distinct labels of y alone; the
held-out split permuting the steps instead of the sequences; per-step labels batched time-major.

14 mutants. Against the existing targeted tests alone 6 were caught and 8 missed: --split on MNIST from the
train files, the validation width, the copy task's per_step, the Path data_dir, the default winning over the
charset given, x of rank 1, the distinct labels of y alone and time-major per-step labels (no old test read
these). The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values136_tasks (the digits pool's size from scikit-learn; MNIST-family IDX files written here with rows
that say which file they came from, the split's rows gathered by the seed-0 permutation drawn here; 3x4 train
against 3x5 and 4x4 validation images; the copy task's labels read back from its one-hot inputs; the spec of a
Path as JSON; each charset given; a batch's labels against the rows gathered by hand, (B,) and (B, T)),
test_values136_arrays (files written with numpy.savez: the held-out sizes at N = 2, 3, 7, 10, 11, 14, 16, 19
against a hand table of 10% rounded, at least 1, its rows and lengths against the seed-0 permutation, --split
A/B at N = 3, 7, 10; N = 1 refused; the class count with a class only in y_val, per sequence and per step; a
ragged object array, x of rank 1 and 4, fractional y_val, labels -3, -2 and -7, a label of 200000 with five
distinct labels over y and y_val, each refusal's sentence). Dropped as equivalent: parse_split splitting on
the first '/' only ('8/2/3' is refused by int() either way); the validation sets chosen by y_val instead of
x_val in check_arrays (both are present or neither, checked before); per_step from ndim > 1 (y is (N,) or
(N, T), checked before). Left out: the synthetic tasks' data_bytes (an estimate of memory while drawing, with
no definition a test could recompute apart from the formula itself).

    python tests/mutants/run.py --only 'v136-*'
"""
TASKS = "lnrnn/data/tasks.py"
ARRAYS = "lnrnn/data/arrays.py"
TASKDATA = "lnrnn/data/taskdata.py"

D = "tests/data/"
# existing tests of these modules
TASKS_OLD = [D + f for f in ("test_values_tasks.py", "test_values12_tasks.py", "test_values13_tasks.py",
                             "test_values44_tasks.py", "test_values127_tasks.py")]
ARRAYS_OLD = [D + f for f in ("test_own_data.py", "test_values10_arrays.py", "test_values34_arrays.py",
                              "test_values111_arrays.py", "test_values122_arrays.py")]
TASKDATA_OLD = [D + "test_values_taskdata.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TASKS_NEW = [D + "test_values136_tasks.py"]
ARRAYS_NEW = [D + "test_values136_arrays.py"]
TASKDATA_NEW = [D + "test_values136_tasks.py"]

MUTANTS = [
    # ---- the built-in tasks: a split's message, --split on MNIST, the IDX shapes, steps, the spec ----
    dict(name="v136-split-pool-message-counts-val-only", file=TASKS,
         old='raise UserError(f"--split {a}/{b} asks for {a + b} samples',
         new='raise UserError(f"--split {a}/{b} asks for {b} samples',
         tests=TASKS_NEW + TASKS_OLD,
         why="a --split larger than the pool is refused saying it asks for only the validation count"),
    dict(name="v136-mnist-split-from-train-files", file=TASKS,
         old='        xi, yi = load_mnist_split(data_dir, "t10k")',
         new='        xi, yi = load_mnist_split(data_dir, "train")',
         tests=TASKS_NEW + TASKS_OLD,
         why="--split on an MNIST-family task splits the train files, though the help and the description say "
             "the t10k files"),
    dict(name="v136-mnist-val-shape-rows-only", file=TASKS,
         old="    if xv.shape[1:] != (rows, cols):",
         new="    if xv.shape[1] != rows:",
         tests=TASKS_NEW + TASKS_OLD,
         why="validation images of another width pass the check and fail later in a reshape or the model"),
    dict(name="v136-steps-message-names-least", file=TASKS,
         old='needs --steps of at least {least}, not {T}.")',
         new='needs --steps of at least {least}, not {least}.")',
         tests=TASKS_NEW + TASKS_OLD,
         why="a too-short --steps is refused quoting the least steps as what was given"),
    dict(name="v136-copy-not-per-step", file=TASKS,
         old="xt, yt, xv, yv, num_classes=COPY_ALPHABET, per_step=True)",
         new="xt, yt, xv, yv, num_classes=COPY_ALPHABET)",
         tests=TASKS_NEW + TASKS_OLD,
         why="the copy task's (N, T) labels are scored as one label per sequence"),
    dict(name="v136-spec-data-dir-not-str", file=TASKS,
         old='        spec[key] = str(val) if key == "data_dir" else val',
         new='        spec[key] = val',
         tests=TASKS_NEW + TASKS_OLD,
         why="a pathlib.Path --data-dir stays a Path in the spec, which checkpoints save as JSON"),
    dict(name="v136-spec-option-given-loses-to-default", file=TASKS,
         old="        val = default if val is None else val",
         new="        val = default if default is not None else val",
         tests=TASKS_NEW + TASKS_OLD,
         why="an option with a default (charset) keeps the default whatever the caller asked for"),
    # ---- the npz task: pickle, rank, messages, distinct labels, the held-out rows ----
    dict(name="v136-arrays-load-allows-pickle", file=ARRAYS,
         old="        data = np.load(path, allow_pickle=False)",
         new="        data = np.load(path, allow_pickle=True)",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a file of object arrays is unpickled (running whatever it holds) before it is refused"),
    dict(name="v136-arrays-rank-1-x-widened", file=ARRAYS,
         old="    if x.ndim == 2:\n",
         new="    if x.ndim <= 2:\n",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="an x of shape (N,) is indexed as (N, T) and escapes as an IndexError instead of the rank sentence"),
    dict(name="v136-arrays-fraction-message-names-y", file=ARRAYS,
         old='raise DataError(f"{where}: {name} holds fractional values;',
         new='raise DataError(f"{where}: y holds fractional values;',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="fractional labels in y_val are blamed on y"),
    dict(name="v136-arrays-negative-label-message-names-bound", file=ARRAYS,
         old='raise DataError(f"{where}: {name} holds the label {int(y.min())}; classes are 0..C-1"',
         new='raise DataError(f"{where}: {name} holds the label {low}; classes are 0..C-1"',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a label below the least allowed is reported as the bound itself (0 or -1), not the label found"),
    dict(name="v136-arrays-distinct-labels-train-only", file=ARRAYS,
         old="            distinct = len(np.unique(np.concatenate([y.ravel() for y in ys])))",
         new="            distinct = len(np.unique(ys[0]))",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the out-of-range message counts the distinct labels of y alone, not of y and y_val"),
    dict(name="v136-arrays-held-out-over-steps", file=ARRAYS,
         old='        tr, va = held_out(len(d["x"]), parse_split(spec.get("split")), path)',
         new='        tr, va = held_out(d["x"].shape[1], parse_split(spec.get("split")), path)',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the held-out split permutes T (the steps) instead of N (the sequences): wrong sizes and rows"),
    # ---- TaskData.batch ----
    dict(name="v136-taskdata-batch-labels-time-major", file=TASKDATA,
         old="        return xb, y[idx]",
         new="        return xb, y[idx].T",
         tests=TASKDATA_NEW + TASKDATA_OLD,
         why="per-step labels come back (T, B) like the batch's x, where heads take (B, T) and transpose them "
             "themselves; per-sequence (B,) labels are unchanged"),
]
