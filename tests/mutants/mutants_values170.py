"""Planted bugs, round 170 (format: tests/mutants/mutants.py): single-line slips in the stroke loaders, a seventh
pass on lines no earlier round mutates: IAM-OnDB's read_xml parsing without the plain-XML check, a non-numeric
point named by its 0-based index, the task lists read up to the 16 MiB line-file cap instead of 1 MiB, the third
place for the task lists looked for inside the line folder instead of beside it, the refusal of entries naming
no file with its two counts swapped; KanjiVG cutting every DOCTYPE instead of the file's own first one and a
stroke of no length kept with all its repeated points; Hershey's draw_line passing the resampling spacing as the
word gap, a point's y taken from its x, and every word of a line drawn as its first (capitalized at CAPITAL's
rate); stroke files' refusal of lengths that do not add up naming the count of lengths as the rows, a sketch-rnn
sequence named one past its index, a split file without train_lengths let through to a KeyError, and a folder
named like a stroke file taken for a file in read_lines.

14 mutants. Against the existing targeted tests alone 7 were caught and 7 missed: the task lists' cap (the old
lists are a few bytes), the tasks/ beside a bare line folder (the old test puts them inside it), the swapped
counts of missing entries, the later words' capitals (no old test counts them), the rows named in the
lengths refusal, the sketch-rnn index and the missing train_lengths (the old tests match these refusals
loosely or not at all). The new value tests catch every mutant on their own (checked with the old tests taken
off the lists): test_values170_iamondb (line files, ascii transcriptions and task lists written in IAM-OnDB's
own format: a line's stroke-3 rows by hand, an internal entity refused in one sentence and never expanded, a
bad or missing coordinate named by its 1-based point and stroke, a task list of exactly 1 MiB read and one of
1 MiB + 5 bytes refused, the lists found in the tasks/ beside --data-dir lineStrokes and the split by hand, the
refusal of entries naming no file word for word, a transcription's CSR: lines as written),
test_values170_kanjivg (a second DOCTYPE refused word for word, a stroke of no length as one point, straight
strokes resampled every SPACING units by hand, a C then s segment against de Casteljau's construction at
t = k/16, augment's shear, rotation, scale and jitter point by point from the same draws),
test_values170_hershey (with no gap, slant, drift or jitter, draw_line's strokes are the package's
strokes_for_text of the whole line turned up about base_line, zero-length lifts joined and the lifts counted
here, each reduced to its two ends; the share of capitalized first and later words in 3000 line texts against
CAPITAL and NAME) and test_values170_stroke_files (each refusal word for word: lengths adding up to 4 of 5
rows, train[1]'s pen values and train's sequence 2 of 10,001 points, a split without train_lengths listing its
arrays, a folder named line.npy; a packed file read back). The four files run in about 1.5 s on one core.

Dropped as equivalent: read_limited reading limit bytes instead of limit + 1 (the size is checked before the
read); official_split's order left unsorted (train and validation keep their own order, which is all the
task sees); the words split with str.split() (line_text never writes two spaces); KanjiVG's resample returning
its first point without a copy (read_design's polylines are fresh arrays); the pickle test in read_lines on
"allow_pickle" only (NumPy's message holds it). Left out: augment and join_line (their lines are mutated
already) and the augmentation constants (a range's value has no definition a test could state on its own).

The old lists were measured with the baseline run (old tests pass unmutated, 179 s on one core).

    python tests/mutants/run.py --only 'v170-*'
"""
IAM = "lnrnn/data/iamondb.py"
KVG = "lnrnn/data/kanjivg.py"
HERSHEY = "lnrnn/data/hershey.py"
SF = "lnrnn/data/stroke_files.py"

# existing tests of these modules
IAM_OLD = ["tests/data/test_values_iamondb.py", "tests/data/test_values9_iamondb.py",
           "tests/data/test_values15_iamondb.py", "tests/data/test_values44_iamondb.py",
           "tests/data/test_values59_iamondb.py", "tests/data/test_values81_iamondb.py",
           "tests/data/test_values89_iamondb.py", "tests/data/test_values111_iamondb.py",
           "tests/data/test_values135_iamondb.py"]
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py",
           "tests/data/test_values44_kanjivg.py", "tests/data/test_values59_kanjivg.py",
           "tests/data/test_values61_kanjivg_prefix.py", "tests/data/test_values81_kanjivg.py",
           "tests/data/test_values89_kanjivg.py", "tests/data/test_values111_kanjivg.py",
           "tests/data/test_values127_kanjivg.py", "tests/data/test_values144_kanjivg.py"]
HERSHEY_OLD = ["tests/data/test_values_hershey.py", "tests/data/test_values15_hershey.py",
               "tests/data/test_values34_hershey.py", "tests/data/test_values44_hershey.py",
               "tests/data/test_values59_hershey.py", "tests/data/test_values81_hershey.py",
               "tests/data/test_values89_hershey.py", "tests/data/test_values127_hershey.py",
               "tests/data/test_values144_hershey.py", "tests/data/test_text_strokes.py"]
