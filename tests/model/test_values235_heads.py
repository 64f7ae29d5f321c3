"""Heads (lnrnn/model/heads.py) with masks, by hand: the head's W set to the identity and b to 0 so that its
logits (or predictions) are the h written in the test. The per-step classifier scores steps labelled 0 (a
class like any other) and skips steps labelled -1 or invalid: its loss is the masked sum of -log softmax,
its count the masked steps, its accuracy the masked steps whose argmax is the label (an invalid step whose
argmax matches its label adds nothing), its gradient (softmax - one-hot) times the scale on masked steps and
zero elsewhere. The regression head counts a unit within tolerance only when every output is, and returns
its valid units as the count. The mixture head's nats per sequence divide by the sequences, its loss by the
points. The CTC head counts rows with at least one step: a row of no step adds neither to the count nor to
'chars', and the loss of the others is -log of the sum over every path of T steps that collapses to the
label (enumerated here)."""
import itertools
import math

import numpy as np

from lnrnn.model.heads import ClassifierHead, CTCHead, MDNHead, RegressionHead
from test_values48_decode import collapse_by_hand


def identity_head(cls, n, **kw):
    head = cls(n, n, dtype="float64", **kw)
    head.params["W"][...] = np.eye(n)
    head.params["b"][...] = 0.0
    return head


def softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def test_per_step_classifier_scores_label_zero_and_skips_padding_and_invalid_steps():
    C = 3
    head = identity_head(ClassifierHead, C, per_step=True)
    # h (T 3, B 2, C): logits by hand. Row 0: labels 0, 2, -1; row 1: labels 1, 0, 2 with step 2 invalid.
    h = np.array([[[2.0, 0.5, -1.0], [0.1, 1.5, 0.3]],
                  [[0.2, -0.4, 0.9], [1.1, 0.0, 1.4]],
                  [[0.0, 3.0, 0.0], [-0.5, 0.2, 2.5]]])
    targets = np.array([[0, 2, -1], [1, 0, 2]])            # (B,T)
    valid = np.ones((3, 2), bool)
    valid[2, 1] = False                                   # row 1's last step: argmax 2 is its label, unscored
    scored = [(0, 0, 0), (1, 0, 2), (0, 1, 1), (1, 1, 0)]  # (t, b, label)
    loss = sum(-math.log(softmax(h[t, b])[c]) for t, b, c in scored)
    correct = sum(int(np.argmax(h[t, b]) == c) for t, b, c in scored)   # (0,0,0) and (1,0,2) and (0,1,1): 3
    assert correct == 3
    sums, n, cache = head.forward(h, targets, valid)
    assert n == 4 and head.count(targets, valid) == 4
    np.testing.assert_allclose(sums["loss"], loss, rtol=1e-12)
    assert sums["acc"] == 3.0
    dh = head.backward(cache, 0.25)
    want = np.zeros_like(h)
    for t, b, c in scored:
        want[t, b] = 0.25 * (softmax(h[t, b]) - np.eye(C)[c])
    np.testing.assert_allclose(dh, want, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(head.grads["b"], want.sum((0, 1)), rtol=1e-12, atol=1e-15)


def test_regression_counts_units_within_tolerance_on_every_output_and_only_valid_ones():
    head = identity_head(RegressionHead, 2, tolerance=0.1)
    targets = np.array([[0.0, 0.0], [1.0, 1.0], [0.5, -0.5], [2.0, 2.0], [0.0, 0.0]])
    h = np.array([[0.05, 0.3],                            # one output off: not within
                  [1.02, 0.95],                           # within
                  [0.5, -0.45],                           # within
                  [2.0, 2.0],                             # within, but invalid
                  [0.3, 0.05]])                           # the other output off
    valid = np.array([True, True, True, False, True])
    sums, n, _ = head.forward(h, targets, valid)
    assert n == 4
    assert sums["acc"] == 2.0
    err = (h - targets)[valid]
    np.testing.assert_allclose(sums["loss"], (err ** 2).sum(), rtol=1e-12)


def test_mixture_means_divide_nats_per_sequence_by_sequences_and_loss_by_points():
    head = MDNHead(4, components=2, dtype="float64")
    got = head.mean({"loss": 12.0, "nats_seq": 12.0, "seqs": 3}, 8)
    assert got == {"loss": 1.5, "nats_seq": 4.0}


def ctc_loss_by_paths(logp, label):
    """-log of the sum over every path of logp's steps that collapses to label."""
    T, C = logp.shape
    total = sum(math.exp(sum(logp[t, k] for t, k in enumerate(p)))
                for p in itertools.product(range(C), repeat=T) if collapse_by_hand(p) == tuple(label))
    return -math.log(total)


def test_ctc_rows_of_no_step_are_neither_counted_nor_scored():
    C, T, B = 3, 3, 3
    head = identity_head(CTCHead, C)
    rng = np.random.default_rng(23500)
    h = rng.standard_normal((T, B, C))
    targets = np.array([[1, 2], [2, -1], [1, -1]])
    valid = np.zeros((T, B), bool)
    valid[:3, 0] = True                                   # row 0: 3 steps; row 1: none; row 2: 2 steps
    valid[:2, 2] = True
    assert head.count(targets, valid) == 2
    sums, n, _ = head.forward(h, targets, valid)
    assert n == 2
    assert sums["chars"] == 3.0                           # labels of rows 0 and 2: 2 + 1
    lsm = h - np.log(np.exp(h).sum(-1, keepdims=True))
    want = ctc_loss_by_paths(lsm[:3, 0], [1, 2]) + ctc_loss_by_paths(lsm[:2, 2], [1])
    np.testing.assert_allclose(sums["loss"], want, rtol=1e-9)
