"""Planted bugs, round 166 (format: tests/mutants/mutants.py): single-line slips in the CTC kernel, the
compiled beam search and the heads, a seventh pass on lines no earlier round mutates: the kernel's softmax
exponentials without the max's shift (the saved log-softmax off by it), a rescaled step leaving the band's lowest
position unscaled, the log-space forward saving step 0's alpha one position up and the log-space beta adding
step t's emission instead of step t+1's; the beam search accepting a width of 0, searching rows over T-1 steps
when no lengths are given, cutting a step's classes at the best instead of the K-th, bounding a prefix's
extensions by its label-ending part (the empty prefix then offers none in a full beam), reading the best prefix
back from the trie's parents, and prefix_beams stopping at node 1; the CTC head letting a -1 inside a label and
left-padded valid steps through, and the mixture head shaping its dL/dyhat (B,T,K), so dh comes back (B,T,H).

13 mutants. Against the existing targeted tests alone 11 were caught and 2 missed: the CTC head's two checks
(no old test hands it a label row with a gap or a row whose valid steps are not its first ones). The old lists
were measured with --no-baseline. The new value tests catch every mutant on their own (checked with the old
tests taken off the lists): test_values166_ctc (loss, log p and gradient against the sum over every one of the
C^T paths for rows of a repeated label, an empty label, an input exactly L and 2L+1 steps long and rows shorter
than the batch, the saved log-softmax against NumPy's on logits shifted far from 0, the same rows 800 nats down
in log space, and a 40-step row of 40 classes whose p is below 2^-100, so it rescales, against the NumPy spec
lnrnn.reference.ctc_forward / ctc_backward), test_values166_beam (wide beams against every labelling's log p
summed over every path, rows searched without lengths, widths 0 and -1 refused, widths 1 and 2 against a plain
prefix beam search written in the test, on steps of five label classes with a low and a heavy blank),
test_values166_heads (each head's dL/dh, classifier per step, regression at the last step, MDN, CTC, against
central differences of the definitions' losses over ragged rows with T != B, zero on padded steps; the CTC
head's refusals). Dropped before the catalogue as equivalent or near it: the width's prefix count stopping at
total > width instead of >= (min caps it the same); _skip allowing s = 1 (s-2 reads a position that is always 0
or -inf); the heap's cut at s <= low and the class order at <= (ties only, settled by _order anyway). The step
class cut mutant needs a low blank: with blank-heavy or plain random steps too few classes pass the bound for K
to fill, so the narrow-beam test runs a blank 2 nats down.

    python tests/mutants/run.py --only 'v166-*'
"""
CTC = "lnrnn/kernels/ctc.py"
BEAM = "lnrnn/model/beam.py"
HEADS = "lnrnn/model/heads.py"

# existing tests of these modules
CTC_OLD = ["tests/kernels/test_ctc.py", "tests/kernels/test_values26_ctc.py", "tests/kernels/test_values35_ctc.py",
           "tests/kernels/test_values48_ctc.py", "tests/kernels/test_values62_ctc.py",
           "tests/kernels/test_values87_ctc.py", "tests/kernels/test_values105_ctc.py",
           "tests/kernels/test_values137_ctc.py"]
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values9_beam.py", "tests/model/test_values32_beam.py",
            "tests/model/test_values87_beam.py", "tests/model/test_values109_beam.py",
            "tests/model/test_values137_beam.py", "tests/model/test_values48_decode.py"]
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values12_heads.py", "tests/model/test_values16_heads.py",
             "tests/model/test_values33_heads.py", "tests/model/test_values48_heads.py",
             "tests/model/test_values57_heads.py", "tests/model/test_values67_heads.py",
             "tests/model/test_values108_heads.py", "tests/model/test_values129_heads.py",
             "tests/model/test_values151_heads.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CTC_NEW = ["tests/kernels/test_values166_ctc.py"]
BEAM_NEW = ["tests/model/test_values166_beam.py"]
HEADS_NEW = ["tests/model/test_values166_heads.py"]

