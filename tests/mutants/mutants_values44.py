"""Planted bugs, round 44 (format: tests/mutants/mutants.py): single-line slips in data preparation, on lines no
earlier round mutates, where a count, a size or a piece of geometry comes out as another number: stroke-3's
first offset and a dropped point's pen lift, a degenerate axis's scale, a stroke task's steps over both splits, a
split of groups needing two distinct groups, a reader's alphabet size; the npz task's held-out sizes at awkward N,
its (N, T) inputs and the steps its description names; mnist-rows of non-square images; a float64 batch's pixel
scale; KanjiVG's augmentation matrix, the characters' pen-up advance, resampling's y, S's reflected control point,
the count of designs held out and a reader of one design; IAM-OnDB's split by form and its count of lines with
transcriptions; Hershey's point spacing in source units, each word's advance and the choice of face.

22 mutants. Against the existing targeted tests alone (tests/data/) 17 were caught and 5 missed: an (N, T) x read
as one step of T inputs, the npz description's steps taken from the sequence axis, mnist-rows reshaped columns
first (the same for 28 x 28 images), Hershey's spacing left in font units, and a kana task's description holding
out every design. The new value tests catch every mutant on their own (checked with the old tests left out):
test_values44_strokes (stroke-3 of two known strokes and back, a spike inside a stroke and a dropped lifted point
by hand, a degenerate axis's scale 1, steps of a longest validation line, split_groups at n = 2 ... 101 with
fractions 0.1, 0.15, 1/3, 0.9 against round(f n) clamped to 1..n-1 by hand, one group of many items refused, a
reader's alphabet and CTC outputs from its texts), test_values44_arrays (held_out at N = 2, 3, 7, 10, 11, 16, 99,
101, 1000, every sequence in exactly one split, and the npz task at N = 11 and 101; an (N, T) x with an x_val of
another T; classes only in y_val), test_values44_tasks (IDX files of 3 x 5 images: mnist-rows' steps are rows,
mnist's pixels row-major; a float64 batch's 255 reads exactly 1), test_values44_kanjivg (augment with known
draws: rotation 0.05, scale 2.1, slant 0.25 by hand; join_line's advance; resampling of a bar, an L and a
diagonal; S at t = 1/2; points and lifts per line of known designs; 21 kana designs, 2 held out; one character
refused with and without --head ctc), test_values44_iamondb (12 and 24 forms split whole; an official split with
a blank CSR line and an unread test list: 6 lines with transcriptions), test_values44_hershey (random_style's
spacing and jitter from known draws, a bar's points at that spacing, words moved right by the words before them,
every face drawn about a third of 300 lines). Dropped as equivalent while writing: ctc_steps_needed's
``labels >= 0`` as ``> 0`` (real labels are codes + 1 >= 1, pads -1), the IAM line number's ``\\d+`` as two digits
(IAM-OnDB names every line file with two), parse_split's ``split("/")`` as ``split("/", 1)`` (a third part
still fails int() with the same message).

    python tests/mutants/run.py --only 'v44-*'
"""
STROKES = "lnrnn/data/strokes.py"
ARRAYS = "lnrnn/data/arrays.py"
TASKS = "lnrnn/data/tasks.py"
TASKDATA = "lnrnn/data/taskdata.py"
KANJIVG = "lnrnn/data/kanjivg.py"
IAMONDB = "lnrnn/data/iamondb.py"
HERSHEY = "lnrnn/data/hershey.py"

# existing tests of these modules (tests/data/)
STROKES_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py",
               "tests/data/test_values12_strokes.py", "tests/data/test_values20_strokes.py",
               "tests/data/test_values21_strokes.py", "tests/data/test_text_strokes.py",
               "tests/data/test_values_data_counts.py", "tests/data/test_values32_tasks.py"]
ARRAYS_OLD = ["tests/data/test_values10_arrays.py", "tests/data/test_values34_arrays.py",
              "tests/data/test_own_data.py", "tests/data/test_values_data_counts.py"]
TASKS_OLD = ["tests/data/test_data.py", "tests/data/test_values_tasks.py", "tests/data/test_values9_tasks.py",
             "tests/data/test_values12_tasks.py", "tests/data/test_values13_tasks.py",
             "tests/data/test_values21_tasks.py", "tests/data/test_values32_tasks.py",
             "tests/data/test_data_alignment.py"]
TASKDATA_OLD = ["tests/data/test_values_taskdata.py", "tests/data/test_data.py"]
KANJIVG_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_kanjivg.py",
               "tests/data/test_values12_kanjivg.py", "tests/data/test_values21_readers.py",
               "tests/data/test_values34_readers.py", "tests/data/test_values_data_counts.py"]
IAMONDB_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_iamondb.py",
               "tests/data/test_values9_iamondb.py", "tests/data/test_values15_iamondb.py",
               "tests/data/test_values21_readers.py", "tests/data/test_values34_readers.py",
               "tests/data/test_text_strokes.py"]
