"""Planted bugs, round 127 (format: tests/mutants/mutants.py): single-line slips in the built-in tasks, --split,
the Hershey lines and KanjiVG's files, a fifth pass on lines no earlier round mutates: the adding problem's
first half rounded up at an odd T and its sequences drawn unseeded, the digits' shape counting MNIST's split,
a task flag taking a number; an empty --split read as none; every Hershey face loaded as the package's default,
the baseline wave's phase over half a turn, a wrapped word closed by its opening mark, a missing glyph's
message naming the whole word; KanjiVG stroke ids of one digit only, file names read in decimal, an absolute L
drawn from the current point, a leftover document type declaration refused only at the file's very start, and
make_lines passing the writer's slant as the scale.

14 mutants. Against the existing targeted tests alone 10 were caught and 4 missed: the flag taking a number (no
old test passes allow_pickle=1), the phase over half a turn (the old tests check the lines' geometry, not the
styles' ranges), the leftover DOCTYPE (the old files carry none after the XML declaration that the pattern
cannot cut) and the swapped scale and slant (the old tests look at a line's text and pen lifts, not its size).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values127_tasks (the adding problem at T = 3 and 5, one marker in each half with the middle step in the
second, every step used, y the marked values' sum; two loads equal and column 0 the first draws of DATA_SEED's
generator; the digits' task_shape with and without --split equal to what load_task builds, the pool 1797
images as scikit-learn counts them and all ten classes in both sets; --split 5/4 against numpy's seed-0
permutation of the images, 1000/798 refused naming 1798 and 1797; allow_pickle refusing 1, 0, 2, "yes" and
1.0; --split '', '7', '7/3/1', 'a/b', '0/3', '3/-1' and '/' refused by parse_split and task_spec),
test_values127_hershey (each face's word strokes against HersheyFonts().load_default_font(face)'s own
strokes_for_text with y turned up about its base_line, the width the glyphs' char_width summed; 400 styles
within their ranges, the phase in all four quarters of the turn, word_gap WORD_GAP's upper end, spacing and
jitter from the scale; 600 line texts with every '(' closed by a ')' and quotes paired; a word with 'e acute'
naming that character alone in one line) and test_values127_kanjivg (SVG files written in tmp_path in
KanjiVG's own layout, DOCTYPE with its ATTLIST subset included: twelve strokes in file order 1, 2, 10, 3, ...
read back in numeric order; a folder, flat or with kanji/, whose 00041, 0004e and 04e00 files map to their
hex code points while a variant, a text file and a non-hex stem are skipped; M, L, l, H, h, V, v, an exponent
and z by hand, pairs after M as lines and m opening a subpath; C then s against the cubic Bezier with the
reflected control point; a DOCTYPE whose subset holds ']', internal and external entities and a second DOCTYPE
refused in one line naming the file, an external DTD cut and never fetched; augment against s (A R) applied to
a known stroke by hand with the same draws; lines of a 100-unit vertical stroke as tall as WRITER_SCALE and
CHAR_SCALE allow). The three files run in about 6 s on one core.

Dropped as equivalent: layout splitting a text on any whitespace instead of single spaces (generated texts
never hold two spaces in a row, so no line changes). Left out: the data_bytes estimates of the synthetic tasks
(a sizing hint with no definition a test could state on its own), words.py (a word dropped from the list is no
single-line slip a developer makes) and taskdata.py (its one code line left is the batch's return of its labels).

The old lists were measured with the baseline run (old tests pass unmutated); the DOCTYPE mutant was measured
against them separately with --no-baseline.

    python tests/mutants/run.py --only 'v127-*'
"""
TASKS = "lnrnn/data/tasks.py"
SPLITS = "lnrnn/data/splits.py"
HERSHEY = "lnrnn/data/hershey.py"
KVG = "lnrnn/data/kanjivg.py"

# existing tests of these modules
TASKS_OLD = ["tests/data/test_values_tasks.py", "tests/data/test_values9_tasks.py", "tests/data/test_values12_tasks.py",
             "tests/data/test_values13_tasks.py", "tests/data/test_values21_tasks.py",
             "tests/data/test_values32_tasks.py", "tests/data/test_values44_tasks.py",
             "tests/data/test_values53_tasks.py", "tests/data/test_values76_tasks.py",
             "tests/data/test_values89_tasks.py", "tests/data/test_values102_tasks.py",
             "tests/data/test_values111_tasks.py"]
SPLITS_OLD = ["tests/data/test_values_splits.py"]
HERSHEY_OLD = ["tests/data/test_values_hershey.py", "tests/data/test_values15_hershey.py",
               "tests/data/test_values34_hershey.py", "tests/data/test_values44_hershey.py",
               "tests/data/test_values59_hershey.py", "tests/data/test_values81_hershey.py",
               "tests/data/test_values89_hershey.py", "tests/data/test_text_strokes.py"]
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py",
           "tests/data/test_values44_kanjivg.py", "tests/data/test_values59_kanjivg.py",
           "tests/data/test_values61_kanjivg_prefix.py", "tests/data/test_values81_kanjivg.py",
           "tests/data/test_values89_kanjivg.py", "tests/data/test_values111_kanjivg.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TASKS_NEW = ["tests/data/test_values127_tasks.py"]
