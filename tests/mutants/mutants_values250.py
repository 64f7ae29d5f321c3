"""Planted bugs, round 250 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CTC kernel (lnrnn/kernels/ctc.py), the compiled prefix beam search (lnrnn/model/beam.py) and
the heads (lnrnn/model/heads.py): the rescaled forward's first step reading the band of step 1 (paths begin on
the second blank and the second label); the skip over a blank no longer barred between two equal labels (a
repeat read without its blank); the log-space forward handed the rescaled path's 0/1 skip factors for its
0/-inf ones; the log-space forward stopping one step early; the log-space backward leaving beta one
step late; a prefix merged with its parent's extension stamped for the step before (so offered twice); the
width cap counting one class too few (a "wide" beam left narrower than the prefixes); prefix_beams spelling
depths for labels; a prefix extended from its label-ending probability instead of its total; the CTC head's
label mask taking one padding entry in; its count of steps for rows; its input and label lengths swapped;
the mixture head's output count one short (and its refusal naming it).

13 mutants. Against the old targeted files alone: 12 of the first 12 caught (every CTC, beam and CTC-head slip); the
mixture head's output count was not measured. (tests/kernels/test_ctc.py, test_values199_ctc, test_values137_ctc;
tests/model/test_beam.py, test_values198_beam, test_values166_beam; tests/model/test_values235_heads,
test_values_heads, test_values223_heads.) The new value tests catch every mutant on their own (checked with the old
files taken off the lists): test_values250_ctc (T 3, C 3 rows of 'a a' on 3 steps and on 2 (no path: loss 0, logz
-inf, no gradient), the empty label, labels as long as the steps allow, against every one of the C^T paths collapsed
by hand, and the one-path rows written out step by step; a batch with two classes 800 nats down that runs in log
space, against every path, with 'c c' on three steps' loss and gradient written out as its one path),
test_values250_beam (a width of every prefix listing every labelling with its sum over paths and no labelling twice;
60 flat rows of 5 steps whose best is the exhaustive best; widths 1, 2 and the alphabet against the plain beam
written out in test_values198_beam, on random rows and on steps where two or three labels tie exactly),
test_values250_heads (a CTC head's padded labels on rows of 2, 3, 3 and 4 steps against every path; its count of
rows with a step at 3, 0, 1, 2 steps, and uniform steps' loss counted by hand: 6 paths of 'a' on 3 steps; a
mixture's 6M + 1 outputs at M = 1, 3, 20 and the refusal of another count word for word).

Left out as equivalent: the classifier's safe labels np.where(mask, lab, 0) with another fill (a masked-out
unit's pick is never summed and its gradient is multiplied by 0); the beam's root pb and pnb (bval[1, 0],
bval[2, 0]: the empty prefix has no last label, so neither is read); the search's logq taken from tots[0]
instead of the best's (the kept prefixes are sorted most probable first, and ties share their log p); the
width cap returning width itself (extra heap places stay -inf); the sift-down's heap[0, k] >= s made > s (an
equal child may move up or not: still a min-heap on log tot); s != NINF before an offer (a -inf candidate is
dropped at the build either way); the rescaled backward's last-step test t == Tb - 1 made t == Tb (the row
then falls back to the log-space path, whose loss and gradient are the same to 1e-12: only the saved
logspace flag differs, which no user reads); its rescale of beta (bn *= r; posteriors are ratios, the scale
cancels); the dropped-path bookkeeping (ldrop, nd) and the TINY fallbacks (they choose the path, not the
value). Left out as flaky or a crash: zeroing logp/grad past a row's steps or for a row with no path (np.empty
may hand back zeroed pages); S = 2 Lmax (an out-of-bounds write without boundscheck); the heap's k >= W made
k > W (reads past the heap); the tie order's depth
depth[p1] + 1 made depth[p1] (the climb walks past the root and the search segfaults). Left out as not caught
by a cheap test: the tie scan at the heap's cut started at slot 2 (a tie among three or more entries at the cut
with the worst in slot 1 is needed; exhaustive and plain-beam comparisons on tied steps did not reach it).

    python tests/mutants/run.py --only 'v250-*'
"""
CTC = "lnrnn/kernels/ctc.py"
BEAM = "lnrnn/model/beam.py"
HEADS = "lnrnn/model/heads.py"

