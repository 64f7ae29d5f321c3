"""Planted bugs, round 76 (format: tests/mutants/mutants.py): single-line slips in data preparation and the
writing sampler, on lines no earlier round mutates: a StrokeSet counting its end sentinel as a line, a stroke
batch's target the input itself instead of the next point; split_raw handing back (validation, training),
make_task's names not picked with their lines past a skipped short line, its glitch steps counted on each split's
last line only, an empty split let through when the other has lines and its refusal naming the other split;
split_groups drawing the held-out groups from the rows instead of the distinct groups; texts_train returning the
validation texts; the CTC reader checking the training texts where the validation texts lack any and swapping
its unalignable counts in the description; the adding problem's target twice the first marked value, a copy
sequence one K-block short; the sampler's text lengths without the prime's characters, strokes_of's running sums
across dx and dy instead of down the points, _ink's end without its origin (a line after a prime starts at the
prime's offset sum from (0, 0)).

16 mutants. Against the existing targeted tests alone 13 were caught and 3 missed: the CTC reader checking the
training texts (no old test builds a reading task whose validation lines carry no text), its swapped unalignable
counts (the old tests read extra["unalignable"], not the description) and _ink's end without the origin (no old
test draws a primed row and looks at where its line starts). The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values76_strokes (StrokeSet's count, offsets and
max_steps on lines of 2, 5 and 3 points; batches of rows in a shuffled order against p_t / p_{t+1} and zero
padding by hand; split_raw on a five-row mask; make_task's names and texts past 1-point lines, the glitch steps
counted by hypot over both splits against a hand count with one offset just under the threshold and a long row
0 that is no step, the scale as the training lines' std after the fix; empty-split refusals by name;
split_groups against the seeded permutation of the sorted distinct groups, with repeats, each group whole, never
all held out; each split's texts and text_record; the reader's refusal and its unalignable counts against
len(text) + repeated neighbours, "aa" on 2 and 3 points), test_values76_tasks (adding on 8 steps: two markers,
one in each half, the target their values' sum; copy on 3 blanks: one-hot, symbols, the delimiter on the last
blank, labels on the last 10 steps only, as task_shape says) and test_values76_sampler (primed rows of three
lengths stop at the first step whose recorded step_end exceeds step_phi over all prime + line characters, the
phi kept equal to those records, capped only when it never fires, no step after the last row stops; strokes_of
on a right angle, a pen-up move and a trailing point without a lift from an origin of (5, -2), by hand; _ink's
plotted paths and ends for a prime and the line after it, with a stand-in axis). Dropped as equivalent or near
it: _cut's "left -= len(s)" (equal whenever s is cut, as left then ends at or below 0 either way), the glitch
test "> 0.5" as ">= 0.5" in strokes_of and check_stroke3's pen column as -1 (pens are 0 or 1, and column -1 is
column 2), synthetic_lines' SYN_POINTS upper bound without the + 1 (a line of 300 points is no longer drawn: only
a different random stream would show it) and the adding problem's half as (T + 1) // 2 (the docstring's "one in
each half" does not say which half an odd T's middle step belongs to).

    python tests/mutants/run.py --only 'v76-*'
"""
TASKS = "lnrnn/data/tasks.py"
STROKES = "lnrnn/data/strokes.py"
SAMPLE = "lnrnn/sample.py"

# existing tests of these modules
TASKS_OLD = ["tests/data/test_data.py", "tests/data/test_values_tasks.py", "tests/data/test_values9_tasks.py",
             "tests/data/test_values12_tasks.py", "tests/data/test_values13_tasks.py",
             "tests/data/test_values21_tasks.py", "tests/data/test_values32_tasks.py",
             "tests/data/test_values44_tasks.py", "tests/data/test_values53_tasks.py",
             "tests/data/test_values_data_counts.py", "tests/data/test_data_alignment.py"]
STROKES_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py",
               "tests/data/test_values12_strokes.py", "tests/data/test_values20_strokes.py",
               "tests/data/test_values21_strokes.py", "tests/data/test_values44_strokes.py",
               "tests/data/test_values53_strokes.py", "tests/data/test_text_strokes.py",
               "tests/data/test_values_data_counts.py", "tests/data/test_values32_tasks.py"]