SF_OLD = ["tests/data/test_values_stroke_files.py", "tests/data/test_values10_stroke_files.py",
          "tests/data/test_values21_stroke_files.py", "tests/data/test_values53_stroke_files.py",
          "tests/data/test_values81_stroke_files.py", "tests/data/test_values116_stroke_files.py",
          "tests/data/test_values126_stroke_files.py", "tests/data/test_values135_stroke_files.py",
          "tests/data/test_values117_files.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
IAM_NEW = ["tests/data/test_values170_iamondb.py"]
KVG_NEW = ["tests/data/test_values170_kanjivg.py"]
HERSHEY_NEW = ["tests/data/test_values170_hershey.py"]
SF_NEW = ["tests/data/test_values170_stroke_files.py"]

MUTANTS = [
    # ---- IAM-OnDB: the plain-XML check, a bad point's place, the task lists' cap and folder, a message ----
    dict(name="v170-iam-read-xml-unchecked", file=IAM,
         old="    check_plain_xml(raw, path)\n    return parse_xml(raw, path)",
         new="    return parse_xml(raw, path)",
         tests=IAM_NEW + IAM_OLD,
         why="read_xml parses without the plain-XML check: an internal entity is expanded (and a DOCTYPE read) "
             "instead of the file being refused before parsing"),
    dict(name="v170-iam-bad-point-counted-from-0", file=IAM,
         old='f"point {i + 1} of stroke {k}"',
         new='f"point {i} of stroke {k}"',
         tests=IAM_NEW + IAM_OLD,
         why="a non-numeric point is named by its 0-based index while its stroke is 1-based: the message "
             "points at the point before the culprit"),
    dict(name="v170-iam-task-list-xml-cap", file=IAM,
         old='raw = read_limited(path, MAX_LIST_BYTES, "IAM-OnDB task list")',
         new='raw = read_limited(path, MAX_XML_BYTES, "IAM-OnDB task list")',
         tests=IAM_NEW + IAM_OLD,
         why="a task list is read up to the 16 MiB of a line file instead of 1 MiB: a list just over 1 MiB is read"),
    dict(name="v170-iam-tasks-inside-line-root", file=IAM,
         old='os.path.join(os.path.dirname(os.path.abspath(line_root)), "tasks")):',
         new='os.path.join(os.path.abspath(line_root), "tasks")):',
         tests=IAM_NEW + IAM_OLD,
         why="the third place for the task lists is tasks/ inside the line folder instead of beside it: with "
             "--data-dir naming lineStrokes itself, the lists in the tasks/ next to it are not found"),
    dict(name="v170-iam-missing-count-swapped", file=IAM,
         old='f"{len(missing)} of the {len(entries)} {\'entry\' if len(entries) == 1 else \'entries\'} "',
         new='f"{len(entries)} of the {len(missing)} {\'entry\' if len(entries) == 1 else \'entries\'} "',
         tests=IAM_NEW + IAM_OLD,
         why="the refusal of list entries naming no file says 3 of the 2 entries instead of 2 of the 3"),
    # ---- KanjiVG: the DOCTYPE cut once, a stroke of no length ----
    dict(name="v170-kvg-doctype-cut-every-time", file=KVG,
         old='raw = _DOCTYPE.sub(b"", raw, count=1)',
         new='raw = _DOCTYPE.sub(b"", raw)',
         tests=KVG_NEW + KVG_OLD,
         why="every DOCTYPE is cut, not only the file's own first one: a file with a second declaration is "
             "parsed instead of refused"),
    dict(name="v170-kvg-resample-zero-length-kept-whole", file=KVG,
         old="        return poly[:1].copy()",
         new="        return poly.copy()",
         tests=KVG_NEW + KVG_OLD,
         why="a stroke of no length (every point the same) keeps all its repeated points instead of one"),
    # ---- Hershey: the word gap's field, a point's y, the later words' capitals ----
    dict(name="v170-hershey-draw-gap-from-spacing", file=HERSHEY,
         old="for st in layout(font, text, rng, style.word_gap):",
         new="for st in layout(font, text, rng, style.spacing):",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="draw_line lays words out with the resampling spacing as the most extra gap after a word, not the "
             "style's word_gap"),
    dict(name="v170-hershey-draw-y-is-x", file=HERSHEY,
         old="        x, y = st[:, 0], st[:, 1]",
         new="        x, y = st[:, 0], st[:, 0]",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="a copy-paste slip: every point's y is its x, so the line is drawn on a diagonal"),
    dict(name="v170-hershey-later-words-as-first", file=HERSHEY,
         old="        w = _word(rng, first=False)",
         new="        w = _word(rng, first=True)",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="every word of a line is drawn as its first: later words are capitalized at CAPITAL's 30 % "
             "instead of NAME's 5 %"),
    # ---- stroke files: the refusals' checks and sentences ----
    dict(name="v170-sf-rows-message-counts-lengths", file=SF,
         old='f"{len(strokes)} row{\'s\' * (len(strokes) != 1)}; the arrays',
         new='f"{len(lengths)} row{\'s\' * (len(strokes) != 1)}; the arrays',
         tests=SF_NEW + SF_OLD,
         why="the refusal of lengths that do not add up names the count of lengths as the array's rows"),
    dict(name="v170-sf-object-sequences-from-1", file=SF,
         old="for i, s in enumerate(arr.ravel())]",
         new="for i, s in enumerate(arr.ravel(), 1)]",
         tests=SF_NEW + SF_OLD,
         why="a sketch-rnn array's bad sequence is named one past its index (train[2] for the second)"),
    dict(name="v170-sf-train-lengths-unchecked", file=SF,
         old='if {"train_strokes", "train_lengths"} <= keys and val:',
         new='if "train_strokes" in keys and val:',
         tests=SF_NEW + SF_OLD,
         why="a file with train_strokes but no train_lengths escapes as a KeyError instead of the sentence "
             "naming its arrays"),
    dict(name="v170-sf-read-lines-folder-exists", file=SF,
         old="    if not os.path.isfile(text):",
         new="    if not os.path.exists(text):",
         tests=SF_NEW + SF_OLD,
         why="read_lines takes a folder named like a stroke file for a file: it is refused as unreadable "
             "(Is a directory) instead of 'no such file'"),
]
