"""Planted bugs, round 337 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the sampler (lnrnn/sample.py) and the compiled CTC prefix beam search (lnrnn/model/beam.py),
eighteenth pass: the sampler's default seed made 1; the free sampler's progress check inverted (no bar told,
a crash without one); a prime ignored (its check inverted); a kept candidate's log pb and log pnb swapped as
it enters the heap; every row of a batch reading row 0's log-probabilities; the merge of a kept prefix with its
kept parent's extension keeping only the parent's route; that extension marked as merged a step late (offered
again: the prefix twice in the beam); the slot of the best kept prefix never cleared (a later child merges
with whatever holds that slot); the width taken as every prefix the steps can spell past the width asked for;
the extensions' bound pruning a candidate that ties the worst kept; the trie's child lookup stopping at the
first child of another label; the heap's entries kept least probable first (the bound of the best kept and the
scan's early stop read the worst); the tie at the cut replacing the first tied entry by the labels' order
instead of the last; prefix_beams spelling each prefix with its nodes' parents instead of their labels.

14 mutants. Against the old targeted files alone: 13 of 14 (missed: the sampler's default seed 1 instead of the
documented 0). The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values337_beam (widths 1, 2 and 3 against the plain prefix beam of test_values198_beam on rows whose label
columns are equal in pairs, so that swapped classes tie exactly and the cut falls inside a tie, and on random rows;
a beam as wide as every prefix against the sum over every one of the C^T paths collapsed by hand; a batch of four
rows each against its own search; a one-label row of three steps whose 8 paths are summed in the test: (a,) of six
paths, (a, a) only a-blank-a; a repeat needing a blank between), test_values337_sampler (free draws replayed with
Graves's mixture drawn in the test from default_rng(seed): the defaults one row, seed 0, no bias; biases 0, 0.7 and
2.5, the same seed twice equal and the next seed different; a progress told 3 points at each of 6 steps; the stop
rule on phi written by hand with a tie and a padding column; a written row against lnrnn/reference.py's window, its
stop step s and the same row capped at s - 1 (capped), s and s + 1 (stopped at s, the same points); a primed pair of
rows reading the prime first, its 3 characters first in chars, the prime in data units). Left out as equivalent: the
search's float64 conversion of logp dropped (a float32 row is widened exactly where it meets the float64 beam
values: every sum is the same float64); _codes' astype(np.int64) dropped (the row's codes are concatenated with the
prime's int64 codes, even when empty, and come out int64); the sampler's out and phis made np.empty (each row keeps
only the steps it wrote); _logaddexp's d > 0 made d >= 0 (d = 0 only when x == y, handled before); the node's own
number left off its "again" candidate (the lookup finds the same node); the trie's new node losing its siblings (a
dropped prefix is rebuilt as a second node, but two nodes of one prefix are never kept at once: its extension is
merged, not offered); the class order's < made <= (the heap breaks ties by labels whatever order they are offered
in).

    python tests/mutants/run.py --only 'v337-*'
"""
BEAM = "lnrnn/model/beam.py"
SAMPLE = "lnrnn/sample.py"

T_BEAM = "tests/model/test_values337_beam.py::"
T_SAMPLE = "tests/model/test_values337_sampler.py::"
OLD_BEAM = ["tests/model/test_beam.py", "tests/model/test_values198_beam.py", "tests/model/test_values250_beam.py",
            "tests/model/test_values257_beam.py"]
OLD_SAMPLE = ["tests/test_values133_sampler.py", "tests/test_values162_sampler.py",
              "tests/test_values213_sampler.py", "tests/test_values226_sampler.py"]

TIES = T_BEAM + "test_widths_one_two_three_keep_the_plain_beams_list_among_exact_ties"
RANDOM = T_BEAM + "test_widths_one_two_three_on_random_rows"
EVERY = T_BEAM + "test_a_beam_of_every_prefix_lists_every_labelling_with_its_sum_over_paths"
BATCH = T_BEAM + "test_a_batch_of_rows_each_find_their_own_best_at_every_width"
BY_HAND = T_BEAM + "test_one_label_three_steps_merged_by_hand"
REPEAT = T_BEAM + "test_a_repeated_label_needs_a_blank_between_at_widths_two_and_three"

