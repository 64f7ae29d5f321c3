"""Planted bugs, round 223 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the heads, the beam search, the decoding spec and the CTC kernel: a head's saved config naming its hidden size as
its outputs; the regression head's default tolerance 0.05 instead of the models' 0.04; the mixture head's refusal
of per_step=False asking for per_step=False, and its check of the output count letting fewer outputs than 6M + 1
through; the CTC head's refusal of one output quoting the hidden size, its refusal of an out-of-range label naming
one class too many; the compiled search's refusal of bad lengths saying "between 1", its repeat rule reading the
prefix's second-last label, and its order of two prefixes of one parent comparing them equal whatever their last
labels; the spec's empty prefix starting as label-ending as well (log pnb 0); the log-space log-sum-exp's skip term
reading the step-from-the-previous term again; the posteriors' normalizer before the last step summing beta instead
of alpha times beta; the log-space gradient never writing the blank's softmax.

13 mutants. Against the existing targeted tests alone (test_values48_heads, test_values199_heads,
test_values_heads; test_values48_decode, test_values88_decode, test_beam, test_values198_beam; test_values48_ctc,
test_ctc, test_values199_ctc) 8 were caught and 5 missed: every heads mutant but the label-range message (a config
rebuilt was never compared with the head it came from at H != O, the default tolerance never met an error between
0.04 and 0.05, the mixture and one-output refusals were not read word for word nor fewer outputs tried). The new
value tests catch every mutant on their own (checked with the old files taken off the lists): test_values223_heads
(each head's config saved and rebuilt by make_head gives the same width, parameters, loss and gradient; the per-
step classifier's loss is the masked sum of -log softmax, its gradient the central differences (numeric_grad) of
that definition, zero on masked steps; the regression head's accuracy by hand under models.head_config's default
tolerance; log_probs the log-softmax over each row's own steps, zeros after; refusals word for word),
test_values223_beam_decode (wide beams of the spec and the compiled search hold every labelling with its log p summed
here over every path; rows of a batch, one of 0 steps, find their most probable labelling over their own steps;
exact ties on tiny alphabets go to the smaller labelling, at the end and at a one-step beam's cut; the lengths
refusal word for word), test_values223_ctc (one batch with a repeat, an empty label, 'a b a' and one label, of
their own lengths, in linear space and again with the labels' classes, or the empty label's blank, 800 nats down so
that every row runs in log space: loss and gradient by the sum over every path). Dropped before the catalogue as
equivalent or near it: the CTC head's log_probs taking h.shape[0] (T) for the batch size (for T > B the extra rows
of empty labels are never read, which is what the new log_probs test at T 4, B 2 shows; for T < B the kernel would
read past the label arrays, nothing a test can rely on); the upper rescale bound of alpha's sum left out (at the
scale a step's sum of alpha never exceeds the step before's, which is 1 or less); the beam width not capped at the
prefixes' count (a wider, exact search only). Also left out as flaky rather than wrong: mutants that leave np.empty
scratch unwritten (alpha's position -1, the padding's zeros), whose effect depends on what the allocator returns.

    python tests/mutants/run.py --only 'v223-*'
"""
HEADS = "lnrnn/model/heads.py"
BEAM = "lnrnn/model/beam.py"
DECODE = "lnrnn/model/decode.py"
CTC = "lnrnn/kernels/ctc.py"

T_HEADS = ["tests/model/test_values223_heads.py"]
T_DECODE = ["tests/model/test_values223_beam_decode.py"]
T_CTC = ["tests/kernels/test_values223_ctc.py"]
OLD_HEADS = ["tests/model/test_values48_heads.py", "tests/model/test_values199_heads.py",
             "tests/model/test_values_heads.py"]
OLD_DECODE = ["tests/model/test_values48_decode.py", "tests/model/test_values88_decode.py",
              "tests/model/test_beam.py", "tests/model/test_values198_beam.py"]
OLD_CTC = ["tests/kernels/test_values48_ctc.py", "tests/kernels/test_ctc.py", "tests/kernels/test_values199_ctc.py"]

