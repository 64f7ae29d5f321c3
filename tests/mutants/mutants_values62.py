"""Planted bugs, round 62 (format: tests/mutants/mutants.py): single-line slips on the reading path, on lines no
earlier round mutates: the compiled prefix beam search's tie order (a prefix after its own extension), the
stamp of an extension merged into a kept prefix read one step late, its kept prefixes ordered least probable
first, its width capped one short of the prefixes T steps can spell, its log-add-exp with the gap's sign
flipped; the spec's width check letting 0 through and its new label read from the label-ending paths alone; the
CTC kernel's _beta_sum counting every posterior as the blank's, the log-space forward without the barred skip
between repeats, the log-space backward asking the wrong position whether it may be skipped into, the forward's
rescaling of alpha two positions low, and beta's emission made on step t's band instead of t+1's (a tight band:
T near 2L+1); edit_distance's first row of zeros (free insertions in front), a free insertion anywhere, and
label_edit_distances' first column one short; lnrnn read checking the run only after reading the inputs,
ignoring -q for its progress bar, and printing the transcriptions on stderr.

18 mutants. Against the existing targeted tests alone 15 were caught and 3 missed: the spec's width of 0 let
through (the old tests refuse width 0 only in the compiled search, whose _width still refuses it), the reader
check after the inputs (the old test of a run that is not a reader gives an input that exists), and -q not
silencing the progress bar (no test looked at stderr under -q). The new value tests catch every mutant on their
own (checked with the old tests taken off the lists): test_values62_ctc (loss and gradient, times each row's
own dloss, against the sum over every path at each label's least steps, one and two more, for 'a a' T = 2L-1,
2L and 2L+1, rescaled and in log space (label classes 800 nats down), one step short giving loss 0, gradient 0
and logz -inf; two distinct labels in two steps by hand; rows of 60 steps whose alpha sum falls past 2^-100
against a NumPy log-space alpha-beta written from the definition, itself checked against every path),
test_values62_decode (the spec, prefix_beams and beam_search_array against a prefix beam search written here in
probabilities at every width from 1 to past the number of prefixes, and against every path summed where the
search is exact; batch rows over their own steps; width 1, best path and the exact best agreeing on confident
steps; exact ties by hand: the empty label before '1', '1' before '2'; rows without steps or with blanks only
reading the empty label; a width below 1 refused; best path by hand), test_values62_textmetrics (edit_distance,
cer, wer, error_rates and label_edit_distances against a memoized Levenshtein recursion and counts by hand: one
insertion, deletion or substitution at the front, middle and back; words split on runs of spaces),
test_values62_read (lnrnn read's stdout against test_values_api_read's best path by hand, stderr empty under
-q and counting the lines without it, --out's file and message, a run without an alphabet refused naming the
run while its input is missing). Dropped before the catalogue as equivalent or near it: the compiled
log-add-exp's branch test flipped (d < 0: the same sum, computed the other way round; it differs only past a
gap of 709 nats, where exp overflows), the heap's sift-down moving equal children (>= as >: still a heap, and
ties at the cut are settled by the labels' order), the step's top classes sorted with <= (equal classes offered
in another order: the heap's tie rule decides alike), the extension scan's break as continue (speed only) and
the width cap as a max (only a wider, more exact search). Also left out: the log p of a row without steps
and an empty label (logz only; its loss is 0 either way).

    python tests/mutants/run.py --only 'v62-*'
"""
CTC = "lnrnn/kernels/ctc.py"
DECODE = "lnrnn/model/decode.py"
BEAM = "lnrnn/model/beam.py"
TEXT = "lnrnn/textmetrics.py"
READ = "lnrnn/commands/read.py"

# existing tests of these modules
CTC_OLD = ["tests/kernels/test_ctc.py", "tests/kernels/test_values26_ctc.py", "tests/kernels/test_values35_ctc.py",
           "tests/kernels/test_values48_ctc.py"]
DECODE_OLD = ["tests/model/test_values_decode.py", "tests/model/test_values20_decode.py",
              "tests/model/test_values26_decode.py", "tests/model/test_values48_decode.py"]
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values9_beam.py", "tests/model/test_values32_beam.py",
            "tests/model/test_values48_decode.py"]
