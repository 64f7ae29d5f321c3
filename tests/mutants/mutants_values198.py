"""Planted bugs, round 198 (format: tests/mutants/mutants.py): single-line slips on lines of lnrnn/sample.py and
lnrnn/model/beam.py that no earlier round mutates. The compiled prefix beam search: _worse reading an exact tie
of log p backwards (the best of tied labellings the lexicographically last), _offer turning away a candidate
that ties the heap's worst and evicting the first instead of the last of the entries tied at the cut, _best
starting at the second kept prefix, the step's label classes skipped when they only tie the worst, the scan of
kept prefixes stopping at a tie, the last kept prefix never extended, prefix_beams' width cap with steps and
classes swapped and the cap counting one step fewer. The sampler's support code: a directory named like a .npy
passing the prime file's check, text_inputs checking the prime pair in the Python names whatever names the
caller gives, the pictures' common scale padded by the smaller side, each line's vertical span from its ink's
bottom instead of about its middle, and a written line's box leaving out its prime.

14 mutants. Against the existing targeted tests alone 12 were caught and 2 missed: the directory passing the
prime file's check (no test gave a directory) and the prime pair checked in the Python names (the CLI tests
of a half prime go through the command, which checks the pair itself before text_inputs). The new value tests
catch every mutant on their own (checked with the old tests taken off the lists): test_values198_beam (the
compiled search against every one of the C^T paths collapsed by hand and against a plain prefix beam search
written here that ranks by log p and then by labels, on uniform steps where whole families of labellings tie
bit for bit, four equal label classes over a low blank, a blank tying a label, a step built so that an
extension of the best prefix ties the heap's worst exactly; widths 1, 2, the alphabet and more, every prefix;
rows of 0, 1, 2 and 3 steps in one batch), test_values198_sampler (a directory named prime.npy is "no such
file"; .npy and .npz read as written; a half prime refused in the CLI's names; strokes_figure's and
written_figure's axis limits against the boxes of the cumulative sums worked out here, the prime's end as the
line's origin). Dropped: _order's first depth taken as its parent node's (the climb runs past the trie's root
and the process crashes, which the runner reports as an error, not a catch); the log-add-exp's branch on the
sign of x - y flipped (x + log1p(exp(y - x)) is the same sum either way: equivalent); the heap's sift-down
stopping at a child equal to the newcomer with > instead of >= (still a heap, ties at the cut are broken
elsewhere: equivalent); phis allocated with np.empty (only the steps each row kept are read: equivalent).
The sampler's drawing lines (the mixture draw, the bias, the stop rule's step, rows of several lengths) are all
mutated by earlier rounds, so none is planted here.

    python tests/mutants/run.py --only 'v198-*'
"""
SAMPLE = "lnrnn/sample.py"
BEAM = "lnrnn/model/beam.py"

# existing tests of these modules (the most direct ones)
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values9_beam.py", "tests/model/test_values32_beam.py",
            "tests/model/test_values87_beam.py", "tests/model/test_values109_beam.py",
            "tests/model/test_values137_beam.py", "tests/model/test_values166_beam.py",
            "tests/model/test_values48_decode.py"]