MUTANTS = [
    # ---- the CTC kernel: the softmax's shift, rescaling, the log-space recursions ----
    dict(name="v166-ctc-softmax-exp-unshifted", file=CTC,
         old="        e = _exp(float(x[c]) - m)",
         new="        e = _exp(float(x[c]))",
         tests=CTC_NEW + CTC_OLD,
         why="the softmax's exponentials drop the max's shift while log p still subtracts it: y is the same "
             "ratio, but the saved log-softmax (and every log-space row) is off by the step's max logit"),
    dict(name="v166-ctc-rescale-skips-the-band-bottom", file=CTC,
         old="            for s in range(lo, hi):\n                at[s + 2] *= r",
         new="            for s in range(lo + 1, hi):\n                at[s + 2] *= r",
         tests=CTC_NEW + CTC_OLD,
         why="a step whose alpha sum leaves [2^-100, 2^100] is divided by it at every live position but the "
             "band's lowest: long rows of many classes get a wrong log p and gradient"),
    dict(name="v166-ctc-log-alpha-step-0-shifted", file=CTC,
         old="        al[0, s] = pa[s + 2]",
         new="        al[0, s] = pa[s + 1]",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space forward saves step 0's alpha one position up: log p is right (the recursion reads "
             "pa), but a log-space row's step-0 gradient takes the wrong posteriors"),
    dict(name="v166-ctc-log-beta-emission-of-step-t", file=CTC,
         old="                bt[s] = bn[s] + lp[t + 1, ext[s]]",
         new="                bt[s] = bn[s] + lp[t, ext[s]]",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space beta recursion adds step t's emission instead of step t+1's: a log-space row's "
             "posteriors, so its gradient, are wrong"),
    # ---- the compiled beam search: its checks, defaults, pruning and read-out ----
    dict(name="v166-beam-width-zero-accepted", file=BEAM,
         old="    if width < 1:\n        raise ValueError(f\"the beam width must be at least 1, got {width}\")",
         new="    if width < 0:\n        raise ValueError(f\"the beam width must be at least 1, got {width}\")",
         tests=BEAM_NEW + BEAM_OLD,
         why="a beam width of 0 passes the check: the search runs with no room for a prefix instead of "
             "refusing it with a ValueError"),
    dict(name="v166-beam-default-lengths-one-short", file=BEAM,
         old="    lengths = np.full(B, T, np.int64) if lengths is None",
         new="    lengths = np.full(B, T - 1, np.int64) if lengths is None",
         tests=BEAM_NEW + BEAM_OLD,
         why="without lengths every row is searched over its first T-1 steps: the last step's label is lost"),
    dict(name="v166-beam-class-cut-at-the-best", file=BEAM,
         old="            cut = topv[K - 1]",
         new="            cut = topv[0]",
         tests=BEAM_NEW + BEAM_OLD,
         why="once a step's K most probable classes are full, a later class must beat the best of them, not "
             "the K-th: with more label classes than K (a narrow beam) a class in the top K is never offered"),
    dict(name="v166-beam-bound-reads-pnb", file=BEAM,
         old="                if tot + lp[c] < worst:",
         new="                if bval[2, j] + lp[c] < worst:",
         tests=BEAM_NEW + BEAM_OLD,
         why="the early stop over a prefix's extensions bounds them by its label-ending part instead of its "
             "total: a prefix ending in a blank (pnb = -inf, the empty one) offers no extension when the beam "
             "is full"),
    dict(name="v166-beam-labels-from-parents", file=BEAM,
         old="            labels[b, i] = tree[1, n]",
         new="            labels[b, i] = tree[0, n]",
         tests=BEAM_NEW + BEAM_OLD,
         why="the best prefix is read back from the trie's parent row instead of its label row: the labels "
             "returned are node numbers"),
    dict(name="v166-beam-prefix-read-stops-at-node-1", file=BEAM,
         old="        while n > 0:",
         new="        while n > 1:",
         tests=BEAM_NEW + BEAM_OLD,
         why="prefix_beams stops reading a prefix back at node 1 instead of the root: a prefix through the "
             "first node built loses that label"),
    # ---- the heads: the CTC head's label and step checks, the mixture head's gradient layout ----
    dict(name="v166-ctc-head-lets-a-gap-through", file=HEADS,
         old="        if np.any((labels >= 0) != inside):",
         new="        if np.all((labels >= 0) != inside):",
         tests=HEADS_NEW + HEADS_OLD,
         why="a label row with -1 inside it (a gap, not end padding) passes the check: the row is then scored "
             "as its first labels only"),
    dict(name="v166-ctc-head-lets-left-padding-through", file=HEADS,
         old="        if np.any(valid != (np.arange(valid.shape[0])[:, None] < il[None, :])):",
         new="        if np.all(valid != (np.arange(valid.shape[0])[:, None] < il[None, :])):",
         tests=HEADS_NEW + HEADS_OLD,
         why="a row whose valid steps are not its first ones (left padding) passes the check: the CTC head "
             "scores its first steps, padding included"),
    dict(name="v166-mdn-head-gradient-reshaped-b-by-t", file=HEADS,
         old="        return self.linear_backward(h, d.reshape(h.shape[0], h.shape[1], self.O))",
         new="        return self.linear_backward(h, d.reshape(h.shape[1], h.shape[0], self.O))",
         tests=HEADS_NEW + HEADS_OLD,
         why="the mixture head's dL/dyhat (T*B,K) is shaped (B,T,K): the weight gradients are unchanged (the "
             "flat order is the same) but dh comes back (B,T,H), its rows mislabeled when T != B"),
]
