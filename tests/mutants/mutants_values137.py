"""Planted bugs, round 137 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in reading: the CTC kernel's backward scaling the saved log-softmax instead of the saved gradient, the
exact beta loop stopping before step 0, a short row's padding zeroed from one step late, the linear-space skip
mask barring every skip, the posteriors of beta's steps read from the emitted beta, the log-space forward
storing the step before as step t's alpha; the compiled beam search running every row over all T steps, its
rows returning log pb instead of the log total, a kept node stored at its heap index instead of its rank, a
prefix's total as the larger of pb and pnb, prefix_beams listing labels last first; the spec unpacking (pb, pnb)
swapped; edit_distance's rows counted from 0 and label_edit_distances' two table rows made one buffer.

14 mutants. Against the existing targeted tests alone 11 were measured and all 11 caught; the measurement
was cut short for the CTC kernel's old list (it runs slowly in the mutation copy, about 100 s a mutant), so the
skip mask barring every skip, the posteriors read from the emitted beta and the log-space alpha stored a step
late were not measured against the old tests (the beam, spec and error-rate mutants were measured with
--no-baseline). The new value tests catch every mutant on their own (checked with the old tests taken off
the lists):
test_values137_ctc (loss, saved gradient, ctc_backward's product with dloss and the saved log-softmax against
the sum over every one of the C^T paths, test_values87_ctc.by_paths, for a repeat on its 3-step minimum and
without room for its blank, empty labels on 2 and 0 steps, a label on exactly L steps, whose one path is checked
by hand too, and on 2L + 1 steps, rows of unequal lengths whose padding must be zero in every buffer, twice so
that the second batch may reuse the first's memory, and rows 800 nats down that run in log space),
test_values137_beam (prefix_beams, the spec prefix_beam_search and beam_search_array as wide as the labellings
against enumerate_labellings' sum over all paths; width 1 against the greedy prefix search written here; rows
of unequal lengths whose padding would add labels if read, at widths 1, 3 and exhaustive; repeats needing a
blank and best path of runs and blanks by hand), test_values137_textmetrics (edit_distance, cer, wer,
error_rates and label_edit_distances of padded rows against the Levenshtein recursion of
test_values87_textmetrics, with empty references and hypotheses). Dropped before the catalogue as equivalent:
the root prefix's log pnb started at 0 instead of -inf (node 0 has no label: its pnb is never read), the log-space
forward's zero-step return (a row with no steps is always exact), and _width stopping at total > width instead
of >= (only the cap's arithmetic, min() gives the same width).

    python tests/mutants/run.py --only 'v137-*'
"""
CTC = "lnrnn/kernels/ctc.py"
BEAM = "lnrnn/model/beam.py"
DECODE = "lnrnn/model/decode.py"
TEXT = "lnrnn/textmetrics.py"

# existing tests of these modules
CTC_OLD = ["tests/kernels/test_ctc.py", "tests/kernels/test_values48_ctc.py", "tests/kernels/test_values87_ctc.py",
           "tests/kernels/test_values105_ctc.py"]
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values87_beam.py", "tests/model/test_values109_beam.py",
            "tests/model/test_values48_decode.py"]
DECODE_OLD = ["tests/model/test_values_decode.py", "tests/model/test_values48_decode.py",
              "tests/model/test_values88_decode.py", "tests/model/test_values119_decode.py"]
