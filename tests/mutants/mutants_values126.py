"""Planted bugs, round 126 (format: tests/mutants/mutants.py): single-line slips on lines no earlier
round mutates, in sampling, the sample command, stroke files and stroke tasks: lnrnn sample's --count refusal
quoting the --steps value, its report of written lines counting characters as points; an .npz of strokes
without lengths reaching a KeyError, the file's own split saved as valid_* refused, read_lines refusing the
strokes + lengths file save_npz writes, a misnamed .npy named by its suffix instead of its kind; an integer
prime refused, a one-line .npz prime refused, text_inputs naming lines from 0 and listing the unknown symbol
among the writable characters, strokes_figure's shared height taken as y max minus x max; make_task's
description with its split counts swapped and its note of skipped short lines following the glitches.

13 mutants. Against the existing targeted tests alone (the four most direct files of each module, listed after
the new ones) 5 were caught and 8 missed: the --count refusal's value (no test gives --count 0 with another
--steps), strokes without lengths (no test saves strokes alone), integer primes (every prime tested is float),
the one-line .npz prime (primes are tested as .npy or several lines), the line number and the unknown symbol
in text_inputs' refusal (the sampler's old files never read either; the command's test of '--text line 1',
not on the sampler's list, would see the first),
strokes_figure's height (no test reads the axes' limits), the description's split counts (tested with equal
counts). The new value tests catch every mutant on their own (checked with only the new files in the lists):
test_values126_sample_cli (the refusal against the value given, one 'Error:' line, no picture written; the
report against the .npz's lengths and the points of sample_strokes called here with the same seed and text),
test_values126_stroke_files (files written here with numpy: strokes alone refused naming its arrays, train_* +
valid_* loaded row for row, save_npz's file read back line by line by read_lines, an .npy under an .npz name
refused naming both), test_values126_sampler (an int32 prime against its float64 rows, a one-line .npz against
its first lengths[0] rows, the refusals' line numbers and listed characters by hand, each row's axis limits
against the widest and tallest ink boxes and the 3% pad computed here), test_values126_strokes (descriptions of
known splits: counts in place, the skipped-lines note exactly when a line of one point was given). Dropped as
equivalent or near it: _cut subtracting len(s) instead of the kept piece's length (the loop ends either way),
drop_long_steps without .copy() (fancy indexing copies already), ctc_steps_needed counting labels > 0 (CTC
labels are never 0), the command's count = max(count, len(texts)) (a given --count that differs is refused
before). The sample picture's title was left out (its SVG draws text as
paths, matplotlib's default, so a test cannot read it back).

    python tests/mutants/run.py --only 'v126-*'
"""
SAMPLE = "lnrnn/sample.py"
CMD = "lnrnn/commands/sample.py"
FILES = "lnrnn/data/stroke_files.py"
STROKES = "lnrnn/data/strokes.py"

# existing tests of these modules (the most direct ones)
SAMPLE_OLD = ["tests/test_values120_sampler.py", "tests/test_values109_sampler.py", "tests/test_values99_sampler.py",
              "tests/commands/test_values69_sample_errors.py"]
CMD_OLD = ["tests/commands/test_values99_sample_cli.py", "tests/commands/test_values52_sample_cli.py",
           "tests/commands/test_values69_sample_errors.py", "tests/commands/test_sample.py"]
FILES_OLD = ["tests/data/test_values116_stroke_files.py", "tests/data/test_values81_stroke_files.py",
             "tests/data/test_values53_stroke_files.py", "tests/data/test_values_stroke_files.py"]
STROKES_OLD = ["tests/data/test_values109_strokes.py", "tests/data/test_values89_strokes.py",
               "tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values126_sampler.py"]
CMD_NEW = ["tests/commands/test_values126_sample_cli.py"]
FILES_NEW = ["tests/data/test_values126_stroke_files.py"]
STROKES_NEW = ["tests/data/test_values126_strokes.py"]

