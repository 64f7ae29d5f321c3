"""Planted bugs, round 89 (format: tests/mutants/mutants.py): single-line slips in data preparation, on lines no
earlier round mutates: to_stroke3 letting an empty stroke through, encode_text numbering the alphabet from 1, a
next-point batch counting a line's points as its steps, split_raw swapping its two sides, split_groups accepting a
single group and a synthetic spike's way out adding the jump again (strokes.py); the pool split's permutation one
short, the copy task's symbols written one step late and the adding task's shape giving its train and validation
counts the other way round (tasks.py); the npz task's fractional-label check run on integer arrays and a
regression task asking for 0 outputs (arrays.py); IAM-OnDB's official split marking trainset's lines as
validation and a line file without a line number taken for line 0 (iamondb.py); KanjiVG's relative path commands
taken from the subpath's start, join_line measuring a character by its first stroke and the training lines drawing
the held-out designs (kanjivg.py); a Hershey line text one word longer than WORDS_PER_LINE allows (hershey.py).

17 mutants. Against the existing targeted tests alone 14 were caught and 3 missed: the spike's way out (no test
looks at synthetic_lines' raw lines, and the glitch fix drops the same two rows either way), the unnumbered line
file (no old test reads a line file named without its line number) and join_line's extent from the first stroke
(in the old fixtures a character's first stroke reaches its right edge). The new value
tests catch every mutant on their own (checked with the old tests taken off the lists): test_values89_strokes
(stroke-3 of a square and a line by hand, pen lifts at the strokes' ends only, the round trip through
to_strokes; codes and CTC labels of a three-letter alphabet against alphabet.index; a batch of lines of 3, 5 and 2
points against each line's own rows; split_raw's sides in order; split_groups' sizes at N 7, 10, 11 and 101 for
fractions 0.1 and 0.3, where floor, ceil and nearest differ, whole groups, the same mask twice, one group refused;
every spike's two offsets summing to two ordinary pen moves), test_values89_tasks (the pool split as a seeded
partition, labels with their samples, at N 7, 10, 11 and 101, the whole pool included; the copy task read back
from its one-hot steps; task_shape's counts, steps and inputs against the tasks it builds),
test_values89_arrays (files written with numpy.savez: fractional labels refused, the class count over y and
y_val, one regression output, the held-out sizes at N 2, 7, 10, 11 and 101 as a seeded permutation of the file's
sequences), test_values89_iamondb (a folder in the download's layout with its XML, ascii/ CSR sections and
tasks/ lists: each side's line names against the lists, form_of by its docstring, an unnumbered file carrying
its CSR section's first line), test_values89_kanjivg (a square drawn with l, h, v and z, a relative cubic's end,
joined characters only moved and a gap within GAP times the scale from each character's whole extent; a task
built from ten SVGs in KanjiVG's format whose training texts never hold the held-out design and whose validation
texts hold only it) and test_values89_hershey (words per line counted by their separators over 3000 texts, every
count of WORDS_PER_LINE reached and none passed, MAX_CHARS kept). Dropped as equivalent: ctc_steps_needed
counting labels > 0 for >= 0 (labels are 1..A, the padding -1: no label is 0) and official_split's order left
unsorted (each side's indices are already sorted and split_raw keeps that order). Left out: the adding task's
half rounded up (the docstring's "one in each half" does not say where an odd T's middle step goes), form_texts'
line numbers unsorted (find_lines sorts the files, and IAM-OnDB pads the numbers to two digits) and a synthetic
line's point count one below SYN_POINTS' top (a line of exactly 300 points is one draw in 261).

    python tests/mutants/run.py --only 'v89-*'
"""
STROKES = "lnrnn/data/strokes.py"
TASKS = "lnrnn/data/tasks.py"
ARR = "lnrnn/data/arrays.py"
IAM = "lnrnn/data/iamondb.py"
KVG = "lnrnn/data/kanjivg.py"
HERSHEY = "lnrnn/data/hershey.py"

# existing tests of these modules
STROKES_OLD = ["tests/data/test_values_strokes.py", "tests/data/test_values12_strokes.py",
               "tests/data/test_values20_strokes.py", "tests/data/test_values21_strokes.py",
               "tests/data/test_values44_strokes.py", "tests/data/test_values53_strokes.py",
               "tests/data/test_values76_strokes.py", "tests/data/test_strokes_data.py",
               "tests/data/test_text_strokes.py", "tests/data/test_values_data_counts.py",
               "tests/data/test_values40_data.py"]
TASKS_OLD = ["tests/data/test_values_tasks.py", "tests/data/test_values9_tasks.py", "tests/data/test_values12_tasks.py",
             "tests/data/test_values13_tasks.py", "tests/data/test_values21_tasks.py",
             "tests/data/test_values32_tasks.py", "tests/data/test_values44_tasks.py",
             "tests/data/test_values53_tasks.py", "tests/data/test_values76_tasks.py", "tests/data/test_data.py",
             "tests/data/test_values25_data.py"]