SPLITS_NEW = ["tests/data/test_values127_tasks.py"]
HERSHEY_NEW = ["tests/data/test_values127_hershey.py"]
KVG_NEW = ["tests/data/test_values127_kanjivg.py"]

MUTANTS = [
    # ---- built-in tasks: the adding problem's halves and seed, the digits' shape, a flag, --split ----
    dict(name="v127-tasks-adding-half-rounded-up", file=TASKS,
         old="    half = T // 2\n",
         new="    half = (T + 1) // 2\n",
         tests=TASKS_NEW + TASKS_OLD,
         why="at an odd T the first marker may fall on the middle step, which belongs to the second half"),
    dict(name="v127-tasks-adding-unseeded", file=TASKS,
         old="    T = _adding_steps(spec)\n    rng = np.random.default_rng(DATA_SEED)",
         new="    T = _adding_steps(spec)\n    rng = np.random.default_rng()",
         tests=TASKS_NEW + TASKS_OLD,
         why="the adding problem's sequences are drawn from an unseeded generator: every load is a new data set"),
    dict(name="v127-tasks-digits-shape-mnist-split", file=TASKS,
         old="    nt, nv = parse_split(spec.get(\"split\")) or DIGITS_SPLIT",
         new="    nt, nv = parse_split(spec.get(\"split\")) or MNIST_SPLIT",
         tests=TASKS_NEW + TASKS_OLD,
         why="the digits' shape without --split counts MNIST's 60000/10000, not the 1437/360 it builds"),
    dict(name="v127-tasks-flag-accepts-int", file=TASKS,
         old="    if not isinstance(value, bool):",
         new="    if not isinstance(value, (bool, int)):",
         tests=TASKS_NEW + TASKS_OLD,
         why="allow_pickle=1 (or 2) passes as a flag: the check lets a number through"),
    dict(name="v127-splits-empty-as-default", file=SPLITS,
         old="    if text is None:",
         new="    if not text:",
         tests=SPLITS_NEW + SPLITS_OLD + TASKS_OLD,
         why="an empty --split '' is taken as no --split (the default counts) instead of refused"),
    # ---- Hershey: the face loaded, the styles' phase, wraps, the missing glyphs named ----
    dict(name="v127-hershey-default-face", file=HERSHEY,
         old="    font.load_default_font(face)",
         new="    font.load_default_font()",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="every face loads the package's default font: scripts and cursive lines are drawn in futural"),
    dict(name="v127-hershey-phase-half-turn", file=HERSHEY,
         old="phase=rng.uniform(0.0, 2 * np.pi)",
         new="phase=rng.uniform(0.0, np.pi)",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="the baseline wave's phase covers half a turn: every line's wave starts rising"),
    dict(name="v127-hershey-wrap-closed-by-opening", file=HERSHEY,
         old="        w = a + w + b\n",
         new="        w = a + w + a\n",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="a wrapped word is closed by its opening mark: '(word(' instead of '(word)'"),
    dict(name="v127-hershey-missing-names-every-char", file=HERSHEY,
         old="missing = sorted({c for c in word if not list(font.glyphs_for_text(c))})",
         new="missing = sorted(set(word))",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="a word with a character the font lacks names every character of the word as missing"),
    # ---- KanjiVG: stroke ids, file names, absolute lines, DOCTYPE, the writer's scale and slant ----
    dict(name="v127-kanjivg-stroke-id-one-digit", file=KVG,
         old='_STROKE_ID = re.compile(r"-s(\\d+)$")',
         new='_STROKE_ID = re.compile(r"-s(\\d)$")',
         tests=KVG_NEW + KVG_OLD,
         why="stroke ids of two digits (s10, s11, ...) do not match: a character's tenth stroke on are lost"),
    dict(name="v127-kanjivg-stem-read-as-decimal", file=KVG,
         old="        files[int(stem, 16)] = path",
         new="        files[int(stem)] = path",
         tests=KVG_NEW + KVG_OLD,
         why="a file name's code point is read in decimal: 00041.svg becomes chr(41), not 'A' (and 0004e fails)"),
    dict(name="v127-kanjivg-absolute-line-from-current", file=KVG,
         old="        return np.stack([cur, base + a]), None",
         new="        return np.stack([cur, cur + a]), None",
         tests=KVG_NEW + KVG_OLD,
         why="an absolute L is drawn relative to the current point"),
    dict(name="v127-kanjivg-leftover-doctype-parsed", file=KVG,
         old='    if b"<!DOCTYPE" in raw:',
         new='    if raw.startswith(b"<!DOCTYPE"):',
         tests=KVG_NEW + KVG_OLD,
         why="a document type declaration the pattern could not cut is refused only at "
             "the very start of the file: after the XML declaration it goes to the parser"),
    dict(name="v127-kanjivg-scale-slant-swapped", file=KVG,
         old="chars = [augment(designs[int(cp)], rng, scale, slant) for cp in chosen]",
         new="chars = [augment(designs[int(cp)], rng, slant, scale) for cp in chosen]",
         tests=KVG_NEW + KVG_OLD,
         why="make_lines passes the writer's slant as the scale and the scale as the slant"),
]
