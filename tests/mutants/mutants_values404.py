"""Planted bugs, round 404 (format: tests/mutants/mutants.py): single-line slips in the strokes-hershey task's
texts and description (lnrnn/data/hershey.py), twentieth pass, planted before any test was written for them.

The planted bugs: no line ending in '!'; no word followed by ':'; words quoted or in parentheses 96% of the time
instead of 4%; words without a space between them; the closing mark drawn and its room kept but never written; lines
of a single word; the task's description without A. V. Hershey's credit. 7 mutants. The old targeted files alone
(the Hershey value files in OLD) catch 6 of 7; missed: the credit dropped from the task's description.
test_values404_hershey_texts checks 3000 texts from a fixed seed for every promised letter, digit and mark, closing
marks about MARK of the time, 2 to 6 words as docs/hershey.md says with spaces between them, WRAP's share of wrapped
words, and A. V. Hershey's credit in the built task's description. NEW + OLD catch 7 of 7; the new file alone
catches 7 of 7. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v404-*'
"""
HERSHEY = "lnrnn/data/hershey.py"
NEW = ["tests/data/test_values404_hershey_texts.py"]
OLD = [
    "tests/data/test_values15_hershey.py",
    "tests/data/test_values34_hershey.py",
    "tests/data/test_values44_hershey.py",
    "tests/data/test_values59_hershey.py",
    "tests/data/test_values81_hershey.py",
    "tests/data/test_values89_hershey.py",
    "tests/data/test_values127_hershey.py",
    "tests/data/test_values144_hershey.py",
    "tests/data/test_values170_hershey.py",
    "tests/data/test_values213_hershey.py",
    "tests/data/test_values233_hershey_lines.py",
    "tests/data/test_values246_hershey_words.py",
    "tests/data/test_values265_hershey_lines.py",
    "tests/data/test_values280_hershey_layout.py",
    "tests/data/test_values307_idx_hershey.py",
    "tests/data/test_values350_hershey_layout.py",
    "tests/data/test_values366_hershey_texts.py",
    "tests/data/test_values_hershey.py",
]

MUTANTS = [
    dict(name="v404-no-exclamation-mark", file=HERSHEY,
         old='MARKS = ".,?!"',
         new='MARKS = ".,?"',
         tests=NEW + OLD,
         why="no line ends in '!': the alphabet of every Hershey task lacks it, so no model learns to write it"),
    dict(name="v404-no-colon-inside", file=HERSHEY,
         old='INNER_MARKS = ",;:"',
         new='INNER_MARKS = ",;"',
         tests=NEW + OLD,
         why="no word is followed by ':': the colon is never in the training texts"),
    dict(name="v404-wrap-share-inverted", file=HERSHEY,
         old="    if rng.random() < WRAP:",
         new="    if rng.random() > WRAP:",
         tests=NEW + OLD,
         why="96% of the words are quoted or in parentheses instead of 4%"),
    dict(name="v404-words-run-together", file=HERSHEY,
         old='            sep = " "',
         new='            sep = ""',
         tests=NEW + OLD,
         why="words without a hyphen or an inner mark are written with no space between them"),
    dict(name="v404-closing-mark-dropped", file=HERSHEY,
         old="    return text + mark",
         new="    return text",
         tests=NEW + OLD,
         why="the closing mark is drawn and its room kept, but never written: no line ends in . ? or !"),
    dict(name="v404-single-word-lines", file=HERSHEY,
         old="WORDS_PER_LINE = (2, 6)",
         new="WORDS_PER_LINE = (1, 6)",
         tests=NEW + OLD,
         why="some lines hold a single word, fewer than the documented two"),
    dict(name="v404-credit-dropped", file=HERSHEY,
         old="(A. V. Hershey, NBS)",
         new="(NBS)",
         tests=NEW + OLD,
         why="the task's description no longer credits A. V. Hershey, as the font data's licence asks"),
]
