"""Planted bugs, round 200 (format: tests/mutants/mutants.py): single-line slips on lines of the data
modules no earlier round mutates. strokes: drop_long_steps keeping the glitch rows instead of the others, StrokeSet's
line starts taken as the lengths (no running sum), text_batch encoding the training split's texts whatever the split,
StrokeTask.batch leaving the last row of a batch unfilled, ReadingTask.batch labelling row b with line b's text
instead of line idx[b]'s, make_task counting glitch steps but keeping the unfixed lines, split_groups' one-group
refusal counting items instead of distinct groups. tasks: task_spec naming the spec key (steps) instead of the
option typed (--steps), the --head ctc refusal listing the text tasks in the wrong order, the unknown-task
refusal listing the option names. arrays: read_file's stray-array check with the set difference swapped,
check_arrays' per-step flag read from a one-dimensional y, the lengths refusal asking for T integers instead of
N, held_out's A/B split swapped.

14 mutants. Against the existing targeted tests alone (the four most direct old files of each module, listed
below) 8 were caught and 6 missed: text_batch over the training texts (no old test asks for the validation
texts), the reading batch's labels (none of these old files batches a task read with --head ctc), and four refusal
messages (task_spec's flag, the --head ctc task list, the unknown-task list, the lengths count), which the
old files do not match word for word. The new value tests catch every mutant on their own (checked with
the old tests taken off the lists): test_values200_strokes (drop_long_steps on a stroke with a spike that lifts
the pen, by hand; StrokeSet's starts and lines for lines of 2, 4 and 3 points; make_task's lines as the fixed
lines divided by the training offsets' population std computed here; StrokeTask.batch element by element for
a single-row batch and shuffled partial batches; text_batch of the validation split encoded by hand; a reading
batch's labels for rows out of order; the one-group refusal word for word), test_values200_tasks (task_spec's
refusals word for word), test_values200_arrays (held_out at N = 1, 2, 3, 7, 11, 101 against 10% rounded, at
least 1, and the seed-0 permutation drawn here; an A/B split and a built 4/2 task's rows; per-step and
per-sequence targets with class counts over both splits' labels; a file of only x and y; the stray-array and
lengths refusals word for word). Dropped as equivalent: drop_long_steps' out = seq[kept] without .copy()
(fancy indexing already copies, so no test could see it).

    python tests/mutants/run.py --only 'v200-*'
"""
STROKES = "lnrnn/data/strokes.py"
TASKS = "lnrnn/data/tasks.py"
ARRAYS = "lnrnn/data/arrays.py"

# existing tests of these modules (the four most direct files of each)
STROKES_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py",
               "tests/data/test_values164_strokes.py", "tests/data/test_values126_strokes.py"]
TASKS_OLD = ["tests/data/test_values_tasks.py", "tests/data/test_values164_tasks.py",
             "tests/data/test_values136_tasks.py", "tests/data/test_values13_tasks.py"]
