"""Heads (lnrnn/model/heads.py) against their definitions in float64: the CTC head's loss as minus the log of
the summed probability of every path (all C^T of them enumerated, collapsed by hand: repeats merged, blanks
dropped) over rows of their own lengths (an empty row, a row of one step), its count and chars over the rows
with steps, and dL/dh, dW, db by central differences of that sum, for two classes (the blank and one label)
and for four; the regression head's config and accuracy within its tolerance by hand; every head's sum keys."""
import itertools

import numpy as np
import pytest

from lnrnn.model.heads import ClassifierHead, CTCHead, MDNHead, RegressionHead, make_head
from gradcheck_util import numeric_grad
from test_values87_beam import collapse  # a path collapsed: repeats merged, blanks (0) dropped, as a tuple

H = 3


def ctc_nll(z, label):
    """-log sum over every path of z's (n,C) softmax steps that collapses to label."""
    p = np.exp(z - z.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    n, C = z.shape
    total = sum(np.prod([p[t, c] for t, c in enumerate(path)])
                for path in itertools.product(range(C), repeat=n) if collapse(path) == tuple(label))
    return -np.log(total)


def ctc_sum(head, h, labels, lengths):
    z = h @ head.params["W"] + head.params["b"]         # (T,B,C)
    return sum(ctc_nll(z[:n, r], [c for c in labels[r] if c >= 0]) for r, n in enumerate(lengths) if n)


@pytest.mark.parametrize("C,labels", [
    (2, [[1, 1], [1, -1], [-1, -1], [-1, -1]]),
    (4, [[2, 3], [3, -1], [1, -1], [1, 1]]),
])
def test_ctc_loss_count_and_gradients_by_every_path(C, labels):
    T, lengths = 4, np.array([4, 1, 0, 3])
    B = len(lengths)
    rng = np.random.default_rng(C)
    head = CTCHead(H, C, dtype="float64", seed=1)
    head.params["b"][...] = rng.normal(0, 0.5, C)
    h = rng.standard_normal((T, B, H))
    labels = np.array(labels, np.int64)
    valid = np.arange(T)[:, None] < lengths[None, :]     # (T,B)
    sums, count, cache = head.forward(h, labels, valid)
    assert count == 3 == head.count(labels, valid)
    want = ctc_sum(head, h, labels, lengths)
    np.testing.assert_allclose(sums["loss"], want, rtol=1e-10)
    assert sums["chars"] == sum(int((labels[r] >= 0).sum()) for r in range(B) if lengths[r])
    np.testing.assert_allclose(head.mean({**sums, "seqs": 3.0}, count)["loss"], want / 3, rtol=1e-10)

    scale = 0.3
    head.zero_grad()
    dh = head.backward(cache, scale)
    W, b = head.params["W"], head.params["b"]
    grads = {k: np.array(v) for k, v in head.grads.items()}

    def f():
        return scale * ctc_sum(head, h, labels, lengths)
    np.testing.assert_allclose(grads["W"], numeric_grad(f, W), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(grads["b"], numeric_grad(f, b), rtol=1e-6, atol=1e-9)
    num_dh = numeric_grad(f, h)
    num_dh[~valid] = 0                                   # padding: no path reads it
    np.testing.assert_allclose(np.where(valid[..., None], dh, 0), num_dh, rtol=1e-6, atol=1e-9)


def test_regression_config_keeps_its_tolerance_and_accuracy_counts_within_it():
    head = RegressionHead(H, 2, tolerance=0.3, dtype="float64", seed=2)
    cfg = head.config()
    assert cfg == {"kind": "regression", "outputs": 2, "per_step": False, "tolerance": 0.3}
    again = make_head(cfg, H, dtype="float64", seed=2)
    assert again.tolerance == 0.3
    rng = np.random.default_rng(1)
    h = rng.standard_normal((5, H))
    pred = h @ head.params["W"] + head.params["b"]
    y = pred + np.array([[0.1, -0.2], [0.35, 0.0], [0.0, 0.0], [-0.29, 0.29], [0.5, 0.5]])
    valid = np.array([True, True, False, True, True])
    sums, count, _ = again.forward(h, y, valid)
    err = (pred - y)[valid]
    assert count == 4 and sums["acc"] == 2               # rows 0 and 3 within 0.3 in every output
    np.testing.assert_allclose(sums["loss"], (err ** 2).sum(), rtol=1e-12)


def test_every_head_sums_the_sequences_as_well():
    assert ClassifierHead(H, 3).sum_keys == ("loss", "acc", "seqs")
    assert RegressionHead(H, 1).sum_keys == ("loss", "acc", "seqs")
    assert MDNHead(H, 2).sum_keys == ("loss", "nats_seq", "seqs")
    assert CTCHead(H, 3).sum_keys == ("loss", "cer", "chars", "seqs")
