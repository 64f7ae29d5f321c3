"""Planted bugs, round 144 (format: tests/mutants/mutants.py): single-line slips in KanjiVG's reader, the Hershey
lines, the word list and IDX files, a sixth pass on lines no earlier round mutates: a DOCTYPE cut only when it
carries an internal subset, an <svg> root accepted only with the SVG namespace, path data refused when it ends in
a newline or a tab, a Z followed by one stray number let through, Bezier segments flattened into 8 chords instead
of CURVE_POINTS' 16, the file size cap at 4 kB, the katakana range one past its last letter (the middle dot);
the Hershey glyphs turned up about the descender line instead of the baseline, line texts drawn from the
caller's stream instead of one of their own, three lines in four ending with a mark instead of one in four;
a word pasted twice into the word list; IDX's file search taking a directory named like a .gz file, gzip files
stamped with the clock, and a directory read as an IDX file escaping as IsADirectoryError.

14 mutants. Against the existing targeted tests alone 4 were caught and 10 missed: the namespace-less root, the
trailing whitespace, the Z with one number, the 8 chords (the old curve tests compare against CURVE_POINTS read
from the module), the 4 kB cap (the old files are a few hundred bytes), the kana range (no old test states what
the charsets hold), the texts' own stream (the old tests compare texts, not the caller's generator), the
directory taken for a file, the gzip clock and the directory read as a file. The new value tests catch every
mutant on their own (checked with the old tests taken off the lists):
test_values144_kanjivg (files written in tmp_path: a DOCTYPE naming only an external DTD, PUBLIC, SYSTEM
file:///nonexistent or bare, cut and never fetched, its strokes read; an entity refused in one line; an <svg>
root with and without namespaces read and an <html> root refused; path data ending in spaces, newlines, tabs
and commas; Z with numbers refused in one line, Z then M by hand; drawing before a moveto refused; C, c with an
implicit repeat, S and s reflecting the previous control point, S after a line: 16 points per segment at
t = k/16 of de Casteljau's construction; a 17 kB file of 40 strokes read and a file over 1 MiB refused; the
latin, kana and kanji charsets against the digits and ASCII letters, every code point unicodedata names a
HIRAGANA or KATAKANA LETTER, and the CJK Unified Ideographs block's bounds), test_values144_hershey (in each of
the three faces x-height letters stand at y = 0, descenders go below and capitals span 0..21, as the module's
docstring says; word strokes against the package's own strokes_for_text turned up about the foot of its 'H';
line_texts taking exactly one draw of the caller's generator, a set's first texts independent of its count; the
share of 4000 lines ending in each mark of MARKS against MARK; the word list unique, sorted, lowercase and
holding every letter) and test_values144_idx (every IDX type code against bytes packed here with struct, read
and written byte for byte; a wrong magic, short or bad headers, a short or long body, a cut gzip stream, a
missing file and a directory refused in one line naming the file; gzip written under two different clocks
identical, RFC 1952's MTIME field 0; MNIST files found beside directories named like their .gz twins). The
three files run in about 3 s on one core.

Dropped as equivalent: load_mnist_split's dtype and rank checks of images and labels without their dtype or rank
halves (the magic numbers 2051 and 2049 already fix type code 0x08 and ranks 3 and 1, so a file reaching those
checks always passes them). Left out: the remaining augmentation constants of both modules (a range's value has no
definition a test could state on its own) and the build functions (their lines are mutated already).

The old lists were measured with the baseline run (old tests pass unmutated, 104 s on one core).

    python tests/mutants/run.py --only 'v144-*'
"""
KVG = "lnrnn/data/kanjivg.py"
HERSHEY = "lnrnn/data/hershey.py"
WORDS = "lnrnn/data/words.py"
IDX = "lnrnn/data/idx.py"

# existing tests of these modules
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py",
           "tests/data/test_values44_kanjivg.py", "tests/data/test_values59_kanjivg.py",
           "tests/data/test_values61_kanjivg_prefix.py", "tests/data/test_values81_kanjivg.py",
           "tests/data/test_values89_kanjivg.py", "tests/data/test_values111_kanjivg.py",
           "tests/data/test_values127_kanjivg.py"]
HERSHEY_OLD = ["tests/data/test_values_hershey.py", "tests/data/test_values15_hershey.py",
               "tests/data/test_values34_hershey.py", "tests/data/test_values44_hershey.py",
               "tests/data/test_values59_hershey.py", "tests/data/test_values81_hershey.py",
               "tests/data/test_values89_hershey.py", "tests/data/test_values127_hershey.py",
               "tests/data/test_text_strokes.py"]
