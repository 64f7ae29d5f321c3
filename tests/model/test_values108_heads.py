"""Heads against NumPy written from their definitions: the per-step classifier's summed cross-entropy,
accuracy, count and gradients (softmax minus the one-hot label, times the scale, at valid labelled steps)
with (B,T) labels on square and non-square batches; the regression head's squared error and its
gradient; the CTC head's host sums (the labels of rows that have steps)."""
import numpy as np
import pytest

from lnrnn.model.heads import ClassifierHead, CTCHead, RegressionHead

H = 3


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@pytest.mark.parametrize("T,B", [(3, 3), (4, 2)])
def test_per_step_classifier_loss_accuracy_and_gradients_by_definition(T, B):
    C = 4
    rng = np.random.default_rng(T * 10 + B)
    head = ClassifierHead(H, C, per_step=True, dtype="float64", seed=1)
    head.params["b"][...] = rng.standard_normal(C)
    h = rng.standard_normal((T, B, H))
    labels = rng.integers(0, C, (B, T))                         # (B,T): row b's label at step t
    labels[0, 1] = -1                                          # an unlabelled step
    valid = rng.random((T, B)) < 0.8
    valid[0, 0] = True
    scale = 0.37
    W, b = head.params["W"], head.params["b"]
    loss, correct, count = 0.0, 0, 0
    dz = np.zeros((T, B, C))
    for t in range(T):
        for r in range(B):
            if not valid[t, r] or labels[r, t] < 0:
                continue
            z = h[t, r] @ W + b
            p = _softmax(z)
            loss -= np.log(p[labels[r, t]])
            correct += int(np.argmax(z) == labels[r, t])
            count += 1
            dz[t, r] = scale * (p - np.eye(C)[labels[r, t]])
    sums, n, cache = head.forward(h, labels, valid)
    assert n == count == head.count(labels, valid)
    np.testing.assert_allclose(sums["loss"], loss, rtol=1e-12)
    assert sums["acc"] == correct
    head.zero_grad()
    dh = head.backward(cache, scale)
    np.testing.assert_allclose(dh, dz @ W.T, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(head.grads["W"], np.einsum("tbh,tbc->hc", h, dz), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(head.grads["b"], dz.sum((0, 1)), rtol=1e-12, atol=1e-14)


def test_last_step_regression_squared_error_and_gradient_by_definition():
    Bn, O = 4, 2
    rng = np.random.default_rng(5)
    head = RegressionHead(H, O, tolerance=0.5, dtype="float64", seed=2)
    h = rng.standard_normal((Bn, H))
    target = rng.standard_normal((Bn, O))
    valid = np.array([True, False, True, True])
    err = (h @ head.params["W"] + head.params["b"] - target) * valid[:, None]
    sums, n, cache = head.forward(h, target, valid)
    assert n == 3
    np.testing.assert_allclose(sums["loss"], np.sum(err ** 2), rtol=1e-12)
    assert sums["acc"] == np.count_nonzero(np.all(np.abs(err) < 0.5, axis=1) & valid)
    head.zero_grad()
    dh = head.backward(cache, 0.25)
    np.testing.assert_allclose(dh, 0.5 * err @ head.params["W"].T, rtol=1e-12)
    np.testing.assert_allclose(head.grads["W"], h.T @ (0.5 * err), rtol=1e-12)


def test_ctc_host_sums_count_the_labels_of_rows_with_steps_only():
    head = CTCHead(H, 5, dtype="float64")
    T = 4
    labels = np.array([[1, 2, -1], [3, 3, 4], [2, -1, -1]])        # 2, 3 and 1 labels
    il = np.array([4, 0, 2])                                      # the middle row has no steps
    valid = np.arange(T)[:, None] < il[None, :]
    assert head.host_sums(labels, valid) == {"chars": 3.0}
    assert head.count(labels, valid) == 2
    assert head.host_sums(labels, np.ones((T, 3), bool)) == {"chars": 6.0}
