"""Planted bugs, round 213 (format: tests/mutants/mutants.py): single-line slips on lines of the sampler, the
Hershey lines, decoding and the text metrics that no earlier round mutates: a free sampler's first input
(1, 1, 1) instead of the origin, a model without text telling the user to leave out the other option, the
prime file's pickle reason never found, shortened quoting a text bare, the codes' refusal giving the range as
[1, C), a long caption's notes joined by a comma; a line style's scale drawn from SPEED's range, a word in
parentheses written ')word(', hyphens drawn at INNER's share, line names counted from 1, the missing-glyph
refusal naming the whole word; best path's argmax reshaped instead of transposed and its lists one padding
label too long; error_rates not listing its hypotheses (a generator has no len).

14 mutants. Against the existing targeted tests alone (the four most direct old files of each module) 5 were
caught and 9 missed: the free model's refusal, the pickle reason, shortened's repr, the codes' range, the
caption's separator (no old test reads these messages word for word), the style's scale, the hyphen share and
the line names (no old test draws a style or a text by hand, or reads a name), and error_rates over
generators. The new value tests catch every mutant on their own (checked with the old tests taken off the
lists): test_values213_sampler (three free steps against Graves's biased mixture drawn here from one
generator with the same seed, from the origin and from a given start; refusals word for word: a model
without text in Python's and the CLI's names, a prime file of pickled objects, bad codes, a long line of
unknown characters shortened by the rule written here, a long caption), test_values213_hershey (a style drawn
by hand in the documented order and ranges; 500 line texts drawn by hand with the same seed; layout point by
point against the font's own strokes_for_text of each word, y turned up about base_line, shifted by widths,
spaces and gaps; make_lines' names; the missing-glyph refusal), test_values213_decode (best path and
best_path_array against a hand collapse of each row's own steps, rows of different lengths, an empty row),
test_values213_textmetrics (edit_distance, cer, wer and error_rates over generators against the memoized
Levenshtein recursion on empty, one-character, all-different and repeated strings).
Dropped as equivalent: collapse's prev starting as the blank instead of None (a first blank is dropped
either way), layout splitting on any whitespace instead of " " (line texts never hold two spaces in a row),
the written rows' phi buffer starting as ones (every step a row keeps is written over it). Left out
as unsafe to plant: label_edit_distances' buffers one short (a compiled out-of-bounds write, not an error).

    python tests/mutants/run.py --only 'v213-*'
"""
SAMPLE = "lnrnn/sample.py"
HERSHEY = "lnrnn/data/hershey.py"
DECODE = "lnrnn/model/decode.py"
TEXT = "lnrnn/textmetrics.py"

# existing tests of these modules (the most direct files of each)
SAMPLE_OLD = ["tests/test_values198_sampler.py", "tests/test_values162_sampler.py", "tests/test_values133_sampler.py",
              "tests/test_values87_sampler.py"]
HERSHEY_OLD = ["tests/data/test_values170_hershey.py", "tests/data/test_values144_hershey.py",
               "tests/data/test_values127_hershey.py", "tests/data/test_values_hershey.py"]
DECODE_OLD = ["tests/model/test_values_decode.py", "tests/model/test_values48_decode.py",
              "tests/model/test_values88_decode.py", "tests/model/test_values119_decode.py"]
TEXT_OLD = ["tests/test_values_textmetrics.py", "tests/test_values48_textmetrics.py",
            "tests/test_values119_textmetrics.py", "tests/test_values137_textmetrics.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values213_sampler.py"]
HERSHEY_NEW = ["tests/data/test_values213_hershey.py"]
DECODE_NEW = ["tests/model/test_values213_decode.py"]
TEXT_NEW = ["tests/test_values213_textmetrics.py"]

