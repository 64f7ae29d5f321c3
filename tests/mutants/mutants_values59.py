"""Planted bugs, round 59 (format: tests/mutants/mutants.py): single-line slips in the stroke loaders, on
lines no earlier round mutates. IAM-OnDB: the fast path reading each point's y as x, an attribute that is not
a number read as 0, only <!ENTITY looked for (a document type declaration handed to the parser), a form's
line numbers taken from the lines the split reads instead of every line file, ascii/ beside lineStrokes/
looked for inside it when --data-dir names lineStrokes/ itself, the lines' names taken from every line file
found, a folder with one task list refused with the two lists' names swapped, a blank line ending a task
list, a form id in a task list reading only the form's first line. KanjiVG: a stroke path with d="" let
through (the stroke vanishes), each drawing command repeating its start point, a relative cubic's end taken
as absolute, the validation lines drawn from the training stream's seed, the task's val_designs naming the
training designs. Hershey: a word's advance without its last glyph's width, the training split's names and
texts swapped.

16 mutants. Against the existing targeted tests alone 13 were caught and 3 missed: KanjiVG's empty path
data let through (the old bad-file cases drop the d attribute, none leaves it empty), the validation
stream seeded as the training one (no old test compares a reader's validation lines with its training
lines) and Hershey's names and texts swapped (no old test builds the Hershey task and reads its names).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values59_iamondb (files written in IAM-OnDB's formats: a known line's stroke-3 by hand, offsets, y
up, a lift at each stroke's end; every built line's name, CSR text and offsets against the points and
lines written for it, under the task lists (a form id, a line id, a blank line, a test form of no list),
split by form and with --data-dir naming lineStrokes/; numbers that are not finite, a missing attribute,
document types and entities refused in one line naming the file, the last before the parser is called;
one task list alone refused naming both), test_values59_kanjivg (files in KanjiVG's layout with its
document type, groups and kvg: attributes: path data point by point by hand, a relative cubic against
its Bernstein form evaluated there, a file's strokes in stroke order resampled and y up by hand; bad
path data refused naming the file; a reader's validation lines never a training line; a writer's
held-out designs the very characters of its validation texts), test_values59_hershey (with the package's
faces: a word's advance the sum of its glyphs' widths taken one at a time; the second word's strokes the
font's own moved by the first word's glyphs, the space and the replayed gap; a built task's names the face
and number, its texts words). Dropped before the catalogue as equivalent: read_limited reading limit
bytes instead of limit + 1 (the size is checked before), resample returning poly[:1] without a copy (no
caller keeps the polyline), layout splitting on any whitespace (texts never hold two spaces running) and
the task-list pattern searched instead of matched (it is anchored at both ends).

    python tests/mutants/run.py --only 'v59-*'
"""
IAM = "lnrnn/data/iamondb.py"
KVG = "lnrnn/data/kanjivg.py"
HERSHEY = "lnrnn/data/hershey.py"

# existing tests of these modules
IAM_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values34_readers.py",
           "tests/data/test_values21_readers.py", "tests/data/test_values15_iamondb.py"]
IAM_TEXT_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values9_iamondb.py",
                "tests/data/test_values44_iamondb.py", "tests/data/test_values_iamondb.py"]
KVG_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_kanjivg.py",
           "tests/data/test_values44_kanjivg.py", "tests/data/test_values34_readers.py"]
