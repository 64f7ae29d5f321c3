"""Planted bugs, round 48 (format: tests/mutants/mutants.py): single-line slips on the reading path, on lines no
earlier round mutates: the CTC kernel's alpha sums (the mass arriving instead of the emitted one), _posteriors
counting every position as the blank, step 0's alpha filled below the band's lower edge and the log-space
posteriors not divided by p; the prefix beam search spec's prefix total as a max and its repeat rule reading the
prefix's first label, best_path_array gathering the kept classes column-major; the compiled search's
log-add-exp of two equal terms, its merge of a kept parent's extension skipped for slot 0 and a new trie node
given its parent's depth; edit_distance's first column one short and label_edit_distances reading each hypothesis
to the padded width; lnrnn read passing beam 1 whatever --beam, lnrnn.read's beam search over the padded steps
of a short line and its progress counting batches; the CTC head's cer summing the edits of rows without steps.

16 mutants. Against the existing targeted tests alone 14 were caught and 2 missed: lnrnn.read's beam search
without the lengths (the old reading test decodes by best path only, where the padding's log p of 0 for every
class picks the blank and changes nothing) and its progress counting batches (no test passed a progress). The
new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values48_ctc (loss and gradient against the sum over every one of the C^T paths, collapsed by hand, for
rows of their own lengths in one batch, one-step rows, four classes, and rows that run in log space),
test_values48_decode (the spec and the compiled search, wide enough, return every labelling with its log p
summed over its paths here, on uniform, blank-heavy, random and 'a b a' steps; each row of a batch over its own
steps finds its most probable labelling; best path by hand on rows of their own labels and lengths),
test_values48_textmetrics (edit_distance, cer, wer, error_rates and label_edit_distances of padded rows
against the memoized Levenshtein recursion), test_values48_heads (the CTC head's cer and chars over the scored
rows, by hand), test_values48_read (lnrnn.read and lnrnn read --beam 3 against each batch's log-softmax taken
here and the spec's search over each row's own steps; a progress fake counting lines). Dropped before the
catalogue as equivalent or near it: best_path(logp) without lengths in lnrnn.read and the head's best path
without input lengths (log_probs' zeros past a row's end argmax to the blank, which best path drops); the empty
prefix starting as label-ending in the spec or the compiled search (its last label is never a class, so pb
and pnb are never told apart); the last step's posteriors not recomputed after beta's rescaling (alpha beta and
its sum share the scale, which cancels); K = CTC_ROW_CHUNKS chunks for fewer rows (each row still runs once).
Also left out: the beam width not capped at the prefixes' count (only a wider, more exact search) and the
step-0 length of a row with no steps (logz only; its loss is 0 either way).

    python tests/mutants/run.py --only 'v48-*'
"""
CTC = "lnrnn/kernels/ctc.py"
DECODE = "lnrnn/model/decode.py"
BEAM = "lnrnn/model/beam.py"
TEXT = "lnrnn/textmetrics.py"
READ = "lnrnn/commands/read.py"
API = "lnrnn/api.py"
HEADS = "lnrnn/model/heads.py"

# existing tests of these modules
CTC_OLD = ["tests/kernels/test_ctc.py", "tests/kernels/test_values26_ctc.py", "tests/kernels/test_values35_ctc.py"]
DECODE_OLD = ["tests/model/test_values_decode.py", "tests/model/test_values20_decode.py",
              "tests/model/test_values26_decode.py", "tests/kernels/test_ctc.py"]
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values9_beam.py", "tests/model/test_values32_beam.py"]
TEXT_OLD = ["tests/test_values_textmetrics.py", "tests/test_values10_textmetrics.py", "tests/test_values20_metrics.py",
            "tests/test_values37_textmetrics.py"]
READ_OLD = ["tests/commands/test_values_read.py", "tests/commands/test_values26_read.py"]
API_OLD = ["tests/test_values_api_read.py", "tests/test_values15_api.py"]
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values12_heads.py", "tests/model/test_values16_heads.py",
             "tests/model/test_values33_heads.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CTC_NEW = ["tests/kernels/test_values48_ctc.py"]
DECODE_NEW = ["tests/model/test_values48_decode.py"]
BEAM_NEW = ["tests/model/test_values48_decode.py"]
TEXT_NEW = ["tests/test_values48_textmetrics.py"]
READ_NEW = ["tests/test_values48_read.py"]
HEADS_NEW = ["tests/model/test_values48_heads.py"]

