"""Planted bugs, round 164 (format: tests/mutants/mutants.py): single-line slips in stroke preparation, the
built-in tasks and the npz task, a seventh pass on lines no earlier round mutates: to_stroke3 gathering the
absolute points in float32; split_groups counting every line as a group of its own; a stroke task recording its
dropped glitch steps as its skipped short lines, and quoting its lines' range in steps while it says points; the
hint for a folder of only the t10k files never firing; an option a task does not take let through when false;
pixel-by-pixel validation images taken from the training images; a .npy file's six-byte magic compared on four
bytes; an object array matched on a case-sensitive 'object arrays'; a text x refused quoting its dtype's kind
letter; --split A/B on an npz file swapped; the npz description quoting the training count as the validation
count.

12 mutants. Against the existing targeted tests alone 6 were caught and 6 missed: the float32 points (no old test
writes points far from the origin), the short-line count in the task's record (old tests read the description's
note, which counts right), the points range, the t10k-only hint, the false option and the dtype's kind letter (no
old test read these). The new value tests catch every mutant on their own (checked with the old tests taken off the
lists): test_values164_strokes (stroke-3 offsets of points at 2**24 against the hand table; split_groups at 2, 3,
7, 11 and 101 distinct groups of several lines each, the held-out count against 10% rounded, at least 1, worked by
hand, the groups against the seed-0 permutation of the sorted distinct groups drawn here, whole groups only, one
form of five lines refused; a task of hand lines whose dropped steps, skipped lines, points, range and offset
scale, the NumPy std of the training offsets left after the glitch steps go, are recomputed here),
test_values164_tasks (IDX files written here: a folder of only the t10k files told to split them; mnist and pmnist
validation images against the t10k file, through the pmnist permutation redrawn here from seed 0 until it moves
every pixel; allow_pickle=False and an empty objective on digits refused), test_values164_arrays (files written
with numpy: a .npy file, an object array, a text x, NaN, lengths past T and N = 1 each refused in its exact
sentence; the held-out sizes and the description at N = 2, 3, 7, 11, 101 against the hand table; --split 7/3 and
2/5 against the seed-0 permutation). Dropped as equivalent: drop_long_steps' copy of the kept rows left out (fancy
indexing copies already); the object-array check on str(e) without lower() (NumPy's sentence holds 'pickle' in
lower case); ctc_steps_needed counting labels > 0 (text labels are codes + 1, never 0); _cut subtracting len(s)
rather than the part kept (a cut part ends the loop either way); a dot's total += len(dot) (a dot has 2 points).
Left out: the synthetic generator's draws (points per line up to SYN_POINTS[1] inclusive, loop shapes), which no
test can tell from another seed's without restating the generator.

    python tests/mutants/run.py --only 'v164-*'
"""
STROKES = "lnrnn/data/strokes.py"
TASKS = "lnrnn/data/tasks.py"
ARRAYS = "lnrnn/data/arrays.py"

D = "tests/data/"
# existing tests of these modules (the most direct ones)
STROKES_OLD = [D + f for f in ("test_values126_strokes.py", "test_values109_strokes.py", "test_values89_strokes.py",
                               "test_strokes_data.py", "test_values_data_counts.py")]
TASKS_OLD = [D + f for f in ("test_values136_tasks.py", "test_values_tasks.py", "test_values12_tasks.py",
                             "test_values44_tasks.py", "test_values127_tasks.py")]
ARRAYS_OLD = [D + f for f in ("test_values136_arrays.py", "test_own_data.py", "test_values10_arrays.py",
                              "test_values34_arrays.py", "test_values111_arrays.py", "test_values122_arrays.py")]

# value tests written for the bugs below (first, so that a caught mutant stops there)
STROKES_NEW = [D + "test_values164_strokes.py"]
TASKS_NEW = [D + "test_values164_tasks.py"]
ARRAYS_NEW = [D + "test_values164_arrays.py"]

