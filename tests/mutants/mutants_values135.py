"""Planted bugs, round 135 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in stroke preparation, IAM-OnDB reading and stroke files: synthetic lines spiked when the draw is above
the glitch rate instead of below, the spike's direction built from the cosine twice, the training stream seeded
as the validation one, the task's spike count leaving out the validation split's, a next-point batch padded to the
longest line's points instead of its steps; a DOCTYPE let through to the parser, task lists of form ids refused,
official_split indexing files by stem only, DIR/tasks misspelt, the official validation mask inverted and the
split's record naming the wrong kind; an object-array file of train + val refused, the strokes-npz split mask one
short (the file's last sequence silently lost), rows read rounded to float32.

14 mutants. Against the existing targeted tests alone (the four most direct files of each module, listed after the
new ones) 10 were caught and 4 missed: the training stream seeded as the validation one (no test compares the two
splits' lines), DIR/tasks misspelt (equivalent whenever --data-dir holds lineStrokes/, as every old test's folder
does: the third place looked in is then DIR/tasks again; it shows only when --data-dir is the line folder itself),
the split's record inverted (no test reads extra['split']) and the strokes-npz mask one short (no test counts the
sequences of both splits against the file's). The new value tests catch every mutant on their own (checked with
only the new files in the lists): test_values135_synthetic (glitch rates 0 and 1 against the definition: no long
offset, or exactly two consecutive ones about SYN_SPIKE long that cancel; twice the spike count equals the dropped
glitch steps with spikes in the validation stream; no validation line equals its training counterpart and the
validation lines stay when the training count changes; a batch of rows of their own lengths against the lines'
p_t / p_{t+1} sliced here, padded to max N - 1; the offset scale against NumPy's std), test_values135_iamondb
(line files in IAM-OnDB's XML written here: one-point strokes against stroke-3 rows computed by hand with y turned
up; a DOCTYPE with an external SYSTEM reference and an ENTITY refused in one sentence naming the token and the
file; task lists with blank lines in DIR/tasks and in a bare line folder's tasks/, every line of a listed form on
its side; the random split's held-out form count against min(n - 1, max(1, round(VAL_FRACTION n))); a blank CSR
line skipped and counted), test_values135_stroke_files (train + val object arrays row for row; strokes + lengths
files of 2, 5, 15 and 25 sequences with every sequence on one side and the held-out count by its definition,
round half to even included; rows equal to the float64 values saved). Dropped as equivalent: read_limited reading
limit bytes instead of limit + 1 (the size is checked first), official_split's order left unsorted (split_raw keeps
each side in order either way), _object_sequences over arr instead of arr.ravel() (the arrays read are 1-D),
synthetic_lines drawing lengths below SYN_POINTS[1] + 1 exclusive (only the top length 300 is never drawn).

    python tests/mutants/run.py --only 'v135-*'
"""
STROKES = "lnrnn/data/strokes.py"
IAM = "lnrnn/data/iamondb.py"
FILES = "lnrnn/data/stroke_files.py"

# existing tests of these modules (the most direct ones)
STROKES_OLD = ["tests/data/test_values126_strokes.py", "tests/data/test_values109_strokes.py",
               "tests/data/test_values89_strokes.py", "tests/data/test_strokes_data.py"]
IAM_OLD = ["tests/data/test_values111_iamondb.py", "tests/data/test_values89_iamondb.py",
           "tests/data/test_values81_iamondb.py", "tests/data/test_values_iamondb.py"]
