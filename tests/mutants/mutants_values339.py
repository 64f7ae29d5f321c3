"""Planted bugs, round 339 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in stroke preparation (lnrnn/data/strokes.py) and the task registry (lnrnn/data/tasks.py), eighteenth
pass: every stroke-3 line starting from ones (row 0 offset (1, 1), every point lifting the pen); a batch's lines
sorted by index instead of taken in the order asked; a split's size counting the training lines; a CTC reader's
unalignable lines kept as the training count alone; the one unseen validation character left out of a reader's
description (the decision fires one character late); the too-small refusal naming the description's words
instead of the task; the held-out share 0.12 instead of 0.1; the held-out groups drawn at seed 1; the generated
tasks' default counts swapped to 200 / 2000; a line's strokes cut one point short; the digits task holding out
359 images; strokes-synthetic taking --head ctc (task_spec
no longer refuses it); strokes-hershey missing from the tasks whose lines carry text (its reading refused, and
the refusal's list short of it); a bad --split no longer refused by task_spec.

14 mutants. Against the old targeted files alone: 8 of 14 (missed: a reader's unalignable lines counted for the
training split only, the too-small refusal naming the description's first words, the digits task holding out 359,
strokes-synthetic taking --head, strokes-hershey missing from the text tasks, --split no longer checked by
task_spec). The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values339_strokes (stroke-3 offsets and pen-up bits of lines of 2, 3 and 7 points written out by hand;
to_stroke3's refusal word for word; offset standard deviations by hand with a degenerate axis given 1; a task's
description with the training std (1, 3), points 2-3 and one glitch step dropped; the too-small refusal word for
word for each split; a batch asked as lines 2, 0, 1 padded to 6 steps with lengths 6, 1, 2 and each split's own
size; a reader's unalignable lines counted by hand from CTC's steps needed, one per split, and its one unseen
character 'c' named; held-out groups at N = 7, 10, 101 against the nearest whole number to a tenth, at least one and
never all, at the seed-0 permutation drawn in the test; the default 2000 / 200 of the task docstring; the first n
points of two strokes kept), test_values339_tasks (digits without --split: 1437 / 360 images and each split's class
counts against scikit-learn's bundled targets at the seed-0 permutation, the shape before building the same; the
adding problem's 10000 / 1000 sequences with targets the sum of the marked values; the --head ctc refusal word for
word through task_spec and through `lnrnn train`, nothing written; strokes-hershey's spec with head ctc; bad splits
refused word for word).

Left out as equivalent: drop_long_steps' ``seq[kept].copy()`` without .copy() (fancy indexing copies already);
ctc_steps_needed's ``labels >= 0`` made ``> 0`` (CTC labels are 1.. or the -1 padding, never the blank 0);
synthetic_line's ``while total < n_points`` made ``<=`` (one more word drawn, then cut to n_points: only the
random stream moves, no count or formula a test can write down); _cut's ``left -= len(out[-1])`` made
``len(s)`` (they differ only when a stroke is cut, and then left is spent either way). Left out as not a value:
the synthetic spike's angle drawn over half a turn (only a distribution changes); the adding task's byte estimate
(a memory guess with no independent definition to compare against).

    python tests/mutants/run.py --only 'v339-*'
"""
STROKES = "lnrnn/data/strokes.py"
TASKS = "lnrnn/data/tasks.py"

T_STROKES = "tests/data/test_values339_strokes.py::"
T_TASKS = "tests/data/test_values339_tasks.py::"
OLD_STROKES = ["tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py",
               "tests/data/test_values299_strokes.py", "tests/data/test_values258_strokes.py"]
OLD_TASKS = ["tests/data/test_values258_tasks.py", "tests/data/test_values240_tasks.py"]