MUTANTS = [
    # ---- the sampler: lnrnn/sample.py ----
    dict(name="v337-sample-default-seed-1", file=SAMPLE,
         old="count=1, bias=0.0, seed=0, start=None,",
         new="count=1, bias=0.0, seed=1, start=None,",
         tests=[T_SAMPLE + "test_the_defaults_draw_one_row_from_seed_0_without_bias"] + OLD_SAMPLE,
         why="sample_strokes without a seed draws from seed 1, not the documented 0"),
    dict(name="v337-sample-free-progress-inverted", file=SAMPLE,
         old="        if progress is not None:\n            progress.update(count)\n",
         new="        if progress is None:\n            progress.update(count)\n",
         tests=[T_SAMPLE + "test_progress_is_told_each_steps_points",
                T_SAMPLE + "test_the_defaults_draw_one_row_from_seed_0_without_bias"] + OLD_SAMPLE,
         why="a free draw tells a given progress nothing and fails without one"),
    dict(name="v337-sample-prime-check-inverted", file=SAMPLE,
         old="    if prime is not None:\n        pre_pts = check_stroke3(",
         new="    if prime is None:\n        pre_pts = check_stroke3(",
         tests=[T_SAMPLE + "test_a_primed_pair_of_rows_reads_the_prime_and_keeps_it_in_data_units",
                T_SAMPLE + "test_a_written_row_stops_at_its_step_capped_one_short_and_there_exactly"] + OLD_SAMPLE,
         why="a given prime is ignored (rows written unprimed) and a row without one fails"),
    # ---- the compiled beam search: lnrnn/model/beam.py ----
    dict(name="v337-beam-put-pb-pnb-swapped", file=BEAM,
         old="    heap[0, i], heap[1, i], heap[2, i] = s, b, nb\n",
         new="    heap[0, i], heap[1, i], heap[2, i] = s, nb, b\n",
         tests=[BY_HAND, EVERY, RANDOM] + OLD_BEAM,
         why="a candidate's log pb and log pnb trade places in the heap: repeats collapse on the wrong route"),
    dict(name="v337-beam-every-row-reads-row-0", file=BEAM,
         old="        lp = logp[t, row]",
         new="        lp = logp[t, 0]",
         tests=[BATCH] + OLD_BEAM,
         why="every row of a batch is searched over row 0's log-probabilities"),
    dict(name="v337-beam-merge-keeps-one-route", file=BEAM,
         old="                    nbl = _logaddexp(nbl, e)",
         new="                    nbl = e",
         tests=[BY_HAND, EVERY, REPEAT] + OLD_BEAM,
         why="a kept prefix whose parent is kept too loses its own repeat route: only the parent's extension counts"),
    dict(name="v337-beam-merged-marked-a-step-late", file=BEAM,
         old="                    merged[j, c] = t + 1",
         new="                    merged[j, c] = t",
         tests=[EVERY, BY_HAND] + OLD_BEAM,
         why="the merged extension is offered again: one prefix takes two places in the beam"),
    dict(name="v337-beam-slot-of-best-never-cleared", file=BEAM,
         old="        for k in range(nb):\n            slot[bnode[k]] = -1",
         new="        for k in range(1, nb):\n            slot[bnode[k]] = -1",
         tests=[RANDOM, TIES, EVERY] + OLD_BEAM,
         why="the best kept prefix keeps its slot after it is dropped: a child later merges with that slot's prefix"),
    dict(name="v337-beam-width-every-prefix", file=BEAM,
         old="    return int(min(width, total))",
         new="    return int(total)",
         tests=[TIES, RANDOM] + OLD_BEAM,
         why="a narrow beam keeps every prefix the first steps can spell past its width (width 2 of 3 classes keeps 3)"),
    dict(name="v337-beam-bound-prunes-a-tie", file=BEAM,
         old="                if tot + lp[c] < worst:",
         new="                if tot + lp[c] <= worst:",
         tests=[TIES] + OLD_BEAM,
         why="an extension tying the worst kept is never offered, even where its labels come first"),
    dict(name="v337-beam-trie-lookup-inverted", file=BEAM,
         old="while n >= 0 and label[n] != c:",
         new="while n >= 0 and label[n] == c:",
         tests=[EVERY, RANDOM] + OLD_BEAM,
         why="a kept extension reuses its parent's first child of another label: prefixes take wrong labels"),
    dict(name="v337-beam-kept-worst-first", file=BEAM,
         old="            while i > 0 and heap[0, order[i - 1]] < v:",
         new="            while i > 0 and heap[0, order[i - 1]] > v:",
         tests=[RANDOM, TIES] + OLD_BEAM,
         why="kept prefixes are ordered least probable first: the extension bound reads the worst and stops early"),
    dict(name="v337-beam-tie-replaces-first-tied", file=BEAM,
         old="_order(keys[0, k], keys[1, k], keys[0, w], keys[1, w], tree) > 0:",
         new="_order(keys[0, k], keys[1, k], keys[0, w], keys[1, w], tree) < 0:",
         tests=[TIES] + OLD_BEAM,
         why="at a tie at the cut the first tied prefix by labels is the one replaced, not the last"),
    dict(name="v337-prefix-beams-spelt-with-parents", file=BEAM,
         old="            lab.append(int(tree[1, n]))",
         new="            lab.append(int(tree[0, n]))",
         tests=[BY_HAND, EVERY] + OLD_BEAM,
         why="prefix_beams spells each prefix with its nodes' parent numbers instead of their labels"),
]