MUTANTS = [
    # ---- the sample command: what its refusals and its report name ----
    dict(name="v126-cmd-count-refusal-names-steps", file=CMD,
         old='            raise UserError(f"{what} must be at least 1, not {v}.")',
         new='            raise UserError(f"{what} must be at least 1, not {steps}.")',
         tests=CMD_NEW + CMD_OLD,
         why="--count 0 is refused with the --steps value: 'must be at least 1, not 4' for a count of 0"),
    dict(name="v126-cmd-written-points-as-characters", file=CMD,
         old="    sizes = [len(r.points) for r in lines]",
         new="    sizes = [len(r.codes) for r in lines]",
         tests=CMD_NEW + CMD_OLD,
         why="the report of written lines counts each line's characters as its points"),
    # ---- stroke files: layouts, names, refusals ----
    dict(name="v126-files-strokes-without-lengths", file=FILES,
         old='    if {"strokes", "lengths"} <= keys:',
         new='    if "strokes" in keys:',
         tests=FILES_NEW + FILES_OLD,
         why="an .npz with strokes but no lengths reaches data['lengths'] and dies on a KeyError instead of the "
             "DataError that names its arrays and the layouts read"),
    dict(name="v126-files-valid-packed-split-refused", file=FILES,
         old='    val = next((v for v in ("val", "valid") if {v + "_strokes", v + "_lengths"} <= keys), None)',
         new='    val = next((v for v in ("val",) if {v + "_strokes", v + "_lengths"} <= keys), None)',
         tests=FILES_NEW + FILES_OLD,
         why="the file's own split saved as train_* + valid_* (the documented alternative) is refused"),
    dict(name="v126-read-lines-strokes-name-ignored", file=FILES,
         old='            name = next((k for k in ("points", "strokes") if k in data.files), None)',
         new='            name = next((k for k in ("points",) if k in data.files), None)',
         tests=FILES_NEW + FILES_OLD,
         why="read_lines refuses the strokes + lengths .npz that save_npz itself writes"),
    dict(name="v126-read-lines-kind-named-by-suffix", file=FILES,
         old='        what = f"is a .{kind} file" if kind in ("npy", "npz") else kind',
         new='        what = f"is a {ext} file" if kind in ("npy", "npz") else kind',
         tests=FILES_NEW + FILES_OLD,
         why="an .npy saved under an .npz name is refused as 'is a .npz file; expected a .npz': the suffix it "
             "has, not the kind it is"),
    # ---- the sampler's inputs: primes, texts ----
    dict(name="v126-check-stroke3-integers-refused", file=SAMPLE,
         old="    if a.dtype == object or not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)):",
         new="    if a.dtype == object or not np.issubdtype(a.dtype, np.floating):",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a prime of integer offsets (a tablet's counts) is refused as not numbers"),
    dict(name="v126-read-stroke3-one-line-refused", file=SAMPLE,
         old="        if lengths.ndim != 1 or len(lengths) < 1 or not np.issubdtype(lengths.dtype, np.integer) or \\",
         new="        if lengths.ndim != 1 or len(lengths) <= 1 or not np.issubdtype(lengths.dtype, np.integer) or \\",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the .npz of one sample (lnrnn sample --count 1 --npz) is refused as a prime: its lengths of one "
             "entry are said not to split its points"),
    dict(name="v126-text-inputs-line-number-from-0", file=SAMPLE,
         old='    given = [(f"{t} line {k + 1}", s) for k, s in enumerate(lines)]',
         new='    given = [(f"{t} line {k}", s) for k, s in enumerate(lines)]',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a refused text line is named one too low: the second line is 'line 1', the first 'line 0'"),
    dict(name="v126-text-inputs-alphabet-with-unknown", file=SAMPLE,
         old='                            f"{alphabet[1:]!r}.")',
         new='                            f"{alphabet!r}.")',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the characters a run can write are listed with the unknown symbol U+FFFD, which no one can type"),
    dict(name="v126-same-scale-height-from-x", file=SAMPLE,
         old="    H = max(max(b[3] - b[2] for b in boxes), 1e-9)",
         new="    H = max(max(b[3] - b[1] for b in boxes), 1e-9)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the rows' shared height is taken as y max minus x max: lines are cut off or squeezed"),
    # ---- stroke tasks ----
    dict(name="v126-make-task-description-counts-swapped", file=STROKES,
         old="    desc = (f\"{what}: {len(sets['train'])} train / {len(sets['val'])} validation lines of \"",
         new="    desc = (f\"{what}: {len(sets['val'])} train / {len(sets['train'])} validation lines of \"",
         tests=STROKES_NEW + STROKES_OLD,
         why="the task's description swaps its train and validation line counts"),
    dict(name="v126-make-task-short-lines-note-by-glitches", file=STROKES,
         old='''of fewer than 2 points skipped" if n_short else ""))''',
         new='''of fewer than 2 points skipped" if n_drop else ""))''',
         tests=STROKES_NEW + STROKES_OLD,
         why="the note of skipped short lines appears when glitch steps were dropped, not when lines were skipped"),
]
