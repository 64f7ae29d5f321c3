"""Planted bugs, round 235 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the heads' masks and counts, the compiled beam search, best path and the text metrics: the per-step classifier
taking class 0 for padding, counting correct predictions on unscored steps, and leaving unscored steps in its
gradient; the regression head counting a unit within tolerance when any one output is, and returning every unit
as its count; the mixture head's nats per sequence divided by the points; the CTC head counting, and scoring,
rows of no step; the candidates' heap sifting toward the larger child; the compiled search never writing a
row's first label; the width cap counting the prefixes of one class fewer; best path counting kept labels over
the wrong axis; error_rates' refusal swapping its two counts; the compiled edit distances skipping the last row.

14 mutants. Against the existing targeted tests alone (test_values223_heads, test_values199_heads,
test_values_heads, test_values48_heads; test_values223_beam_decode, test_beam, test_values198_beam,
test_values48_decode; test_values137_textmetrics, test_values87_textmetrics, test_values48_textmetrics,
test_values10_textmetrics) 12 were caught and 2 missed: the CTC head's count taking every row (none of them
compares count() with a batch holding a row of no step), and error_rates' refusal with its counts
swapped (never read word for word). The new value tests catch every mutant on their own (checked with the old
files taken off the lists): test_values235_heads (W the identity and b 0, so that logits and predictions are the
h written there: the per-step classifier's loss, count, accuracy and gradient by hand over labels 0 and -1 and an
invalid step whose argmax is its label; the regression head's accuracy and count over a unit with one output off
and an invalid unit within; the mixture head's means by hand; the CTC head's count, 'chars' and loss with a row of
no step, the loss by the sum over every path), test_values235_beam_decode (wide beams against every path summed by
brute force at one and two label classes; narrow beams of widths 3 to 5 against the spec, prefix_beam_search;
rows of their own lengths against brute force, first label included; best path at B 3 != T 5 against argmax paths
collapsed by hand), test_values235_textmetrics (the compiled distances of 1, 3 and 11 rows against the recursion,
the last row's 3 edits by hand; error rates past 10 and 100 characters by hand; the refusal word for word).
Left out as equivalent: _logaddexp's d > 0 as d >= 0 (d is 0 only where x == y, returned before); collapse
starting with prev = 0 (a first blank is dropped either way); the width cap's total >= width as >, or its min as
max (a wider beam, still exact); error_rates' edit distances with ref and hyp swapped (Levenshtein is symmetric).
Left out as flaky: the compiled edit distances' inner loop one short (the row's last entry is then np.empty
scratch, whatever the allocator returns).

    python tests/mutants/run.py --only 'v235-*'
"""
HEADS = "lnrnn/model/heads.py"
BEAM = "lnrnn/model/beam.py"
DECODE = "lnrnn/model/decode.py"
TEXT = "lnrnn/textmetrics.py"

TH = "tests/model/test_values235_heads.py::"
TD = "tests/model/test_values235_beam_decode.py::"
TT = "tests/test_values235_textmetrics.py::"
OLD_HEADS = ["tests/model/test_values223_heads.py", "tests/model/test_values199_heads.py",
             "tests/model/test_values_heads.py", "tests/model/test_values48_heads.py"]
OLD_DECODE = ["tests/model/test_values223_beam_decode.py", "tests/model/test_beam.py",
              "tests/model/test_values198_beam.py", "tests/model/test_values48_decode.py"]
OLD_TEXT = ["tests/test_values137_textmetrics.py", "tests/test_values87_textmetrics.py",
            "tests/test_values48_textmetrics.py", "tests/test_values10_textmetrics.py"]