WORDS_OLD = ["tests/data/test_values_words.py"] + HERSHEY_OLD
IDX_OLD = ["tests/data/test_values_idx.py", "tests/data/test_values10_idx.py", "tests/data/test_values19_idx.py",
           "tests/data/test_values69_idx.py", "tests/data/test_data.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
KVG_NEW = ["tests/data/test_values144_kanjivg.py"]
HERSHEY_NEW = ["tests/data/test_values144_hershey.py"]
WORDS_NEW = ["tests/data/test_values144_hershey.py"]
IDX_NEW = ["tests/data/test_values144_idx.py"]

MUTANTS = [
    # ---- KanjiVG: the declaration, the root, path data, the curve's points, the size cap, kana ----
    dict(name="v144-kvg-doctype-subset-required", file=KVG,
         old='_DOCTYPE = re.compile(rb"<!DOCTYPE[^\\[>]*(\\[[^\\]]*\\])?\\s*>")',
         new='_DOCTYPE = re.compile(rb"<!DOCTYPE[^\\[>]*(\\[[^\\]]*\\])\\s*>")',
         tests=KVG_NEW + KVG_OLD,
         why="a DOCTYPE naming only its external DTD (no internal subset) is no longer cut, so the file is refused"),
    dict(name="v144-kvg-root-namespaced-only", file=KVG,
         old='    if root.tag not in (_SVG_NS + "svg", "svg"):\n',
         new='    if root.tag not in (_SVG_NS + "svg",):\n',
         tests=KVG_NEW + KVG_OLD,
         why="an <svg> root without the SVG namespace is refused as not a KanjiVG file"),
    dict(name="v144-kvg-trailing-whitespace-refused", file=KVG,
         old='            if not d[pos:].strip(" ,\\t\\r\\n"):\n',
         new='            if not d[pos:].strip(" ,"):\n',
         tests=KVG_NEW + KVG_OLD,
         why="path data ending in a newline or a tab is refused as unreadable"),
    dict(name="v144-kvg-z-one-number-let-through", file=KVG,
         old="        if nums:\n            raise DataError(f\"{path}: path command Z",
         new="        if len(nums) > 1:\n            raise DataError(f\"{path}: path command Z",
         tests=KVG_NEW + KVG_OLD,
         why="a Z followed by one stray number is read as a plain Z and the number silently dropped"),
    dict(name="v144-kvg-curve-points-halved", file=KVG,
         old="CURVE_POINTS = 16 ",
         new="CURVE_POINTS = 8 ",
         tests=KVG_NEW + KVG_OLD,
         why="each Bezier segment is flattened into 8 chords instead of the documented 16"),
    dict(name="v144-kvg-svg-cap-4k", file=KVG,
         old="MAX_SVG_BYTES = 1 << 20 ",
         new="MAX_SVG_BYTES = 1 << 12 ",
         tests=KVG_NEW + KVG_OLD,
         why="the size cap is 4 kB, below many real KanjiVG files (2-10 kB), which are refused"),
    dict(name="v144-kvg-kana-middle-dot", file=KVG,
         old="list(range(0x30A1, 0x30FB))",
         new="list(range(0x30A1, 0x30FC))",
         tests=KVG_NEW + KVG_OLD,
         why="the katakana range one past its last letter: the middle dot (U+30FB, punctuation) joins the kana"),
    # ---- Hershey: the baseline, the texts' own stream, the share of closing marks ----
    dict(name="v144-hershey-bottom-line-as-base", file=HERSHEY,
         old='render_options["base_line"]',
         new='render_options["bottom_line"]',
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="glyphs are turned up about the descender line: every letter sits 7 font units too high"),
    dict(name="v144-hershey-texts-share-stream", file=HERSHEY,
         old="    own = np.random.default_rng(int(rng.integers(2**63)))\n",
         new="    own = rng\n",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="line texts are drawn from the caller's stream, which they then advance by however many draws they took"),
    dict(name="v144-hershey-mark-share-inverted", file=HERSHEY,
         old='if rng.random() < MARK else ""',
         new='if rng.random() > MARK else ""',
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="three lines in four end with a mark instead of one in four"),
    # ---- words: the list ----
    dict(name="v144-words-duplicate", file=WORDS,
         old="zebra zero zone zoo",
         new="zebra zone zone zoo",
         tests=WORDS_NEW + WORDS_OLD,
         why="a word pasted twice (and 'zero' lost): it is drawn twice as often"),
    # ---- IDX: finding files, gzip's clock, a directory ----
    dict(name="v144-idx-find-takes-directory", file=IDX,
         old="        if os.path.isfile(p):\n",
         new="        if os.path.exists(p):\n",
         tests=IDX_NEW + IDX_OLD,
         why="a directory named like a .gz file is taken for the file, shadowing the real raw file beside it"),
    dict(name="v144-idx-gzip-clock", file=IDX,
         old="        data = gzip.compress(data, mtime=0)\n",
         new="        data = gzip.compress(data)\n",
         tests=IDX_NEW + IDX_OLD,
         why="gzip stamps the time of writing: the same array written twice gives two different files"),
    dict(name="v144-idx-directory-not-caught", file=IDX,
         old="    except OSError as e:\n        raise DataError(f\"cannot read IDX file",
         new="    except PermissionError as e:\n        raise DataError(f\"cannot read IDX file",
         tests=IDX_NEW + IDX_OLD,
         why="a directory given as an IDX file raises IsADirectoryError with a traceback instead of one line"),
]
