"""Planted bugs, round 368 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in reading handwriting: the CTC kernel (lnrnn/kernels/ctc.py), the compiled prefix beam search
(lnrnn/model/beam.py), its Python spec (lnrnn/model/decode.py) and the error rates (lnrnn/textmetrics.py),
nineteenth pass.

14 mutants. Against the old targeted files alone (each mutant's v368 files taken off its list): 14 of 14 caught;
missed: none (the new tests add independent checks, they close no gap). The old targeted files are
tests/kernels/test_ctc.py with the kernels' test_values*_ctc files (CTC), tests/model/test_beam.py with the
test_values*_beam files (beam), the test_values*_decode files with test_ctc.py (decode) and the top-level
test_values*_textmetrics files with test_ctc.py (error rates). The new value tests catch every mutant on their own
(checked with the old files taken off the lists): test_values368_ctc (the loss against a brute-force sum over
every alignment of tiny ragged rows with a repeated label, the gradient against central differences of that sum, a
row 800 nats under the blank run in log space against the same sum in log space), test_values368_decode_beam (the
spec's and the compiled search's kept prefixes with a width keeping every prefix against label probabilities
summed over every path; two uniform steps by hand, where two equal routes meet in (1,) for log 3/4; confident
hand-spelled ragged rows' labels, lengths and log p, a row of no steps; mirrored classes whose exact ties at the
top must break as the spec's) and test_values368_textmetrics (cer, wer and error_rates against edits counted by
hand, the empty totals of the docstring). Left out as equivalent: _logaddexp's branch turned (d > 0 to d < 0: the
other formula is the same sum, only its rounding and overflow differ); the root's slot set to -1 (every slot is
reset and set again at the end of the first step, before any is read); collapse's first prev set to the blank (a
blank is never appended either way); the worst's update after an extension dropped (it only prunes less); RESCALE
steps of the backward (beta's scale cancels in the posteriors over their sum); the log-space forward's Tb == 0
answer (the rescaled forward answers a row of no steps first). Left out as memory faults rather than values: the
trie's N = 1 + T W made T W, S = 2 Lmax + 1 made 2 Lmax, and the edit-distance rows sized by the reference (Numba
does not check bounds: such slips write past an array). Left out as a possible endless loop: prefix_beams' walk up
the trie reading the depth row for the parent.

    python tests/mutants/run.py --only 'v368-*'
"""
CTC = "lnrnn/kernels/ctc.py"
BEAM = "lnrnn/model/beam.py"
DECODE = "lnrnn/model/decode.py"
TM = "lnrnn/textmetrics.py"

T_CTC = "tests/kernels/test_values368_ctc.py::"
T_DB = "tests/model/test_values368_decode_beam.py::"
T_TM = "tests/test_values368_textmetrics.py::"

OLD_CTC = ["tests/kernels/test_ctc.py"] + [f"tests/kernels/test_values{n}_ctc.py" for n in (
    26, 35, 48, 62, 87, 105, 137, 166, 199, 223, 250, 261, 285, 303, 320, 342)]
OLD_BEAM = ["tests/model/test_beam.py"] + [f"tests/model/test_values{n}_beam.py" for n in (
    9, 32, 87, 109, 137, 166, 198, 250, 257, 276, 313, 337)]
OLD_DECODE = ["tests/kernels/test_ctc.py", "tests/model/test_values_decode.py"] + [
    f"tests/model/test_values{n}_decode.py" for n in (20, 26, 48, 62, 88, 119, 213, 272, 300, 320, 342)] + [
    "tests/model/test_values223_beam_decode.py", "tests/model/test_values235_beam_decode.py"]
OLD_TM = ["tests/kernels/test_ctc.py", "tests/test_values_textmetrics.py"] + [
    f"tests/test_values{n}_textmetrics.py" for n in (10, 37, 48, 62, 87, 119, 137, 213, 235, 281)]

