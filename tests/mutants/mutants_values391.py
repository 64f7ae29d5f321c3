"""Planted bugs, round 391 (format: tests/mutants/mutants.py): the compiled CTC prefix beam search
(lnrnn/model/beam.py), twentieth pass, planted before any test was written, on lines no earlier round mutates:
_logaddexp's branch test inverted; _order climbing two labellings of one depth a level too far; a tie at the heap's
cut never looking at the last place; a sifted newcomer stored with log pb and log pnb swapped; the last class never
an extension; the kept prefixes stored in heap order, not most probable first; the label lengths returned as int32; a
child lookup walking down to grandchildren instead of across to siblings; the batch's last row never decoded; log p
returned in float32; a new node never linked as its parent's first child; the search run on float32
log-probabilities.

12 mutants. Against the old targeted files alone (the test_*beam* files and the decode files that hold
lnrnn/model/beam.py against brute force and the spec, listed in OLD): 12 of 12 caught; missed: none (the old files
pass on the unmutated code). So no new test file was written for this round, and none was left out as equivalent.

    python tests/mutants/run.py --only 'v391-*'
"""
BEAM = "lnrnn/model/beam.py"

OLD = [
    "tests/model/test_beam.py",
    "tests/model/test_values109_beam.py",
    "tests/model/test_values137_beam.py",
    "tests/model/test_values166_beam.py",
    "tests/model/test_values198_beam.py",
    "tests/model/test_values250_beam.py",
    "tests/model/test_values257_beam.py",
    "tests/model/test_values276_beam.py",
    "tests/model/test_values313_beam.py",
    "tests/model/test_values32_beam.py",
    "tests/model/test_values337_beam.py",
    "tests/model/test_values368_decode_beam.py",
    "tests/model/test_values87_beam.py",
    "tests/model/test_values9_beam.py",
    "tests/model/test_values223_beam_decode.py",
    "tests/model/test_values235_beam_decode.py",
    "tests/model/test_values300_decode.py",
    "tests/model/test_values48_decode.py",
    "tests/model/test_values62_decode.py",
]

MUTANTS = [
    dict(name="v391-beam-logaddexp-branch-inverted", file=BEAM,
         old="    if d > 0:",
         new="    if d < 0:",
         tests=OLD,
         why="_logaddexp takes the branch of the larger argument for the smaller one (exp overflows, -inf + inf)"),
    dict(name="v391-beam-order-climbs-equal-depths", file=BEAM,
         old="    while e1 > e2:",
         new="    while e1 >= e2:",
         tests=OLD,
         why="_order climbs both labellings one level too far: two of one depth compare their parents' labels"),
    dict(name="v391-beam-offer-tie-skips-last-place", file=BEAM,
         old="        for k in range(1, W):",
         new="        for k in range(1, W - 1):",
         tests=OLD,
         why="a tie at the heap's cut never looks at the last place for the worst of the tied"),
    dict(name="v391-beam-offer-pb-pnb-swapped", file=BEAM,
         old="    _put(heap, keys, i, s, b, nb, p, lab, node)",
         new="    _put(heap, keys, i, s, nb, b, p, lab, node)",
         tests=OLD,
         why="a sifted newcomer is stored with its log pb and log pnb swapped"),
    dict(name="v391-beam-classes-skip-last", file=BEAM,
         old="        for c in range(C):",
         new="        for c in range(C - 1):",
         tests=OLD,
         why="the step's extension classes never include the last class"),
    dict(name="v391-beam-kept-in-heap-order", file=BEAM,
         old="            k = order[i]",
         new="            k = i",
         tests=OLD,
         why="the kept prefixes are stored in heap order, not most probable first (the scans' bounds break early)"),
    dict(name="v391-beam-label-lengths-int32", file=BEAM,
         old="    label_lengths = np.zeros(B, np.int64)",
         new="    label_lengths = np.zeros(B, np.int32)",
         tests=OLD,
         why="beam_search_array's label lengths are returned as int32"),
    dict(name="v391-beam-child-walk-descends", file=BEAM,
         old="                    n = sibling[n]",
         new="                    n = child[n]",
         tests=OLD,
         why="the lookup of a prefix's child walks down to grandchildren instead of across to siblings"),
    dict(name="v391-beam-rows-skip-last", file=BEAM,
         old="    for b in prange(B):",
         new="    for b in prange(B - 1):",
         tests=OLD,
         why="beam_search_array never decodes the batch's last row"),
    dict(name="v391-beam-logq-float32", file=BEAM,
         old="    logq = np.zeros(B)",
         new="    logq = np.zeros(B, np.float32)",
         tests=OLD,
         why="beam_search_array's log p is returned in float32"),
    dict(name="v391-beam-child-link-dropped", file=BEAM,
         old="                    child[p] = n",
         new="                    pass",
         tests=OLD,
         why="a new node is never linked as its parent's first child: a prefix rebuilt later is a second node"),
    dict(name="v391-beam-search-in-float32", file=BEAM,
         old="    logp = np.ascontiguousarray(logp, dtype=np.float64)",
         new="    logp = np.ascontiguousarray(logp, dtype=np.float32)",
         tests=OLD,
         why="beam_search_array searches float32 log-probabilities, not float64"),
]