MUTANTS = [
    # ---- stroke preparation: absolute points, the group split, the counts and ranges a task reports ----
    dict(name="v164-to-stroke3-points-in-float32", file=STROKES,
         old="pts = np.concatenate([np.asarray(s, np.float64) for s in strokes])",
         new="pts = np.concatenate([np.asarray(s, np.float32) for s in strokes])",
         tests=STROKES_NEW + STROKES_OLD,
         why="the absolute points are gathered in float32 before their differences are taken: far from the "
             "origin (pen tablets count in large units) a small offset rounds away"),
    dict(name="v164-split-groups-counts-lines-not-groups", file=STROKES,
         old="distinct = sorted(set(groups))",
         new="distinct = sorted(groups)",
         tests=STROKES_NEW + STROKES_OLD,
         why="split_groups takes every line's label as a group of its own: a form of several lines is counted "
             "several times, the held-out share is taken of lines, and one form alone is not refused"),
    dict(name="v164-make-task-short-lines-report-dropped-steps", file=STROKES,
         old="short_lines=n_short",
         new="short_lines=n_drop",
         tests=STROKES_NEW + STROKES_OLD,
         why="the task's record of skipped short lines holds the count of dropped glitch steps instead"),
    dict(name="v164-points-range-quoted-in-steps", file=STROKES,
         old='return f"{lens.min()}-{lens.max()}"',
         new='return f"{lens.min() - 1}-{lens.max() - 1}"',
         tests=STROKES_NEW + STROKES_OLD,
         why="the description's 'lines of A-B points' quotes steps (points less one) though it says points"),
    # ---- the built-in tasks: the t10k-only hint, a false option, the pixel-by-pixel validation images ----
    dict(name="v164-mnist-t10k-only-hint-tests-train-twice", file=TASKS,
         old='                and mnist_files_present(data_dir, "t10k"):',
         new='                and mnist_files_present(data_dir, "train"):',
         tests=TASKS_NEW + TASKS_OLD,
         why="the hint for a folder of only the t10k files asks whether the train files are both missing and "
             "present: it never fires, and the user is told only that the train files are lacking"),
    dict(name="v164-task-spec-false-option-let-through", file=TASKS,
         old="if val is not None and key not in reads:",
         new="if val and key not in reads:",
         tests=TASKS_NEW + TASKS_OLD,
         why="an option a task does not take is refused only when true: allow_pickle=False (or an empty "
             "objective) on digits passes silently"),
    dict(name="v164-mnist-pixels-validation-from-train-images", file=TASKS,
         old="xt, xv = xt.reshape(-1, rows * cols, 1), xv.reshape(-1, rows * cols, 1)",
         new="xt, xv = xt.reshape(-1, rows * cols, 1), xt.reshape(-1, rows * cols, 1)",
         tests=TASKS_NEW + TASKS_OLD,
         why="pixel by pixel, the validation images are the training images again (a copy-paste slip)"),
    # ---- the npz task: what a file is, its refusals' sentences, the held-out split and its description ----
    dict(name="v164-npy-magic-compared-on-four-bytes", file=ARRAYS,
         old="    if head == NPY_MAGIC:",
         new="    if head[:4] == NPY_MAGIC:",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the six-byte .npy magic is compared with four bytes: a .npy file is called no NumPy file at all "
             "instead of being told to hold named arrays"),
    dict(name="v164-object-array-matched-case-sensitively", file=ARRAYS,
         old='if "pickle" in str(e).lower():',
         new='if "object arrays" in str(e):',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="NumPy's refusal begins 'Object arrays', capitalised: an object array is reported as an array that "
             "cannot be read, without the advice to pad and give lengths"),
    dict(name="v164-dtype-refusal-quotes-the-kind-letter", file=ARRAYS,
         old="not {x.dtype} (object or text",
         new="not {x.dtype.kind} (object or text",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a text x is refused quoting its dtype's kind letter ('U') instead of its dtype ('<U3')"),
    dict(name="v164-split-a-b-swapped", file=ARRAYS,
         old="        a, b = split\n",
         new="        b, a = split\n",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="--split A/B on an npz file holds out A sequences and trains on B"),
    dict(name="v164-npz-description-validation-count-from-train", file=ARRAYS,
         old='f"{len(xt)} train / {len(xv)} validation ({how})"',
         new='f"{len(xt)} train / {len(xt)} validation ({how})"',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the description quotes the training count as the validation count"),
]