TEXT_OLD = ["tests/test_values_textmetrics.py", "tests/test_values10_textmetrics.py", "tests/test_values20_metrics.py",
            "tests/test_values37_textmetrics.py", "tests/test_values48_textmetrics.py"]
READ_OLD = ["tests/commands/test_values_read.py", "tests/commands/test_values26_read.py", "tests/test_values48_read.py",
            "tests/commands/test_reading.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CTC_NEW = ["tests/kernels/test_values62_ctc.py"]
DECODE_NEW = ["tests/model/test_values62_decode.py"]
BEAM_NEW = ["tests/model/test_values62_decode.py"]
TEXT_NEW = ["tests/test_values62_textmetrics.py"]
READ_NEW = ["tests/commands/test_values62_read.py"]

MUTANTS = [
    # ---- the compiled prefix beam search: tie order, merges, kept order, width cap, log-add-exp ----
    dict(name="v62-beam-prefix-after-its-extension-on-ties", file=BEAM,
         old="        return 0 if d1 == d2 else (-1 if d1 < d2 else 1)",
         new="        return 0 if d1 == d2 else (1 if d1 < d2 else -1)",
         tests=BEAM_NEW + BEAM_OLD,
         why="the tie order puts a prefix after its own extensions: where a prefix and its extension tie at the "
             "cut (or for the best), the extension is kept, against the spec's lexicographic order"),
    dict(name="v62-beam-merged-stamp-of-the-step-before", file=BEAM,
         old="                if merged[j, c] == t + 1:",
         new="                if merged[j, c] == t:",
         tests=BEAM_NEW + BEAM_OLD,
         why="an extension already merged into a kept prefix's own candidate is looked up with last step's "
             "stamp: it is offered a second time (a duplicate prefix with part of its mass), and one merged the "
             "step before is skipped"),
    dict(name="v62-beam-kept-prefixes-least-probable-first", file=BEAM,
         old="            while i > 0 and heap[0, order[i - 1]] < v:",
         new="            while i > 0 and heap[0, order[i - 1]] > v:",
         tests=BEAM_NEW + BEAM_OLD,
         why="the kept prefixes are ordered least probable first: the next step's scans (which stop at the first "
             "prefix whose bound is under the worst) stop before the probable ones are extended"),
    dict(name="v62-beam-width-cap-one-short", file=BEAM,
         old="    total, level = 1, 1",
         new="    total, level = 0, 1",
         tests=BEAM_NEW + BEAM_OLD,
         why="the count of prefixes T steps can spell leaves out the empty one: a width at least that count is "
             "capped one short and the search drops a prefix the spec keeps"),
    dict(name="v62-beam-logaddexp-sign", file=BEAM,
         old="        return x + math.log1p(math.exp(-d))",
         new="        return x + math.log1p(math.exp(d))",
         tests=BEAM_NEW + BEAM_OLD,
         why="the compiled log-add-exp with x the larger adds log(1 + e^(x-y)) instead of log(1 + e^(y-x)): "
             "merged routes get a log p above their true sum"),
    # ---- the readable spec and best path ----
    dict(name="v62-decode-spec-width-zero-accepted", file=DECODE,
         old="    if width < 1:\n        raise ValueError(f\"the beam width must be at least 1, got {width}\")\n"
             "    logp = np.asarray(logp, dtype=np.float64)",
         new="    if width < 0:\n        raise ValueError(f\"the beam width must be at least 1, got {width}\")\n"
             "    logp = np.asarray(logp, dtype=np.float64)",
         tests=DECODE_NEW + DECODE_OLD,
         why="the spec lets a width of 0 through: it returns no prefix at all instead of refusing"),
    dict(name="v62-decode-spec-new-label-from-pnb-only", file=DECODE,
         old="                    add(prefix + (c,), ninf, tot + lp[c])",
         new="                    add(prefix + (c,), ninf, pnb + lp[c])",
         tests=DECODE_NEW + DECODE_OLD,
         why="a prefix grown by a label unlike its last reads only its paths ending in that label, not those "
             "ending in a blank: every extension after a blank is lost"),
    # ---- the CTC kernel: beta's blank share, the log-space skips, the rescaling offset, beta's band ----
    dict(name="v62-ctc-beta-sum-every-posterior-on-the-blank", file=CTC,
         old="        zb += w * blk[i]\n    return c, z, zb",
         new="        zb += w\n    return c, z, zb",
         tests=CTC_NEW + CTC_OLD,
         why="_beta_sum (every step but the last, unrescaled) counts each position's posterior as the blank's: "
             "the blank's gradient is y - 1 there and the labels' shares are taken off twice"),
    dict(name="v62-ctc-log-forward-skip-between-repeats", file=CTC,
         old="            pb[s + 2] = _lse3(pa[s + 2], pa[s + 1], pa[s] + skip[s], low) + em[s]",
         new="            pb[s + 2] = _lse3(pa[s + 2], pa[s + 1], pa[s], low) + em[s]",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space forward drops the barred-skip term: 'a a' is reached without its blank, so a row in "
             "log space with a repeated label gains paths (and one with T = 2L-ish steps becomes feasible)"),
    dict(name="v62-ctc-log-backward-skip-index", file=CTC,
         old="                bn[s] = _lse3(bt[s], bt[s + 1], bt[s + 2] + skip[s + 2], low)",
         new="                bn[s] = _lse3(bt[s], bt[s + 1], bt[s + 2] + skip[s], low)",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space backward asks whether s may be skipped into instead of s + 2: beta bars the skip "
             "from a blank to the next different label (and allows the one into a repeat)"),
    dict(name="v62-ctc-rescale-two-positions-low", file=CTC,
         old="                at[s + 2] *= r",
         new="                at[s] *= r",
         tests=CTC_NEW + CTC_OLD,
         why="the forward's rescaling divides positions s - 2 (alpha is stored at s + 2): on long rows the band's "
             "top two positions keep the old scale and log p is off"),
    dict(name="v62-ctc-beta-emission-on-step-t-band", file=CTC,
         old="            lo1, hi1 = _band(t + 1, Tb, Sb)",
         new="            lo1, hi1 = _band(t, Tb, Sb)",
         tests=CTC_NEW + CTC_OLD,
         why="beta[t+1] times its emission is made on step t's band instead of step t+1's: where the band is "
             "tight (T near 2L+1) the positions step t+1 adds are left out of beta[t]"),
    # ---- edit distances ----
    dict(name="v62-text-first-row-zeros", file=TEXT,
         old="    prev = list(range(len(hyp) + 1))",
         new="    prev = [0] * (len(hyp) + 1)",
         tests=TEXT_NEW + TEXT_OLD,
         why="the distances of the empty reference to hyp's prefixes start at 0: insertions before the first "
             "reference character are free"),
    dict(name="v62-text-insertion-free", file=TEXT,
         old="                         cur[j - 1] + 1,               # insert h",
         new="                         cur[j - 1],                   # insert h",
         tests=TEXT_NEW + TEXT_OLD,
         why="an insertion costs nothing: a hypothesis with extra characters or words scores 0 edits"),
    dict(name="v62-text-compiled-first-column-one-short", file=TEXT,
         old="            cur[0] = i\n",
         new="            cur[0] = i - 1\n",
         tests=TEXT_NEW + TEXT_OLD,
         why="label_edit_distances starts row i at i - 1: one deletion at the front is free"),
    # ---- lnrnn read: what it refuses first, prints, and keeps quiet ----
    dict(name="v62-read-reader-checked-after-the-inputs", file=READ,
         old="    require_reader(run)  # before the inputs are read\n",
         new="",
         tests=READ_NEW + READ_OLD,
         why="a run that is not a reader is only refused after the inputs are read: a bad input file is "
             "reported instead of the run"),
    dict(name="v62-read-progress-ignores-quiet", file=READ,
         old="quiet=quiet, unit=\"lines\")",
         new="quiet=False, unit=\"lines\")",
         tests=READ_NEW + READ_OLD,
         why="-q does not silence the progress bar: a line of progress is written to stderr"),
    dict(name="v62-read-prints-on-stderr", file=READ,
         old="            click.echo(t)\n",
         new="            click.echo(t, err=True)\n",
         tests=READ_NEW + READ_OLD,
         why="the transcriptions are printed on stderr: a pipe from stdout reads nothing"),
]