T_CTC = "tests/kernels/test_values250_ctc.py::"
T_BEAM = "tests/model/test_values250_beam.py::"
T_HEADS = "tests/model/test_values250_heads.py::"
OLD_CTC = ["tests/kernels/test_ctc.py", "tests/kernels/test_values199_ctc.py", "tests/kernels/test_values137_ctc.py"]
OLD_BEAM = ["tests/model/test_beam.py", "tests/model/test_values198_beam.py", "tests/model/test_values166_beam.py"]
OLD_HEADS = ["tests/model/test_values235_heads.py", "tests/model/test_values_heads.py",
             "tests/model/test_values223_heads.py"]

CTC_PATHS = T_CTC + "test_repeats_empty_and_full_length_labels_against_every_path"
CTC_LOG = T_CTC + "test_rows_far_down_run_in_log_space_and_equal_every_path"
CTC_LOG_REPEAT = T_CTC + "test_log_space_repeat_on_three_steps_is_its_one_path"
BEAM_LIST = T_BEAM + "test_a_wide_search_lists_every_labelling_with_its_sum_over_paths"
BEAM_BEST = T_BEAM + "test_a_wide_search_finds_each_rows_exhaustive_best"
BEAM_TIES = T_BEAM + "test_widths_one_two_and_the_alphabet_keep_the_plain_beams_list_among_ties"
BEAM_RANDOM = T_BEAM + "test_widths_one_two_and_the_alphabet_on_random_rows"

