"""Planted bugs, round 87 (format: tests/mutants/mutants.py): single-line slips in the sampler, the compiled beam
search, the CTC kernel and the error rates, on lines no earlier round mutates: the free sampler recording each
step's input instead of its draw and handing back its first row for every row, check_stroke3 letting a pen column
through when any one value is 0 or 1, strokes_of lifting the pen where it stays down, a text of more lines than
count let through; the beam's log-add-exp adding e^(y-x) on its lower branch, _worse read the wrong way round (the
least probable kept prefix returned), the blank offered as an extension label, the kept prefixes' slots cleared by
beam index and set to their heap entry; the CTC kernel's blank mask on the label positions, log p losing the logs
of the rescaling divisors, the log-space beta started at the last blank only and its gradient skipping position
0; cer divided by the hypothesis' length, edit_distance's deletions free.

16 mutants. Against the existing targeted tests alone 15 were caught and 1 missed: a text of more lines than
count (no old test passes more lines than count; fewer lines are refused by the check the mutant keeps). The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values87_sampler (free rows: every step's input is the point drawn the step before, zeros first, and the
draws replayed from the head's outputs recorded at every step with a generator of the same seed, times the
head's scale, row by row; a seed reproduces its rows, another seed and other rows differ, pens 0 or 1; at bias
500 each point is the mean of its step's most probable component, from the recorded outputs by Graves's
definitions (pi sharpened by 1 + b, sigma shrunk by e^-b); written rows of three lengths stop at their own first
step whose recorded step_end exceeds step_phi over the row's characters, capped only when it never fires, no
step after the last row stops, each step reading every row's last kept draw; a cap of 2 caps every row; texts
of more and of fewer lines than count refused by their message; pen columns with 0.5 or 2 refused; strokes_of
by hand), test_values87_beam (prefix_beams wide enough returns every labelling with the log of its summed
probability over all C^T paths, collapsed here, at T 1-4 and C 2-4, and beam_search_array the most probable;
widths 1, 2, 3 and 5 keep what a plain prefix beam search written here keeps, with its log p, at T 3-7; 'a
blank a' and the repeat rule; rows of one batch over their own steps), test_values87_ctc (loss and gradient
against the log-sum-exp over every path in float64: every label that fits at T 1-4 with three and four
classes, repeats and labels as long as T among them, scaled by per-row dloss; rows of their own lengths; rows
whose steps sum below 2^-100, which rescale; rows fitting only 800 nats down, which run in log space) and
test_values87_textmetrics (edit_distance, cer, wer, error_rates and label_edit_distances of padded rows against
a memoized Levenshtein recursion). Dropped before the catalogue as equivalent or near it: the heap's sift-down
stopping at an equal entry (>= to >: equal totals keep the heap's order), the step's top classes ordered with
<= instead of < (a tie between classes, broken again by _order at the heap's cut), the softmax's running max
started at 0 instead of x[0] (the same softmax unless logits overflow), the scan's bound break taken as continue
(only slower). Also left out: _order's depth of a prefix one short (exact ties only, already covered by a tie
test of an earlier round) and the trie node losing its siblings (a prefix rebuilt as a second node changes
nothing unless a descendant of the first is kept with it, which these tiny searches did not show reliably).

    python tests/mutants/run.py --only 'v87-*'
"""
SAMPLE = "lnrnn/sample.py"
BEAM = "lnrnn/model/beam.py"
CTC = "lnrnn/kernels/ctc.py"
TEXT = "lnrnn/textmetrics.py"

# existing tests of these modules
SAMPLE_OLD = ["tests/commands/test_sample.py", "tests/commands/test_sample_text.py",
              "tests/commands/test_values42_sampler.py", "tests/commands/test_values_sampler_rule.py",
              "tests/commands/test_values_sampling.py", "tests/commands/test_values10_sample.py",
              "tests/commands/test_values12_sample.py", "tests/commands/test_values14_sample.py",
              "tests/commands/test_values20_sample.py", "tests/commands/test_values21_sample.py",
              "tests/commands/test_values52_sampler.py", "tests/commands/test_values52_sample_cli.py",
              "tests/test_values76_sampler.py"]
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values9_beam.py", "tests/model/test_values32_beam.py",
            "tests/model/test_values48_decode.py", "tests/model/test_values62_decode.py"]
CTC_OLD = ["tests/kernels/test_ctc.py", "tests/kernels/test_values26_ctc.py", "tests/kernels/test_values35_ctc.py",
           "tests/kernels/test_values48_ctc.py", "tests/kernels/test_values62_ctc.py"]
TEXT_OLD = ["tests/test_values_textmetrics.py", "tests/test_values10_textmetrics.py", "tests/test_values20_metrics.py",
            "tests/test_values37_textmetrics.py", "tests/test_values48_textmetrics.py",
            "tests/test_values62_textmetrics.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values87_sampler.py"]
BEAM_NEW = ["tests/model/test_values87_beam.py"]
CTC_NEW = ["tests/kernels/test_values87_ctc.py"]
TEXT_NEW = ["tests/test_values87_textmetrics.py"]

