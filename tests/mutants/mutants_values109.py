"""Planted bugs, round 109 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in sampling, beam search and stroke preparation: a prime given to a model trained without text dropped
in silence, a written line's scale read as (sy, sx), shortened cutting a caption that fits the limit exactly,
written_label's cap note inverted; beam_search_array's labels padded with 0 instead of -1; a stroke batch
feeding each step its own target, the reading batch one point late, a synthetic spike not undone by its next
step, split_groups holding out the training groups.

9 mutants. Against the existing targeted tests alone (the four most direct files of each module, listed after
the new ones) 5 were caught and 4 missed: the free model's prime (no test passes a prime to a free model),
shortened at exactly the limit and the cap note inverted (no test of the captions by hand), the reading batch
one point late. The new value tests catch every mutant on their own (checked with only the new files in the
lists): test_values109_sampler (a free model's refusal of a prime and a text; written points against the
inputs the next steps read, times the head's scale, and the prime times the same scale; shortened and
written_label by hand), test_values109_beam (prefix_beams and beam_search_array against a brute-force sum over
all C^T paths, collapsed here: a width past the number of prefixes finds every labelling with its log p; at
one step, widths 1, 2, 3 and past the alphabet keep the best, exact ties broken by labels in lexicographic
order; the best of tied labellings is the first by labels; rows of their own lengths padded with -1),
test_values109_strokes (stroke and reading batches of known lines by hand; a spiked synthetic line minus the
same draw's clean one; split_groups against the permutation of the sorted groups recomputed).

Left out: a candidate tied with the heap's worst turned away (s <= low; the one-step tie tests offer
candidates in label order, so the first come are the first by labels: not caught by the new tests, caught by
the old ones), _order's first depth one short (the trie walk indexes past the root and the process crashes),
and three mutants of lnrnn/training/distributed.py (launched_size stopping at a variable saying 1, the
reproducible step adding the previous block's gradient, failing_together's MPI path in one process) whose
tests were not finished. Dropped as equivalent or near it: _width's stop test as > (the width is capped by min
either way), a new trie node's sibling link dropped (a prefix rebuilt later is a new node with the same labels
and depth), the top-K insertion moving equal classes first (the same K classes are kept), ctc_steps_needed
counting labels > 0 (CTC labels are codes + 1, never 0), block_models returning every model made (the extra
ones only get the same parameters), split_groups over list(set(...)) (int groups iterate sorted; str groups
would make a flaky test).

    python tests/mutants/run.py --only 'v109-*'
"""
SAMPLE = "lnrnn/sample.py"
BEAM = "lnrnn/model/beam.py"
STROKES = "lnrnn/data/strokes.py"

# existing tests of these modules (the most direct ones)
SAMPLE_OLD = ["tests/test_values99_sampler.py", "tests/test_values87_sampler.py", "tests/test_values76_sampler.py",
              "tests/commands/test_values_sampler_rule.py"]
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values9_beam.py", "tests/model/test_values32_beam.py",
            "tests/model/test_values87_beam.py"]
STROKES_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py",
               "tests/data/test_values89_strokes.py", "tests/data/test_values76_strokes.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values109_sampler.py"]
BEAM_NEW = ["tests/model/test_values109_beam.py"]
STROKES_NEW = ["tests/data/test_values109_strokes.py"]

MUTANTS = [
    # ---- the sampler: a prime given to a free model, the written points' scale, captions ----
    dict(name="v109-sample-free-model-prime-ignored", file=SAMPLE,
         old="    if model.conditioned or text is not None or prime is not None:",
         new="    if model.conditioned or text is not None:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a prime passed to a model trained without text is dropped in silence: it draws freely instead of "
             "refusing a prime it cannot read"),
    dict(name="v109-sample-written-scale-swapped", file=SAMPLE,
         old="    sx, sy = getattr(head, \"scale\", (1.0, 1.0))\n    units = np.array",
         new="    sy, sx = getattr(head, \"scale\", (1.0, 1.0))\n    units = np.array",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="written lines (and their prime) are put back in data units with dx times sy and dy times sx"),
    dict(name="v109-sample-shortened-at-the-limit", file=SAMPLE,
         old="    if len(r) <= limit:",
         new="    if len(r) < limit:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a caption exactly as long as the limit is cut with an ellipsis although it fits"),
    dict(name="v109-sample-cap-note-inverted", file=SAMPLE,
         old="-point cap\"] if row.capped else []",
         new="-point cap\"] if not row.capped else []",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the caption says a line stopped at the cap when the stop rule ended it, and says nothing when the "
             "cap did"),
    # ---- beam search: ties at the cut, trie depths in the tie order, the labels' padding ----
    dict(name="v109-beam-labels-padded-with-0", file=BEAM,
         old="    labels = np.full((B, T), -1, np.int64)",
         new="    labels = np.zeros((B, T), np.int64)",
         tests=BEAM_NEW + BEAM_OLD,
         why="the labels past each row's label length are 0 (the blank class) instead of the documented -1"),
    # ---- strokes: inputs and targets of a batch, the reading batch, the synthetic spike, the split ----
    dict(name="v109-strokes-inputs-are-the-targets", file=STROKES,
         old="            x[:lengths[b], b] = line[:-1]",
         new="            x[:lengths[b], b] = line[1:]",
         tests=STROKES_NEW + STROKES_OLD,
         why="the stroke batch feeds each step the point it must predict instead of the one before"),
    dict(name="v109-strokes-reading-batch-one-point-on", file=STROKES,
         old="            x[:lengths[b], b] = s.points[first[b]:first[b] + lengths[b]]",
         new="            x[:lengths[b], b] = s.points[first[b] + 1:first[b] + lengths[b] + 1]",
         tests=STROKES_NEW + STROKES_OLD,
         why="the reading batch starts each line one point late and ends it with the next line's first point"),
    dict(name="v109-strokes-spike-not-undone", file=STROKES,
         old="            seq[i, :2] += jump",
         new="            seq[i, :2] -= jump",
         tests=STROKES_NEW + STROKES_OLD,
         why="a synthetic spike moves point i by -jump and the next step by -jump again: the rest of the line is "
             "displaced by twice the spike instead of coming back"),
    dict(name="v109-strokes-split-groups-inverted", file=STROKES,
         old="    return np.array([g in val for g in groups], bool)",
         new="    return np.array([g not in val for g in groups], bool)",
         tests=STROKES_NEW + STROKES_OLD,
         why="split_groups marks the training groups as validation: about 90% of the data held out"),
]
