"""Planted bugs, round 53 (format: tests/mutants/mutants.py): single-line slips in the built-in tasks, the npz
task, stroke-3 and the stroke files, on lines no earlier round mutates: the digits read column after column and
their description's counts swapped, the adding problem's second marker written over its value, --steps at a
task's least refused, the copy task's unscored steps labelled class 0, the copy task's shape told as scoring the
last step only; the npz task refusing a boolean x, letting one NaN target through, naming the wrong half of
x_val/y_val, ignoring lengths_val without x_val, reading the validation lengths from the training ones, taking
unsigned or boolean labels for regression, and batching the other split's lengths; to_strokes ending every line
in an empty stroke, drop_long_steps counting the kept rows as dropped, a StrokeSet's line one point short, the
offset scale taken over both splits, _cut appending an empty stroke; a stroke file's (N, 4) rows and infinite
offsets accepted, its own split swapped, and read_lines naming line 1 as the empty one whichever it is.

22 mutants. Against the existing targeted tests alone (tests/data/) 16 were caught and 6 missed: the digits'
description counts swapped, a boolean x refused, one NaN in y accepted, uint8 labels taken for regression, a
stroke file's (N, 4) rows accepted and an infinite offset accepted. The new value tests catch every mutant on
their own (checked with the old tests taken off the lists): test_values53_tasks (every digits sequence, times 16,
is one of scikit-learn's images read row after row, with its label; "23 train / 9 validation" for --split 23/9;
the adding problem's two markers, one in the first T // 2 steps, and its target their values' sum at T = 2, 6,
7; --steps 2 for adding and 1 for copy built, 1 and 0 refused; the copy labels -1 before the last 10 steps and
the first 10 one-hot codes minus 1 on them; task_shape's steps, inputs, outputs, per_step and counts against the
built digits, adding and copy tasks), test_values53_arrays (boolean x as 0/1 uint8; one NaN or infinity in y or
y_val refused; the half of x_val/y_val that is there named; lengths_val alone refused; each split's own lengths
checked and handed out with its batches, found by a number written into step 0 of each sequence; the held-out
split at N = 2, 7, 13, 15, 16, 99 against a tenth rounded, at least 1, each sequence once with its length and
label; uint8, uint16 and boolean labels as classes counted over both splits), test_values53_strokes (stroke-3 of
three hand-made strokes and back, an unlifted end and a scale by hand, two glitch rows dropped by hand, a
StrokeSet's lines whole, the scale against NumPy's std over the training offsets when the validation lines have
other spreads, _cut and synthetic_line giving exactly n points with no empty stroke), test_values53_stroke_files
((N, 4) and (N, 2) rows refused, inf, -inf and NaN refused, a file's own 5/3 split kept, the held-out count of n
= 2, 9, 15, 21 sequences, read_lines' strokes name and an upper-case .NPZ, the empty line named at 1, 3 and 5).
The held-out sizes leave out N = 25, 45 ... (a tenth of 2.5, 4.5), where Python's round (half to even) and
rounding half up part: either is a tenth of N. Dropped before the catalogue as equivalent or near it: _cut's
``left -= len(out[-1])`` as ``len(s)`` (a stroke longer than what is left makes left negative either way, and
the loop stops), the adding problem's middle step given to the first half at odd T (``(T + 1) // 2``: another
reading of "one in each half", not a bug a test could call one), the fractional-label check with
``np.allclose`` (the same for every label a file would hold).

    python tests/mutants/run.py --only 'v53-*'
"""
TASKS = "lnrnn/data/tasks.py"
ARRAYS = "lnrnn/data/arrays.py"
STROKES = "lnrnn/data/strokes.py"
FILES = "lnrnn/data/stroke_files.py"

# existing tests of these modules (tests/data/)
TASKS_OLD = ["tests/data/test_data.py", "tests/data/test_values_tasks.py", "tests/data/test_values9_tasks.py",
             "tests/data/test_values12_tasks.py", "tests/data/test_values13_tasks.py",
             "tests/data/test_values21_tasks.py", "tests/data/test_values32_tasks.py",
             "tests/data/test_values44_tasks.py", "tests/data/test_values_data_counts.py",
             "tests/data/test_data_alignment.py"]
ARRAYS_OLD = ["tests/data/test_values10_arrays.py", "tests/data/test_values34_arrays.py",
              "tests/data/test_values44_arrays.py", "tests/data/test_own_data.py",
              "tests/data/test_values_data_counts.py"]
