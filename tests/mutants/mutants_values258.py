"""Planted bugs, round 258 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the counts and sizes of data preparation and of prediction files: the npz task (lnrnn/data/arrays.py),
the task registry (lnrnn/data/tasks.py), the stroke tasks (lnrnn/data/strokes.py) and predict's inputs and tables
(lnrnn/predict_io.py). A y_val of the wrong length refused naming y; x and x_val of different widths refused
with x_val's width given for x; y_val's labels replaced by y's (the class count and the validation labels then
ignore y_val); the own-validation-set check inverted (a file with x_val refused without --split and built with
one); per-step labels described as per sequence and the other way round; the t10k split's description
counting validation as train; the train/t10k description counting the training images as t10k ones; the copy
task's description swapping its train and validation counts; a StrokeSet counting a line's steps (N - 1) as its
points; split_groups drawing its permutation over the items instead of the distinct groups; split_counts
reading the key "splits" (--split ignored by strokes-synthetic); '0 input' in the singular; IDX images read
row by row for every task but mnist-rows; a per-step regression table keeping the padded steps instead of the
real ones; the copy task at --steps 1 described as 'after 1 blanks' (a slip of the fix that the round's
reading found: the description said "1 blanks" before).

15 mutants. Against the old targeted files alone: 13 of 15 caught; they missed '0 input per step' in the singular
and the copy task's '1 blanks'. Old targeted files: test_values240_arrays, test_values228_arrays,
test_values220_arrays, test_own_data (arrays); test_values240_tasks, test_values228_tasks, test_values44_tasks
(tasks); test_strokes_data, test_values244_strokes, test_values232_strokes (strokes); test_values240_predict_io,
test_values219_predict_io, test_values112_predict_io, test_values_predict_io (predict).

The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values258_arrays (refusals of y_val's length and of x/x_val widths word for word; the class count of 5
with the label 4 only in y_val, y_val as given; a file with x_val built at 7 / 11 without --split and refused
word for word with one; descriptions at N = 101 and 1001 with 10 and 100 held out, the nearest whole number to a
tenth), test_values258_tasks (MNIST-family files written here, 3 x 5 pixels: --split 7/11 of 20 t10k images with
the images at the seed-0 permutation drawn in the test; 7 train and 11 t10k images without --split; the copy
task's 10000 / 1000 and 3 + 2 * 10 steps), test_values258_strokes (lines of 3, 5 and 2 points found at starts
0, 3, 8, 10 and a batch padded with zeros to 4 steps, written out by hand; split_groups' validation groups at
7, 11, 101 and 1001 distinct groups against the definition and the permutation drawn here; split_counts and
strokes-synthetic at --split 7/11), test_values258_predict_io ('0 inputs' and '1 input' refusals word for word;
IDX images written byte by byte read 3 rows of 5 for mnist-rows and 15 pixels for mnist, divided by 255;
per-step regression rows for lengths 1 and 3, in .csv and read back from .npy).

Left out as equivalent: drop_long_steps' seq[kept].copy() without .copy() (fancy indexing copies already);
the per-step values' kept steps with .any instead of .all (named by round 240); describe_training_data's
min(lo, hi) made lo (every task's scale is positive); the IDX images' dtype/ndim check with `and` (read_idx
accepts only the uint8 3-dimensional magic 2051, so the check never fires); np.save(..., allow_pickle=True)
for the structured table (it holds no objects). Left out as a crash rather than a value: a ReadingTask batch
one step shorter than its longest line (the assignment fails on the longest line).

    python tests/mutants/run.py --only 'v258-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
TASKS = "lnrnn/data/tasks.py"
STROKES = "lnrnn/data/strokes.py"
PRED = "lnrnn/predict_io.py"

T_ARRAYS = "tests/data/test_values258_arrays.py::"
T_TASKS = "tests/data/test_values258_tasks.py::"
T_STROKES = "tests/data/test_values258_strokes.py::"
T_PRED = "tests/commands/test_values258_predict_io.py::"
OLD_ARRAYS = ["tests/data/test_values240_arrays.py", "tests/data/test_values228_arrays.py",
              "tests/data/test_values220_arrays.py", "tests/data/test_own_data.py"]
OLD_TASKS = ["tests/data/test_values240_tasks.py", "tests/data/test_values228_tasks.py",
             "tests/data/test_values44_tasks.py"]
OLD_STROKES = ["tests/data/test_strokes_data.py", "tests/data/test_values244_strokes.py",
               "tests/data/test_values232_strokes.py"]
OLD_PRED = ["tests/commands/test_values240_predict_io.py", "tests/test_values219_predict_io.py",
            "tests/test_values112_predict_io.py", "tests/test_values_predict_io.py"]

MUTANTS = [
    # ---- the npz task: lnrnn/data/arrays.py ----
    dict(name="v258-arrays-y-val-refusal-names-y", file=ARRAYS,
         old='        y = _targets(arrays["y" + suffix], "y" + suffix, N, T, where)',
         new='        y = _targets(arrays["y" + suffix], "y", N, T, where)',
         tests=[T_ARRAYS + "test_y_val_of_the_wrong_length_is_refused_naming_y_val"] + OLD_ARRAYS,
         why="a y_val of the wrong shape or dtype is refused naming y, the training labels"),
    dict(name="v258-arrays-width-refusal-gives-x-val-width-for-x", file=ARRAYS,
         old='            n = out["x"].shape[2]\n            raise DataError',
         new='            n = out["x_val"].shape[2]\n            raise DataError',
         tests=[T_ARRAYS + "test_widths_of_x_and_x_val_each_named_with_its_own"] + OLD_ARRAYS,
         why="x and x_val of different widths are refused with x_val's width given for both"),
    dict(name="v258-arrays-y-val-labels-are-y", file=ARRAYS,
         old='    ys = [out["y"]] + ([out["y_val"]] if "y_val" in out else [])',
         new='    ys = [out["y"]] + ([out["y"]] if "y_val" in out else [])',
         tests=[T_ARRAYS + "test_class_count_over_both_splits_and_y_val_kept",
                T_ARRAYS + "test_own_validation_set_built_without_split_and_refused_with_one"] + OLD_ARRAYS,
         why="the validation labels become the training labels: the class count ignores y_val's labels and "
             "validation scores the wrong targets"),
    dict(name="v258-arrays-own-val-split-check-inverted", file=ARRAYS,
         old='        if spec.get("split") is not None:',
         new='        if spec.get("split") is None:',
         tests=[T_ARRAYS + "test_own_validation_set_built_without_split_and_refused_with_one"] + OLD_ARRAYS,
         why="a file with its own x_val is refused unless --split is given, and built when it is"),
    dict(name="v258-arrays-every-step-description-inverted", file=ARRAYS,
         old='           (" on every step" if d["per_step"] else "")',
         new='           (" on every step" if not d["per_step"] else "")',
         tests=[T_ARRAYS + "test_description_of_per_step_labels_says_every_step"] + OLD_ARRAYS,
         why="the task's description says 'on every step' for per-sequence labels and not for per-step ones"),
    # ---- the task registry: lnrnn/data/tasks.py ----
    dict(name="v258-tasks-t10k-split-counts-swapped", file=TASKS,
         old='        origin = f"{len(xt)} train / {len(xv)} validation images split from the t10k files"',
         new='        origin = f"{len(xv)} train / {len(xt)} validation images split from the t10k files"',
         tests=[T_TASKS + "test_split_of_the_t10k_files_counted_train_then_validation"] + OLD_TASKS,
         why="--split A/B of the t10k files is described as B train / A validation images"),
    dict(name="v258-tasks-train-images-counted-as-t10k", file=TASKS,
         old='        origin = f"{len(xt)} train images, {len(xv)} t10k images for validation"',
         new='        origin = f"{len(xt)} train images, {len(xt)} t10k images for validation"',
         tests=[T_TASKS + "test_train_and_t10k_files_counted_each_as_itself"] + OLD_TASKS,
         why="the MNIST family without --split describes as many t10k images as training images"),
    dict(name="v258-tasks-copy-description-counts-swapped", file=TASKS,
         old='                    f"{len(xt)} train / {len(xv)} validation sequences",\n'
             '                    xt, yt, xv, yv, num_classes=COPY_ALPHABET',
         new='                    f"{len(xv)} train / {len(xt)} validation sequences",\n'
             '                    xt, yt, xv, yv, num_classes=COPY_ALPHABET',
         tests=[T_TASKS + "test_copy_description_counts_train_then_validation"] + OLD_TASKS,
         why="the copy task is described as 1000 train / 10000 validation sequences"),
    # ---- the stroke tasks: lnrnn/data/strokes.py ----
    dict(name="v258-strokes-set-counts-steps-as-points", file=STROKES,
         old='        lens = np.array([len(ln) for ln in lines], np.int64)             # (n,) points N per line',
         new='        lens = np.array([len(ln) - 1 for ln in lines], np.int64)         # (n,) points N per line',
         tests=[T_STROKES + "test_lines_at_their_own_offsets_and_a_batch_padded_to_the_longest"] + OLD_STROKES,
         why="a StrokeSet's offsets count each line's steps (N - 1) for its points: every line after the first "
             "starts early and each is one point short"),
    dict(name="v258-strokes-groups-permutation-over-items", file=STROKES,
         old='    order = np.random.default_rng(seed).permutation(len(distinct))',
         new='    order = np.random.default_rng(seed).permutation(len(groups))',
         tests=[T_STROKES + "test_validation_groups_at_awkward_counts"] + OLD_STROKES,
         why="split_groups permutes the items, not the distinct groups: other groups (or an index past them) "
             "are held out"),
    dict(name="v258-strokes-split-counts-wrong-key", file=STROKES,
         old='    return parse_split(spec.get("split")) or default',
         new='    return parse_split(spec.get("splits")) or default',
         tests=[T_STROKES + "test_split_counts_and_synthetic_lines_take_the_split"] + OLD_STROKES,
         why="split_counts reads a key no spec has: --split is ignored and strokes-synthetic always draws "
             "2000 / 200 lines"),
    # ---- predict's inputs and tables: lnrnn/predict_io.py ----
    dict(name="v258-pred-zero-inputs-singular", file=PRED,
         old="""raise UserError(f"the sequences have {I} input{'s' * (I != 1)} per step""",
         new="""raise UserError(f"the sequences have {I} input{'s' * (I > 1)} per step""",
         tests=[T_PRED + "test_zero_inputs_per_step_refused_in_the_plural"] + OLD_PRED,
         why="sequences of 0 inputs per step are refused as '0 input per step'"),
    dict(name="v258-pred-idx-rows-test-inverted", file=PRED,
         old='    if task == "mnist-rows":\n        x = images.reshape(n, rows, cols)',
         new='    if task != "mnist-rows":\n        x = images.reshape(n, rows, cols)',
         tests=[T_PRED + "test_idx_images_read_by_rows_for_mnist_rows_and_by_pixels_for_mnist"] + OLD_PRED,
         why="IDX images are read row by row for mnist and pmnist and pixel by pixel for mnist-rows"),
    dict(name="v258-pred-per-step-rows-keep-padding", file=PRED,
         old='            keep = ~np.isnan(v).all(axis=2)',
         new='            keep = np.isnan(v).all(axis=2)',
         tests=[T_PRED + "test_per_step_values_rows_up_to_each_length"] + OLD_PRED,
         why="a per-step regression table holds the padded steps past each length (NaN) instead of the real ones"),
    dict(name="v258-tasks-copy-one-blank-plural", file=TASKS,
         old="after {delay} blank{'s' * (delay != 1)} ",
         new="after {delay} blank{'s' * (delay != 0)} ",
         tests=[T_TASKS + "test_copy_description_says_one_blank_in_the_singular"] + OLD_TASKS,
         why="the copy task at --steps 1 is described as 'after 1 blanks'"),
]
