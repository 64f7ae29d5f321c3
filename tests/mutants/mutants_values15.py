"""Planted bugs in the run folder, the evaluation's metric line, the Hershey stand-in's lines and writers and
IAM-OnDB's files (format: tests/mutants/mutants.py): updates.jsonl's blank lines and the line number a
refusal names, the lock holder's host; the folder a check_writable refusal names; the metric line's long
names, the loss label in the short form and its unit; the Hershey lines' word count and length bound, the
writer's baseline tilt and the jitter's scale; a stroke file of exactly the size limit, a transcription's
trailing blank lines, a task list's line numbers and its duplicates; the Python API's refusals of a NaN or
infinite sampling bias, of steps or count 0, of beam=True, and of a reader whose alphabet is short of its
CTC classes. Each is a single-line slip of a kind that happens: a bound one off, < vs <=, a missing factor,
a forgotten case, a check that lets bad input through.

19 mutants; the existing tests caught 5 (a corrupt row's line number, the long names' units, the loss
label's split, a line of exactly MAX_CHARS, a transcription's trailing blank lines). The new value tests
catch the other 14, 19/19 now: a blank line between updates.jsonl's rows, the holder a refusal names, the
file check_writable names (test_values15_rundir); the short form with a loss label (test_values15_evaluation);
every word count of WORDS_PER_LINE, a line of exactly MAX_CHARS built by hand, the tilt's sign, the jitter
against JITTER times the scale (test_values15_hershey); a file of exactly the limit, a transcription's CSR
lines, a task list's line numbers and duplicates (test_values15_iamondb); sample_run's refusals of steps,
count and bias, require_reader against one class per character plus the blank, read's beam=True, on a
stand-in run without kernels (test_values15_api). No mutant was dropped as equivalent (a slot name split
at its last '/' was not planted: parameter names hold no '/').

    python tests/mutants/run.py --only 'v15-*'
"""

RUNDIR_V = "tests/training/test_values_rundir.py"
EVAL_FMT = "tests/training/test_values_evaluation.py::test_format_metrics"
HERSHEY_V = "tests/data/test_values_hershey.py"
IAM_V = "tests/data/test_values_iamondb.py"
IAM9 = "tests/data/test_values9_iamondb.py"

RUNDIRPY = "lnrnn/training/rundir.py"
EVALPY = "lnrnn/training/evaluation.py"
HERSHEYPY = "lnrnn/data/hershey.py"
IAMPY = "lnrnn/data/iamondb.py"
APIPY = "lnrnn/api.py"

# value tests written for the bugs below
RUNDIR_T = "tests/training/test_values15_rundir.py"
EVAL_T = "tests/training/test_values15_evaluation.py"
HERSHEY_T = "tests/data/test_values15_hershey.py"
IAM_T = "tests/data/test_values15_iamondb.py"
API_T = "tests/test_values15_api.py"

R_TESTS = [RUNDIR_V, RUNDIR_T]
E_TESTS = [EVAL_FMT, EVAL_T]
H_TESTS = [HERSHEY_V, HERSHEY_T]
I_TESTS = [IAM_V, IAM9, IAM_T]
A_TESTS = ["tests/test_values_api.py", "tests/test_values10_api.py", "tests/test_values_api_read.py", API_T]