MUTANTS = [
    dict(name="v235-heads-classifier-label-zero-unscored", file=HEADS,
         old="        return valid & (self._labels(targets) >= 0)",
         new="        return valid & (self._labels(targets) > 0)",
         tests=[TH + "test_per_step_classifier_scores_label_zero_and_skips_padding_and_invalid_steps"] + OLD_HEADS,
         why="the classifier takes class 0 for padding: steps labelled 0 are neither scored nor counted"),
    dict(name="v235-heads-classifier-acc-counts-masked", file=HEADS,
         old="        correct = int(np.count_nonzero((logits.argmax(-1) == lab) & mask))",
         new="        correct = int(np.count_nonzero(logits.argmax(-1) == lab))",
         tests=[TH + "test_per_step_classifier_scores_label_zero_and_skips_padding_and_invalid_steps"] + OLD_HEADS,
         why="the classifier's accuracy counts correct predictions on unscored (invalid) steps too"),
    dict(name="v235-heads-classifier-grad-unmasked", file=HEADS,
         old="        d *= (mask * scale)[..., None]",
         new="        d *= scale",
         tests=[TH + "test_per_step_classifier_scores_label_zero_and_skips_padding_and_invalid_steps"] + OLD_HEADS,
         why="the classifier's gradient is not masked: unscored steps push toward class 0"),
    dict(name="v235-heads-regression-acc-any-output", file=HEADS,
         old="np.all(np.abs(err) < self.tolerance, axis=-1)",
         new="np.any(np.abs(err) < self.tolerance, axis=-1)",
         tests=[TH + "test_regression_counts_units_within_tolerance_on_every_output_and_only_valid_ones"] + OLD_HEADS,
         why="a regression unit counts as within tolerance when any one of its outputs is, not all"),
    dict(name="v235-heads-regression-count-all-units", file=HEADS,
         old='        return {"loss": loss, "acc": float(within)}, int(np.count_nonzero(valid)), (h, err)',
         new='        return {"loss": loss, "acc": float(within)}, int(valid.size), (h, err)',
         tests=[TH + "test_regression_counts_units_within_tolerance_on_every_output_and_only_valid_ones"] + OLD_HEADS,
         why="the regression head's count (the loss's normalizer) includes unscored units"),
    dict(name="v235-heads-mdn-nats-seq-per-point", file=HEADS,
         old='"nats_seq": sums["nats_seq"] / max(sums.get("seqs", 0), 1)}',
         new='"nats_seq": sums["nats_seq"] / max(count, 1)}',
         tests=[TH + "test_mixture_means_divide_nats_per_sequence_by_sequences_and_loss_by_points"] + OLD_HEADS,
         why="the mixture head's nats per sequence are divided by the points, not the sequences"),
    dict(name="v235-heads-ctc-count-rows-of-no-step", file=HEADS,
         old="        return int(np.count_nonzero(np.count_nonzero(valid, axis=0)))",
         new="        return int(valid.shape[1])",
         tests=[TH + "test_ctc_rows_of_no_step_are_neither_counted_nor_scored"] + OLD_HEADS,
         why="the CTC head's count includes rows of no step: the loss per sequence is divided by too many"),
    dict(name="v235-heads-ctc-forward-rows-of-no-step", file=HEADS,
         old="        rows = np.flatnonzero(il > 0)",
         new="        rows = np.flatnonzero(il >= 0)",
         tests=[TH + "test_ctc_rows_of_no_step_are_neither_counted_nor_scored"] + OLD_HEADS,
         why="the CTC forward scores rows of no step: their labels join 'chars' and the row count"),
    dict(name="v235-beam-heap-sift-larger-child", file=BEAM,
         old="        if k + 1 < W and heap[0, k + 1] < heap[0, k]:",
         new="        if k + 1 < W and heap[0, k + 1] > heap[0, k]:",
         tests=[TD + "test_narrow_beams_keep_the_spec_prefixes"] + OLD_DECODE,
         why="the candidates' min-heap sifts toward the larger child: the root is no longer the worst kept"),
    dict(name="v235-beam-first-label-not-written", file=BEAM,
         old="        for i in range(d - 1, -1, -1):",
         new="        for i in range(d - 1, 0, -1):",
         tests=[TD + "test_rows_of_their_own_lengths_find_their_most_probable_labelling"] + OLD_DECODE,
         why="the compiled search writes a row's labels but the first: it stays -1"),
    dict(name="v235-beam-width-cap-one-class-short", file=BEAM,
         old="        level *= max(classes - 1, 0)",
         new="        level *= max(classes - 2, 0)",
         tests=[TD + "test_wide_beams_hold_every_prefix_there_is"] + OLD_DECODE,
         why="the width is capped at the prefixes of one class fewer: a wide beam is narrowed and loses labellings"),
    dict(name="v235-decode-best-path-count-wrong-axis", file=DECODE,
         old="    n = keep.sum(axis=1)",
         new="    n = keep.sum(axis=0)",
         tests=[TD + "test_best_path_per_row_over_its_own_steps"] + OLD_DECODE,
         why="best path counts each step's kept labels over the rows instead of each row's over its steps"),
    dict(name="v235-text-error-rates-message-swapped", file=TEXT,
         old='raise ValueError(f"{len(refs)} reference line{\'s\' * (len(refs) != 1)} but {len(hyps)} "',
         new='raise ValueError(f"{len(hyps)} reference line{\'s\' * (len(refs) != 1)} but {len(refs)} "',
         tests=[TT + "test_unpaired_lines_refused_word_for_word"] + OLD_TEXT,
         why="error_rates' refusal of unpaired lines swaps the two counts"),
    dict(name="v235-text-label-edits-last-row-skipped", file=TEXT,
         old="    for b in range(B):\n        n = hyp_lengths[b]",
         new="    for b in range(B - 1):\n        n = hyp_lengths[b]",
         tests=[TT + "test_label_edit_distances_of_every_row"] + OLD_TEXT,
         why="the compiled edit distances skip the last row: its distance stays 0"),
]