MUTANTS = [
    # ---- the sampler: the drawn points per row, the refusals of bad pens and of a count off the lines ----
    dict(name="v87-sample-free-rows-keep-the-input", file=SAMPLE,
         old="        out[:, t] = p\n",
         new="        out[:, t] = x\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the free sampler records each step's input (the point drawn the step before, zeros first) instead "
             "of the point it draws: every row is shifted one step late and its last point is lost"),
    dict(name="v87-sample-every-row-the-first", file=SAMPLE,
         old="    return [out[k] for k in range(count)]",
         new="    return [out[0] for k in range(count)]",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="sample_strokes hands back the first row count times: the other rows' draws are lost"),
    dict(name="v87-sample-pen-check-any", file=SAMPLE,
         old="    if not np.isin(a[:, 2], (0.0, 1.0)).all():",
         new="    if not np.isin(a[:, 2], (0.0, 1.0)).any():",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="check_stroke3 lets a pen column through when any one value is 0 or 1: a prime with a pen of 0.5 is "
             "read as strokes"),
    dict(name="v87-sample-strokes-of-lift-inverted", file=SAMPLE,
         old="    ends = np.nonzero(points[:, 2] > 0.5)[0]",
         new="    ends = np.nonzero(points[:, 2] < 0.5)[0]",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="strokes_of ends a stroke after every point whose pen stays down and joins across the lifts"),
    dict(name="v87-sample-more-lines-than-count", file=SAMPLE,
         old="    if len(lines) != count:",
         new="    if len(lines) < count:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a text of more lines than count passes the check: the sampler fails on an index instead of saying "
             "what to do"),
    # ---- the compiled beam search: log-add-exp, the best kept prefix, blank extensions, beam slots ----
    dict(name="v87-beam-logaddexp-sign-of-lower-branch", file=BEAM,
         old="    return y + math.log1p(math.exp(d))",
         new="    return y + math.log1p(math.exp(-d))",
         tests=BEAM_NEW + BEAM_OLD,
         why="_logaddexp(x, y) with x < y adds log(1 + e^(y-x)) instead of log(1 + e^(x-y)): two routes into one "
             "prefix sum to far more than their probabilities"),
    dict(name="v87-beam-best-is-the-worst", file=BEAM,
         old="        return s1 < s2",
         new="        return s1 > s2",
         tests=BEAM_NEW + BEAM_OLD,
         why="_worse reads the comparison the wrong way round: beam_search_array returns the least probable kept "
             "prefix"),
    dict(name="v87-beam-blank-offered-as-a-label", file=BEAM,
         old="            if c == CTC_BLANK or tot0 + v < worst",
         new="            if tot0 + v < worst",
         tests=BEAM_NEW + BEAM_OLD,
         why="the blank is among the step's extension classes: prefixes spell the blank as a label"),
    dict(name="v87-beam-slot-reset-by-index", file=BEAM,
         old="            slot[bnode[k]] = -1",
         new="            slot[k] = -1",
         tests=BEAM_NEW + BEAM_OLD,
         why="the step clears slot of nodes 0..nb-1 instead of the kept prefixes' nodes: a prefix dropped from the "
             "beam still reads as kept, and its child merges the parent's stale extension"),
    dict(name="v87-beam-slot-of-heap-entry", file=BEAM,
         old="            slot[n] = i\n",
         new="            slot[n] = k\n",
         tests=BEAM_NEW + BEAM_OLD,
         why="a kept prefix's slot is its heap entry, not its place in the beam: the next step merges a child with "
             "another prefix's pb/tot"),
    # ---- the CTC kernel: the blank mask, the rescaling logs, the log-space beta and gradient ----
    dict(name="v87-ctc-blank-mask-on-labels", file=CTC,
         old="        blk[s] = 1.0 if s % 2 == 0 else 0.0",
         new="        blk[s] = 1.0 if s % 2 == 1 else 0.0",
         tests=CTC_NEW + CTC_OLD,
         why="the blank positions' mask marks the label positions: the blank's gradient takes off the labels' "
             "posteriors instead of its own"),
    dict(name="v87-ctc-last-step-log-replaces-scale", file=CTC,
         old="    la += np.log(c)                              # p = the last band's sum at the scale",
         new="    la = np.log(c)                               # p = the last band's sum at the scale",
         tests=CTC_NEW + CTC_OLD,
         why="log p is the last step's sum alone: the logs of the earlier rescaling divisors are lost (a row whose "
             "steps sum below 2^-100 gets a loss far too small)"),
    dict(name="v87-ctc-log-beta-starts-at-last-blank-only", file=CTC,
         old="        bn[s] = dt(0.0) if s >= Sb - 2 else ninf",
         new="        bn[s] = dt(0.0) if s >= Sb - 1 else ninf",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space beta at the last step starts at the final blank only: paths ending on the last label "
             "get no posterior (a row in log space has a wrong gradient)"),
    dict(name="v87-ctc-log-gradient-skips-position-0", file=CTC,
         old="        for s in range(Sb):                      # ... subtracted from its class",
         new="        for s in range(1, Sb):                   # ... subtracted from its class",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space backward does not take the leading blank's posterior off the blank's gradient"),
    # ---- error rates ----
    dict(name="v87-textmetrics-cer-over-hypothesis", file=TEXT,
         old="    return _rate(ref, hyp)",
         new="    return _rate(hyp, ref)",
         tests=TEXT_NEW + TEXT_OLD,
         why="cer's arguments swapped: the distance is the same but it is divided by the hypothesis' length"),
    dict(name="v87-textmetrics-deletion-free", file=TEXT,
         old="            cur[j] = min(prev[j] + 1,                  # delete r",
         new="            cur[j] = min(prev[j],                      # delete r",
         tests=TEXT_NEW + TEXT_OLD,
         why="deleting a reference item costs nothing in edit_distance: a hypothesis that drops characters "
             "scores too well"),
]
