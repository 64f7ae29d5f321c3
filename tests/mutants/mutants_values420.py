"""Planted bugs, round 420 (format: tests/mutants/mutants.py): the rows of a run's JSON-lines logs
(lnrnn/training/rundir.py: read_jsonl and _row_problem), twentieth pass.

Writing this round's plan found two real bugs, by setting each field of a run's metrics.jsonl, updates.jsonl and
config.json in turn to a text, null, a list, an object, -1, infinity, NaN, 2**70 and true, and drawing the run:
lnrnn plot ended in a TypeError or ValueError out of the drawing for a step, epoch, time or metric that is not a
number, or a row that is not an object, and lnrnn train --resume in a TypeError out of UpdateLog.start for an update
row whose step is not a number. The planted bugs: a row that is a number, a text or null let through (only lists
refused); the training metrics left unchecked; the time left unchecked; true taken for a number; a null step, epoch
or time let through; a null metric (what lnrnn writes for one not measured) refused; the damaged line named one too
early; only the first row checked; a long damaged value shown whole. 9 mutants. The old targeted rundir, jsonl and
plot files alone (OLD) catch 0 of 9: none writes a row lnrnn would not. test_values420_rundir_log_rows sets each number
field in turn to a text, null, true, a list, an object and a long text, and writes rows that are a number, a list, a
text and null, each word for word with its line (blank lines not counted), on reading with and without a torn tail
allowed; reads rows as lnrnn writes them whole (null, NaN and infinite metrics, ints, free fields); lnrnn plot on
each x axis and lnrnn train --resume give one Error line (the resume with every file's bytes unchanged, and going on
once the line is repaired). NEW + OLD catch 9 of 9; the new file alone catches 9 of 9. Nothing left out as
equivalent.

    python tests/mutants/run.py --only 'v420-*'
"""
NEW = ["tests/training/test_values420_rundir_log_rows.py"]
OLD = [
    "tests/training/test_values_rundir.py",
    "tests/training/test_values414_jsonl.py",
    "tests/training/test_values185_plot.py",
    "tests/training/test_values_plot.py",
    "tests/commands/test_plot.py",
]
RUNDIR = "lnrnn/training/rundir.py"

MUTANTS = [
    dict(name="v420-only-lists-refused", file=RUNDIR,
         old="    if not isinstance(row, dict):\n        return f\"{_shown(row)} is not",
         new="    if isinstance(row, list):\n        return f\"{_shown(row)} is not",
         tests=NEW + OLD,
         why="a row that is a number, a text or null passes the check and fails in the drawing"),
    dict(name="v420-train-metrics-unchecked", file=RUNDIR,
         old='        metric = split in ("train", "val") and m', new='        metric = split == "val" and m',
         tests=NEW + OLD,
         why="a training metric that is a text reaches the drawing"),
    dict(name="v420-time-unchecked", file=RUNDIR,
         old='        if k in ("step", "epoch", "time_s") or metric:',
         new='        if k in ("step", "epoch") or metric:',
         tests=NEW + OLD,
         why="a time that is a text fails lnrnn plot --x time_s in a traceback"),
    dict(name="v420-bool-is-a-number", file=RUNDIR,
         old="isinstance(v, (int, float)) and not isinstance(v, bool) or (metric",
         new="isinstance(v, (int, float)) or (metric",
         tests=NEW + OLD,
         why="true is taken for the number 1"),
    dict(name="v420-null-step-passes", file=RUNDIR,
         old="or (metric and v is None)):", new="or v is None):",
         tests=NEW + OLD,
         why="a step, epoch or time of null passes the check and fails in the drawing"),
    dict(name="v420-null-metric-refused", file=RUNDIR,
         old="or (metric and v is None)):", new="):",
         tests=NEW + OLD,
         why="a metric lnrnn writes as null (not measured) is refused as damaged"),
    dict(name="v420-line-counted-from-zero", file=RUNDIR,
         old='raise UserError(f"{path} is damaged (line {i + 1}: {why})',
         new='raise UserError(f"{path} is damaged (line {i}: {why})',
         tests=NEW + OLD,
         why="the damaged line is named one too early"),
    dict(name="v420-first-row-checked-only", file=RUNDIR,
         old="        why = _row_problem(rows[-1])", new="        why = _row_problem(rows[0])",
         tests=NEW + OLD,
         why="only the first row is checked: a damaged later row reaches the drawing and the resume"),
    dict(name="v420-long-value-shown-whole", file=RUNDIR,
         old="    return shortened(value, SHOWN)", new="    return repr(value)",
         tests=NEW + OLD,
         why="a long damaged value fills the error line"),
]