SAMPLE_OLD = ["tests/commands/test_sample.py", "tests/commands/test_sample_text.py",
              "tests/commands/test_values42_sampler.py", "tests/commands/test_values_sampler_rule.py",
              "tests/commands/test_values_sampling.py", "tests/commands/test_values10_sample.py",
              "tests/commands/test_values12_sample.py", "tests/commands/test_values14_sample.py",
              "tests/commands/test_values20_sample.py", "tests/commands/test_values21_sample.py",
              "tests/commands/test_values52_sampler.py", "tests/commands/test_values52_sample_cli.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TASKS_NEW = ["tests/data/test_values76_tasks.py"]
STROKES_NEW = ["tests/data/test_values76_strokes.py"]
SAMPLE_NEW = ["tests/test_values76_sampler.py"]

MUTANTS = [
    # ---- stroke sets and batches: the line count, next-point targets ----
    dict(name="v76-strokeset-len-counts-the-sentinel", file=STROKES,
         old="        return len(self.starts) - 1",
         new="        return len(self.starts)",
         tests=STROKES_NEW + STROKES_OLD,
         why="a StrokeSet of n lines reports n + 1 (its start offsets, the end sentinel included): task sizes "
             "and max_steps' guard are off by one"),
    dict(name="v76-batch-target-is-the-input", file=STROKES,
         old="            y[b, :lengths[b]] = line[1:]",
         new="            y[b, :lengths[b]] = line[:-1]",
         tests=STROKES_NEW + STROKES_OLD,
         why="a stroke batch's target at step t is the input p_t instead of the next point p_{t+1}"),
    # ---- splitting and make_task: which rows go where, names after short lines, glitch counts, empty splits ----
    dict(name="v76-split-raw-splits-swapped", file=STROKES,
         old="pick(texts, v)) for v in (False, True))",
         new="pick(texts, v)) for v in (True, False))",
         tests=STROKES_NEW + STROKES_OLD,
         why="split_raw returns (validation, training): the masked lines train and the rest are held out"),
    dict(name="v76-make-task-names-not-realigned", file=STROKES,
         old="_pick(raw.names, keep), _pick(raw.texts, keep))",
         new="raw.names, _pick(raw.texts, keep))",
         tests=STROKES_NEW + STROKES_OLD,
         why="a split's names are not picked with its lines: after a skipped short line every later line "
             "carries the name of the one before it"),
    dict(name="v76-glitch-count-last-line-only", file=STROKES,
         old="        dropped += d",
         new="        dropped = d",
         tests=STROKES_NEW + STROKES_OLD,
         why="_fix_lines counts the dropped glitch steps of a split's last line only"),
    dict(name="v76-empty-validation-split-let-through", file=STROKES,
         old='    if not usable["train"] or not usable["val"]:',
         new='    if not usable["train"] and not usable["val"]:',
         tests=STROKES_NEW + STROKES_OLD,
         why="a split left without a line of 2 or more points is refused only when both are: a task with no "
             "validation line is built"),
    dict(name="v76-empty-split-message-names-the-other", file=STROKES,
         old='        empty = "training" if not usable["train"] else "validation"',
         new='        empty = "training" if usable["train"] else "validation"',
         tests=STROKES_NEW + STROKES_OLD,
         why="the refusal of an empty split names the other split"),
    dict(name="v76-split-groups-val-from-raw-rows", file=STROKES,
         old="    val = {distinct[i] for i in order[:n_val]}",
         new="    val = {groups[i] for i in order[:n_val]}",
         tests=STROKES_NEW + STROKES_OLD,
         why="the held-out groups are read from the rows (with repeats) instead of the distinct groups: fewer "
             "groups than n_val are held out and the draw is no longer uniform over groups"),
    # ---- text: texts_train, the CTC reader's checks and description ----
    dict(name="v76-texts-train-reads-validation", file=STROKES,
         old='return None if self.alphabet is None else list(self.sets["train"].texts)',
         new='return None if self.alphabet is None else list(self.sets["val"].texts)',
         tests=STROKES_NEW + STROKES_OLD,
         why="texts_train returns the validation texts (text_record's line count with them)"),
    dict(name="v76-reading-checks-training-texts", file=STROKES,
         old="not all(isinstance(t, str) for t in val.texts):",
         new="not all(isinstance(t, str) for t in train.texts):",
         tests=STROKES_NEW + STROKES_OLD,
         why="the CTC reader checks the training texts twice and lets validation lines without text through: "
             "it fails later with a TypeError instead of the DataError that says what to do"),
    dict(name="v76-reading-short-counts-swapped", file=STROKES,
         old="f\"; {short['train']} train / {short['val']} validation lines",
         new="f\"; {short['val']} train / {short['train']} validation lines",
         tests=STROKES_NEW + STROKES_OLD,
         why="the CTC reader's description swaps the train and validation counts of unalignable lines"),
    # ---- built-in tasks: the adding target, the copy task's length ----
    dict(name="v76-adding-target-first-value-twice", file=TASKS,
         old="    y = (x[rows, first, 0] + x[rows, second, 0]).astype(np.float32)",
         new="    y = (x[rows, first, 0] + x[rows, first, 0]).astype(np.float32)",
         tests=TASKS_NEW + TASKS_OLD,
         why="the adding problem's target is twice the first marked value instead of the sum of both"),
    dict(name="v76-copy-length-one-block-short", file=TASKS,
         old="    T = delay + 2 * K",
         new="    T = delay + K",
         tests=TASKS_NEW + TASKS_OLD,
         why="a copy sequence is delay + K steps, not delay + 2K: the recall block overlaps the blanks and the "
             "delimiter, and the built task disagrees with its TaskShape"),
    # ---- the sampler: a primed row's text length, strokes_of's absolute points, the ink's end ----
    dict(name="v76-write-lengths-without-prime", file=SAMPLE,
         old="    ulen = np.array([len(c) for c in full], np.int64)",
         new="    ulen = np.array([len(c) for c in lines], np.int64)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="each row's text length leaves out the prime's characters that its window also reads"),
    dict(name="v76-strokes-of-cumsum-across-columns", file=SAMPLE,
         old="    xy = np.asarray(origin, np.float64) + np.cumsum(points[:, :2], axis=0)",
         new="    xy = np.asarray(origin, np.float64) + np.cumsum(points[:, :2], axis=1)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="strokes_of sums dx and dy across each row instead of down the points: the paths drawn are not "
             "the absolute positions"),
    dict(name="v76-ink-end-without-origin", file=SAMPLE,
         old="    return np.asarray(origin, np.float64) + pts[:, :2].sum(axis=0)",
         new="    return pts[:, :2].sum(axis=0)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="_ink returns where its ink ends relative to its origin: a line drawn after a prime starts at the "
             "prime's offset sum from (0, 0), not at the prime's end"),
]