HERSHEY_OLD = ["tests/data/test_values_hershey.py", "tests/data/test_values44_hershey.py",
               "tests/data/test_values15_hershey.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
IAM_NEW = ["tests/data/test_values59_iamondb.py"]
KVG_NEW = ["tests/data/test_values59_kanjivg.py"]
HERSHEY_NEW = ["tests/data/test_values59_hershey.py"]

MUTANTS = [
    # ---- IAM-OnDB: one line file (points, refusals) ----
    dict(name="v59-iam-points-read-y-for-x", file=IAM,
         old='xy = np.array([[p.get("x"), p.get("y")] for p in points], np.float64)',
         new='xy = np.array([[p.get("y"), p.get("x")] for p in points], np.float64)',
         tests=IAM_NEW + IAM_OLD,
         why="the fast path reads each point's y into the x column and x into y: every line is mirrored "
             "about the diagonal"),
    dict(name="v59-iam-non-numeric-read-as-zero", file=IAM,
         old='        v = float("nan")',
         new="        v = 0.0",
         tests=IAM_NEW + IAM_OLD,
         why="an attribute that is not a number (x=\"3a\") is read as 0 instead of refused: the point jumps to "
             "the board's corner and the file loads"),
    dict(name="v59-iam-doctype-let-through", file=IAM,
         old="    for token in _FORBIDDEN:",
         new="    for token in _FORBIDDEN[1:]:",
         tests=IAM_NEW + IAM_OLD,
         why="only <!ENTITY is looked for: a file with a document type declaration (an external DTD) is "
             "handed to the parser"),
    # ---- IAM-OnDB: transcriptions ----
    dict(name="v59-iam-form-lines-counted-from-the-split", file=IAM,
         old="    for p in files:\n        form, k = form_of(p)",
         new="    for p in used:\n        form, k = form_of(p)",
         tests=IAM_NEW + IAM_TEXT_OLD,
         why="a form's line numbers are taken from the lines the split reads, not from every line file: a "
             "task list naming one line of a form refuses its (matching) transcription"),
    dict(name="v59-iam-ascii-beside-a-line-root-dir-missed", file=IAM,
         old='os.path.join(os.path.dirname(os.path.abspath(line_root)), "ascii")',
         new='os.path.join(os.path.abspath(line_root), "ascii")',
         tests=IAM_NEW + IAM_TEXT_OLD,
         why="with --data-dir naming lineStrokes/ itself, ascii/ beside it is looked for inside it: the "
             "lines lose their text"),
    dict(name="v59-iam-names-from-every-line-file", file=IAM,
         old="    names = [os.path.splitext(os.path.basename(p))[0] for p in files]",
         new="    names = [os.path.splitext(os.path.basename(p))[0] for p in all_files]",
         tests=IAM_NEW + IAM_TEXT_OLD,
         why="the lines' names come from every line file found, not from those read: once the task lists "
             "leave out the test sets' forms, names and lines are misaligned"),
    # ---- IAM-OnDB: the official split ----
    dict(name="v59-iam-only-list-message-names-the-wrong-one", file=IAM,
         old="if have[0] else (SPLIT_LISTS[1], SPLIT_LISTS[0])",
         new="if have[1] else (SPLIT_LISTS[1], SPLIT_LISTS[0])",
         tests=IAM_NEW + IAM_OLD,
         why="a folder holding only one task list is refused with the two lists' names the wrong way round "
             "(it says it holds the one it lacks)"),
    dict(name="v59-iam-blank-list-line-ends-the-list", file=IAM,
         old="        if not entry:\n            continue",
         new="        if not entry:\n            break",
         tests=IAM_NEW + IAM_OLD,
         why="a blank line inside a task list ends it: the forms after it are silently not read"),
    dict(name="v59-iam-form-entry-reads-its-first-line-only", file=IAM,
         old="chosen[which] = sorted({i for e in entries for i in by_name[e]})",
         new="chosen[which] = sorted({i for e in entries for i in by_name[e][:1]})",
         tests=IAM_NEW + IAM_OLD,
         why="a form id in a task list picks only the form's first line file instead of all its lines"),
    # ---- KanjiVG ----
    dict(name="v59-kvg-empty-path-data-passes", file=KVG,
         old='            if not p.get("d"):',
         new='            if p.get("d") is None:',
         tests=KVG_NEW + KVG_OLD,
         why="a stroke path with d=\"\" is let through: it draws no subpath and the stroke silently vanishes "
             "instead of the file being refused"),
    dict(name="v59-kvg-each-segment-repeats-its-start", file=KVG,
         old="            subpaths[-1].append(seg[1:])",
         new="            subpaths[-1].append(seg)",
         tests=KVG_NEW + KVG_OLD,
         why="each drawing command's points start again at the current point: every joint is repeated"),
    dict(name="v59-kvg-relative-curve-ends-absolute", file=KVG,
         old="c1, c2, end = base + a[0:2], base + a[2:4], base + a[4:6]",
         new="c1, c2, end = base + a[0:2], base + a[2:4], a[4:6]",
         tests=KVG_NEW + KVG_OLD,
         why="a relative cubic (c) ends at its end point taken as absolute: the curve lands near the origin"),
    dict(name="v59-kvg-validation-stream-is-the-training-one", file=KVG,
         old="make_lines(np.random.default_rng([S.DATA_SEED, 1]), designs, val_cps",
         new="make_lines(np.random.default_rng([S.DATA_SEED, 0]), designs, val_cps",
         tests=KVG_NEW + KVG_OLD,
         why="validation lines are drawn from the training stream's seed: for a reader (every design in both "
             "splits) the validation lines are copies of the first training lines"),
    dict(name="v59-kvg-val-designs-are-the-training-ones", file=KVG,
         old='"val_designs": [int(c) for c in cps[val]]',
         new='"val_designs": [int(c) for c in cps[~val]]',
         tests=KVG_NEW + KVG_OLD,
         why="the task's extra names the training designs as the held-out ones"),
    # ---- Hershey ----
    dict(name="v59-hershey-word-width-without-its-last-glyph", file=HERSHEY,
         old="float(sum(g.char_width for g in glyphs))",
         new="float(sum(g.char_width for g in glyphs[:-1]))",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="a word's advance leaves out its last letter's width: the next word starts on top of it"),
    dict(name="v59-hershey-names-and-texts-swapped", file=HERSHEY,
         old="S.RawSplit(train[0], train[2], train[1])",
         new="S.RawSplit(train[0], train[1], train[2])",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="the training split's names and texts change places: the lines carry 'scripts-00003' as text"),
]