MUTANTS = [
    # ---- the CTC kernel: alpha's sums, the last step's posteriors, step 0's band, the log-space posteriors ----
    dict(name="v48-ctc-alpha-sum-of-arrivals", file=CTC,
         old="        c += v\n        nd += (inc > 0.0) & (v < TINY)",
         new="        c += inc\n        nd += (inc > 0.0) & (v < TINY)",
         tests=CTC_NEW + CTC_OLD,
         why="a step's alpha sum adds the mass arriving at each position before its emission: the rescaling "
             "divisors and the last step's sum, so log p, are wrong"),
    dict(name="v48-ctc-last-step-posteriors-all-on-the-blank", file=CTC,
         old="        q[i] = w\n        z += w\n        zb += w * blk[i]\n    return z, zb\n\n\n"
             "@njit(**JIT)\ndef _grad_step",
         new="        q[i] = w\n        z += w\n        zb += w\n    return z, zb\n\n\n"
             "@njit(**JIT)\ndef _grad_step",
         tests=CTC_NEW + CTC_OLD,
         why="_posteriors (the last step, and a step whose beta was rescaled) counts every position's posterior as "
             "the blank's: there the blank's gradient is y - 1 and the labels' shares are taken off as well"),
    dict(name="v48-ctc-step-0-band-from-position-0", file=CTC,
         old="    for s in range(lo, hi):\n        v = y[0, ext[s]]",
         new="    for s in range(hi):\n        v = y[0, ext[s]]",
         tests=CTC_NEW + CTC_OLD,
         why="step 0's alpha fills positions below the band's lower edge: a one-step row with one label counts "
             "the path of the leading blank (p = y[blank] + y[label])"),
    dict(name="v48-ctc-log-posteriors-not-over-p", file=CTC,
         old="q[s] = _exp(al[t, s] + bn[s] - lz)",
         new="q[s] = _exp(al[t, s] + bn[s])",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space backward takes alpha beta without dividing by p: a row that fell back to log space "
             "gets the softmax as its gradient (its paths' shares are e^-800 small)"),
    # ---- decoding: the prefix beam search spec, best path's rows ----
    dict(name="v48-decode-beam-tot-by-max", file=DECODE,
         old="            tot = np.logaddexp(pb, pnb)",
         new="            tot = max(pb, pnb)",
         tests=DECODE_NEW + DECODE_OLD,
         why="a prefix's probability is the larger of its blank- and label-ending parts, not their sum: the "
             "spec's prefixes and log p are no longer the sums over their paths"),
    dict(name="v48-decode-beam-last-is-first-label", file=DECODE,
         old="last = prefix[-1] if prefix else None",
         new="last = prefix[0] if prefix else None",
         tests=DECODE_NEW + DECODE_OLD,
         why="the repeat rule compares a class with the prefix's first label: 'ab' + 'b' extends at once, "
             "'ab' + 'a' collapses"),
    dict(name="v48-decode-best-path-column-major", file=DECODE,
         old="= arg[keep]",
         new="= arg.T[keep.T]",
         tests=DECODE_NEW + DECODE_OLD,
         why="best_path_array gathers the kept classes step by step across rows (column-major): with two rows "
             "their labels interleave (each row keeps its count)"),
    # ---- the compiled beam search: log-add-exp of equal terms, merged routes, the trie's depths ----
    dict(name="v48-beam-logaddexp-equal-terms", file=BEAM,
         old="        return x + LOG2",
         new="        return x",
         tests=BEAM_NEW + BEAM_OLD,
         why="_logaddexp(x, x) is x, not x + log 2: two routes of equal probability into one prefix count once"),
    dict(name="v48-beam-merge-skips-slot-0", file=BEAM,
         old="                if j >= 0:",
         new="                if j > 0:",
         tests=BEAM_NEW + BEAM_OLD,
         why="the best kept prefix (slot 0) is never seen as a kept parent: its extension by a kept child's "
             "label is not merged into the child, which is offered twice with half its paths each"),
    dict(name="v48-beam-node-depth-of-its-parent", file=BEAM,
         old="depth[n] = p, c, depth[p] + 1",
         new="depth[n] = p, c, depth[p]",
         tests=BEAM_NEW + BEAM_OLD,
         why="a new trie node gets its parent's depth: the labels read back are one short (the first dropped)"),
    # ---- edit distances: the first column, each row's own hypothesis length ----
    dict(name="v48-textmetrics-first-column-off-by-one", file=TEXT,
         old="cur = [i] + [0] * len(hyp)",
         new="cur = [i - 1] + [0] * len(hyp)",
         tests=TEXT_NEW + TEXT_OLD,
         why="deleting ref's first i items against an empty hyp prefix costs i - 1: one deletion is free"),
    dict(name="v48-textmetrics-label-hyp-padding-read", file=TEXT,
         old="        n = hyp_lengths[b]",
         new="        n = hyp.shape[1]",
         tests=TEXT_NEW + TEXT_OLD,
         why="label_edit_distances reads each hypothesis to the padded width: a row shorter than the batch's "
             "longest counts its -1 padding as insertions"),
    # ---- reading: the command's beam, the api's lengths and progress, the CTC head's cer ----
    dict(name="v48-read-command-beam-dropped", file=READ,
         old="read_lines(run, lines, beam=beam,",
         new="read_lines(run, lines, beam=1,",
         tests=READ_NEW + READ_OLD,
         why="lnrnn read --beam N reads by best path whatever N"),
    dict(name="v48-api-read-beam-ignores-lengths", file=API,
         old="beam_search(logp, int(beam), lengths)",
         new="beam_search(logp, int(beam))",
         tests=READ_NEW + API_OLD,
         why="with beam > 1, a line shorter than its batch's longest is searched over the padded steps too "
             "(log p 0 for every class there)"),
    dict(name="v48-api-read-progress-per-batch", file=API,
         old="progress.update(len(part))",
         new="progress.update(1)",
         tests=READ_NEW + API_OLD,
         why="read's progress counts batches where it is a bar over lines: it stops short of the total"),
    dict(name="v48-heads-ctc-cer-counts-rows-without-steps", file=HEADS,
         old='"cer": float(edits[rows].sum())',
         new='"cer": float(edits.sum())',
         tests=HEADS_NEW + HEADS_OLD,
         why="the CTC head's cer sum counts the labels of rows with no step (all deletions) while their chars "
             "are not counted"),
]