MUTANTS = [
    # ---- stroke preparation: lnrnn/data/strokes.py ----
    dict(name="v339-strokes-stroke3-from-ones", file=STROKES,
         old="    seq = np.zeros((len(pts), 3))                                         # (N, 3)",
         new="    seq = np.ones((len(pts), 3))                                          # (N, 3)",
         tests=[T_STROKES + "test_offsets_and_pen_lifts_of_two_three_and_seven_points"] + OLD_STROKES,
         why="to_stroke3 fills from ones: row 0 is the offset (1, 1) and every point lifts the pen"),
    dict(name="v339-strokes-batch-sorted", file=STROKES,
         old="        idx = np.asarray(idx, np.int64)                                   # (B,)\n"
             "        first = s.starts[idx]                                             # (B,)\n"
             "        lengths = s.starts[idx + 1] - first - 1",
         new="        idx = np.sort(np.asarray(idx, np.int64))                          # (B,)\n"
             "        first = s.starts[idx]                                             # (B,)\n"
             "        lengths = s.starts[idx + 1] - first - 1",
         tests=[T_STROKES + "test_batch_in_the_order_asked_padded_with_lengths_by_hand"] + OLD_STROKES,
         why="a batch's lines come in index order, not the order asked: a shuffled epoch's rows are not its lines"),
    dict(name="v339-strokes-size-counts-train", file=STROKES,
         old="        return len(self.sets[which])",
         new='        return len(self.sets["train"])',
         tests=[T_STROKES + "test_batch_in_the_order_asked_padded_with_lengths_by_hand"] + OLD_STROKES,
         why="size('val') counts the training lines: validation indexes past its lines"),
    dict(name="v339-strokes-unalignable-train-only", file=STROKES,
         old='        self.extra["unalignable"] = short',
         new='        self.extra["unalignable"] = short["train"]',
         tests=[T_STROKES + "test_reader_counts_unalignable_lines_per_split_and_names_one_unseen_character"]
         + OLD_STROKES,
         why="a reader's extra keeps only the training count of unalignable lines, not one per split"),
    dict(name="v339-strokes-one-unseen-not-named", file=STROKES,
         old="        if unseen:\n",
         new="        if len(unseen) > 1:\n",
         tests=[T_STROKES + "test_reader_counts_unalignable_lines_per_split_and_names_one_unseen_character"]
         + OLD_STROKES,
         why="a single validation character no training text uses goes unmentioned in the description"),
    dict(name="v339-strokes-too-small-names-what", file=STROKES,
         old="""raise DataError(f"{spec['task']}: the {empty} split has no line of 2 or more points; \"""",
         new="""raise DataError(f"{what}: the {empty} split has no line of 2 or more points; \"""",
         tests=[T_STROKES + "test_too_small_refusal_names_task_and_split"] + OLD_STROKES,
         why="the too-small refusal names the description's opening words instead of the task"),
    dict(name="v339-strokes-val-fraction", file=STROKES,
         old="VAL_FRACTION = 0.1        #",
         new="VAL_FRACTION = 0.12       #",
         tests=[T_STROKES + "test_held_out_groups_at_seven_ten_and_a_hundred_and_one"] + OLD_STROKES,
         why="12% of the groups held out, not the documented 10% (12 of 101 forms instead of 10)"),
    dict(name="v339-strokes-split-seed", file=STROKES,
         old='def split_groups(groups, fraction=VAL_FRACTION, seed=DATA_SEED, what="groups"):',
         new='def split_groups(groups, fraction=VAL_FRACTION, seed=DATA_SEED + 1, what="groups"):',
         tests=[T_STROKES + "test_held_out_groups_at_seven_ten_and_a_hundred_and_one"] + OLD_STROKES,
         why="the held-out groups are drawn at seed 1, not the data seed 0: another split than documented"),
    dict(name="v339-strokes-default-counts-swapped", file=STROKES,
         old="def split_counts(spec, default=(SYN_TRAIN, SYN_VAL)):",
         new="def split_counts(spec, default=(SYN_VAL, SYN_TRAIN)):",
         tests=[T_STROKES + "test_generated_tasks_default_to_2000_train_200_validation_lines"] + OLD_STROKES,
         why="the generated tasks default to 200 training and 2000 validation lines"),
    dict(name="v339-strokes-cut-one-short", file=STROKES,
         old="    out, left = [], n_points\n",
         new="    out, left = [], n_points - 1\n",
         tests=[T_STROKES + "test_first_n_points_of_the_strokes_kept"] + OLD_STROKES,
         why="a synthetic line keeps one point fewer than drawn for it (n_points - 1)"),
    # ---- the task registry: lnrnn/data/tasks.py ----
    dict(name="v339-tasks-digits-holds-out-359", file=TASKS,
         old="DIGITS_SPLIT = (1437, 360)",
         new="DIGITS_SPLIT = (1437, 359)",
         tests=[T_TASKS + "test_digits_default_split_sizes_and_class_counts_over_each_split"] + OLD_TASKS,
         why="the digits task holds out 359 images, one short of the documented 360 (1797 - 1437)"),
    dict(name="v339-tasks-synthetic-strokes-take-head", file=TASKS,
         old='"generated handwriting-like strokes (no download)", {"split"}),',
         new='"generated handwriting-like strokes (no download)", {"split", "head"}),',
         tests=[T_TASKS + "test_head_ctc_refused_for_synthetic_strokes_and_taken_by_hershey"] + OLD_TASKS,
         why="strokes-synthetic reads the head option: task_spec takes --head ctc for lines without text"),
    dict(name="v339-tasks-text-tasks-without-hershey", file=TASKS,
         old='TEXT_TASKS = ("strokes", "strokes-kanjivg", "strokes-hershey")',
         new='TEXT_TASKS = ("strokes", "strokes-kanjivg")',
         tests=[T_TASKS + "test_head_ctc_refused_for_synthetic_strokes_and_taken_by_hershey"] + OLD_TASKS,
         why="strokes-hershey is missing from the tasks whose lines carry text: the refusal does not offer it"),
    dict(name="v339-tasks-split-not-checked", file=TASKS,
         old='        parse_split(spec["split"])\n',
         new='        spec["split"]\n',
         tests=[T_TASKS + "test_bad_split_refused_by_task_spec_word_for_word"] + OLD_TASKS,
         why="task_spec no longer checks --split: a zero or malformed split passes until the task is built"),
]
