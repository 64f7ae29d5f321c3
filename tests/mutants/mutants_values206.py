"""Planted bugs, round 206 (format: tests/mutants/mutants.py): single-line slips in the IAM-OnDB, KanjiVG and
stroke-file readers, on lines no earlier round mutates.

IAM-OnDB: the per-file cap of 16 MiB read as 16 KiB, the
validation list read from testset_t.txt, a line number of one digit only, a one-point stroke (the dot of an
i) refused, an empty coordinate called a missing attribute, ascii/ looked for inside the line folder instead of
beside it, and the singular/plural of the refusal of a form in both lists flipped. KanjiVG: SPACING 2 instead of
3, S grouped by 6 numbers like C, paths of an SVG without the namespace skipped, arc length measured as
|dx| + |dy|. Stroke files: load unpickling whatever allow_pickle says, the strokes-npz task's allow_pickle
defaulting to true, read_lines unpickling an object .npy.

14 mutants. Against the existing targeted tests alone 10 were caught and 4 missed: the 16 KiB cap (no old test
writes a line file past 16 KiB), the flipped singular/plural of a form in both lists (no old test compares that
sentence), the task's allow_pickle default (old tests pass the option or use pickle-free files) and read_lines
unpickling (no old test gives read_lines an object array). The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values206_iamondb (a 45 kB line file of five strokes,
two of them of one and two points, against stroke-3 computed by its definition; form_of and an eleven-line form's
CSR texts; the exact sentence for x=""; ascii/ beside a --data-dir that is lineStrokes/ itself; the official
split with testset_t and testset_f present, by form; the refusal of one and of two forms in both lists, word for
word), test_values206_kanjivg (M l h v H V z L m on a path by hand; C, S and s against de Casteljau's
construction at t = k/16 with S's reflected control point; a 3-4-5 diagonal and a horizontal run resampled to 11
points 3 apart; a file without xmlns read like one with it; an entity, a truncated file and a C of 5 numbers
refused in one exact sentence), test_values206_stroke_files (object .npy refused by load, by the task without
allow_pickle and by read_lines in their exact sentences, and read back sequence by sequence where allowed;
save_npz's train/val file and a points + lengths file read back row by row). Dropped as equivalent or near it:
form_of's stem by basename.split(".")[0] (IAM-OnDB names hold no dot), the kanji range ending at 0x9FFF (no
KanjiVG file for U+9FFF).

    python tests/mutants/run.py --only 'v206-*'
"""
IAM = "lnrnn/data/iamondb.py"
KVG = "lnrnn/data/kanjivg.py"
SF = "lnrnn/data/stroke_files.py"

# existing tests of these modules
IAM_OLD = ["tests/data/test_values_iamondb.py", "tests/data/test_values9_iamondb.py",
           "tests/data/test_values15_iamondb.py", "tests/data/test_values44_iamondb.py",
           "tests/data/test_values59_iamondb.py", "tests/data/test_values81_iamondb.py",
           "tests/data/test_values89_iamondb.py", "tests/data/test_values111_iamondb.py",
           "tests/data/test_values135_iamondb.py", "tests/data/test_values170_iamondb.py"]
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py",
           "tests/data/test_values44_kanjivg.py", "tests/data/test_values59_kanjivg.py",
           "tests/data/test_values61_kanjivg_prefix.py", "tests/data/test_values81_kanjivg.py",
           "tests/data/test_values89_kanjivg.py", "tests/data/test_values111_kanjivg.py",
           "tests/data/test_values127_kanjivg.py", "tests/data/test_values144_kanjivg.py",
           "tests/data/test_values170_kanjivg.py"]