MUTANTS = [
    dict(name="v223-heads-config-outputs-are-hidden", file=HEADS,
         old='        return {"kind": self.kind, "outputs": self.O, "per_step": self.per_step}',
         new='        return {"kind": self.kind, "outputs": self.H, "per_step": self.per_step}',
         tests=T_HEADS + OLD_HEADS,
         why="a head's saved config names its hidden size as its outputs: the rebuilt head has the wrong width"),
    dict(name="v223-heads-regression-tolerance-default", file=HEADS,
         old="per_step=False, tolerance=0.04,",
         new="per_step=False, tolerance=0.05,",
         tests=T_HEADS + OLD_HEADS,
         why="the regression head's default tolerance is 0.05: errors between 0.04 and 0.05 count as within"),
    dict(name="v223-heads-mdn-refusal-names-false", file=HEADS,
         old='"the mixture density head scores every step (per_step=True)"',
         new='"the mixture density head scores every step (per_step=False)"',
         tests=T_HEADS + OLD_HEADS,
         why="the mixture head's refusal of per_step=False tells the user to pass per_step=False"),
    dict(name="v223-heads-mdn-outputs-fewer-pass", file=HEADS,
         old="if outputs is not None and int(outputs) != K:",
         new="if outputs is not None and int(outputs) > K:",
         tests=T_HEADS + OLD_HEADS,
         why="a mixture head given fewer outputs than 6M + 1 is not refused (it silently takes 6M + 1)"),
    dict(name="v223-heads-ctc-refusal-names-hidden", file=HEADS,
         old="at least one label class, got outputs={outputs}",
         new="at least one label class, got outputs={hidden_size}",
         tests=T_HEADS + OLD_HEADS,
         why="the CTC head's refusal of too few outputs quotes the hidden size as the outputs"),
    dict(name="v223-heads-ctc-label-range-message", file=HEADS,
         old='f"CTC labels are classes 1..{self.O - 1} (0 is the blank)"',
         new='f"CTC labels are classes 1..{self.O} (0 is the blank)"',
         tests=T_HEADS + OLD_HEADS,
         why="the refusal of an out-of-range CTC label names one class more than the head has"),
    dict(name="v223-beam-lengths-message-from-one", file=BEAM,
         old='f"lengths must be {B} step counts between 0 and {T}"',
         new='f"lengths must be {B} step counts between 1 and {T}"',
         tests=T_DECODE + OLD_DECODE,
         why="the refusal of bad lengths says a row needs a step, though rows of 0 steps are accepted"),
    dict(name="v223-beam-repeat-reads-parents-label", file=BEAM,
         old="            last = label[n]\n",
         new="            last = label[parent[n]]\n",
         tests=T_DECODE + OLD_DECODE,
         why="an extension's repeat rule compares the class with the prefix's second-last label, not its last"),
    dict(name="v223-beam-order-same-parent-equal", file=BEAM,
         old="    if p1 == p2 and l1 == l2:           # one begins the other",
         new="    if p1 == p2:           # one begins the other",
         tests=T_DECODE + OLD_DECODE,
         why="two prefixes of one parent and different last labels compare equal: ties are no longer broken by label"),
    dict(name="v223-decode-spec-empty-prefix-ends-in-label", file=DECODE,
         old="    beams = {(): (0.0, ninf)}",
         new="    beams = {(): (0.0, 0.0)}",
         tests=T_DECODE + OLD_DECODE,
         why="the spec's empty prefix starts with log pnb 0 as well as log pb 0: every labelling counted twice"),
    dict(name="v223-ctc-lse3-third-term-reads-second", file=CTC,
         old="    z = _exp(x0 - m) + _exp(x1 - m) + _exp(x2 - m)",
         new="    z = _exp(x0 - m) + _exp(x1 - m) + _exp(x1 - m)",
         tests=T_CTC + OLD_CTC,
         why="log space: the skip term is replaced by the step-from-the-previous term a second time"),
    dict(name="v223-ctc-posterior-sum-adds-beta", file=CTC,
         old="        z += w\n        zb += w * blk[i]\n    return c, z, zb",
         new="        z += v\n        zb += w * blk[i]\n    return c, z, zb",
         tests=T_CTC + OLD_CTC,
         why="the posteriors' normalizer before the last step sums beta instead of alpha times beta"),
    dict(name="v223-ctc-log-grad-skips-blank-softmax", file=CTC,
         old="        for c in range(C):\n            d[t, c] = _exp(lp[t, c])",
         new="        for c in range(1, C):\n            d[t, c] = _exp(lp[t, c])",
         tests=T_CTC + OLD_CTC,
         why="log space: the blank's softmax is never written into the gradient (scratch left there)"),
]
