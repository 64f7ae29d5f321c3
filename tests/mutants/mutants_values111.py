"""Planted bugs, round 111 (format: tests/mutants/mutants.py): single-line slips in the data loaders
and built-in tasks, a fifth pass on lines no earlier round mutates: the npz task narrowing every unsigned x to
uint8 with the booleans, not naming a missing y, reading --split A/B as B/A and batching each set of a file with
x_val with the other's lengths; IAM-OnDB letting an infinite coordinate through, skipping line files named
.XML, looking for a form's transcription at the top of ascii/ and not looking up single line ids of the task
lists; KanjiVG's resampling arc length not summed, the current point after a curve its first sample, every
design of the folder drawn whatever --charset; the copy task's one-hot written along time, a spec taking the
defaults of options its task does not read; TaskData's steps from the sequence count and a validation batch
with the training labels.

15 mutants. Against the existing targeted tests alone 11 were caught and 4 missed: the uint16 x narrowed to
uint8 (no old test stores unsigned inputs wider than a byte), .XML line files skipped (every old fixture names
them .xml), the charset filter dropped (the old folders hold latin designs only) and the validation batch's
labels from the training set (the old tests batch the training set, or both sets with the same labels). The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values111_arrays (uint16 and bool x read back value for value; the missing array named; --split 6/3 of 11
rows against numpy's seed-0 permutation, train and validation disjoint; the held-out count without --split
the nearest tenth at N = 14, 17, 2 and 36, where floor, ceil and round part; lengths and lengths_val batched
with their own sets), test_values111_iamondb (IAM-OnDB folders written here in the download's layout: each
line's CSR line from its nested ascii/ folder, the alphabet as the unknown symbol and the training characters
sorted, .XML files found as os.walk lists them, task lists naming single lines, inf, nan, 1e999 and text
coordinates refused naming the point, y turned up, a DOCTYPE with an external entity refused before parsing),
test_values111_kanjivg (resampled points on the polyline, evenly spaced in arc length, no wider than SPACING
and as few as that allows; a curve's samples against the cubic Bezier by hand and a relative l or v after it
from its end; a folder of five latin and two kana SVGs whose latin lines draw only latin letters and kana
lines only kana) and test_values111_tasks (the copy task's x the one-hot of the codes its definition lays out
from its labels; every task's spec naming only options it reads; TaskData's T, I, N and both sets' batches
against their arrays). None was dropped as equivalent: each of the 15 changes what a test here can see.

The old lists were measured with --no-baseline.

    python tests/mutants/run.py --only 'v111-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
IAM = "lnrnn/data/iamondb.py"
KVG = "lnrnn/data/kanjivg.py"
TASKS = "lnrnn/data/tasks.py"
TASKDATA = "lnrnn/data/taskdata.py"

# existing tests of these modules
ARRAYS_OLD = ["tests/data/test_own_data.py", "tests/data/test_values10_arrays.py", "tests/data/test_values34_arrays.py",
              "tests/data/test_values44_arrays.py", "tests/data/test_values53_arrays.py",
              "tests/data/test_values81_arrays.py", "tests/data/test_values89_arrays.py"]
IAM_OLD = ["tests/data/test_values_iamondb.py", "tests/data/test_values9_iamondb.py",
           "tests/data/test_values15_iamondb.py", "tests/data/test_values44_iamondb.py",
           "tests/data/test_values59_iamondb.py", "tests/data/test_values81_iamondb.py",
           "tests/data/test_values89_iamondb.py"]
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py",
           "tests/data/test_values44_kanjivg.py", "tests/data/test_values59_kanjivg.py",
           "tests/data/test_values61_kanjivg_prefix.py", "tests/data/test_values81_kanjivg.py",
           "tests/data/test_values89_kanjivg.py"]
TASKS_OLD = ["tests/data/test_values_tasks.py", "tests/data/test_values9_tasks.py", "tests/data/test_values12_tasks.py",
             "tests/data/test_values13_tasks.py", "tests/data/test_values21_tasks.py",
             "tests/data/test_values32_tasks.py", "tests/data/test_values44_tasks.py",
             "tests/data/test_values53_tasks.py", "tests/data/test_values76_tasks.py",
             "tests/data/test_values89_tasks.py", "tests/data/test_values102_tasks.py"]
TASKDATA_OLD = ["tests/data/test_values_taskdata.py", "tests/data/test_data.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
ARRAYS_NEW = ["tests/data/test_values111_arrays.py"]
IAM_NEW = ["tests/data/test_values111_iamondb.py"]
KVG_NEW = ["tests/data/test_values111_kanjivg.py"]
TASKS_NEW = ["tests/data/test_values111_tasks.py"]
TASKDATA_NEW = ["tests/data/test_values111_tasks.py"]

MUTANTS = [
    # ---- the npz task: unsigned inputs, a missing y, --split's order, the validation lengths ----
    dict(name="v111-arrays-unsigned-x-to-uint8", file=ARRAYS,
         old='    if x.dtype.kind == "b":\n        x = x.astype(np.uint8)',
         new='    if x.dtype.kind in "bu":\n        x = x.astype(np.uint8)',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="every unsigned x is narrowed to uint8 along with the booleans: a uint16 input of 300 reads as 44"),
    dict(name="v111-arrays-missing-y-not-named", file=ARRAYS,
         old='missing = [k for k in ("x", "y") if arrays.get(k) is None]',
         new='missing = [k for k in ("x",) if arrays.get(k) is None]',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a file without y is not refused in one sentence naming y: a KeyError escapes from the checks"),
    dict(name="v111-arrays-split-counts-swapped", file=ARRAYS,
         old="        a, b = split\n",
         new="        b, a = split\n",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="--split A/B holds out A sequences and trains on B: the train and validation sizes swap"),
    dict(name="v111-arrays-lengths-val-for-train", file=ARRAYS,
         old='(d[k] for k in ("x", "y", "lengths", "x_val", "y_val", "lengths_val"))',
         new='(d[k] for k in ("x", "y", "lengths_val", "x_val", "y_val", "lengths"))',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="with x_val in the file the training batches carry lengths_val and the validation ones lengths"),
    # ---- IAM-OnDB: an infinite coordinate, .XML names, nested transcriptions, line ids in the task lists ----
    dict(name="v111-iamondb-infinite-point-accepted", file=IAM,
         old="    if not np.isfinite(v):",
         new="    if np.isnan(v):",
         tests=IAM_NEW + IAM_OLD,
         why='a point x="inf" passes the per-attribute check: the line is read with an infinite offset'),
    dict(name="v111-iamondb-upper-case-xml-skipped", file=IAM,
         old='if f.lower().endswith(".xml")',
         new='if f.endswith(".xml")',
         tests=IAM_NEW + IAM_OLD,
         why="line files named *.XML are not found: their lines are silently left out"),
    dict(name="v111-iamondb-transcription-not-nested", file=IAM,
         old='txt = os.path.join(ascii_root, os.path.relpath(key[0], line_root), form + ".txt")',
         new='txt = os.path.join(ascii_root, form + ".txt")',
         tests=IAM_NEW + IAM_OLD,
         why="a form's transcription is looked for at the top of ascii/ instead of in its a01/a01-000/ folder: "
             "the download's layout finds none"),
    dict(name="v111-iamondb-line-ids-unlisted", file=IAM,
         old="        by_name.setdefault(stem, []).append(i)\n",
         new="",
         tests=IAM_NEW + IAM_OLD,
         why="a task list naming single lines (a01-000u-01) finds no line file: only form ids are looked up"),
    # ---- KanjiVG: arc length, the current point after a curve, the charset filter ----
    dict(name="v111-kanjivg-arc-not-summed", file=KVG,
         old="arc = np.concatenate([[0.0], np.cumsum(seg)])",
         new="arc = np.concatenate([[0.0], seg])",
         tests=KVG_NEW + KVG_OLD,
         why="resample's arc length is each segment's own length, not the running sum: a polyline of three or "
             "more points is resampled off its path and too short"),
    dict(name="v111-kanjivg-current-point-after-first-sample", file=KVG,
         old="            cur = seg[-1]",
         new="            cur = seg[1]",
         tests=KVG_NEW + KVG_OLD,
         why="after a curve the current point is the curve's first sample, not its end: a relative command "
             "that follows starts in the wrong place"),
    dict(name="v111-kanjivg-charset-not-filtered", file=KVG,
         old="cps = np.array([cp for cp in CHARSETS[charset] if cp in files], np.int64)",
         new="cps = np.array(sorted(files), np.int64)",
         tests=KVG_NEW + KVG_OLD,
         why="every design in the folder is used whatever --charset: a kana file turns up in latin lines"),
    # ---- built-in tasks: the copy task's one-hot, a spec's options ----
    dict(name="v111-tasks-copy-one-hot-along-time", file=TASKS,
         old="np.put_along_axis(x, codes[:, :, None], 1, axis=2)",
         new="np.put_along_axis(x, codes[:, :, None], 1, axis=1)",
         tests=TASKS_NEW + TASKS_OLD,
         why="the copy task's codes are written along time instead of along the symbol axis: x is not the "
             "one-hot of its codes"),
    dict(name="v111-tasks-spec-takes-every-option", file=TASKS,
         old="for key in sorted(reads & set(OPTIONS)):",
         new="for key in sorted(set(OPTIONS)):",
         tests=TASKS_NEW + TASKS_OLD,
         why="a task's spec gets the defaults of options it does not read (charset on digits): the saved spec "
             "names options the task never takes"),
    # ---- TaskData: steps, the validation labels ----
    dict(name="v111-taskdata-steps-from-count", file=TASKDATA,
         old="self.x_train.shape[1]",
         new="self.x_train.shape[0]",
         tests=TASKDATA_NEW + TASKDATA_OLD,
         why="steps() returns the number of training sequences, not T"),
    dict(name="v111-taskdata-val-batch-train-labels", file=TASKDATA,
         old="else (self.x_val, self.y_val)",
         new="else (self.x_val, self.y_train)",
         tests=TASKDATA_NEW + TASKDATA_OLD,
         why="a validation batch pairs the validation sequences with the training labels"),
]