SF_OLD = ["tests/data/test_values_stroke_files.py", "tests/data/test_values10_stroke_files.py",
          "tests/data/test_values21_stroke_files.py", "tests/data/test_values53_stroke_files.py",
          "tests/data/test_values81_stroke_files.py", "tests/data/test_values116_stroke_files.py",
          "tests/data/test_values126_stroke_files.py", "tests/data/test_values135_stroke_files.py",
          "tests/data/test_values170_stroke_files.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
IAM_NEW = ["tests/data/test_values206_iamondb.py"]
KVG_NEW = ["tests/data/test_values206_kanjivg.py"]
SF_NEW = ["tests/data/test_values206_stroke_files.py"]

MUTANTS = [
    dict(name="v206-iam-xml-cap-16-kib", file=IAM,
         old="MAX_XML_BYTES = 16 << 20", new="MAX_XML_BYTES = 16 << 10",
         tests=IAM_NEW + IAM_OLD,
         why="the per-file cap is 16 KiB, not 16 MiB: a real line file of 20-200 kB is refused as too large"),
    dict(name="v206-iam-validates-on-testset-t", file=IAM,
         old='SPLIT_LISTS = ("trainset.txt", "testset_v.txt")', new='SPLIT_LISTS = ("trainset.txt", "testset_t.txt")',
         tests=IAM_NEW + IAM_OLD,
         why="the validation split is read from testset_t.txt (a test set) instead of testset_v.txt"),
    dict(name="v206-iam-line-number-one-digit", file=IAM,
         old=r'(?P<line>\d+)$', new=r'(?P<line>\d)$',
         tests=IAM_NEW + IAM_OLD,
         why="a line number of two digits (a01-000u-10) does not match: the file becomes a form of its own, line 1"),
    dict(name="v206-iam-one-point-stroke-refused", file=IAM,
         old="    if not points:", new="    if len(points) < 2:",
         tests=IAM_NEW + IAM_OLD,
         why="a stroke of one point (the dot of an i) is refused as empty"),
    dict(name="v206-iam-empty-attribute-said-missing", file=IAM,
         old="    if text is None:", new="    if not text:",
         tests=IAM_NEW + IAM_OLD,
         why="x=\"\" is reported as a missing attribute instead of the non-numeric x=''"),
    dict(name="v206-iam-ascii-beside-line-folder-not-found", file=IAM,
         old='os.path.join(os.path.dirname(os.path.abspath(line_root)), "ascii")',
         new='os.path.join(os.path.abspath(line_root), "ascii")',
         tests=IAM_NEW + IAM_OLD,
         why="ascii/ is looked for inside lineStrokes/, not beside it: a --data-dir naming the line folder loses its text"),
    dict(name="v206-iam-form-in-both-lists-plural-flipped", file=IAM,
         old="if len(both) == 1 else", new="if len(both) > 1 else",
         tests=IAM_NEW + IAM_OLD,
         why="one form in both lists is reported as '1 forms (...) are', several as 'form a, b is'"),
    dict(name="v206-kvg-spacing-2", file=KVG,
         old="SPACING = 3.0", new="SPACING = 2.0",
         tests=KVG_NEW + KVG_OLD,
         why="strokes are resampled every 2 units of arc length instead of the documented 3"),
    dict(name="v206-kvg-smooth-curve-arity-6", file=KVG,
         old='"C": 6, "S": 4', new='"C": 6, "S": 6',
         tests=KVG_NEW + KVG_OLD,
         why="S is grouped by 6 numbers like C: a path with one S segment is refused, two are read as garbage"),
    dict(name="v206-kvg-unnamespaced-path-skipped", file=KVG,
         old='if p.tag in (_SVG_NS + "path", "path")', new='if p.tag == _SVG_NS + "path"',
         tests=KVG_NEW + KVG_OLD,
         why="an SVG without the xmlns declaration has its <path> strokes ignored: 'no stroke paths'"),
    dict(name="v206-kvg-arc-length-taxicab", file=KVG,
         old="seg = np.hypot(*np.diff(poly, axis=0).T)", new="seg = np.abs(np.diff(poly, axis=0)).sum(axis=1)",
         tests=KVG_NEW + KVG_OLD,
         why="arc length measured as |dx| + |dy|: a diagonal stroke gets too many points, unevenly spaced"),
    dict(name="v206-sf-load-unpickles-npy", file=SF,
         old="data = np.load(path, allow_pickle=allow_pickle)", new="data = np.load(path, allow_pickle=True)",
         tests=SF_NEW + SF_OLD,
         why="load unpickles object arrays whatever allow_pickle says: a pickled .npy is read, not refused"),
    dict(name="v206-sf-build-allows-pickle-by-default", file=SF,
         old='spec.get("allow_pickle", False)', new='spec.get("allow_pickle", True)',
         tests=SF_NEW + SF_OLD,
         why="the strokes-npz task unpickles files unless told not to: the safe default is flipped"),
    dict(name="v206-sf-read-lines-unpickles", file=SF,
         old="np.load(text, allow_pickle=False)", new="np.load(text, allow_pickle=True)",
         tests=SF_NEW + SF_OLD,
         why="read_lines unpickles an object .npy: the refusal naming pickle becomes a shape complaint (or a read)"),
]
