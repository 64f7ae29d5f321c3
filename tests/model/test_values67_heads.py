"""The heads (lnrnn/model/heads.py) in float64 with T, B and the class count all different, padded steps, an
unscored label and a nonzero bias, against NumPy written here: the classifier's loss as -log of the softmax
over each step's classes, per step and at the last step, its count of scored steps; the mixture density head
against Graves 2013's loss of each running (t, b) point taken from its own row of the (B,T,3) targets
(test_values67_mdn's equations), its count of running points and its biased sampler's spread; each head's
dL/dW, dL/db and dL/dh against central differences of scale times its loss."""
import numpy as np
import pytest

from lnrnn.model.heads import ClassifierHead, MDNHead
from test_values67_mdn import loss as mdn_loss
from gradcheck_util import numeric_grad

T, B, H, C = 4, 3, 5, 6
LENGTHS = np.array([4, 2, 0])
VALID = np.arange(T)[:, None] < LENGTHS[None, :]                    # (T,B)
SCALE = 0.3


def randomized(head, seed):
    rng = np.random.default_rng(seed)
    head.params["W"][...] = rng.normal(0.0, 0.7, head.params["W"].shape)
    head.params["b"][...] = rng.normal(0.0, 1.5, head.params["b"].shape)
    return head


def softmax_nll(logits, label):
    """-log softmax(logits)[label] for one row of classes."""
    return -(logits[label] - np.log(np.sum(np.exp(logits))))


def check_gradients(head, h, targets, valid):
    head.zero_grad()
    dh = head.backward(head.forward(h, targets, valid)[2], SCALE)

    def f():
        return SCALE * head.forward(h, targets, valid)[0]["loss"]
    for name, got, arr in (("b", head.grads["b"].copy(), head.params["b"]),
                           ("W", head.grads["W"].copy(), head.params["W"]), ("h", dh, h)):
        num = numeric_grad(f, arr, eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-3, name
        np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-8, err_msg=name)


def test_classifier_per_step_padded_and_unscored():
    head = randomized(ClassifierHead(H, C, per_step=True, dtype="float64"), 1)
    rng = np.random.default_rng(2)
    h = rng.normal(0.0, 1.0, (T, B, H))
    labels = rng.integers(0, C, (B, T))
    labels[0, 2] = -1                                               # running, unscored
    want, n = 0.0, 0
    for t in range(T):
        for b in range(B):
            if VALID[t, b] and labels[b, t] >= 0:
                want += softmax_nll(h[t, b] @ head.params["W"] + head.params["b"], labels[b, t])
                n += 1
    sums, count, _ = head.forward(h, labels, VALID)
    assert n == 5
    assert count == n and head.count(labels, VALID) == n
    assert sums["loss"] == pytest.approx(want, rel=1e-12)
    check_gradients(head, h, labels, VALID)


def test_classifier_last_step_rows():
    """Last step: h (B,H), labels (B,), a row without steps and a row with an unscored label add nothing."""
    Bl = 5
    head = randomized(ClassifierHead(H, C, per_step=False, dtype="float64"), 3)
    rng = np.random.default_rng(4)
    h = rng.normal(0.0, 1.0, (Bl, H))
    labels = np.array([2, 5, -1, 0, 3])
    valid = np.array([True, True, True, False, True])
    want = sum(softmax_nll(h[b] @ head.params["W"] + head.params["b"], labels[b])
               for b in range(Bl) if valid[b] and labels[b] >= 0)
    sums, count, _ = head.forward(h, labels, valid)
    assert count == 3 and head.count(labels, valid) == 3
    assert sums["loss"] == pytest.approx(want, rel=1e-12)
    check_gradients(head, h, labels, valid)


M = 3


def mdn_problem(seed):
    head = randomized(MDNHead(H, components=M, dtype="float64"), seed)
    rng = np.random.default_rng(seed + 10)
    h = rng.normal(0.0, 0.5, (T, B, H))
    targets = np.concatenate([rng.normal(0.0, 1.0, (B, T, 2)), rng.integers(0, 2, (B, T, 1))], axis=2)
    return head, h, targets


def test_mdn_head_scores_each_point_of_its_own_row():
    head, h, targets = mdn_problem(5)
    want = 0.0
    for t in range(T):
        for b in range(B):
            if VALID[t, b]:
                yh = h[t, b] @ head.params["W"] + head.params["b"]
                want += mdn_loss(yh[None], targets[b, t][None], [1])[0]
    sums, count, _ = head.forward(h, targets, VALID)
    assert count == int(VALID.sum()) == 6
    assert sums["loss"] == pytest.approx(want, rel=1e-11)
    assert head.mean(sums, count)["loss"] == pytest.approx(want / 6, rel=1e-11)
    check_gradients(head, h, targets, VALID)


def test_mdn_head_sample_uses_its_bias():
    """One point's output drawn many times: the spread of the draws is the biased sigma exp(s_hat - bias),
    and the components are chosen with the biased weights."""
    head = MDNHead(H, components=2, dtype="float64")
    row = np.zeros(13)
    row[1:3] = [0.4, -0.4]
    row[3:5] = [0.0, 100.0]                                         # mu1 of the two components
    row[7:11] = 0.5                                                 # s_hat
    bias = 1.5
    x = head.sample(np.tile(row, (20000, 1)), np.random.default_rng(0), bias=bias)
    sigma = np.exp(0.5 - bias)
    first = x[:, 0] < 50
    assert x[first, 0].std() == pytest.approx(sigma, rel=0.05)
    p = np.exp(np.array([0.4, -0.4]) * (1 + bias))
    assert first.mean() == pytest.approx(p[0] / p.sum(), abs=0.015)
