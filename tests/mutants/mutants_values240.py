"""Planted bugs, round 240 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the data preparation of the npz task (lnrnn/data/arrays.py), the task registry (lnrnn/data/tasks.py)
and the prediction tables (lnrnn/predict_io.py): a refusal of x_val's shape or values naming x; half a validation
pair refused as 'has x_val without x_val'; a negative label's refusal offering -1 to per-sequence labels and not
to per-step ones; a --split past N refused with B sequences asked for instead of A + B; the spec's objective not
passed to check_arrays; validation batches carrying the training set's lengths; the digits task ignoring --split;
the copy task drawing 1000 training sequences; the adding task's shape before building saying 1 input per step;
load_task dropping the spec's steps; a CTC head's table numbered from 1; every regression output column repeating
value_0; a per-step classifier's rows with sequence and step swapped; write_predictions returning its column
count for its rows.

14 mutants. Against the existing targeted tests alone (test_own_data, test_values228_arrays, test_values220_arrays,
test_values_data_counts; test_values228_tasks, test_values127_tasks, test_values111_tasks; test_values219_predict_io,
test_values112_predict_io, test_values214_predict_io) 10 were caught and 4 missed: x_val's refusals were never read
word for word (only x's), the -1 hint was never met with per-sequence labels, the adding task's shape was never
compared with the task built from the same spec (only the copy and digits shapes were), and no test wrote the table
of a CTC head. The new value tests catch every mutant on their own (checked with the old files taken off the
lists): test_values240_arrays (held-out sizes at N = 7, 11 and 1001 against the nearest whole number to a tenth,
at least 1, and the seed-0 permutation drawn in the test; --split 1000/1 of 1001 taken and 999/3 refused with
1002; refusals of x_val, of half a pair and of negative labels word for word; the class count over y and y_val
with the largest label only in y_val; --objective mse on integer labels and ce on whole floats; each set's
batches with its own lengths), test_values240_tasks (digits --split 7/11 against scikit-learn's bundled images and
targets at the permutation drawn here; the copy task's 10000 / 1000 sequences with the last 10 labels the first
10 symbols less one; the adding task's TaskShape against the built task's arrays; load_task of a plain spec
keeping its steps), test_values240_predict_io (tables written out by hand: labels numbered 0.., one column per
output, rows sequence then step over lengths 2, 1, 2, and the rows returned equal to the lines written). Left out
as equivalent: the description's 's' * (I != 1) made I > 1 (x of 0 inputs is refused before, so I >= 1); the
per-step values' kept steps taken with isnan(...).any instead of .all (a model's outputs are NaN on every output
past a length and on none before it); describe_training_data's max(lo, hi) made hi (every task's scale is
positive). Left out as a crash rather than a value: the copy task's one-hot of COPY_ALPHABET + 1 codes (put_along_axis
fails on the delimiter). Left out as flaky: writing the .npy table without its first column (np.empty's leftover
memory may hold the right indices). The held-out rounding itself (round(N * VAL_FRACTION), at least 1) and the
digits/MNIST pool split are mutated by earlier rounds.

    python tests/mutants/run.py --only 'v240-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
TASKS = "lnrnn/data/tasks.py"
PRED = "lnrnn/predict_io.py"

T_ARRAYS = "tests/data/test_values240_arrays.py::"
T_TASKS = "tests/data/test_values240_tasks.py::"
T_PRED = "tests/commands/test_values240_predict_io.py::"
OLD_ARRAYS = ["tests/data/test_own_data.py", "tests/data/test_values228_arrays.py",
              "tests/data/test_values220_arrays.py", "tests/data/test_values_data_counts.py"]
OLD_TASKS = ["tests/data/test_values228_tasks.py", "tests/data/test_values127_tasks.py",
             "tests/data/test_values111_tasks.py"]
OLD_PRED = ["tests/test_values219_predict_io.py", "tests/test_values112_predict_io.py",
            "tests/test_values214_predict_io.py"]

MUTANTS = [
    # ---- the npz task: lnrnn/data/arrays.py ----
    dict(name="v240-arrays-val-sequences-named-x", file=ARRAYS,
         old='        x = _sequences(arrays["x" + suffix], "x" + suffix, where)',
         new='        x = _sequences(arrays["x" + suffix], "x", where)',
         tests=[T_ARRAYS + "test_refusals_of_validation_arrays_name_them"] + OLD_ARRAYS,
         why="a refusal of x_val's shape, dtype or values names x, the training array, instead"),
    dict(name="v240-arrays-half-pair-names-the-given-one", file=ARRAYS,
         old="""f"{'y_val' if has_val['x_val'] else 'x_val'}; give both""",
         new="""f"{'x_val' if has_val['x_val'] else 'y_val'}; give both""",
         tests=[T_ARRAYS + "test_refusals_of_validation_arrays_name_them"] + OLD_ARRAYS,
         why="x_val without y_val is refused as 'has x_val without x_val': the missing array is not named"),
    dict(name="v240-arrays-negative-label-hint-inverted", file=ARRAYS,
         old="""f"{' (and -1 for a step that is not scored)' if per_step else ''}.")""",
         new="""f"{' (and -1 for a step that is not scored)' if not per_step else ''}.")""",
         tests=[T_ARRAYS + "test_negative_labels_refused_with_minus_one_only_per_step"] + OLD_ARRAYS,
         why="a negative label's refusal offers -1 (not scored) to per-sequence labels and not to per-step ones"),
    dict(name="v240-arrays-split-asks-names-val-count", file=ARRAYS,
         old='raise UserError(f"--split {a}/{b} asks for {a + b} sequences but',
         new='raise UserError(f"--split {a}/{b} asks for {b} sequences but',
         tests=[T_ARRAYS + "test_split_up_to_n_taken_and_one_past_refused_with_its_sum"] + OLD_ARRAYS,
         why="a --split past N is refused naming the validation count as the sequences asked for, not A + B"),
    dict(name="v240-arrays-objective-not-passed", file=ARRAYS,
         old='    d = check_arrays(read_file(path), str(path), spec.get("objective"))',
         new='    d = check_arrays(read_file(path), str(path))',
         tests=[T_ARRAYS + "test_objective_given_overrides_the_labels_dtype"] + OLD_ARRAYS,
         why="the spec's objective (--objective) is dropped: integer labels are always classes, floats always "
             "regression"),
    dict(name="v240-arrays-val-lengths-are-train-lengths", file=ARRAYS,
         old="lengths_train=lt, lengths_val=lv)",
         new="lengths_train=lt, lengths_val=lt)",
         tests=[T_ARRAYS + "test_each_sets_batches_carry_their_own_lengths"] + OLD_ARRAYS,
         why="validation batches carry the training set's lengths: padded validation steps are scored, real ones cut"),
    # ---- the task registry: lnrnn/data/tasks.py ----
    dict(name="v240-tasks-digits-split-ignored", file=TASKS,
         old='    split = parse_split(spec.get("split")) or DIGITS_SPLIT',
         new='    split = DIGITS_SPLIT',
         tests=[T_TASKS + "test_digits_split_takes_exactly_its_counts_of_the_bundled_images"] + OLD_TASKS,
         why="the digits task ignores --split: always 1437 train / 360 validation images"),
    dict(name="v240-tasks-copy-train-draws-val-count", file=TASKS,
         old="    xt, yt = _copy_sequences(rng, SYNTHETIC_TRAIN, delay)",
         new="    xt, yt = _copy_sequences(rng, SYNTHETIC_VAL, delay)",
         tests=[T_TASKS + "test_copy_draws_ten_thousand_and_a_thousand_sequences"] + OLD_TASKS,
         why="the copy task draws 1000 training sequences instead of 10000 (its validation set from another state)"),
    dict(name="v240-tasks-adding-shape-one-input", file=TASKS,
         old="    T, I = _adding_steps(spec), 2\n",
         new="    T, I = _adding_steps(spec), 1\n",
         tests=[T_TASKS + "test_adding_shape_before_building_is_what_building_gives"] + OLD_TASKS,
         why="the adding task's shape before building says 1 input per step (the built task has 2), fewer bytes"),
    dict(name="v240-tasks-load-drops-steps", file=TASKS,
         old='spec.get("split"), spec.get("steps"),',
         new='spec.get("split"), None,',
         tests=[T_TASKS + "test_load_task_keeps_the_specs_steps"] + OLD_TASKS,
         why="load_task rebuilds a spec without its steps: adding and copy always get their default lengths"),
    # ---- predictions written: lnrnn/predict_io.py ----
    dict(name="v240-pred-labels-index-from-one", file=PRED,
         old='return [("index", "<i8", np.arange(len(text))), ',
         new='return [("index", "<i8", np.arange(1, len(text) + 1)), ',
         tests=[T_PRED + "test_label_sequences_numbered_from_zero"] + OLD_PRED,
         why="a CTC head's table numbers its sequences from 1, not 0 like every other table"),
    dict(name="v240-pred-every-value-column-the-first", file=PRED,
         old='        return cols + [(name, "<f8", v[:, k]) for k, name in enumerate(names)]',
         new='        return cols + [(name, "<f8", v[:, 0]) for k, name in enumerate(names)]',
         tests=[T_PRED + "test_each_regression_output_in_its_own_column"] + OLD_PRED,
         why="with several regression outputs, value_1.. repeat value_0"),
    dict(name="v240-pred-step-classes-index-step-swapped", file=PRED,
         old='        return [("index", "<i8", n), ("step", "<i8", t), ("class", "<i8", classes[n, t]),',
         new='        return [("index", "<i8", t), ("step", "<i8", n), ("class", "<i8", classes[n, t]),',
         tests=[T_PRED + "test_per_step_classes_rows_are_sequence_then_step"] + OLD_PRED,
         why="a per-step classifier's rows name the step as the sequence and the sequence as the step"),
    dict(name="v240-pred-rows-counts-columns", file=PRED,
         old="        write_output_file(path, lambda f: f.write(text))\n    return rows",
         new="        write_output_file(path, lambda f: f.write(text))\n    return len(cols)",
         tests=[T_PRED + "test_rows_returned_are_the_rows_written"] + OLD_PRED,
         why="write_predictions returns its column count for the rows written: predict reports the wrong row count"),
]