STROKES_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py",
               "tests/data/test_values12_strokes.py", "tests/data/test_values20_strokes.py",
               "tests/data/test_values21_strokes.py", "tests/data/test_values44_strokes.py",
               "tests/data/test_text_strokes.py", "tests/data/test_values_data_counts.py",
               "tests/data/test_values32_tasks.py"]
FILES_OLD = ["tests/data/test_values_stroke_files.py", "tests/data/test_values10_stroke_files.py",
             "tests/data/test_values21_stroke_files.py", "tests/data/test_strokes_data.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TASKS_NEW = ["tests/data/test_values53_tasks.py"]
ARRAYS_NEW = ["tests/data/test_values53_arrays.py"]
STROKES_NEW = ["tests/data/test_values53_strokes.py"]
FILES_NEW = ["tests/data/test_values53_stroke_files.py"]

MUTANTS = [
    # ---- the built-in tasks: digits' pixel order and description, adding's markers, --steps' least, copy's
    # unscored steps, the shapes told before building ----
    dict(name="v53-digits-read-column-by-column", file=TASKS,
         old="    x = d.images.reshape(len(d.images), 64, 1).astype(np.float32)",
         new="    x = d.images.transpose(0, 2, 1).reshape(len(d.images), 64, 1).astype(np.float32)",
         tests=TASKS_NEW + TASKS_OLD,
         why="the digits are read column after column instead of row after row: every sequence is the "
             "transposed image's"),
    dict(name="v53-digits-description-counts-swapped", file=TASKS,
         old='                    f"{len(xt)} train / {len(xv)} validation images, 10 classes",',
         new='                    f"{len(xv)} train / {len(xt)} validation images, 10 classes",',
         tests=TASKS_NEW + TASKS_OLD,
         why="the digits' description names the validation count as the training one and back"),
    dict(name="v53-adding-second-marker-in-value-column", file=TASKS,
         old="    x[rows, second, 1] = 1.0",
         new="    x[rows, second, 0] = 1.0",
         tests=TASKS_NEW + TASKS_OLD,
         why="the adding problem's second marker is written over the value column: one marker per row, and "
             "the target adds a value of 1 the sequence no longer shows as marked"),
    dict(name="v53-steps-least-refused", file=TASKS,
         old="    if T < least:",
         new="    if T <= least:",
         tests=TASKS_NEW + TASKS_OLD,
         why="--steps equal to the least a task takes (2 for adding, 1 for copy) is refused"),
    dict(name="v53-copy-unscored-steps-class-0", file=TASKS,
         old="    y = np.full((n, T), -1, np.int64)",
         new="    y = np.zeros((n, T), np.int64)",
         tests=TASKS_NEW + TASKS_OLD,
         why="the copy task's steps before the recall are labelled class 0 instead of -1 (not scored): the "
             "head is scored on blanks as the first symbol"),
    dict(name="v53-copy-shape-not-per-step", file=TASKS,
         old="    return TaskShape(T, I, COPY_ALPHABET, True, SYNTHETIC_TRAIN, SYNTHETIC_VAL,",
         new="    return TaskShape(T, I, COPY_ALPHABET, False, SYNTHETIC_TRAIN, SYNTHETIC_VAL,",
         tests=TASKS_NEW + TASKS_OLD,
         why="the copy task's shape, told before building, says its head scores the last step only while the "
             "built task scores every step"),

    # ---- the npz task: x's and y's checks, the validation arrays, the objective, lengths per split ----
    dict(name="v53-npz-bool-x-refused", file=ARRAYS,
         old='    if x.dtype.kind not in "biuf":',
         new='    if x.dtype.kind not in "iuf":',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a boolean x (read as 0/1 uint8 a few lines later) is refused as not numbers"),
    dict(name="v53-npz-y-one-nan-accepted", file=ARRAYS,
         old='    if y.dtype.kind == "f" and not np.isfinite(y).all():',
         new='    if y.dtype.kind == "f" and not np.isfinite(y).any():',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a float y is refused only when every value is NaN or infinite: one NaN target goes into training"),
    dict(name="v53-npz-val-half-message-swapped", file=ARRAYS,
         old="""        raise DataError(f"{where} has {'x_val' if has_val['x_val'] else 'y_val'} without \"""",
         new="""        raise DataError(f"{where} has {'x_val' if has_val['y_val'] else 'y_val'} without \"""",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a file with one of x_val, y_val is told it has the other one (\"has x_val without x_val\")"),
    dict(name="v53-npz-lengths-val-alone-accepted", file=ARRAYS,
         old='    if has_val["lengths_val"] and not has_val["x_val"]:',
         new='    if has_val["lengths_val"] and has_val["x_val"] is None:',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="lengths_val without x_val, y_val passes (a bool is never None) and is silently ignored"),
    dict(name="v53-npz-val-lengths-read-from-train", file=ARRAYS,
         old='        out["lengths" + suffix] = _lengths(arrays.get("lengths" + suffix), '
             '"lengths" + suffix, N, T, where)',
         new='        out["lengths" + suffix] = _lengths(arrays.get("lengths"), "lengths" + suffix, N, T, where)',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the validation sequences take the training lengths array: lengths_val is ignored, and a file "
             "with lengths but none for x_val gets the training ones (refused when the counts differ)"),
    dict(name="v53-npz-unsigned-labels-regression", file=ARRAYS,
         old='        objective = "mse" if out["y"].dtype.kind == "f" else "ce"',
         new='        objective = "ce" if out["y"].dtype.kind == "i" else "mse"',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="unsigned (uint8) or boolean labels are taken for regression targets instead of classes"),
    dict(name="v53-npz-batch-lengths-of-other-split", file=ARRAYS,
         old='        L = self.lengths_train if which == "train" else self.lengths_val',
         new='        L = self.lengths_train if which == "val" else self.lengths_val',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="an npz task's batch hands out the other split's lengths (the validation ones for a training batch)"),

    # ---- stroke-3 and the stroke tasks: back to strokes, a line of a set, the offset scale, _cut ----
    dict(name="v53-to-strokes-keeps-empty-tail", file=STROKES,
         old="    return [s for s in np.split(pts, ends) if len(s)]",
         new="    return list(np.split(pts, ends))",
         tests=STROKES_NEW + STROKES_OLD,
         why="to_strokes keeps the empty piece after the last lift: every line ends in a stroke of no points"),
    dict(name="v53-drop-long-steps-counts-kept-rows", file=STROKES,
         old="    return out, int(long.sum())",
         new="    return out, len(kept)",
         tests=STROKES_NEW + STROKES_OLD,
         why="drop_long_steps reports the rows it kept as the count of dropped glitch steps"),
    dict(name="v53-stroke-set-line-one-short", file=STROKES,
         old="        return self.points[self.starts[i]:self.starts[i + 1]]",
         new="        return self.points[self.starts[i]:self.starts[i + 1] - 1]",
         tests=STROKES_NEW + STROKES_OLD,
         why="StrokeSet.line(i) leaves out the line's last point"),
    dict(name="v53-offset-scale-over-both-splits", file=STROKES,
         old='    scale = offset_scale(usable["train"])',
         new='    scale = offset_scale(usable["train"] + usable["val"])',
         tests=STROKES_NEW + STROKES_OLD,
         why="the offsets' std is taken over the training and validation lines: the validation split leaks "
             "into the normalisation"),
    dict(name="v53-cut-appends-empty-stroke", file=STROKES,
         old="        if left <= 0:",
         new="        if left < 0:",
         tests=STROKES_NEW + STROKES_OLD,
         why="_cut goes on once the points are used up and appends an empty stroke (s[:0])"),

    # ---- stroke files: rows of 3, finite values, the file's own split, the line a message names ----
    dict(name="v53-stroke-rows-of-four-accepted", file=FILES,
         old='    if a.ndim != 2 or a.shape[1] != 3 or a.dtype.kind not in "iuf":',
         new='    if a.ndim != 2 or a.shape[1] < 3 or a.dtype.kind not in "iuf":',
         tests=FILES_NEW + FILES_OLD,
         why="a stroke file of (N, 4) rows is accepted, its third column read as the pen and the fourth kept"),
    dict(name="v53-stroke-rows-infinity-accepted", file=FILES,
         old="    if not np.isfinite(a).all():",
         new="    if np.isnan(a).any():",
         tests=FILES_NEW + FILES_OLD,
         why="a stroke offset of inf passes the check (only NaN is refused)"),
    dict(name="v53-stroke-file-own-split-swapped", file=FILES,
         old='        train, val = S.RawSplit(parts["train"]), S.RawSplit(parts["val"])',
         new='        train, val = S.RawSplit(parts["val"]), S.RawSplit(parts["train"])',
         tests=FILES_NEW + FILES_OLD,
         why="a file's own train/validation split is used the wrong way round"),
    dict(name="v53-read-lines-message-names-line-1", file=FILES,
         old="            return [_line(seq, text, i) for i, seq in enumerate(_packed(data[name], data[\"lengths\"], "
             "text, name))]",
         new="            return [_line(seq, text, 0) for i, seq in enumerate(_packed(data[name], data[\"lengths\"], "
             "text, name))]",
         tests=FILES_NEW + FILES_OLD,
         why="read_lines names line 1 as the empty (or too long) one whichever line of the file it is"),
]