MUTANTS = [
    # ---- the sampler: its first input, its refusals, the prime file's reasons, the captions ----
    dict(name="v213-sample-first-input-ones", file=SAMPLE,
         old="    x = np.zeros((count, 3), model.dtype)",
         new="    x = np.ones((count, 3), model.dtype)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a sampler without a given start feeds (1, 1, 1) as the first input instead of the origin with the "
             "pen down: every draw starts from another state"),
    dict(name="v213-sample-free-model-names-the-other-option", file=SAMPLE,
         old="{t if lines else ps}.\")",
         new="{ps if lines else t}.\")",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a model trained without text refuses lines by telling the user to leave out the prime, and a "
             "prime by telling them to leave out the text"),
    dict(name="v213-sample-pickle-reason-never-found", file=SAMPLE,
         old="\"it holds pickled objects, which are not read\" if \"pickle\" in str(e)",
         new="\"it holds pickled objects, which are not read\" if \"pickled\" in str(e)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="NumPy's refusal says 'allow_pickle', never 'pickled': a prime file of object arrays is called "
             "'not a NumPy file'"),
    dict(name="v213-sample-shortened-without-repr", file=SAMPLE,
         old="    r = repr(text)\n",
         new="    r = str(text)\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="shortened drops the quotes and escapes of a long text: refusals and captions quote it bare"),
    dict(name="v213-sample-codes-range-from-1", file=SAMPLE,
         old="codes in [0, {C}) (the model's alphabet)",
         new="codes in [1, {C}) (the model's alphabet)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the refusal of bad codes gives the range as [1, C) while code 0 is accepted"),
    dict(name="v213-sample-caption-notes-joined-by-comma", file=SAMPLE,
         old="        tail = primed + f\" ({'; '.join(notes)})\"",
         new="        tail = primed + f\" ({', '.join(notes)})\"",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a long line's caption joins its character count and cap note with a comma, unlike a short one's "
             "(and '1,234 characters, stopped' reads as one list)"),
    # ---- Hershey lines: the style's scale, wraps, hyphens, names, the missing-glyph refusal ----
    dict(name="v213-hershey-scale-drawn-from-speed", file=HERSHEY,
         old="    scale = rng.uniform(*SCALE)",
         new="    scale = rng.uniform(*SPEED)",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="a line's scale is drawn from SPEED's range (0.85..1.15) instead of SCALE's (0.8..1.25)"),
    dict(name="v213-hershey-wrap-closed-first", file=HERSHEY,
         old="        a, b = WRAPS[int(rng.integers(len(WRAPS)))]",
         new="        b, a = WRAPS[int(rng.integers(len(WRAPS)))]",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="a word in parentheses is written ')word(' (quotes are symmetric and hide it)"),
    dict(name="v213-hershey-hyphen-share-is-inner", file=HERSHEY,
         old="        if rng.random() < HYPHEN:",
         new="        if rng.random() < INNER:",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="words are joined by a hyphen INNER (6 %) of the time instead of HYPHEN (3 %)"),
    dict(name="v213-hershey-names-from-1", file=HERSHEY,
         old="f\"{face}-{i:05d}\"",
         new="f\"{face}-{i + 1:05d}\"",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="a line's name counts from 1 while its text and strokes are line i: names no longer index the lines"),
    dict(name="v213-hershey-missing-glyph-names-the-word", file=HERSHEY,
         old="no glyph for {''.join(missing)!r}",
         new="no glyph for {word!r}",
         tests=HERSHEY_NEW + HERSHEY_OLD,
         why="the refusal names the whole word instead of the characters the font lacks"),
    # ---- decoding: best path's rows, the list of labels ----
    dict(name="v213-decode-argmax-reshaped-not-transposed", file=DECODE,
         old="    arg = np.asarray(logp).argmax(axis=2).T ",
         new="    arg = np.asarray(logp).argmax(axis=2).reshape(B, T) ",
         tests=DECODE_NEW + DECODE_OLD,
         why="the (T,B) argmax is reshaped to (B,T) instead of transposed: with several rows each row reads "
             "steps of other rows"),
    dict(name="v213-decode-best-path-one-label-too-many", file=DECODE,
         old="    labels, n = best_path_array(logp, lengths)\n    return [labels[b, :n[b]].tolist()",
         new="    labels, n = best_path_array(logp, lengths)\n    return [labels[b, :n[b] + 1].tolist()",
         tests=DECODE_NEW + DECODE_OLD,
         why="best_path's lists take one padding -1 after a row's labels whenever the row is shorter than T"),
    # ---- text metrics ----
    dict(name="v213-textmetrics-hyps-not-listed", file=TEXT,
         old="    refs, hyps = list(refs), list(hyps)",
         new="    refs, hyps = list(refs), hyps",
         tests=TEXT_NEW + TEXT_OLD,
         why="error_rates takes the hypotheses as given: a generator (what a decoder's map yields) has no len "
             "and is read once, so error_rates fails on it"),
]
