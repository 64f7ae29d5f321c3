"""Planted bugs, round 228 (format: tests/mutants/mutants.py): single-line slips in data preparation's counts,
sizes and refusals, on lines no earlier round mutates. Your arrays (lnrnn/data/arrays.py): the refusal of a length
past T naming N as the longest length, the refusal of y of the wrong shape asking for per-step labels (T, N), the
refusal of x_val with another input count quoting x_val's steps; the refusal of a label past MAX_CLASSES naming
the wrong set when a validation set is given, counting one class fewer than labels 0..max make, and printing the
distinct-label count without its thousands separator; class labels coming out int32 and regression targets
float64; arrays given as None (what fit() passes) counted as a validation set; the npz task's batches ignoring the
dtype asked for. The task registry (lnrnn/data/tasks.py): the copy task's announced memory leaving out the
validation sequences, the adding problem drawing 1000 training sequences, the refusal of t10k images of another
size quoting their rows twice, and mnist-rows describing cols steps of rows inputs.

14 mutants. Against the existing targeted tests alone (test_own_data, test_values_data_counts,
test_values200_arrays, test_values220_arrays, test_values_tasks, test_values220_tasks) 3 were caught and 11
missed: only the lengths and inputs-per-step refusals (test_own_data's malformed files, at N != T and T != I) and
the None entries (a fit() call) were caught; no test read the y-shape refusal at N != T, the MAX_CLASSES refusal
word for word with a validation set or past 999 distinct labels, the dtypes of labels and targets, a batch in
float64, the copy task's data_bytes, the adding problem's counts, or MNIST files of non-square images. The new
value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values228_arrays (refusals word for word at N 3, T 5, I 2 and a validation set of its own N and T; a label
past MAX_CLASSES in y and in y_val, the classes it makes as label + 1 and the distinct labels of both splits
counted here with set(), 1,200 and 1,201; int64 labels from uint8..uint64 and float32 targets from float64 and
float16, through check_arrays and a built task; a dict of None entries equal to no validation set; held-out
batches of N 13 in float64, element by element against the seed-0 permutation drawn here, with and without
lengths), test_values228_tasks (the copy task's data_bytes against the built arrays' bytes plus the int64 codes,
counted here; the adding problem's documented 10000/1000 and its targets the sum of the marked values; IDX files
of 4x6 and 5x7 images refused word for word; 3x5 images read row by row and pixel by pixel against read_idx, with
and without --split, descriptions by hand). Left out: lnrnn/data/splits.py's remaining lines (return a, b
swapped is caught by test_values_splits' (8000, 2000); split("/", 1) is equivalent: a third part fails int()
with the same refusal) and lnrnn/data/taskdata.py, whose code lines earlier rounds all mutate; the adding
problem's data_bytes formula (2 (T I 4) + 4 + 2 T 8), whose comment does not define the scratch it counts, so
that no test could compare it with a definition.

    python tests/mutants/run.py --only 'v228-*'
"""
TASKS = "lnrnn/data/tasks.py"
ARRAYS = "lnrnn/data/arrays.py"

A = "tests/data/test_values228_arrays.py::"
T = "tests/data/test_values228_tasks.py::"

OLD = ["tests/data/test_own_data.py", "tests/data/test_values_data_counts.py", "tests/data/test_values200_arrays.py",
       "tests/data/test_values220_arrays.py", "tests/data/test_values_tasks.py", "tests/data/test_values220_tasks.py"]

