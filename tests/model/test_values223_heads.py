"""Heads (lnrnn/model/heads.py) by definition: each head's config, saved and rebuilt by make_head, gives a
head of the same width, parameters, loss and gradient; the per-step classifier's loss is the masked sum of
-log softmax and its gradient the central differences of that loss (masked rows add nothing); the
regression head's accuracy counts units whose every error is under the models' default tolerance; the CTC
head's log_probs is the log-softmax over each row's own steps, zeros after, for T != B; and the refusals of
a mixture head without per-step scoring or with the wrong output count, of a CTC head of one output and of
an out-of-range CTC label, word for word."""
import inspect

import numpy as np
import pytest

from lnrnn.gradcheck import numeric_grad
from lnrnn.model.heads import CTCHead, MDNHead, RegressionHead, make_head
from lnrnn.model.models import head_config


def log_softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


H = 5


def _cases():
    """(head config, h, targets, valid) with H 5 != O; per step where the head scores every step."""
    rng = np.random.default_rng(22300)
    T, B = 3, 2
    valid_last = np.array([True, False])
    valid_steps = np.ones((T, B), bool)
    valid_steps[2, 1] = False
    return [
        ({"kind": "classifier", "outputs": 3, "per_step": False}, rng.standard_normal((B, H)),
         np.array([2, 0]), valid_last),
        ({"kind": "regression", "outputs": 2, "per_step": True, "tolerance": 0.3}, rng.standard_normal((T, B, H)),
         rng.standard_normal((B, T, 2)), valid_steps),
        ({"kind": "ctc", "outputs": 3, "per_step": True}, rng.standard_normal((T, B, H)),
         np.array([[1, 2], [2, -1]]), valid_steps),
    ]


@pytest.mark.parametrize("case", range(3))
def test_a_saved_config_rebuilds_the_same_head(case):
    cfg, h, targets, valid = _cases()[case]
    a = make_head(cfg, H, dtype="float64", seed=3)
    assert a.params["W"].shape == (H, cfg["outputs"])
    saved = a.config()
    assert saved == cfg
    b = make_head(saved, H, dtype="float64", seed=3)
    assert b.config() == saved
    for k in a.params:
        np.testing.assert_array_equal(b.params[k], a.params[k])
    sa, na, ca = a.forward(h, targets, valid)
    sb, nb, cb = b.forward(h, targets, valid)
    assert sa == sb and na == nb
    np.testing.assert_array_equal(a.backward(ca, 0.5), b.backward(cb, 0.5))


def test_per_step_classifier_loss_and_gradient_over_masked_rows():
    """loss = -sum over valid steps with a label >= 0 of log softmax(h W + b)[label]; dL/dh, dL/dW by central
    differences of that definition; the masked steps' dL/dh is 0."""
    rng = np.random.default_rng(22301)
    T, B, O = 3, 2, 4
    head = make_head({"kind": "classifier", "outputs": O, "per_step": True}, H, dtype="float64", seed=1)
    head.params["b"][:] = rng.standard_normal(O)
    h = rng.standard_normal((T, B, H))
    targets = np.array([[1, 3, 0], [2, -1, 1]])                 # (B,T); -1: no label
    valid = np.array([[True, True], [True, True], [True, False]])

    def loss():
        lp = log_softmax(h @ head.params["W"] + head.params["b"])
        return -sum(lp[t, b, targets[b, t]] for t in range(T) for b in range(B)
                    if valid[t, b] and targets[b, t] >= 0)

    sums, n, cache = head.forward(h, targets, valid)
    assert n == 4
    np.testing.assert_allclose(sums["loss"], loss(), rtol=1e-12)
    want_acc = sum(int(np.argmax(h[t, b] @ head.params["W"] + head.params["b"]) == targets[b, t])
                   for t in range(T) for b in range(B) if valid[t, b] and targets[b, t] >= 0)
    assert sums["acc"] == want_acc
    head.zero_grad()
    dh = head.backward(cache, 1.0)
    np.testing.assert_allclose(dh, numeric_grad(loss, h), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(head.grads["W"], numeric_grad(loss, head.params["W"]), rtol=1e-6, atol=1e-9)
    assert not dh[1, 1].any() and not dh[2, 1].any()


def test_regression_accuracy_uses_the_models_default_tolerance():
    """h = 0 and W, b = 0: the prediction is 0, the error minus the target; acc counts rows with every |error|
    under head_config's default tolerance (the head's own default must be the same)."""
    tol = inspect.signature(head_config).parameters["tolerance"].default
    head = RegressionHead(H, outputs=1, dtype="float64")
    head.params["W"][:] = 0.0
    targets = np.array([0.5 * tol, 1.1 * tol, 1.2 * tol, -0.9 * tol])
    sums, n, _ = head.forward(np.zeros((4, H)), targets, np.ones(4, bool))
    want = sum(abs(t) < tol for t in targets)
    assert n == 4 and sums["acc"] == want == 2
    np.testing.assert_allclose(sums["loss"], np.sum(targets ** 2), rtol=1e-12)


def test_ctc_log_probs_over_each_rows_steps_for_more_steps_than_rows():
    rng = np.random.default_rng(22302)
    T, B, C = 4, 2, 3
    head = CTCHead(H, C, dtype="float64", seed=2)
    head.params["b"][:] = rng.standard_normal(C)
    h = rng.standard_normal((T, B, H))
    lengths = np.array([4, 2])
    lp = head.log_probs(h, lengths)
    want = log_softmax(h @ head.params["W"] + head.params["b"])
    assert lp.shape == (T, B, C)
    for b in range(B):
        np.testing.assert_allclose(lp[:lengths[b], b], want[:lengths[b], b], rtol=1e-10, atol=1e-12)
        assert not lp[lengths[b]:, b].any()


def _refusal(make):
    with pytest.raises(ValueError) as e:
        make()
    return str(e.value)


def test_refusals_word_for_word():
    assert _refusal(lambda: MDNHead(H, components=2, per_step=False)) == \
        "the mixture density head scores every step (per_step=True)"
    for wrong in (12, 14):
        assert _refusal(lambda: MDNHead(H, components=2, outputs=wrong)) == \
            f"a mixture of 2 components has 13 outputs, not {wrong}"
    assert MDNHead(H, components=2, outputs=13).O == 13
    assert _refusal(lambda: CTCHead(7, 1)) == \
        "a CTC head needs the blank and at least one label class, got outputs=1"
    head = CTCHead(H, 4, dtype="float64")
    h = np.zeros((2, 1, H))
    assert _refusal(lambda: head.forward(h, np.array([[1, 4]]), np.ones((2, 1), bool))) == \
        "CTC labels are classes 1..3 (0 is the blank)"
    assert _refusal(lambda: head.forward(h, np.array([[0, 1]]), np.ones((2, 1), bool))) == \
        "CTC labels are classes 1..3 (0 is the blank)"