SAMPLE_OLD = ["tests/test_values99_sampler.py", "tests/test_values120_sampler.py", "tests/test_values126_sampler.py",
              "tests/test_values133_sampler.py", "tests/test_values162_sampler.py",
              "tests/commands/test_values52_sampler.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BEAM_NEW = ["tests/model/test_values198_beam.py"]
SAMPLE_NEW = ["tests/test_values198_sampler.py"]

MUTANTS = [
    # ---- beam search: exact ties at the cut and at the best, the class scan's bounds, the width cap ----
    dict(name="v198-beam-best-of-tied-prefers-the-later-labels", file=BEAM,
         old="    return _order(p1, l1, p2, l2, tree) > 0",
         new="    return _order(p1, l1, p2, l2, tree) < 0",
         tests=BEAM_NEW + BEAM_OLD,
         why="_worse reads an exact tie of log p backwards: the best of tied labellings is the lexicographically "
             "last (one uniform step returns (2,) instead of ())"),
    dict(name="v198-beam-offer-drops-a-tie-at-the-cut", file=BEAM,
         old="    if s < low:\n        return",
         new="    if s <= low:\n        return",
         tests=BEAM_NEW + BEAM_OLD,
         why="a candidate whose log tot equals the heap's worst is turned away instead of tie-broken by its "
             "labels: a full narrow beam keeps the later of two tied prefixes"),
    dict(name="v198-beam-offer-evicts-the-best-of-the-tied", file=BEAM,
         old="            if heap[0, k] == low and _order(keys[0, k], keys[1, k], keys[0, w], keys[1, w], tree) > 0:",
         new="            if heap[0, k] == low and _order(keys[0, k], keys[1, k], keys[0, w], keys[1, w], tree) < 0:",
         tests=BEAM_NEW + BEAM_OLD,
         why="among the heap's entries tied at the cut, the one to drop is the lexicographically first instead of "
             "the last"),
    dict(name="v198-beam-best-skips-the-first-kept", file=BEAM,
         old="    for k in range(nodes.shape[0]):",
         new="    for k in range(1, nodes.shape[0]):",
         tests=BEAM_NEW + BEAM_OLD,
         why="_best starts at the second kept prefix: a row returns its runner-up (or nothing, with one kept)"),
    dict(name="v198-beam-classes-tying-the-worst-skipped", file=BEAM,
         old="            if c == CTC_BLANK or tot0 + v < worst or (nk == K and not v > cut):",
         new="            if c == CTC_BLANK or tot0 + v <= worst or (nk == K and not v > cut):",
         tests=BEAM_NEW + BEAM_OLD,
         why="a label class whose extension of the best prefix only ties the heap's worst is never offered, so it "
             "cannot win the tie by its labels"),
    dict(name="v198-beam-extension-scan-stops-at-a-tie", file=BEAM,
         old="            if nk == 0 or tot + topv[0] < worst:          # nor can any later one (tot descends)",
         new="            if nk == 0 or tot + topv[0] <= worst:         # nor can any later one (tot descends)",
         tests=BEAM_NEW + BEAM_OLD,
         why="the scan of kept prefixes stops when the best extension only ties the worst: tied extensions with "
             "smaller labels are lost"),
    dict(name="v198-beam-last-kept-prefix-never-extended", file=BEAM,
         old="        for j in range(nb):                               # each kept prefix + a label, most probable first",
         new="        for j in range(nb - 1):                           # each kept prefix + a label, most probable first",
         tests=BEAM_NEW + BEAM_OLD,
         why="the least probable kept prefix is never extended by a label"),
    dict(name="v198-beam-prefix-beams-width-arguments-swapped", file=BEAM,
         old="    nodes, tots, tree = _search_row(row, 0, T, _width(width, T, C))",
         new="    nodes, tots, tree = _search_row(row, 0, T, _width(width, C, T))",
         tests=BEAM_NEW + BEAM_OLD,
         why="prefix_beams caps the width with steps and classes swapped: one step of three classes caps any width "
             "at 1, so the list holds one prefix"),
    dict(name="v198-beam-width-cap-one-step-short", file=BEAM,
         old="    for _ in range(steps):\n        level *= max(classes - 1, 0)",
         new="    for _ in range(steps - 1):\n        level *= max(classes - 1, 0)",
         tests=BEAM_NEW + BEAM_OLD,
         why="the width cap counts the prefixes of one step fewer: a wide beam is narrower than the prefixes and "
             "drops some (one step keeps only the empty prefix)"),
    # ---- the prime file, the prime pair's names, the pictures' common scale ----
    dict(name="v198-sample-prime-directory-passes-the-file-check", file=SAMPLE,
         old="    if not os.path.isfile(text):",
         new="    if not os.path.exists(text):",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a directory named like a .npy passes the check and open() raises IsADirectoryError, not a UserError"),
    dict(name="v198-sample-text-inputs-prime-pair-in-python-names", file=SAMPLE,
         old="    check_prime_pair(prime_strokes, prime_text, names)",
         new="    check_prime_pair(prime_strokes, prime_text)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="text_inputs checks the prime pair with the Python names: the CLI refuses a half prime naming "
             "prime_strokes instead of --prime-strokes"),
    dict(name="v198-sample-same-scale-pad-of-the-smaller-side", file=SAMPLE,
         old="    pad = 0.03 * max(W, H)",
         new="    pad = 0.03 * min(W, H)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the pictures' margin is 3 % of the smaller side of the common box, not the larger"),
    dict(name="v198-sample-same-scale-y-from-the-bottom", file=SAMPLE,
         old="        ax.set_ylim(mid - H / 2 - pad, mid + H / 2 + pad)",
         new="        ax.set_ylim(y0 - pad, y0 + H + pad)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="each line's vertical span starts at its ink's bottom (as x starts at its left edge) instead of "
             "centring the ink"),
    dict(name="v198-sample-written-box-without-the-prime", file=SAMPLE,
         old="        inks.append(np.concatenate(drawn))",
         new="        inks.append(drawn[-1])",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a written line's box leaves out its grey prime: the prime is cut off the picture"),
]