MUTANTS = [
    dict(name="v228-arrays-lengths-range-names-n", file=ARRAYS,
         old='must lie between 1 and T={T}, but one is {bad}.")',
         new='must lie between 1 and T={N}, but one is {bad}.")',
         tests=[A + "test_lengths_past_the_steps_refused_naming_t"] + OLD,
         why="the refusal of a length past T names the sequence count N as the longest allowed length"),
    dict(name="v228-arrays-targets-shape-message-t-by-n", file=ARRAYS,
         old='or ({N}, {T}) (one per step) "',
         new='or ({T}, {N}) (one per step) "',
         tests=[A + "test_targets_of_the_wrong_shape_refused_as_n_by_t"] + OLD,
         why="the refusal of y of the wrong shape asks for per-step labels of shape (T, N) instead of (N, T)"),
    dict(name="v228-arrays-inputs-mismatch-quotes-steps", file=ARRAYS,
         old="f\"{out['x_val'].shape[2]}; they must match.\")",
         new="f\"{out['x_val'].shape[1]}; they must match.\")",
         tests=[A + "test_validation_inputs_of_another_count_refused_by_their_count"] + OLD,
         why="the refusal of x_val with another input count quotes x_val's steps as its inputs per step"),
    dict(name="v228-arrays-top-label-named-by-last-set", file=ARRAYS,
         old='name = "y" if top is ys[0] else "y_val"',
         new='name = "y" if top is ys[-1] else "y_val"',
         tests=[A + "test_label_past_max_classes_names_its_set_and_counts"] + OLD,
         why="with a validation set, the refusal of a label past MAX_CLASSES names the other set's array"),
    dict(name="v228-arrays-class-count-without-plus-one", file=ARRAYS,
         old="so it would make {int(top.max()) + 1:,} classes",
         new="so it would make {int(top.max()):,} classes",
         tests=[A + "test_label_past_max_classes_names_its_set_and_counts"] + OLD,
         why="the refusal of a label past MAX_CLASSES counts one class fewer than labels 0..max make"),
    dict(name="v228-arrays-distinct-count-without-commas", file=ARRAYS,
         old='f"where y holds {distinct:,} distinct labels;',
         new='f"where y holds {distinct} distinct labels;',
         tests=[A + "test_label_past_max_classes_names_its_set_and_counts"] + OLD,
         why="the distinct-label count of the MAX_CLASSES refusal loses its thousands separator past 999"),
    dict(name="v228-arrays-classes-as-int32", file=ARRAYS,
         old="        ys = [y.astype(np.int64) for y in ys]",
         new="        ys = [y.astype(np.int32) for y in ys]",
         tests=[A + "test_class_labels_come_out_int64"] + OLD,
         why="class labels come out int32, not the int64 TaskData promises"),
    dict(name="v228-arrays-targets-as-float64", file=ARRAYS,
         old="        ys = [y.astype(np.float32) for y in ys]",
         new="        ys = [y.astype(np.float64) for y in ys]",
         tests=[A + "test_regression_targets_come_out_float32"] + OLD,
         why="regression targets come out float64 (float64 files stay float64), not float32"),
    dict(name="v228-arrays-none-entries-count-as-given", file=ARRAYS,
         old='has_val = {k: arrays.get(k) is not None for k in ("x_val", "y_val", "lengths_val")}',
         new='has_val = {k: k in arrays for k in ("x_val", "y_val", "lengths_val")}',
         tests=[A + "test_arrays_given_as_none_are_absent"] + OLD,
         why="x_val=None, y_val=None (what fit() passes when no validation set is given) count as a validation set"),
    dict(name="v228-arrays-batch-dtype-not-passed", file=ARRAYS,
         old="        xb, yb = super().batch(which, idx, dtype)",
         new="        xb, yb = super().batch(which, idx)",
         tests=[A + "test_held_out_batches_in_the_dtype_asked_for"] + OLD,
         why="the npz task's batches ignore the dtype asked for: float64 batches come out float32"),
    dict(name="v228-tasks-copy-shape-bytes-train-only", file=TASKS,
         old="                     (SYNTHETIC_TRAIN + SYNTHETIC_VAL) * per)",
         new="                     SYNTHETIC_TRAIN * per)",
         tests=[T + "test_copy_shape_counts_the_bytes_of_every_sequence"] + OLD,
         why="the copy task's announced memory leaves out the validation sequences"),
    dict(name="v228-tasks-adding-train-drawn-as-val-count", file=TASKS,
         old="    xt, yt = _adding_sequences(rng, SYNTHETIC_TRAIN, T)",
         new="    xt, yt = _adding_sequences(rng, SYNTHETIC_VAL, T)",
         tests=[T + "test_adding_draws_the_documented_counts"] + OLD,
         why="the adding problem draws 1000 training sequences, not the 10000 its shape and docs announce"),
    dict(name="v228-tasks-mnist-mismatch-quotes-rows-twice", file=TASKS,
         old='f"{xv.shape[1]}x{xv.shape[2]}; the files do not belong together."',
         new='f"{xv.shape[1]}x{xv.shape[1]}; the files do not belong together."',
         tests=[T + "test_t10k_images_of_another_size_refused_by_their_size"] + OLD,
         why="the refusal of t10k images of another size quotes their rows as their columns too"),
    dict(name="v228-tasks-rows-description-swapped", file=TASKS,
         old='how = f"row by row ({rows} steps of {cols})"',
         new='how = f"row by row ({cols} steps of {rows})"',
         tests=[T + "test_non_square_images_rows_by_rows_and_pixels"] + OLD,
         why="mnist-rows of non-square images describes cols steps of rows inputs, the transpose of what it reads"),
]
