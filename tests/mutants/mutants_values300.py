"""Planted bugs, round 300 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in CTC decoding (lnrnn/model/decode.py, the readable prefix beam search; lnrnn/model/beam.py, the compiled one)
and the sampler's captions (lnrnn/sample.py), fifteenth pass: the spec reading step t - 1 (the last step first);
the spec keeping prefixes no path spells (log p -inf); the spec extending prefixes by the blank; the compiled
search starting from log p 1 instead of 0; a kept prefix merging with its own slot instead of its parent's; a
kept prefix's pb and pnb stored swapped; the blank read as the last class (another library's convention); a row's
best label walked up the trie by its labels instead of its parents; the best taken as the first kept prefix
(wrong among exact ties); a caption's prime note on the rows without a prime; the caption limit at 120.

11 mutants. Against the old targeted files alone: 11 of 11 caught. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values300_decode (both searches at the full width against
brute force over every C^T path, test_values198_beam's every_labelling, at T 3 C 3, T 4 C 2 and T 2 C 4: exactly the
labels some path spells, none with a blank; rows of 4, 3 and 0 steps against the brute-force best and its log p, one
best spelling two labels; float32 scores against float64 brute force at rtol 1e-13; a hand-worked row where best
path gives (), width 1 () at .25, width 3 (a) .39, () .25, (b) .24; exact ties on uniform steps worked out in
fractions, ranked shortest then smallest; a one-step tie of two labels at width 1), test_values300_sampler
(written_label of rows built by hand against the caption rule: the prime note only on a primed row, captions of
exactly 100 characters whole and of 101 cut, with and without the prime note).

Left out as equivalent: _logaddexp's d > 0 made d >= 0 (d == 0 is x == y, answered before); the heap's sift-down
heap[0, k] >= s made > (an equal child moved up keeps a heap on log tot, and ties at the cut are settled before);
dropping s != NINF before an offer (an offer of -inf is never kept: the sort of kept entries skips -inf); dropping
worst = heap[0, 0] after an extension (a stale, lower worst prunes less, never more); _width's total >= width made >
and its min made the width itself (a wider heap than the prefixes leaves empty places, which are skipped); the
root's pb and pnb swapped (the empty prefix's pnb and pb are read only through its tot, as it has no last label);
best_path_array's n.astype dropped (keep.sum already gives integers); the spec's `k = int(k)` in collapse (every
caller passes integers); the sampler's np.zeros of out and phis made np.empty (rows are cut at their kept points,
every kept one written); beam_search_array's float64 conversion dropped (Numba adds float32 scores to the float64
sums in float64: measured, the float32 test still passes). Left out as a crash rather than a value: the node count N
= steps * W (the last node written past the trie, no bounds check in Numba: unpredictable) and
window.WindowStack.forward's per-layer state made state[0] (layer 2 refuses layer 1's four-part state), and _order's
depth of a candidate's extension one short (the climb up the trie can pass the root and read index -1: the search
hangs). Left out as unobservable on the CPU: the window stack's crossing counts (counted only for a device). The
sampler's stop rule, step cap and priming lines are mutated by earlier rounds.

    python tests/mutants/run.py --only 'v300-*'
"""
DECODE = "lnrnn/model/decode.py"
BEAM = "lnrnn/model/beam.py"
SAMPLE = "lnrnn/sample.py"

T_DEC = "tests/model/test_values300_decode.py::"
T_SAM = "tests/commands/test_values300_sampler.py::"
FULL = T_DEC + "test_full_width_lists_every_reachable_label_with_its_sum_over_paths"
ROWS = T_DEC + "test_rows_of_their_own_lengths_give_the_brute_force_best_and_its_log_p"
HAND = T_DEC + "test_hand_row_best_path_width_one_width_three_and_full_width_disagree"
TIES = T_DEC + "test_exact_ties_are_ranked_shortest_then_smallest_labels"
TIE1 = T_DEC + "test_one_step_tie_of_two_labels_keeps_the_smaller_at_width_one"
OLD_DECODE = ["tests/model/test_values_decode.py", "tests/model/test_values272_decode.py",
              "tests/model/test_values223_beam_decode.py"]
OLD_BEAM = ["tests/model/test_beam.py", "tests/model/test_values257_beam.py", "tests/model/test_values250_beam.py"]
OLD_SAMPLE = ["tests/test_values238_sampler.py", "tests/test_values213_sampler.py"]