MUTANTS = [
    # ---- the CTC kernel: lnrnn/kernels/ctc.py ----
    dict(name="v250-ctc-first-step-band-of-step-one", file=CTC,
         old="    lo, hi = _band(0, Tb, Sb)\n",
         new="    lo, hi = _band(1, Tb, Sb)\n",
         tests=[CTC_PATHS] + OLD_CTC,
         why="the rescaled forward's step 0 starts on step 1's band: paths may begin on the second blank or "
             "label, and a label as long as the steps allow loses its first positions"),
    dict(name="v250-ctc-repeat-skip-not-barred", file=CTC,
         old="        if _skip(lab, s):\n",
         new="        if s % 2 == 1 and s >= 3:\n",
         tests=[CTC_PATHS, CTC_LOG] + OLD_CTC,
         why="the skip over a blank is allowed between two equal labels: 'a a' is read without its blank "
             "(a path on 2 steps where there is none, extra paths on 3)"),
    dict(name="v250-ctc-log-forward-gets-rescaled-skips", file=CTC,
         old="                lz = _row_forward_log(logp[:, b, :], ext[k], skl[k],",
         new="                lz = _row_forward_log(logp[:, b, :], ext[k], skm[k],",
         tests=[CTC_LOG, CTC_LOG_REPEAT] + OLD_CTC,
         why="the log-space forward adds the rescaled path's 0/1 factors: a barred skip adds 0 (allowed), an "
             "allowed one adds 1 nat"),
    dict(name="v250-ctc-log-forward-last-step-dropped", file=CTC,
         old="    for t in range(1, Tb):\n",
         new="    for t in range(1, Tb - 1):\n",
         tests=[CTC_LOG, CTC_LOG_REPEAT] + OLD_CTC,
         why="the log-space forward stops a step early: log p is read off alpha of step Tb - 2"),
    dict(name="v250-ctc-log-backward-beta-a-step-late", file=CTC,
         old="        if t < Tb - 1:                           # beta[t] from beta[t+1]",
         new="        if t < Tb - 2:                           # beta[t] from beta[t+1]",
         tests=[CTC_LOG, CTC_LOG_REPEAT] + OLD_CTC,
         why="the log-space backward keeps the last step's beta at step Tb - 2: that step's gradient (and "
             "every earlier one) is wrong"),
    # ---- the prefix beam search: lnrnn/model/beam.py ----
    dict(name="v250-beam-merge-stamped-a-step-early", file=BEAM,
         old="                    merged[j, c] = t + 1",
         new="                    merged[j, c] = t",
         tests=[BEAM_LIST, BEAM_BEST, BEAM_RANDOM] + OLD_BEAM,
         why="a kept prefix merged with its parent's extension is not marked for this step: the extension is "
             "offered again, and the prefix is kept twice with split probabilities"),
    dict(name="v250-beam-width-cap-one-class-short", file=BEAM,
         old="    _search_rows(labels, label_lengths, logq, logp, lengths, _width(width, T, C))",
         new="    _search_rows(labels, label_lengths, logq, logp, lengths, _width(width, T, C - 1))",
         tests=[BEAM_BEST] + OLD_BEAM,
         why="the width cap counts the prefixes of one label class fewer: a width of every prefix is cut to a "
             "narrow beam that can lose the best labelling"),
    dict(name="v250-beam-prefix-spelled-by-depth", file=BEAM,
         old="            lab.append(int(tree[1, n]))",
         new="            lab.append(int(tree[2, n]))",
         tests=[BEAM_LIST, BEAM_TIES, BEAM_RANDOM] + OLD_BEAM,
         why="prefix_beams spells each prefix with its nodes' depths (1, 2, ...) instead of their labels"),
    dict(name="v250-beam-extension-from-pnb", file=BEAM,
         old="            tot = bval[0, j]\n",
         new="            tot = bval[2, j]\n",
         tests=[BEAM_LIST, BEAM_RANDOM] + OLD_BEAM,
         why="a kept prefix is extended from its probability ending in a label alone, not its total: "
             "paths ending in a blank are lost to every new label"),
    # ---- the heads: lnrnn/model/heads.py ----
    dict(name="v250-heads-ctc-label-mask-takes-padding", file=HEADS,
         old="        inside = np.arange(labels.shape[1])[None, :] < ll[:, None]",
         new="        inside = np.arange(labels.shape[1])[None, :] <= ll[:, None]",
         tests=[T_HEADS + "test_ctc_padded_labels_on_rows_of_their_own_steps_against_every_path"] + OLD_HEADS,
         why="the label mask reaches one entry past each label: every padded label is refused as having -1 "
             "inside it"),
    dict(name="v250-heads-ctc-count-steps", file=HEADS,
         old="        return int(np.count_nonzero(np.count_nonzero(valid, axis=0)))",
         new="        return int(np.count_nonzero(valid))",
         tests=[T_HEADS + "test_ctc_count_is_rows_with_a_step_not_steps",
                T_HEADS + "test_ctc_padded_labels_on_rows_of_their_own_steps_against_every_path"] + OLD_HEADS,
         why="the CTC head's count is its valid steps, not its rows with a step: the per-sequence loss is "
             "divided by steps"),
    dict(name="v250-heads-ctc-lengths-swapped", file=HEADS,
         old="        return labels, il, ll.astype(np.int64)",
         new="        return labels, ll.astype(np.int64), il",
         tests=[T_HEADS + "test_ctc_padded_labels_on_rows_of_their_own_steps_against_every_path",
                T_HEADS + "test_ctc_count_is_rows_with_a_step_not_steps"] + OLD_HEADS,
         why="the CTC head hands the kernel its label lengths as step counts and its step counts as label "
             "lengths"),
    dict(name="v250-heads-mdn-outputs-one-short", file=HEADS,
         old="        K = 6 * self.M + 1\n",
         new="        K = 6 * self.M\n",
         tests=[T_HEADS + "test_mixture_has_six_outputs_a_component_and_one_for_the_stroke_end",
                T_HEADS + "test_mixture_of_another_output_count_is_refused_naming_both"] + OLD_HEADS,
         why="the mixture head has no output for the end of stroke: 6M outputs, and a refusal naming 6M"),
]
