"""Planted bugs, round 381 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the heads (lnrnn/model/heads.py), twentieth pass, planted before any test was written for them: the character error rate
shown as a fraction under its (%) label; a fresh head's bias at one; W's axes swapped in linear_backward; the
classifier's gradient built from log-probabilities; a float64 regression head's targets rounded to float32; the mixture
density head's (sx, sy) kept reversed; the CTC head taking chunks of a row; the CTC head's per_step default False; the
mixture density head naming a metric its sums never hold; every row-wise head marked as needing whole rows; the CTC
gradient scaled twice; a fresh mixture density head clipping its derivatives at 1.

12 mutants. Against the old targeted files alone (the heads' value files tests/model/test_values*_heads.py,
test_values_heads and test_values276_refusals): 9 of 12 caught; missed: the mixture density scale reversed, the CTC head
taking chunks, every row-wise head marked whole-row (the model files that train in chunks, test_values88_models and
test_values242_models, catch the last). The new file test_values381_heads catches the three on its own: the scale
through config and make_head; the CTC head's refusal of truncated BPTT word for word; a per-step classifier's chunked
loss and accuracy equal to its whole-row ones; it also checks the CTC head's log_probs for a batch wider than long
against a log-softmax written out. Left out: the mixture density forward's T, B = h.shape read as B, T (equivalent: only
their product T*B is used); log_probs' B read from h.shape[0] (with fewer steps than rows the CTC kernel reads past its
label arrays and the process aborts: a crash, not a value).

    python tests/mutants/run.py --only 'v381-*'
"""
HEADS = "lnrnn/model/heads.py"
T381 = "tests/model/test_values381_heads.py::"

OLD_HEADS = [
    "tests/model/test_values108_heads.py",
    "tests/model/test_values10_heads.py",
    "tests/model/test_values129_heads.py",
    "tests/model/test_values12_heads.py",
    "tests/model/test_values151_heads.py",
    "tests/model/test_values166_heads.py",
    "tests/model/test_values16_heads.py",
    "tests/model/test_values199_heads.py",
    "tests/model/test_values223_heads.py",
    "tests/model/test_values235_heads.py",
    "tests/model/test_values250_heads.py",
    "tests/model/test_values256_heads.py",
    "tests/model/test_values292_heads.py",
    "tests/model/test_values310_heads.py",
    "tests/model/test_values33_heads.py",
    "tests/model/test_values343_heads.py",
    "tests/model/test_values364_heads.py",
    "tests/model/test_values48_heads.py",
    "tests/model/test_values57_heads.py",
    "tests/model/test_values67_heads.py",
    "tests/model/test_values_heads.py",
    "tests/model/test_values_heads.py",
    "tests/model/test_values276_refusals.py",
]

MUTANTS = [
    dict(name="v381-heads-metric-cer-not-percent", file=HEADS,
         old='"cer": ("character error rate (%)", True)}',
         new='"cer": ("character error rate (%)", False)}',
         tests=OLD_HEADS,
         why="the CTC head's character error rate shown as a fraction under a (%) label"),
    dict(name="v381-heads-bias-init-ones", file=HEADS,
         old='"b": np.zeros(self.O, self.dtype)}',
         new='"b": np.ones(self.O, self.dtype)}',
         tests=OLD_HEADS,
         why="a fresh head's bias starts at one, not zero"),
    dict(name="v381-heads-linear-backward-shape-swapped", file=HEADS,
         old='H, O = self.params["W"].shape\n        d2 = np.ascontiguousarray(dout)',
         new='O, H = self.params["W"].shape\n        d2 = np.ascontiguousarray(dout)',
         tests=OLD_HEADS,
         why="W's two axes read the wrong way round in the backward"),
    dict(name="v381-heads-classifier-softmax-without-exp", file=HEADS,
         old='d = np.exp(logp)                                         # softmax',
         new='d = logp.copy()                                          # softmax',
         tests=OLD_HEADS,
         why="the classifier's gradient built from log-probabilities, not probabilities"),
    dict(name="v381-heads-regression-targets-float32", file=HEADS,
         old='t = np.asarray(targets, dtype=self.dtype)',
         new='t = np.asarray(targets, dtype=np.float32)',
         tests=OLD_HEADS,
         why="a float64 regression head's targets rounded to float32"),
    dict(name="v381-heads-mdn-scale-reversed", file=HEADS,
         old='self.scale = check_scale(scale)',
         new='self.scale = check_scale(scale)[::-1]',
         tests=[T381 + "test_the_mixture_density_head_keeps_its_scale_in_the_order_given"] + OLD_HEADS,
         why="the mixture density head's (sx, sy) kept as (sy, sx)"),
    dict(name="v381-heads-ctc-not-whole-sequence", file=HEADS,
         old='    whole_sequence = True\n',
         new='    whole_sequence = False\n',
         tests=[T381 + "test_the_ctc_head_refuses_truncated_bptt_in_the_models_words"] + OLD_HEADS,
         why="the CTC head accepts chunks of a row: truncated BPTT would score a chunk's loss as the row's"),
    dict(name="v381-heads-ctc-per-step-default-false", file=HEADS,
         old='def __init__(self, hidden_size, outputs, per_step=True, dtype',
         new='def __init__(self, hidden_size, outputs, per_step=False, dtype',
         tests=OLD_HEADS,
         why='a CTC head built without per_step refused'),
    dict(name="v381-heads-mdn-metric-key", file=HEADS,
         old='metrics = ("loss", "nats_seq")',
         new='metrics = ("loss", "nats")',
         tests=OLD_HEADS,
         why='the mixture density head names a metric its sums never hold'),
    dict(name="v381-heads-base-whole-sequence-true", file=HEADS,
         old='    whole_sequence = False  #',
         new='    whole_sequence = True  #',
         tests=[T381 + "test_a_per_step_classifier_trains_in_chunks_and_scores_as_a_whole_row"] + OLD_HEADS,
         why='every row-wise head treated as needing whole rows'),
    dict(name="v381-heads-ctc-backward-scaled-twice", file=HEADS,
         old='        return self.linear_backward(h, d)\n\n\nHEADS',
         new='        return self.linear_backward(h, d * scale)\n\n\nHEADS',
         tests=OLD_HEADS,
         why='the CTC gradient multiplied by the loss scale a second time'),
    dict(name="v381-heads-mdn-clip-on-by-default", file=HEADS,
         old='        self.clip_output = None  #',
         new='        self.clip_output = 1.0  #',
         tests=OLD_HEADS,
         why='a fresh mixture density head clips its per-point derivatives at 1'),
]