ARRAYS_OLD = ["tests/data/test_values164_arrays.py", "tests/data/test_values136_arrays.py",
              "tests/data/test_values10_arrays.py", "tests/data/test_values89_arrays.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
STROKES_NEW = ["tests/data/test_values200_strokes.py"]
TASKS_NEW = ["tests/data/test_values200_tasks.py"]
ARRAYS_NEW = ["tests/data/test_values200_arrays.py"]

S = STROKES_NEW + STROKES_OLD
T = TASKS_NEW + TASKS_OLD
A = ARRAYS_NEW + ARRAYS_OLD

MUTANTS = [
    # ---- strokes ----
    dict(name="v200-drop-long-steps-keeps-the-glitches", file=STROKES,
         old="kept = np.flatnonzero(~long)",
         new="kept = np.flatnonzero(long)",
         tests=S, why="drop_long_steps keeps the rows it should drop and drops every other one"),
    dict(name="v200-stroke-set-starts-are-lengths", file=STROKES,
         old="self.starts = np.concatenate([[0], np.cumsum(lens)])",
         new="self.starts = np.concatenate([[0], lens])",
         tests=S, why="StrokeSet's line starts are the lengths, not their running sum: line i is cut at the wrong rows"),
    dict(name="v200-text-batch-reads-the-training-texts", file=STROKES,
         old="texts = [self.sets[which].texts[i] for i in np.asarray(idx, np.int64)]",
         new="texts = [self.sets[\"train\"].texts[i] for i in np.asarray(idx, np.int64)]",
         tests=S, why="text_batch('val', idx) encodes the training lines' texts"),
    dict(name="v200-batch-skips-the-last-row", file=STROKES,
         old="        for b in range(B):\n            line = s.points",
         new="        for b in range(B - 1):\n            line = s.points",
         tests=S, why="StrokeTask.batch leaves the batch's last row all zeros (its length still set)"),
    dict(name="v200-reading-batch-labels-of-the-first-lines", file=STROKES,
         old="return x, text_labels([s.texts[i] for i in idx], self.alphabet), lengths",
         new="return x, text_labels([s.texts[i] for i in range(len(idx))], self.alphabet), lengths",
         tests=S, why="ReadingTask.batch labels row b with line b's text, not line idx[b]'s"),
    dict(name="v200-fix-lines-keeps-the-unfixed-line", file=STROKES,
         old="        ln, d = drop_long_steps(ln)",
         new="        _, d = drop_long_steps(ln)",
         tests=S, why="make_task counts the glitch steps but keeps them in the lines (and in the offset scale)"),
    dict(name="v200-split-groups-message-counts-items", file=STROKES,
         old="found {len(distinct)}.\")",
         new="found {len(groups)}.\")",
         tests=S, why="the refusal of a single group counts the items, not the distinct groups it found"),
    # ---- tasks ----
    dict(name="v200-task-spec-refusal-names-the-key", file=TASKS,
         old="raise UserError(f\"task {task} does not take {flag}.\")",
         new="raise UserError(f\"task {task} does not take {key}.\")",
         tests=T, why="'task digits does not take steps.' names the spec key, not the option --steps the user typed"),
    dict(name="v200-check-reading-lists-tasks-unreversed", file=TASKS,
         old="use {', '.join(TEXT_TASKS[::-1])}",
         new="use {', '.join(TEXT_TASKS)}",
         tests=T, why="the --head ctc refusal lists the text tasks with IAM-OnDB first, so its parenthesis names the "
                      "wrong task"),
    dict(name="v200-unknown-task-lists-the-options", file=TASKS,
         old="choose one of {', '.join(TASKS)}",
         new="choose one of {', '.join(OPTIONS)}",
         tests=T, why="the unknown-task refusal offers the option names (charset, head, ...) as tasks"),
    # ---- arrays ----
    dict(name="v200-read-file-unknown-keys-swapped", file=ARRAYS,
         old="unknown = sorted(set(data.files) - set(KEYS))",
         new="unknown = sorted(set(KEYS) - set(data.files))",
         tests=A, why="read_file refuses a file for the optional arrays it lacks, and lets stray arrays through"),
    dict(name="v200-per-step-from-one-dimensional-y", file=ARRAYS,
         old="per_step = out[\"y\"].ndim == 2",
         new="per_step = out[\"y\"].ndim == 1",
         tests=A, why="check_arrays calls per-sequence targets per step and the reverse (-1 refused per step)"),
    dict(name="v200-lengths-message-asks-for-T", file=ARRAYS,
         old="must be {N} integers (one per sequence)",
         new="must be {T} integers (one per sequence)",
         tests=A, why="the lengths refusal asks for T integers, the steps, instead of N, one per sequence"),
    dict(name="v200-held-out-split-swapped", file=ARRAYS,
         old="        a, b = split\n",
         new="        b, a = split\n",
         tests=A, why="--split A/B trains on B sequences and holds out A"),
]