MUTANTS = [
    # ---- training/rundir.py ----
    dict(name="v15-rundir-jsonl-blank-lines-parsed", file=RUNDIRPY,
         old="        lines = [line for line in f if line.strip()]",
         new="        lines = list(f)",
         tests=R_TESTS,
         why="a blank line inside updates.jsonl is parsed as JSON: a valid file is refused"),
    dict(name="v15-rundir-jsonl-error-line-from-zero", file=RUNDIRPY,
         old='(line {i + 1}: {e})',
         new='(line {i}: {e})',
         tests=R_TESTS,
         why="the refusal of a corrupt row names the line before it"),
    dict(name="v15-rundir-holder-host-bound", file=RUNDIRPY,
         old='(parts[1] if len(parts) > 1 else "?")',
         new='(parts[1] if len(parts) > 2 else "?")',
         tests=R_TESTS,
         why="a lock file holding 'pid host' (no start time) names host '?' in the in-use refusal"),
    dict(name="v15-rundir-writable-names-wrong-folder", file=RUNDIRPY,
         old='what = f"{out}" if probe == path else',
         new='what = f"{out}" if probe != path else',
         tests=R_TESTS,
         why="--out naming a file is refused as 'in the way of' itself; a file above --out is not named"),
    # ---- training/evaluation.py ----
    dict(name="v15-eval-long-name-keeps-percent-unit", file=EVALPY,
         old='name = label.replace(" (%)", "") if long else m',
         new='name = label if long else m',
         tests=E_TESTS,
         why="the long metric line says 'accuracy (%) 87.20%'"),
    dict(name="v15-eval-loss-label-in-short-form", file=EVALPY,
         old='        if long and m == "loss" and loss_label:',
         new='        if m == "loss" and loss_label:',
         tests=E_TESTS,
         why="the short line ('loss 0.4123 acc 87.20%') spells the loss out when a label is given"),
    dict(name="v15-eval-loss-label-split-before-space", file=EVALPY,
         old='loss_label.partition(" (")',
         new='loss_label.partition("(")',
         tests=E_TESTS,
         why="the loss's name keeps its trailing space: 'cross-entropy loss  0.4123 nats'"),
    # ---- data/hershey.py ----
    dict(name="v15-hershey-never-the-most-words", file=HERSHEYPY,
         old="rng.integers(WORDS_PER_LINE[0], WORDS_PER_LINE[1] + 1)",
         new="rng.integers(WORDS_PER_LINE[0], WORDS_PER_LINE[1])",
         tests=H_TESTS,
         why="a line never has WORDS_PER_LINE[1] words: the upper bound of integers() is exclusive"),
    dict(name="v15-hershey-line-never-reaches-max-chars", file=HERSHEYPY,
         old="len(text) + len(sep) + len(w) + len(mark) > MAX_CHARS",
         new="len(text) + len(sep) + len(w) + len(mark) >= MAX_CHARS",
         tests=H_TESTS,
         why="a line of exactly MAX_CHARS characters is cut a word short"),
    dict(name="v15-hershey-tilt-one-sided", file=HERSHEYPY,
         old="tilt=rng.uniform(-TILT, TILT)",
         new="tilt=rng.uniform(0.0, TILT)",
         tests=H_TESTS,
         why="every writer's baseline climbs: none falls"),
    dict(name="v15-hershey-jitter-not-scaled", file=HERSHEYPY,
         old="jitter=JITTER * scale)",
         new="jitter=JITTER)",
         tests=H_TESTS,
         why="the jitter stays in font units while the points are in source units"),
    # ---- data/iamondb.py ----
    dict(name="v15-iamondb-size-limit-exclusive", file=IAMPY,
         old="        if size > limit:",
         new="        if size >= limit:",
         tests=I_TESTS,
         why="a file of exactly the allowed size is refused"),
    dict(name="v15-iamondb-trailing-blank-lines-kept", file=IAMPY,
         old="            while rest and not rest[-1].strip():\n                rest.pop()\n",
         new="",
         tests=I_TESTS,
         why="a transcription's blank lines after its last CSR line count as lines of the form"),
    dict(name="v15-iamondb-list-lines-from-zero", file=IAMPY,
         old='for n, text in enumerate(raw.decode("latin-1").splitlines(), 1):',
         new='for n, text in enumerate(raw.decode("latin-1").splitlines()):',
         tests=I_TESTS,
         why="a task list's refusal names the line before the bad entry"),
    dict(name="v15-iamondb-list-duplicates-kept", file=IAMPY,
         old="        if entry not in entries:\n            entries.append(entry)",
         new="        if entry:\n            entries.append(entry)",
         tests=I_TESTS,
         why="an entry listed twice is kept twice: its form counted and split twice"),
    # ---- api.py ----
    dict(name="v15-api-sample-bias-nan-let-through", file=APIPY,
         old="    if not (bias >= 0 and np.isfinite(bias)):",
         new="    if bias < 0:",
         tests=A_TESTS,
         why="sample_run takes a NaN or infinite bias: the sampler divides and exponentiates it"),
    dict(name="v15-api-sample-zero-steps", file=APIPY,
         old="        if int(v) < 1:",
         new="        if int(v) < 0:",
         tests=A_TESTS,
         why="sample_run with steps=0 or count=0 is not refused by name"),
    dict(name="v15-api-read-beam-true-accepted", file=APIPY,
         old="    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:",
         new="    if not isinstance(value, (int, np.integer)) or value < least:",
         tests=A_TESTS,
         why="read(..., beam=True) runs as beam 1 instead of being refused (a flag passed where a width goes; api._count "
             "holds the check for beams and batch sizes)"),
    dict(name="v15-api-reader-short-alphabet-let-through", file=APIPY,
         old="    if len(alphabet) + CTC_SHIFT != head.O:",
         new="    if len(alphabet) + CTC_SHIFT > head.O:",
         tests=A_TESTS,
         why="a reader whose alphabet is shorter than its CTC classes is not refused as corrupt"),
]