MUTANTS = [
    # ---- the readable prefix beam search: lnrnn/model/decode.py ----
    dict(name="v300-decode-spec-reads-the-step-before", file=DECODE,
         old="        lp = logp[t]\n",
         new="        lp = logp[t - 1]\n",
         tests=[FULL, HAND] + OLD_DECODE,
         why="the spec's step t reads step t - 1's scores (step 0 the last step's): every probability is wrong"),
    dict(name="v300-decode-spec-keeps-unspelt-prefixes", file=DECODE,
         old="            if b == ninf and nb == ninf:       # no path (a repeat right after its label): not a prefix\n"
             "                return\n",
         new="            if b == ninf and nb == ninf:       # no path (a repeat right after its label): not a prefix\n"
             "                pass\n",
         tests=[FULL] + OLD_DECODE,
         why="a repeat right after its label is kept as a prefix of log p -inf: (1, 1) listed at T 2"),
    dict(name="v300-decode-spec-blank-extends", file=DECODE,
         old="                if c == CTC_BLANK:\n                    continue\n",
         new="                if c == CTC_BLANK:\n                    pass\n",
         tests=[FULL] + OLD_DECODE,
         why="the blank also extends prefixes as a label: labels holding 0, probabilities counted twice"),
    # ---- the compiled prefix beam search: lnrnn/model/beam.py ----
    dict(name="v300-beam-root-log-p-one", file=BEAM,
         old="    bval[0, 0], bval[1, 0], bval[2, 0] = 0.0, 0.0, NINF\n",
         new="    bval[0, 0], bval[1, 0], bval[2, 0] = 1.0, 0.0, NINF\n",
         tests=[FULL, ROWS, HAND] + OLD_BEAM,
         why="the empty prefix starts at log p 1 (probability 1 written as its own log): every log p one too high"),
    dict(name="v300-beam-merges-with-own-slot", file=BEAM,
         old="                j = slot[parent[n]]\n",
         new="                j = slot[n]\n",
         tests=[FULL, ROWS, HAND] + OLD_BEAM,
         why="a kept prefix adds its own extension by its last label instead of its parent's: wrong sums"),
    dict(name="v300-beam-kept-pb-pnb-swapped", file=BEAM,
         old="            bval[0, i], bval[1, i], bval[2, i] = heap[0, k], heap[1, k], heap[2, k]\n",
         new="            bval[0, i], bval[1, i], bval[2, i] = heap[0, k], heap[2, k], heap[1, k]\n",
         tests=[FULL, ROWS, HAND] + OLD_BEAM,
         why="a kept prefix's blank-ending and label-ending sums are stored swapped: repeats collapse wrongly"),
    dict(name="v300-beam-blank-read-last", file=BEAM,
         old="        blank = lp[CTC_BLANK]\n",
         new="        blank = lp[-1]\n",
         tests=[FULL, ROWS, HAND] + OLD_BEAM,
         why="the blank's score is read from the last class (another library's convention), not class 0"),
    dict(name="v300-beam-best-walked-by-labels", file=BEAM,
         old="            n = tree[0, n]\n\n\ndef _width",
         new="            n = tree[1, n]\n\n\ndef _width",
         tests=[ROWS] + OLD_BEAM,
         why="a row's best label is read up the trie through its labels' numbers instead of its parents"),
    dict(name="v300-beam-best-is-first-kept", file=BEAM,
         old="        n = nodes[k]\n        d = tree[2, n]\n",
         new="        n = nodes[0]\n        d = tree[2, n]\n",
         tests=[TIES, TIE1] + OLD_BEAM,
         why="a row's label is the first kept prefix, not the best in the spec's order: wrong among exact ties"),
    # ---- the sampler's captions: lnrnn/sample.py ----
    dict(name="v300-sample-prime-note-inverted", file=SAMPLE,
         old='    primed = " after the prime (grey)" if row.prime is not None else ""\n',
         new='    primed = " after the prime (grey)" if row.prime is None else ""\n',
         tests=[T_SAM + "test_the_prime_note_only_on_a_primed_row"] + OLD_SAMPLE,
         why="the caption says 'after the prime (grey)' on every unprimed line and not on the primed ones"),
    dict(name="v300-sample-caption-limit-120", file=SAMPLE,
         old="CAPTION_CHARS = 100  #",
         new="CAPTION_CHARS = 120  #",
         tests=[T_SAM + "test_a_caption_of_100_characters_is_whole_and_of_101_cut_to_100"] + OLD_SAMPLE,
         why="captions up to 120 characters are left whole: they run past the picture's width"),
]