TEXT_OLD = ["tests/test_values_textmetrics.py", "tests/test_values48_textmetrics.py",
            "tests/test_values87_textmetrics.py", "tests/test_values119_textmetrics.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CTC_NEW = ["tests/kernels/test_values137_ctc.py"]
BEAM_NEW = ["tests/model/test_values137_beam.py"]
DECODE_NEW = ["tests/model/test_values137_beam.py"]
TEXT_NEW = ["tests/test_values137_textmetrics.py"]

MUTANTS = [
    # ---- the CTC kernel: the backward's saved buffer, beta's last step, the padding, skips, posteriors ----
    dict(name="v137-ctc-backward-scales-the-saved-logp", file=CTC,
         old="    grad = saved[1]\n",
         new="    grad = saved[0]\n",
         tests=CTC_NEW + CTC_OLD,
         why="ctc_backward multiplies dloss by the saved log-softmax (saved[0]) instead of the saved gradient "
             "(saved[1]): every returned gradient is g * log p"),
    dict(name="v137-ctc-beta-stops-before-step-0", file=CTC,
         old="    for t in range(Tb - 1, -1, -1):\n        lo, hi = _band(t, Tb, Sb)\n",
         new="    for t in range(Tb - 1, 0, -1):\n        lo, hi = _band(t, Tb, Sb)\n",
         tests=CTC_NEW + CTC_OLD,
         why="the exact backward's step loop stops at t = 1: step 0's gradient is never written (the buffer's "
             "leftovers), for every row that runs exactly"),
    dict(name="v137-ctc-padding-zeroed-from-one-step-late", file=CTC,
         old="            for t in range(Tb, T):\n",
         new="            for t in range(Tb + 1, T):\n",
         tests=CTC_NEW + CTC_OLD,
         why="a short row's padding is zeroed from step Tb + 1: its logp and gradient at step Tb keep whatever the "
             "uninitialized buffer held"),
    dict(name="v137-ctc-no-skip-between-distinct-labels", file=CTC,
         old="            skm[s] = 1.0\n",
         new="            skm[s] = 0.0\n",
         tests=CTC_NEW + CTC_OLD,
         why="the linear-space skip mask bars every skip: a path must put a blank between any two labels, so a row "
             "of length L on L steps has p = 0 and the others lose every path without such a blank"),
    dict(name="v137-ctc-beta-posterior-reads-the-emitted-beta", file=CTC,
         old="        w = at[i] * v\n",
         new="        w = at[i] * bt[i]\n",
         tests=CTC_NEW + CTC_OLD,
         why="the posteriors of steps before the last multiply alpha by step t+1's emitted beta (bt) instead of the "
             "beta just summed (v): the gradient's shares are wrong"),
    dict(name="v137-ctc-log-alpha-stores-the-step-before", file=CTC,
         old="            al[t, s] = pb[s + 2]\n",
         new="            al[t, s] = pa[s + 2]\n",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space forward stores the previous step's log alpha as step t's: the loss is right (it reads "
             "pa after the swap) but the log-space gradient's posteriors are not"),
    # ---- the compiled prefix beam search ----
    dict(name="v137-beam-rows-read-every-step", file=BEAM,
         old="        nodes, tots, tree = _search_row(logp, b, lengths[b], W)\n",
         new="        nodes, tots, tree = _search_row(logp, b, logp.shape[0], W)\n",
         tests=BEAM_NEW + BEAM_OLD,
         why="beam_search_array searches every row over all T steps, a short row's padding included, whatever its "
             "length"),
    dict(name="v137-beam-row-returns-log-pb", file=BEAM,
         old="    return bnode[:nb].copy(), bval[0, :nb].copy(), tree\n",
         new="    return bnode[:nb].copy(), bval[1, :nb].copy(), tree\n",
         tests=BEAM_NEW + BEAM_OLD,
         why="_search_row returns its kept prefixes' log pb (paths ending in a blank) instead of their log total: "
             "the best prefix is picked by pb and its log q is pb"),
    dict(name="v137-beam-kept-node-at-the-heap-index", file=BEAM,
         old="            bnode[i] = n\n",
         new="            bnode[k] = n\n",
         tests=BEAM_NEW + BEAM_OLD,
         why="a kept prefix's node is stored at its heap index k, its values at its rank i: nodes and their "
             "probabilities part whenever the heap's order is not the rank's"),
    dict(name="v137-beam-prefix-total-is-the-larger", file=BEAM,
         old="            s = _logaddexp(b, nbl)\n",
         new="            s = max(b, nbl)\n",
         tests=BEAM_NEW + BEAM_OLD,
         why="a kept prefix's total is the larger of its blank-ending and label-ending sums, not their sum"),
    dict(name="v137-beam-prefixes-listed-last-label-first", file=BEAM,
         old="        out.append((tuple(lab[::-1]), float(s)))\n",
         new="        out.append((tuple(lab), float(s)))\n",
         tests=BEAM_NEW + BEAM_OLD,
         why="prefix_beams gives each prefix in the order the trie is climbed, last label first"),
    # ---- the prefix beam search spec ----
    dict(name="v137-spec-pb-and-pnb-swapped", file=DECODE,
         old="        for prefix, (pb, pnb) in beams.items():\n",
         new="        for prefix, (pnb, pb) in beams.items():\n",
         tests=DECODE_NEW + DECODE_OLD,
         why="prefix_beam_search unpacks (log pb, log pnb) swapped: a repeat collapses into paths that ended in a "
             "blank and a blank-separated repeat reads the label-ending ones"),
    # ---- the error rates ----
    dict(name="v137-edit-distance-rows-counted-from-0", file=TEXT,
         old="    for i, r in enumerate(ref, 1):\n",
         new="    for i, r in enumerate(ref):\n",
         tests=TEXT_NEW + TEXT_OLD,
         why="edit_distance's rows count from 0: ref[:i]'s distance to the empty hypothesis is one short, so every "
             "deletion the table begins with is free once"),
    dict(name="v137-label-edit-rows-share-one-buffer", file=TEXT,
         old="            prev, cur = cur, prev\n",
         new="            prev = cur\n",
         tests=TEXT_NEW + TEXT_OLD,
         why="label_edit_distances makes the row just computed the previous one without a second buffer: from the "
             "third row on, a row overwrites the one it reads"),
]