MUTANTS = [
    # ---- the CTC kernel: lnrnn/kernels/ctc.py ----
    dict(name="v368-ctc-first-alpha-at-its-own-index", file=CTC,
         old="        a0[s + 2] = v",
         new="        a0[s] = v",
         tests=[T_CTC + "test_loss_equals_the_sum_over_every_alignment"] + OLD_CTC,
         why="step 0's alpha is written two positions low (alpha rows hold position s at s + 2): every loss wrong"),
    dict(name="v368-ctc-beta-emission-by-position", file=CTC,
         old="    for i in range(n):\n        em[i] = yt[ext[i]]\n    nd = 0",
         new="    for i in range(n):\n        em[i] = yt[i]\n    nd = 0",
         tests=[T_CTC + "test_gradient_equals_central_differences_of_the_brute_force_loss"] + OLD_CTC,
         why="beta's emissions read the softmax at the position's index, not its class: the gradient is wrong"),
    dict(name="v368-ctc-gradient-softmax-sign", file=CTC,
         old="        dt[c] = yt[c]",
         new="        dt[c] = -yt[c]",
         tests=[T_CTC + "test_gradient_equals_central_differences_of_the_brute_force_loss"] + OLD_CTC,
         why="the gradient takes -y - posteriors instead of y - posteriors"),
    dict(name="v368-ctc-log-forward-low-is-max", file=CTC,
         old="    ninf, low = dt(-np.inf), dt(np.finfo(lp.dtype).min)\n    if Tb == 0:",
         new="    ninf, low = dt(-np.inf), dt(np.finfo(lp.dtype).max)\n    if Tb == 0:",
         tests=[T_CTC + "test_a_row_far_below_the_blank_runs_in_log_space_and_equals_the_sum"] + OLD_CTC,
         why="the log-space forward's shift floor is float64's largest value: every log alpha is -inf, a row that "
             "falls back gets p = 0 (loss 0)"),
    # ---- the compiled search: lnrnn/model/beam.py ----
    dict(name="v368-beam-log2-in-bits", file=BEAM,
         old="LOG2 = math.log(2.0)",
         new="LOG2 = math.log2(2.0)",
         tests=[T_DB + "test_two_equal_routes_into_one_prefix_by_hand"] + OLD_BEAM,
         why="log-add-exp of two equal terms adds 1 instead of log 2: equal routes into a prefix are summed wrongly"),
    dict(name="v368-beam-again-pb-pnb-swapped", file=BEAM,
         old="                _offer(heap, keys, s, b, nbl, parent[n], label[n], n, tree)",
         new="                _offer(heap, keys, s, nbl, b, parent[n], label[n], n, tree)",
         tests=[T_DB + "test_every_prefix_kept_equals_the_sum_over_paths"] + OLD_BEAM,
         why="a kept prefix's paths ending in a blank and in its label are swapped: repeats collapse wrongly"),
    dict(name="v368-beam-best-at-index-zero-taken-as-none", file=BEAM,
         old="        if k < 0:",
         new="        if k <= 0:",
         tests=[T_DB + "test_confident_rows_give_their_spelled_labels_lengths_and_log_p"] + OLD_BEAM,
         why="a row whose best prefix is the first kept one is answered with the empty label and log p -inf"),
    dict(name="v368-beam-root-depth-one", file=BEAM,
         old="parent[0], label[0], depth[0], child[0], sibling[0], slot[0] = -1, -1, 0, -1, -1, 0",
         new="parent[0], label[0], depth[0], child[0], sibling[0], slot[0] = -1, -1, 1, -1, -1, 0",
         tests=[T_DB + "test_confident_rows_give_their_spelled_labels_lengths_and_log_p"] + OLD_BEAM,
         why="the empty prefix has depth 1: every label comes out one longer, led by -1"),
    dict(name="v368-beam-best-compares-its-own-node", file=BEAM,
         old="        n = nodes[k]\n        if best < 0 or _worse(",
         new="        n = nodes[best]\n        if best < 0 or _worse(",
         tests=[T_DB + "test_exact_ties_at_the_top_are_broken_as_the_spec_breaks_them"] + OLD_BEAM,
         why="the pick of the best reads the best's own labels for the candidate's: an exact tie at the top keeps "
             "whichever came first, not the label that comes first"),
    dict(name="v368-beam-best-tie-test-inverted", file=BEAM,
         old="    if s1 != s2:",
         new="    if s1 == s2:",
         tests=[T_DB + "test_confident_rows_give_their_spelled_labels_lengths_and_log_p"] + OLD_BEAM,
         why="the best is picked by label order where log p differ: the answer is the lexicographically first kept "
             "prefix (often the empty one)"),
    # ---- the Python spec: lnrnn/model/decode.py ----
    dict(name="v368-decode-add-pb-pnb-swapped", file=DECODE,
         old="        def add(prefix, b, nb):",
         new="        def add(prefix, nb, b):",
         tests=[T_DB + "test_every_prefix_kept_equals_the_sum_over_paths"] + OLD_DECODE,
         why="the spec files paths ending in a blank as ending in the label and back: repeats collapse wrongly"),
    # ---- error rates: lnrnn/textmetrics.py ----
    dict(name="v368-textmetrics-cer-arguments-swapped", file=TM,
         old="def cer(ref, hyp):",
         new="def cer(hyp, ref):",
         tests=[T_TM + "test_character_error_rate_divides_by_the_reference_length"] + OLD_TM,
         why="cer divides by the hypothesis' length: 'ab' read as 'abc' scores 1/3, not 1/2"),
    dict(name="v368-textmetrics-wer-arguments-swapped", file=TM,
         old="def wer(ref, hyp):",
         new="def wer(hyp, ref):",
         tests=[T_TM + "test_word_error_rate_divides_by_the_reference_words"] + OLD_TM,
         why="wer divides by the hypothesis' words: one inserted word in three scores 1/4, not 1/3"),
    dict(name="v368-textmetrics-ratio-arguments-swapped", file=TM,
         old="def _ratio(edits, n):",
         new="def _ratio(n, edits):",
         tests=[T_TM + "test_error_rates_sum_edits_and_reference_lengths_first",
                T_TM + "test_error_rates_over_an_empty_total"] + OLD_TM,
         why="error_rates divides length by edits: 3 edits over 9 characters give 3, insertions over nothing 0"),
]