FILES_OLD = ["tests/data/test_values126_stroke_files.py", "tests/data/test_values116_stroke_files.py",
             "tests/data/test_values81_stroke_files.py", "tests/data/test_values_stroke_files.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
STROKES_NEW = ["tests/data/test_values135_synthetic.py"]
IAM_NEW = ["tests/data/test_values135_iamondb.py"]
FILES_NEW = ["tests/data/test_values135_stroke_files.py"]

MUTANTS = [
    # ---- strokes-synthetic: spikes, seeds, counts; the next-point batch ----
    dict(name="v135-synthetic-glitch-rate-inverted", file=STROKES,
         old="        if rng.random() < glitch_rate:",
         new="        if rng.random() > glitch_rate:",
         tests=STROKES_NEW + STROKES_OLD,
         why="the spike test is turned round: 98% of synthetic lines get a sensor spike instead of 2%, and a "
             "glitch_rate of 0 spikes every line"),
    dict(name="v135-synthetic-spike-direction-cos-cos", file=STROKES,
         old="            jump = SYN_SPIKE * np.array([np.cos(angle), np.sin(angle)])",
         new="            jump = SYN_SPIKE * np.array([np.cos(angle), np.cos(angle)])",
         tests=STROKES_NEW + STROKES_OLD,
         why="the spike's y component repeats its x one: spikes run along the diagonal only and are not "
             "SYN_SPIKE long (from 0 to 1.41 SYN_SPIKE, some below GLITCH_STEP so never removed)"),
    dict(name="v135-synthetic-train-seeded-as-val", file=STROKES,
         old="    train, s_train = synthetic_lines(np.random.default_rng([DATA_SEED, 0]), n_train)",
         new="    train, s_train = synthetic_lines(np.random.default_rng([DATA_SEED, 1]), n_train)",
         tests=STROKES_NEW + STROKES_OLD,
         why="the training stream is seeded as the validation one: the validation lines are the first "
             "training lines again"),
    dict(name="v135-synthetic-spikes-train-only", file=STROKES,
         old='                     RawSplit(train), RawSplit(val), extra={"spikes": s_train + s_val})',
         new='                     RawSplit(train), RawSplit(val), extra={"spikes": s_train})',
         tests=STROKES_NEW + STROKES_OLD,
         why="the task's count of planted spikes leaves out the validation split's"),
    dict(name="v135-batch-one-step-too-many", file=STROKES,
         old="        T, B = int(lengths.max()) if len(idx) else 0, len(idx)\n        x = np.zeros((T, B, 3), dtype)"
             "                                    # (T, B, 3) time-major\n        y =",
         new="        T, B = int(lengths.max()) + 1 if len(idx) else 0, len(idx)\n        x = np.zeros((T, B, 3), dtype)"
             "                                    # (T, B, 3) time-major\n        y =",
         tests=STROKES_NEW + STROKES_OLD,
         why="a next-point batch is padded to the longest line's points instead of its steps: one zero step "
             "too many for every row"),
    # ---- IAM-OnDB: refused XML, task lists, the official split ----
    dict(name="v135-iam-doctype-allowed", file=IAM,
         old='_FORBIDDEN = (b"<!DOCTYPE", b"<!ENTITY")',
         new='_FORBIDDEN = (b"<!ENTITY",)',
         tests=IAM_NEW + IAM_OLD,
         why="a DOCTYPE (with an external SYSTEM reference) is handed to the parser instead of refused"),
    dict(name="v135-iam-list-entries-must-be-lines", file=IAM,
         old=r'_ENTRY = re.compile(r"^[A-Za-z0-9]+-[A-Za-z0-9]+(-\d+)?$")',
         new=r'_ENTRY = re.compile(r"^[A-Za-z0-9]+-[A-Za-z0-9]+(-\d+)$")',
         tests=IAM_NEW + IAM_OLD,
         why="a task list of form ids (a01-000u, IAM-OnDB's own layout) is refused: only line ids pass"),
    dict(name="v135-iam-forms-not-indexed", file=IAM,
         old="        by_name.setdefault(form_of(p)[0], []).append(i)",
         new="        by_name.setdefault(stem, []).append(i)",
         tests=IAM_NEW + IAM_OLD,
         why="official_split indexes each file by its stem twice and never by its form: a task list of form "
             "ids names 'no line file'"),
    dict(name="v135-iam-tasks-folder-misspelt", file=IAM,
         old='    for folder in (data_dir, os.path.join(data_dir, "tasks"),',
         new='    for folder in (data_dir, os.path.join(data_dir, "task"),',
         tests=IAM_NEW + IAM_OLD,
         why="task lists in DIR/tasks/ are not found when DIR is the line folder itself (with DIR/lineStrokes the "
             "third place looked in is DIR/tasks again), and the lines are split by form at random instead"),
    dict(name="v135-iam-official-val-mask-inverted", file=IAM,
         old="    return [files[i] for i in order], np.array([i in val for i in order], bool)",
         new="    return [files[i] for i in order], np.array([i not in val for i in order], bool)",
         tests=IAM_NEW + IAM_OLD,
         why="the official split is swapped: trainset's lines validate and testset_v's train"),
    dict(name="v135-iam-split-kind-inverted", file=IAM,
         old='"split": "official" if lists is not None else "by form",',
         new='"split": "official" if lists is None else "by form",',
         tests=IAM_NEW + IAM_OLD,
         why="the task's record names the random split 'official' and IAM-OnDB's own split 'by form'"),
    # ---- stroke files ----
    dict(name="v135-files-sketch-rnn-val-refused", file=FILES,
         old='    val = next((v for v in ("valid", "val") if v in keys), None)',
         new='    val = next((v for v in ("valid",) if v in keys), None)',
         tests=FILES_NEW + FILES_OLD,
         why="an object-array file of train + val (instead of sketch-rnn's valid) is refused"),
    dict(name="v135-files-last-sequence-lost", file=FILES,
         old='        train, val = S.split_raw(seqs, S.split_groups(list(range(len(seqs))), what="sequences"))',
         new='        train, val = S.split_raw(seqs, S.split_groups(list(range(len(seqs) - 1)), what="sequences"))',
         tests=FILES_NEW + FILES_OLD,
         why="the mask is one short: split_raw's zip drops the file's last sequence silently"),
    dict(name="v135-files-rows-float32", file=FILES,
         old="    a = a.astype(np.float64)\n    if not np.isfinite(a).all():",
         new="    a = a.astype(np.float32)\n    if not np.isfinite(a).all():",
         tests=FILES_NEW + FILES_OLD,
         why="sequences read are rounded to float32 (and an offset past 3.4e38 becomes inf and is refused "
             "as non-finite)"),
]
