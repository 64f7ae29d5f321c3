"""Heads (lnrnn/model/heads.py), eighteenth pass, against quantities written out here in float64: the
classifier's default is a last-step head (its steps, config and a make_head config without per_step), its
loss over a batch with a -1 label and an invalid row against log-softmax by hand, its gradient against
central differences; the regression head with two outputs, last step ((B,O) targets) and every step
((B,T,O) targets, T != B), loss, within-tolerance count and gradient against squared error by hand and
central differences; the mixture density head's default of 20 components (K = 6M + 1 = 121 outputs);
make_head leaving the caller's dict as it was, and refusing a config without a kind word for word; the CTC
head's refusal of a label with a -1 inside it word for word."""
import numpy as np
import pytest

from lnrnn.model.heads import ClassifierHead, CTCHead, MDNHead, RegressionHead, make_head
from gradcheck_util import numeric_grad


def log_softmax_by_hand(z):
    z = np.asarray(z, np.float64)
    m = z.max(axis=-1, keepdims=True)
    return z - m - np.log(np.sum(np.exp(z - m), axis=-1, keepdims=True))


def check_backward(head, cache, scale, loss, h):
    """head.backward(cache, scale) after zero_grad: dL/dh and the gradients of W and b equal scale x the central
    differences of loss() (a function of h and the head's parameters, as they are)."""
    head.zero_grad()
    dh = head.backward(cache, scale)
    np.testing.assert_allclose(dh, scale * numeric_grad(loss, h), rtol=1e-6, atol=1e-9)
    for n in ("W", "b"):
        np.testing.assert_allclose(head.grads[n], scale * numeric_grad(loss, head.params[n]), rtol=1e-6, atol=1e-9,
                                   err_msg=n)


def test_classifier_is_a_last_step_head_by_default():
    head = ClassifierHead(3, 4)
    assert head.steps == "last"
    assert head.per_step is False
    assert head.config() == {"kind": "classifier", "outputs": 4, "per_step": False}
    assert make_head({"kind": "classifier", "outputs": 4}, 3).steps == "last"
    assert ClassifierHead(3, 4, per_step=True).steps == "all"


def test_classifier_last_step_loss_acc_and_gradient_by_hand():
    rng = np.random.default_rng(3)
    B, H, C = 5, 3, 4
    head = ClassifierHead(H, C, dtype="float64", seed=2)
    head.params["b"][...] = rng.standard_normal(C)
    h = rng.standard_normal((B, H))
    labels = np.array([2, -1, 0, 3, 1])
    valid = np.array([True, True, True, False, True])
    sums, count, cache = head.forward(h, labels, valid)
    logits = h @ head.params["W"] + head.params["b"]
    lp = log_softmax_by_hand(logits)
    scored = [0, 2, 4]                                       # -1 and the invalid row are not scored
    assert count == 3
    np.testing.assert_allclose(sums["loss"], -sum(lp[b, labels[b]] for b in scored), rtol=1e-12)
    assert sums["acc"] == float(sum(int(np.argmax(logits[b]) == labels[b]) for b in scored))

    def loss():
        z = h @ head.params["W"] + head.params["b"]
        return -sum(log_softmax_by_hand(z)[b, labels[b]] for b in scored)

    check_backward(head, cache, 0.5, loss, h)


def test_regression_two_outputs_at_the_last_step_by_hand():
    rng = np.random.default_rng(5)
    B, H, O = 3, 4, 2
    head = RegressionHead(H, outputs=O, tolerance=0.3, dtype="float64", seed=1)
    h = rng.standard_normal((B, H))
    pred = h @ head.params["W"]
    target = pred + np.array([[0.1, -0.2], [0.5, 0.0], [-0.05, 0.29]])   # rows 0 and 2 within 0.3 on both
    valid = np.array([True, True, True])
    sums, count, cache = head.forward(h, target, valid)
    np.testing.assert_allclose(sums["loss"], 0.01 + 0.04 + 0.25 + 0.0025 + 0.0841, rtol=1e-9)
    assert sums["acc"] == 2.0 and count == 3

    def loss():
        return float(np.sum((h @ head.params["W"] + head.params["b"] - target) ** 2))

    head.zero_grad()
    dh = head.backward(cache, 1.0)
    np.testing.assert_allclose(dh, numeric_grad(loss, h), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(head.grads["W"], numeric_grad(loss, head.params["W"]), rtol=1e-6, atol=1e-9)


def test_regression_two_outputs_at_every_step_by_hand():
    rng = np.random.default_rng(6)
    T, B, H, O = 4, 3, 2, 2
    head = RegressionHead(H, outputs=O, per_step=True, dtype="float64", seed=3)
    h = rng.standard_normal((T, B, H))
    target = rng.standard_normal((B, T, O))                 # batch-major, as the task gives them
    lengths = np.array([4, 0, 1])
    valid = np.arange(T)[:, None] < lengths[None, :]        # (T,B)
    sums, count, cache = head.forward(h, target, valid)
    want = 0.0
    for b in range(B):
        for t in range(lengths[b]):
            want += float(np.sum((h[t, b] @ head.params["W"] - target[b, t]) ** 2))
    np.testing.assert_allclose(sums["loss"], want, rtol=1e-12)
    assert count == 5

    def loss():
        tot = 0.0
        for b in range(B):
            for t in range(lengths[b]):
                tot += float(np.sum((h[t, b] @ head.params["W"] + head.params["b"] - target[b, t]) ** 2))
        return tot

    head.zero_grad()
    dh = head.backward(cache, 0.25)
    np.testing.assert_allclose(dh, 0.25 * numeric_grad(loss, h), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(head.grads["W"], 0.25 * numeric_grad(loss, head.params["W"]), rtol=1e-6, atol=1e-9)


def test_mixture_density_head_has_twenty_components_by_default():
    head = MDNHead(5)
    assert head.M == 20 and head.O == 6 * 20 + 1 == 121
    assert head.config() == {"kind": "mdn", "components": 20, "per_step": True, "scale": [1.0, 1.0]}
    assert head.params["W"].shape == (5, 121)
    assert MDNHead(5, components=3).O == 19


def test_make_head_leaves_the_callers_config_as_it_was():
    cfg = {"kind": "regression", "outputs": 2, "per_step": True, "tolerance": 0.1}
    first = make_head(cfg, 3)
    assert cfg == {"kind": "regression", "outputs": 2, "per_step": True, "tolerance": 0.1}
    second = make_head(cfg, 3)                               # the same dict builds the same head again
    assert first.config() == second.config() == cfg


def test_make_head_refuses_a_config_without_a_kind_word_for_word():
    with pytest.raises(ValueError) as e:
        make_head({"outputs": 3}, 4)
    assert str(e.value) == "unknown head None; expected one of classifier, regression, mdn, ctc"


def test_ctc_refuses_a_label_with_a_gap_word_for_word():
    head = CTCHead(2, 4, dtype="float64")
    h = np.zeros((3, 2, 2))
    valid = np.ones((3, 2), bool)
    with pytest.raises(ValueError) as e:
        head.forward(h, np.array([[1, -1, 2], [1, 2, -1]]), valid)
    assert str(e.value) == "CTC labels must be padded at their end with -1, with no -1 inside a label"
