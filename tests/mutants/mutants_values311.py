"""Planted bugs, round 311 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the npz task's data preparation (lnrnn/data/arrays.py), the task registry (lnrnn/data/tasks.py) and
stroke preparation (lnrnn/data/strokes.py), seventeenth pass: the held-out split training on one sequence too few;
--split A/B read as B train and A validation; an out-of-range label's refusal quoting y_val's largest label when
y holds the bad one; the distinct labels of that refusal written without their thousands comma; check_arrays
returning y_val's labels as y; the built npz task dropping per_step (per-step labels scored as one per sequence);
NaN in x_val refused naming x; a pickled object array refused naming the file's first array; --head ctc on a task
without text refused with the generic 'does not take the option head'; a flag given as false left out of the
spec; synthetic line lengths drawn in [40, 300) instead of [40, 300]; only one synthetic spike counted however
many were planted; strokes-synthetic --split A/B building B training and A validation lines; the glitch steps
dropped while fixing lines counted as 0.

14 mutants. Old targeted files: test_own_data, test_values240_arrays, test_values258_arrays,
test_values299_arrays; test_values127_tasks, test_values220_tasks, test_values240_tasks; test_strokes_data,
test_values135_synthetic, test_values299_strokes. Against the old targeted files alone: not measured yet.
The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values311_arrays (held-out sizes at N = 7, 10
and 101 against the nearest whole number to a tenth, at least 1, and the seed-0 permutation drawn in the test;
--split 5/2, 1/6 and 2/3 of 7 taken train first; the out-of-range refusal word for word with the bad label only in
y and with 1001 distinct labels; the class count over y and y_val with each split's labels kept; per-step labels
of an npz file built per step; NaN in x_val and in x refused naming each; an object array y written with
numpy.savez refused word for word with nothing written), test_values311_tasks (check_reading's sentence word for
word for copy, npz and strokes-npz; allow_pickle false, true and not given against the spec written out by
hand), test_values311_strokes (two training lines and a validation line with one glitch each, fixed, divided by
the training std worked out by hand as sqrt 5 and sqrt 6, described and batched against rows written out by
hand; eight seeds' first line length against numpy's integers(40, 301) replayed in the test; four spikes counted
and the spiked line against the same seed's plain line, two opposite offsets of length 3000; strokes-synthetic
--split 7/3 sized 7 and 3).

Left out as equivalent: _cut's 'left -= len(out[-1])' made 'left -= len(s)' (a stroke longer than what is left
drives left to 0 or below either way, and the loop stops at once); ctc_steps_needed's 'labels >= 0' made '> 0'
(CTC labels are 1.. after CTC_SHIFT and padding is -1: 0 never occurs); the unseen characters' 's' * (n != 1)
made n > 1 (the clause is only written when n >= 1); drop_long_steps' 'seq[kept].copy()' without .copy() (fancy
indexing already copies). Left out as not a value a cheap test reads independently: the adding problem's
float32 draws made float64 (the targets stay the sum of the two marked values in [0, 1)), the synthetic loop
geometry (h, slant, per_loop: any draw is a plausible line; replaying it would copy the generator) and the
spike's angle range.

    python tests/mutants/run.py --only 'v311-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
TASKS = "lnrnn/data/tasks.py"
STROKES = "lnrnn/data/strokes.py"

T_ARRAYS = "tests/data/test_values311_arrays.py::"
T_TASKS = "tests/data/test_values311_tasks.py::"
T_STROKES = "tests/data/test_values311_strokes.py::"
OLD_ARRAYS = ["tests/data/test_own_data.py", "tests/data/test_values240_arrays.py",
              "tests/data/test_values258_arrays.py", "tests/data/test_values299_arrays.py"]
OLD_TASKS = ["tests/data/test_values127_tasks.py", "tests/data/test_values220_tasks.py",
             "tests/data/test_values240_tasks.py"]
OLD_STROKES = ["tests/data/test_strokes_data.py", "tests/data/test_values135_synthetic.py",
               "tests/data/test_values299_strokes.py"]

MUTANTS = [
    # ---- the npz task: lnrnn/data/arrays.py ----
    dict(name="v311-arrays-held-out-train-one-short", file=ARRAYS,
         old="        a = N - b\n",
         new="        a = N - b - 1\n",
         tests=[T_ARRAYS + "test_held_out_sizes_at_7_10_and_101"] + OLD_ARRAYS,
         why="without --split one sequence of N is neither trained on nor validated (6 + 1 of 7 becomes 5 + 1)"),
    dict(name="v311-arrays-split-counts-swapped", file=ARRAYS,
         old="        a, b = split\n",
         new="        b, a = split\n",
         tests=[T_ARRAYS + "test_split_counts_train_first_then_validation"] + OLD_ARRAYS,
         why="--split 5/2 trains on 2 sequences and validates on 5"),
    dict(name="v311-arrays-out-of-range-label-of-last-split", file=ARRAYS,
         old='raise DataError(f"{where}: {name} holds the label {int(top.max())}, out of range',
         new='raise DataError(f"{where}: {name} holds the label {int(y.max())}, out of range',
         tests=[T_ARRAYS + "test_out_of_range_label_named_by_the_array_that_holds_it"] + OLD_ARRAYS,
         why="the refusal quotes the largest label of the last split checked (y_val's 3), not the bad 100000 in y"),
    dict(name="v311-arrays-distinct-labels-without-comma", file=ARRAYS,
         old='f"where y holds {distinct:,} distinct labels',
         new='f"where y holds {distinct} distinct labels',
         tests=[T_ARRAYS + "test_distinct_labels_past_a_thousand_written_with_a_comma"] + OLD_ARRAYS,
         why="1001 distinct labels are written 1001 beside 100,001 classes and 100,000"),
    dict(name="v311-arrays-y-returned-is-y-val", file=ARRAYS,
         old='    out["y"] = ys[0]\n',
         new='    out["y"] = ys[-1]\n',
         tests=[T_ARRAYS + "test_class_count_over_both_splits_and_each_split_keeps_its_labels"] + OLD_ARRAYS,
         why="with x_val given, the training labels returned are y_val's"),
    dict(name="v311-arrays-per-step-not-passed", file=ARRAYS,
         old="""num_classes=d["num_classes"], objective=d["objective"], per_step=d["per_step"],""",
         new="""num_classes=d["num_classes"], objective=d["objective"],""",
         tests=[T_ARRAYS + "test_per_step_labels_build_a_per_step_task"] + OLD_ARRAYS,
         why="an npz task with (N, T) labels is built with per_step False: the head scores only the last step"),
    dict(name="v311-arrays-nan-refusal-names-x", file=ARRAYS,
         old='raise DataError(f"{where}: {name} holds NaN or infinite values; replace them',
         new='raise DataError(f"{where}: x holds NaN or infinite values; replace them',
         tests=[T_ARRAYS + "test_nan_refused_naming_x_or_x_val"] + OLD_ARRAYS,
         why="NaN in x_val is refused as NaN in x"),
    dict(name="v311-arrays-object-array-names-first-array", file=ARRAYS,
         old='raise DataError(f"{path}: array {k} is an object array',
         new='raise DataError(f"{path}: array {data.files[0]} is an object array',
         tests=[T_ARRAYS + "test_pickled_object_array_refused_naming_it"] + OLD_ARRAYS,
         why="an object array y is refused as 'array x is an object array'"),
    # ---- the task registry: lnrnn/data/tasks.py ----
    dict(name="v311-tasks-head-ctc-check-reading-dropped", file=TASKS,
         old="                check_reading(task)\n",
         new="                pass\n",
         tests=[T_TASKS + "test_head_ctc_on_a_task_without_text_says_which_tasks_have_it"] + OLD_TASKS,
         why="--head ctc on copy is refused as 'does not take the option head', not told which tasks carry text"),
    dict(name="v311-tasks-false-flag-dropped", file=TASKS,
         old="        if val is not None:\n            spec[key] = check(val)",
         new="        if val:\n            spec[key] = check(val)",
         tests=[T_TASKS + "test_a_flag_given_false_is_kept_false"] + OLD_TASKS,
         why="allow_pickle given as false is left out of the spec (and of a checkpoint's record of it)"),
    # ---- stroke preparation: lnrnn/data/strokes.py ----
    dict(name="v311-strokes-synthetic-length-upper-bound-exclusive", file=STROKES,
         old="int(rng.integers(SYN_POINTS[0], SYN_POINTS[1] + 1))",
         new="int(rng.integers(SYN_POINTS[0], SYN_POINTS[1]))",
         tests=[T_STROKES + "test_synthetic_line_length_drawn_in_40_to_300_inclusive"] + OLD_STROKES,
         why="synthetic line lengths are drawn in [40, 300): 300 points never occur and every draw shifts"),
    dict(name="v311-strokes-spikes-not-accumulated", file=STROKES,
         old="            spikes += 1\n",
         new="            spikes = 1\n",
         tests=[T_STROKES + "test_every_spike_counted_as_two_opposite_offsets_of_3000"] + OLD_STROKES,
         why="the task's extra['spikes'] says 1 (or 2) however many spikes were planted"),
    dict(name="v311-strokes-synthetic-split-swapped", file=STROKES,
         old="    n_train, n_val = split_counts(spec)\n",
         new="    n_val, n_train = split_counts(spec)\n",
         tests=[T_STROKES + "test_synthetic_split_gives_a_train_and_b_validation_lines"] + OLD_STROKES,
         why="strokes-synthetic --split 7/3 builds 3 training and 7 validation lines"),
    dict(name="v311-strokes-dropped-steps-not-counted", file=STROKES,
         old="    return out, dropped\n",
         new="    return out, 0\n",
         tests=[T_STROKES + "test_known_lines_fixed_normalized_counted_and_batched"] + OLD_STROKES,
         why="the glitch steps dropped are reported as 0 in extra['dropped_steps'] and the description"),
]