ARR_OLD = ["tests/data/test_own_data.py", "tests/data/test_values10_arrays.py", "tests/data/test_values34_arrays.py",
           "tests/data/test_values44_arrays.py", "tests/data/test_values53_arrays.py",
           "tests/data/test_values81_arrays.py", "tests/data/test_values_data_counts.py"]
IAM_OLD = ["tests/data/test_values_iamondb.py", "tests/data/test_values9_iamondb.py",
           "tests/data/test_values15_iamondb.py", "tests/data/test_values44_iamondb.py",
           "tests/data/test_values59_iamondb.py", "tests/data/test_values81_iamondb.py",
           "tests/data/test_values21_readers.py", "tests/data/test_values34_readers.py",
           "tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py"]
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py",
           "tests/data/test_values44_kanjivg.py", "tests/data/test_values59_kanjivg.py",
           "tests/data/test_values61_kanjivg_prefix.py", "tests/data/test_values81_kanjivg.py",
           "tests/data/test_values21_readers.py", "tests/data/test_values34_readers.py",
           "tests/data/test_strokes_data.py"]
HERSHEY_OLD = ["tests/data/test_values_hershey.py", "tests/data/test_values15_hershey.py",
               "tests/data/test_values34_hershey.py", "tests/data/test_values44_hershey.py",
               "tests/data/test_values59_hershey.py", "tests/data/test_values81_hershey.py",
               "tests/data/test_text_strokes.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
STROKES_NEW = ["tests/data/test_values89_strokes.py"]
TASKS_NEW = ["tests/data/test_values89_tasks.py"]
ARR_NEW = ["tests/data/test_values89_arrays.py"]
IAM_NEW = ["tests/data/test_values89_iamondb.py"]
KVG_NEW = ["tests/data/test_values89_kanjivg.py"]
HERSHEY_NEW = ["tests/data/test_values89_hershey.py"]

MUTANTS = [
    # ---- strokes: stroke-3 conversion, text codes, batches, splits, synthetic spikes ----
    dict(name="v89-to-stroke3-empty-stroke-let-through", file=STROKES,
         old="    if not strokes or min(lens) == 0:",
         new="    if not strokes or min(lens) < 0:",
         tests=STROKES_NEW + STROKES_OLD,
         why="an empty (0, 2) stroke passes the check: its end index repeats the stroke before it, which gets "
             "its pen lift twice, and the stroke count no longer matches the pen lifts"),
    dict(name="v89-encode-text-codes-from-one", file=STROKES,
         old="    index = {c: i for i, c in enumerate(alphabet)}",
         new="    index = {c: i for i, c in enumerate(alphabet, 1)}",
         tests=STROKES_NEW + STROKES_OLD,
         why="encode_text numbers the alphabet from 1: every character's code is its neighbour's, the last "
             "one's is past the alphabet, and CTC labels shift by one"),
    dict(name="v89-stroke-batch-lengths-count-points", file=STROKES,
         old="        lengths = s.starts[idx + 1] - first - 1                           # (B,) steps",
         new="        lengths = s.starts[idx + 1] - first                               # (B,) steps",
         tests=STROKES_NEW + STROKES_OLD,
         why="a next-point batch counts a line's N points as its steps: T and the lengths are one too many and "
             "each row reads the next line's first point (or fails on the split's last line)"),
    dict(name="v89-split-raw-sides-swapped", file=STROKES,
         old="        return None if items is None else [x for x, m in zip(items, val_mask) if m == v]",
         new="        return None if items is None else [x for x, m in zip(items, val_mask) if m != v]",
         tests=STROKES_NEW + STROKES_OLD,
         why="split_raw hands the validation lines (and their names and texts) to training and the training "
             "lines to validation: the held-out forms are the ones trained on"),
    dict(name="v89-split-groups-one-group-accepted", file=STROKES,
         old="    if len(distinct) < 2:",
         new="    if len(distinct) < 1:",
         tests=STROKES_NEW + STROKES_OLD,
         why="split_groups takes a single group: n_val is min(0, ...) = 0 and the mask holds no validation item, "
             "instead of saying that two groups are needed"),
    dict(name="v89-synthetic-spike-exit-offset-added", file=STROKES,
         old="            seq[i + 1, :2] -= jump",
         new="            seq[i + 1, :2] += jump",
         tests=STROKES_NEW + STROKES_OLD,
         why="a planted spike's way out adds the jump again: the raw line does not come back, every point after "
             "the spike is two jumps away (synthetic_lines' own lines show it; the glitch fix drops the same two "
             "rows either way)"),
    # ---- tasks: the pool split, the copy task's codes, the adding task's shape ----
    dict(name="v89-split-pool-permutation-one-short", file=TASKS,
         old="    perm = np.random.default_rng(DATA_SEED).permutation(len(x))",
         new="    perm = np.random.default_rng(DATA_SEED).permutation(len(x) - 1)",
         tests=TASKS_NEW + TASKS_OLD,
         why="the pool's permutation leaves out its last sample: a split A/B that takes the whole pool gets a "
             "validation set one short, and the last sample is never drawn"),
    dict(name="v89-copy-symbols-one-step-late", file=TASKS,
         old="    codes[:, :K] = symbols",
         new="    codes[:, 1:K + 1] = symbols",
         tests=TASKS_NEW + TASKS_OLD,
         why="the copy task writes its K symbols from step 1: step 0 is a blank and the targets are no longer "
             "the first K inputs"),
    dict(name="v89-adding-shape-counts-swapped", file=TASKS,
         old="    return TaskShape(T, I, 1, False, SYNTHETIC_TRAIN, SYNTHETIC_VAL, "
             "(SYNTHETIC_TRAIN + SYNTHETIC_VAL) * per)",
         new="    return TaskShape(T, I, 1, False, SYNTHETIC_VAL, SYNTHETIC_TRAIN, "
             "(SYNTHETIC_TRAIN + SYNTHETIC_VAL) * per)",
         tests=TASKS_NEW + TASKS_OLD,
         why="task_shape of the adding problem gives the validation count as n_train and the training count as "
             "n_val: the plan's batches per epoch are the built task's wrong ones"),
    # ---- arrays (the npz task): label checks and the regression head ----
    dict(name="v89-npz-fractional-labels-checked-on-integers", file=ARR,
         old='            if y.dtype.kind == "f" and not np.array_equal(y, np.round(y)):',
         new='            if y.dtype.kind == "i" and not np.array_equal(y, np.round(y)):',
         tests=ARR_NEW + ARR_OLD,
         why="the fractional-label check runs on integer arrays only: float labels 1.5 pass and are truncated "
             "to class 1 by astype"),
    dict(name="v89-npz-regression-no-output", file=ARR,
         old="        num_classes = 1\n",
         new="        num_classes = 0\n",
         tests=ARR_NEW + ARR_OLD,
         why="a regression npz task says 0 outputs: the head it asks for predicts nothing"),
    # ---- IAM-OnDB ----
    dict(name="v89-iamondb-official-validation-is-trainset", file=IAM,
         old='    val = set(chosen["val"])',
         new='    val = set(chosen["train"])',
         tests=IAM_NEW + IAM_OLD,
         why="official_split marks trainset.txt's lines as validation: the two task lists' roles are swapped"),
    dict(name="v89-iamondb-unnumbered-file-line-0", file=IAM,
         old="    return (m[\"form\"], int(m[\"line\"])) if m else (stem, 1)",
         new="    return (m[\"form\"], int(m[\"line\"])) if m else (stem, 0)",
         tests=IAM_NEW + IAM_OLD,
         why="a line file named without a line number is line 0 of its form, not line 1: its transcription "
             "is looked up as the CSR section's last line, and the one-to-one check against 1..n refuses it"),
    # ---- KanjiVG ----
    dict(name="v89-kanjivg-relative-from-subpath-start", file=KVG,
         old="            base = cur if rel else np.zeros(2)",
         new="            base = start if rel else np.zeros(2)",
         tests=KVG_NEW + KVG_OLD,
         why="a relative path command (l, c, s, m) adds its numbers to the subpath's start instead of the "
             "current point: the second relative segment of a stroke starts over"),
    dict(name="v89-kanjivg-gap-from-first-stroke", file=KVG,
         old="        pts = np.concatenate(strokes)                                     # (n, 2)",
         new="        pts = strokes[0]                                                  # (n, 2)",
         tests=KVG_NEW + KVG_OLD,
         why="join_line measures a character's extent by its first stroke only: the next character is placed "
             "from that stroke's right edge and may overlap the rest"),
    dict(name="v89-kanjivg-train-lines-draw-held-out-designs", file=KVG,
         old="make_lines(np.random.default_rng([S.DATA_SEED, 0]), designs, train_cps, n_train, k)",
         new="make_lines(np.random.default_rng([S.DATA_SEED, 0]), designs, cps, n_train, k)",
         tests=KVG_NEW + KVG_OLD,
         why="the training lines draw from every design, the held-out ones included: validation is no longer "
             "on unseen characters"),
    # ---- Hershey ----
    dict(name="v89-hershey-one-word-too-many", file=HERSHEY,
         old="    for _ in range(n - 1):",
         new="    for _ in range(n):",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="line_text adds n words after the first: a line holds up to WORDS_PER_LINE[1] + 1 words"),
]