HERSHEY_OLD = ["tests/data/test_values_hershey.py", "tests/data/test_values15_hershey.py",
               "tests/data/test_values34_hershey.py", "tests/data/test_text_strokes.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
STROKES_NEW = ["tests/data/test_values44_strokes.py"]
ARRAYS_NEW = ["tests/data/test_values44_arrays.py"]
TASKS_NEW = ["tests/data/test_values44_tasks.py::test_rows_of_non_square_images_are_the_steps",
             "tests/data/test_values44_tasks.py::test_pixels_of_non_square_images_row_after_row"]
TASKDATA_NEW = ["tests/data/test_values44_tasks.py::test_float64_batches_scale_in_float64"]
KANJIVG_NEW = ["tests/data/test_values44_kanjivg.py"]
IAMONDB_NEW = ["tests/data/test_values44_iamondb.py"]
HERSHEY_NEW = ["tests/data/test_values44_hershey.py"]

MUTANTS = [
    # ---- strokes: stroke-3, the glitch fix, the scale, steps, splits of groups, a reader's alphabet ----
    dict(name="v44-strokes-first-offset-on-row-0", file=STROKES,
         old="    seq[1:, :2] = np.diff(pts, axis=0)",
         new="    seq[:-1, :2] = np.diff(pts, axis=0)",
         tests=STROKES_NEW + STROKES_OLD,
         why="to_stroke3 writes the offset into point i on row i-1: row 0 holds the first step, the last row "
             "(0, 0), so every offset reaches the point before the one it leads to"),
    dict(name="v44-strokes-every-dropped-point-lifts", file=STROKES,
         old="lifted = np.flatnonzero(long & (seq[:, 2] > 0.5))",
         new="lifted = np.flatnonzero(long)",
         tests=STROKES_NEW + STROKES_OLD,
         why="drop_long_steps lifts the pen after the kept point before every dropped point, not only before a "
             "dropped point that lifted: a glitch inside a stroke splits it in two"),
    dict(name="v44-strokes-degenerate-axis-scale-zero", file=STROKES,
         old="float(v) if v > 0 and math.isfinite(v)",
         new="float(v) if v >= 0 and math.isfinite(v)",
         tests=STROKES_NEW + STROKES_OLD,
         why="offset_scale keeps a zero std (all offsets of an axis equal, e.g. a line of horizontal strokes): "
             "the task divides that axis by 0"),
    dict(name="v44-strokes-steps-of-training-lines-only", file=STROKES,
         old="        return max(s.max_steps for s in self.sets.values())",
         new='        return self.sets["train"].max_steps',
         tests=STROKES_NEW + STROKES_OLD,
         why="StrokeTask.steps is the longest training line's: a longer validation line has more steps than "
             "the task says (the memory check and the buffers are sized for fewer)"),
    dict(name="v44-strokes-split-groups-counts-items", file=STROKES,
         old="    if len(distinct) < 2:",
         new="    if len(groups) < 2:",
         tests=STROKES_NEW + STROKES_OLD,
         why="split_groups checks that there are two items, not two distinct groups: many lines of one form "
             "give an empty validation mask instead of the DataError"),
    dict(name="v44-strokes-ctc-alphabet-without-unknown", file=STROKES,
         old="        A = len(self.alphabet)\n",
         new='        A = len(set("".join(train.texts)))\n',
         tests=STROKES_NEW + STROKES_OLD,
         why="a reader's alphabet size counts the training texts' distinct characters and forgets UNKNOWN (code "
             "0): the CTC head has one output too few, the last character's class has no output"),
    # ---- the npz task: held-out sizes, (N, T) inputs ----
    dict(name="v44-arrays-held-out-train-floored", file=ARRAYS,
         old="        a = N - b\n",
         new="        a = int(N * (1 - VAL_FRACTION))\n",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="held_out floors the training share on its own: at N = 11 or 101 (0.9 N = 9.9, 90.9, validation "
             "round(0.1 N) = 1, 10) one sequence of the file is in neither split"),
    dict(name="v44-arrays-2d-x-steps-as-inputs", file=ARRAYS,
         old="        x = x[:, :, None]",
         new="        x = x[:, None, :]",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="an (N, T) x becomes (N, 1, T): one step of T inputs, not T steps of one input"),
    dict(name="v44-arrays-description-steps-are-sequences", file=ARRAYS,
         old="    T, I = xt.shape[1], xt.shape[2]",
         new="    T, I = xt.shape[0], xt.shape[2]",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the npz task's description counts the training sequences as its steps: 'your sequences from "
             "d.npz: 5 steps of 1 input' for 5 sequences of 6 steps"),
    # ---- tasks and TaskData: mnist-rows' axes, the pixel scale's dtype ----
    dict(name="v44-tasks-rows-reshaped-columns-first", file=TASKS,
         old="xt, xv = xt.reshape(-1, rows, cols), xv.reshape(-1, rows, cols)",
         new="xt, xv = xt.reshape(-1, cols, rows), xv.reshape(-1, cols, rows)",
         tests=TASKS_NEW + TASKS_OLD,
         why="mnist-rows reshapes to (N, cols, rows): the same for 28 x 28 images, but non-square images get "
             "cols steps of rows pixels that cut across their rows"),
    dict(name="v44-taskdata-scale-in-float32", file=TASKDATA,
         old="xb *= np.dtype(dtype).type(self.scale)",
         new="xb *= np.float32(self.scale)",
         tests=TASKDATA_NEW + TASKDATA_OLD,
         why="TaskData.batch scales a float64 batch by float32(1/255): pixel 255 reads 1.0000000591, not 1"),
    # ---- KanjiVG: augmentation geometry, the pen-up advance, resampling, S, one design ----
    dict(name="v44-kanjivg-augment-matrix-transposed", file=KANJIVG,
         old="[st @ m + rng.normal(",
         new="[st @ m.T + rng.normal(",
         tests=KANJIVG_NEW + KANJIVG_OLD,
         why="augment applies the matrix to column vectors where the points are rows: the character rotates "
             "the other way and the slant shears y by x instead of x by y"),
    dict(name="v44-kanjivg-join-advance-on-y", file=KANJIVG,
         old="out += [st + [shift, 0.0] for st in strokes]",
         new="out += [st + [0.0, shift] for st in strokes]",
         tests=KANJIVG_NEW + KANJIVG_OLD,
         why="join_line moves each next character up by the advance instead of right: the characters of a "
             "line climb a diagonal and overlap in x"),
    dict(name="v44-kanjivg-resample-y-from-x", file=KANJIVG,
         old="np.interp(s, arc, poly[:, 1])",
         new="np.interp(s, arc, poly[:, 0])",
         tests=KANJIVG_NEW + KANJIVG_OLD,
         why="resample interpolates y from the x column: every resampled stroke lies on the diagonal y = x"),
    dict(name="v44-kanjivg-s-reflects-the-end-point", file=KANJIVG,
         old="    return _cubic(cur, c1, c2, end), c2",
         new="    return _cubic(cur, c1, c2, end), end",
         tests=KANJIVG_NEW + KANJIVG_OLD,
         why="a curve hands its end point on as the control point S reflects: S's first control point is "
             "the current point, not the reflection of the previous curve's second one"),
    dict(name="v44-kanjivg-held-count-of-every-design", file=KANJIVG,
         old='    n_held = int(val.sum())',
         new='    n_held = len(val)',
         tests=KANJIVG_NEW + KANJIVG_OLD,
         why="a kana or kanji task's description says every design is held out for validation (the mask's "
             "length, not its count)"),
    dict(name="v44-kanjivg-reader-of-one-design", file=KANJIVG,
         old="    if len(cps) < 2:",
         new="    if len(cps) < 1:",
         tests=KANJIVG_NEW + KANJIVG_OLD,
         why="a folder of one character of the charset builds a reader (--head ctc) of a single class, where "
             "the docstring's DataError asks for two"),
    # ---- IAM-OnDB: the split by form, lines with transcriptions ----
    dict(name="v44-iamondb-split-by-line-number", file=IAMONDB,
         old="S.split_groups([form_of(p)[0] for p in files]",
         new="S.split_groups([form_of(p)[1] for p in files]",
         tests=IAMONDB_NEW + IAMONDB_OLD,
         why="the random split groups lines by their number in the form (1, 2, ...), not by form: a writer's "
             "form is in both splits"),
    dict(name="v44-iamondb-text-count-of-every-file", file=IAMONDB,
         old='with_text = (f"{len(files)} with transcriptions',
         new='with_text = (f"{len(all_files)} with transcriptions',
         tests=IAMONDB_NEW + IAMONDB_OLD,
         why="the description counts every line file under lineStrokes/ as read with a transcription: lines "
             "skipped without text and the test lists' lines are counted too"),
    # ---- Hershey: spacing, each word's advance, the face ----
    dict(name="v44-hershey-spacing-in-font-units", file=HERSHEY,
         old="spacing=SPACING * rng.uniform(*SPEED) * scale",
         new="spacing=SPACING * rng.uniform(*SPEED)",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="random_style's spacing stays in font units while the points are in source units: a line written "
             "at scale 1.25 has 1.25 times the points per letter, one at 0.8 fewer"),
    dict(name="v44-hershey-word-advance-on-y", file=HERSHEY,
         old="strokes += [p + [x, 0.0] for p in pieces]",
         new="strokes += [p + [0.0, x] for p in pieces]",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="layout moves each word up by its advance instead of right: the words of a line are written on "
             "top of each other, climbing"),
    dict(name="v44-hershey-last-face-never-drawn", file=HERSHEY,
         old="face = faces[int(rng.integers(len(faces)))]",
         new="face = faces[int(rng.integers(len(faces) - 1))]",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="make_lines draws the face from all but the last (integers' high is exclusive): futural, the "
             "roman letterforms, never appears"),
]
