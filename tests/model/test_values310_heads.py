"""Heads (lnrnn/model/heads.py) against formulas written out here, in float64: a head's weights are the uniform
draw of its own seed's stream (bound 1/sqrt(H)) and its bias zeros, through make_head as through the class; its
parameter names, shapes and counts written by hand for the classifier, the regression head and the mixture
density head of K = 1 and 3 components; gradients that start at zero; the mean of sums over the scored units
(count 4 of sums 6 and 3); the per-step classifier's count of units that are valid and labelled (-1 not scored);
every head's sum keys; the classifier's loss and backward against softmax cross-entropy with a mask and a scale
of 0.37 (to 1e-12, and against central differences); the mixture density's loss against the bivariate normal
of lnrnn.reference.mdn_nll with correlations of +-0.999 and padded points, and its backward against central
differences."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.heads import ClassifierHead, MDNHead, RegressionHead, make_head
from gradcheck_util import numeric_grad


@pytest.mark.parametrize("seed", [0, 4])
def test_make_head_weights_are_the_uniform_draw_of_its_seed(seed):
    H, O = 5, 3
    head = make_head({"kind": "classifier", "outputs": O}, H, dtype="float64", seed=seed)
    bound = 1.0 / np.sqrt(H)
    W = np.random.default_rng([seed, 7]).uniform(-bound, bound, (H, O))
    np.testing.assert_array_equal(head.params["W"], W)
    np.testing.assert_array_equal(head.params["b"], np.zeros(O))


# (class, keyword arguments, outputs O by hand) at hidden size 5
SIZES = [(ClassifierHead, {"outputs": 3}, 3), (RegressionHead, {"outputs": 2}, 2),
         (MDNHead, {"components": 1}, 7), (MDNHead, {"components": 3}, 19)]


@pytest.mark.parametrize("cls, kw, O", SIZES)
def test_parameter_names_shapes_and_counts_by_hand(cls, kw, O):
    head = cls(5, dtype="float64", **kw)
    assert (head.H, head.O) == (5, O)
    assert sorted(head.params) == ["W", "b"] and sorted(head.grads) == ["W", "b"]
    assert head.params["W"].shape == (5, O) and head.params["b"].shape == (O,)
    assert sum(v.size for v in head.params.values()) == {3: 18, 2: 12, 7: 42, 19: 114}[O]   # 5 O + O
    for n in ("W", "b"):
        assert head.grads[n].shape == head.params[n].shape
        np.testing.assert_array_equal(head.grads[n], 0.0)


@pytest.mark.parametrize("cls, kw", [(ClassifierHead, {"outputs": 3}), (RegressionHead, {"outputs": 2})])
def test_mean_divides_the_sums_by_the_scored_units(cls, kw):
    head = cls(4, **kw)
    assert head.mean({"loss": 6.0, "acc": 3.0, "seqs": 2}, 4) == {"loss": 1.5, "acc": 0.75}
    assert head.mean({"loss": 0.0, "acc": 0.0, "seqs": 0}, 0) == {"loss": 0.0, "acc": 0.0}


def test_per_step_classifier_counts_valid_labelled_steps_only():
    head = ClassifierHead(3, 3, per_step=True, dtype="float64")
    targets = np.array([[0, -1, 2], [1, 1, -1]])                 # (B 2, T 3)
    valid = np.ones((3, 2), bool)                                # (T,B)
    assert head.count(targets, valid) == 4                       # row 0: steps 0, 2; row 1: steps 0, 1
    valid[1, 1] = False
    assert head.count(targets, valid) == 3
    h = np.random.default_rng(0).standard_normal((3, 2, 3))
    assert head.forward(h, targets, valid)[1] == 3


@pytest.mark.parametrize("head, keys", [(ClassifierHead(3, 2), ("loss", "acc", "seqs")),
                                        (RegressionHead(3, 2), ("loss", "acc", "seqs")),
                                        (MDNHead(3, 1), ("loss", "nats_seq", "seqs"))])
def test_sum_keys_are_the_metrics_and_seqs(head, keys):
    assert tuple(head.sum_keys) == keys


def _softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_classifier_loss_and_backward_are_masked_cross_entropy_in_float64():
    T, B, H, C, scale = 3, 2, 4, 3, 0.37
    rng = np.random.default_rng(5)
    head = ClassifierHead(H, C, per_step=True, dtype="float64", seed=1)
    head.params["b"][...] = rng.standard_normal(C)
    h = rng.standard_normal((T, B, H))
    targets = np.array([[2, -1, 0], [1, 0, 2]])                  # (B,T)
    valid = np.array([[True, True], [True, True], [True, False]])
    lab = targets.T                                              # (T,B)
    mask = valid & (lab >= 0)
    logits = h @ head.params["W"] + head.params["b"]
    p = _softmax(logits)
    want_loss = -sum(np.log(p[t, b, lab[t, b]]) for t in range(T) for b in range(B) if mask[t, b])
    sums, count, cache = head.forward(h, targets, valid)
    assert count == 4
    np.testing.assert_allclose(sums["loss"], want_loss, rtol=1e-13)
    d = p.copy()
    for t in range(T):
        for b in range(B):
            d[t, b, max(lab[t, b], 0)] -= 1.0
    d *= (mask * scale)[..., None]
    dh = head.backward(cache, scale)
    np.testing.assert_allclose(dh, d @ head.params["W"].T, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(head.grads["W"], h.reshape(-1, H).T @ d.reshape(-1, C), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(head.grads["b"], d.reshape(-1, C).sum(0), rtol=1e-12, atol=1e-15)
    W = head.params["W"]
    num = numeric_grad(lambda: scale * head.forward(h, targets, valid)[0]["loss"], W)
    np.testing.assert_allclose(head.grads["W"], num, rtol=1e-7, atol=1e-10)


def _mdn_case(M, seed):
    T, B, H = 3, 2, 4
    K = 6 * M + 1
    rng = np.random.default_rng(seed)
    head = MDNHead(H, components=M, dtype="float64", seed=seed)
    head.params["W"][...] = 0.3 * rng.standard_normal((H, K))
    head.params["W"][:, 1 + 5 * M:] *= 0.05                      # correlations held near their bias
    b = 0.2 * rng.standard_normal(K)
    b[1 + 5 * M:] = [3.8 if k % 2 == 0 else -3.8 for k in range(M)]   # tanh(3.8) = 0.999: rho near +-1
    head.params["b"][...] = b
    h = rng.standard_normal((T, B, H))
    targets = np.concatenate([0.5 * rng.standard_normal((B, T, 2)), rng.integers(0, 2, (B, T, 1))], axis=2)
    valid = np.array([[True, True], [True, False], [False, False]])    # (T,B): lengths 2 and 1
    return head, h, targets, valid


@pytest.mark.parametrize("M", [1, 3])
def test_mixture_loss_is_the_bivariate_normal_nll_over_valid_points(M):
    head, h, targets, valid = _mdn_case(M, 3 + M)
    T, B, H = h.shape
    yhat = (h @ head.params["W"] + head.params["b"]).reshape(T * B, -1)
    tg = np.swapaxes(targets, 0, 1).reshape(T * B, 3)
    rho = 0.9999 * np.tanh(yhat[:, 1 + 5 * M:])
    assert np.all(np.abs(rho) > 0.99)
    want = ref.mdn_nll(yhat, tg, valid.reshape(T * B), M)
    sums, count, _ = head.forward(h, targets, valid)
    assert count == 3
    np.testing.assert_allclose(sums["loss"], want.sum(), rtol=1e-10)
    np.testing.assert_allclose(sums["nats_seq"], want.sum(), rtol=1e-10)
    assert head.mean(dict(sums, seqs=2), count) == pytest.approx({"loss": want.sum() / 3, "nats_seq": want.sum() / 2},
                                                                   rel=1e-10)


@pytest.mark.parametrize("M", [1, 3])
def test_mixture_backward_against_central_differences(M):
    head, h, targets, valid = _mdn_case(M, 11 + M)
    scale = 0.5
    _, _, cache = head.forward(h, targets, valid)
    dh = head.backward(cache, scale)

    def f():
        return scale * head.forward(h, targets, valid)[0]["loss"]

    for name in ("W", "b"):
        num = numeric_grad(f, head.params[name], eps=1e-5)
        np.testing.assert_allclose(head.grads[name], num, rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(dh, numeric_grad(f, h, eps=1e-5), rtol=1e-5, atol=1e-8)
