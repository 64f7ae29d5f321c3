"""The heads (lnrnn/model/heads.py) against definitions computed here: the initial weights' range
(uniform on +-1/sqrt(H)), zero_grad clearing what backward accumulated (a second backward equals the first),
the steps a head asks for, a mixture head made again from its config, a per-step regression head's loss and
gradient over masked rows (squared error by hand, central differences through lnrnn.gradcheck.numeric_grad),
the CTC head's cer from each row's best path over its own steps (argmax of a log-softmax taken here,
collapsed and compared by the Levenshtein distance written out in test_values48_heads), and its refusal of a
blank inside a label."""
import numpy as np
import pytest

from lnrnn.gradcheck import numeric_grad
from lnrnn.model.heads import ClassifierHead, CTCHead, MDNHead, RegressionHead, make_head
from test_values48_heads import levenshtein


def test_initial_weights_are_uniform_on_both_signs():
    H, O = 16, 8
    W = ClassifierHead(H, O, seed=5).params["W"]
    bound = 1.0 / np.sqrt(H)
    assert np.abs(W).max() <= bound
    assert 0.3 < np.mean(W < 0) < 0.7            # 128 draws of U(-b, b): about half below 0
    assert abs(W.mean()) < 0.25 * bound


def test_zero_grad_clears_what_backward_accumulated():
    rng = np.random.default_rng(19910)
    head = ClassifierHead(4, 3, dtype="float64", seed=1)
    h = rng.standard_normal((5, 4))
    targets = np.array([0, 2, 1, 1, 0])
    valid = np.array([True, True, False, True, True])
    _, _, cache = head.forward(h, targets, valid)
    head.backward(cache, 0.5)
    first = {k: g.copy() for k, g in head.grads.items()}
    assert all(g.any() for g in first.values())
    head.zero_grad()
    assert not any(g.any() for g in head.grads.values())
    head.backward(cache, 0.5)
    for k in first:
        np.testing.assert_array_equal(head.grads[k], first[k])


def test_steps_follow_per_step():
    assert ClassifierHead(3, 2, per_step=True).steps == "all"
    assert ClassifierHead(3, 2, per_step=False).steps == "last"
    assert RegressionHead(3, 1).steps == "last"
    assert CTCHead(3, 4).steps == "all"


def test_mixture_head_made_again_from_its_config():
    head = MDNHead(6, components=3)
    again = make_head(head.config(), 6)
    assert again.M == 3 and again.O == 6 * 3 + 1
    assert again.params["W"].shape == head.params["W"].shape == (6, 19)


def test_per_step_regression_over_masked_rows_by_hand():
    """Targets (B, T, O) per step: loss = sum over valid (t, b) of |h W + b - target|^2; gradient by central
    differences of the loss with respect to h and W."""
    rng = np.random.default_rng(19911)
    T, B, H, O = 3, 2, 4, 2
    head = RegressionHead(H, outputs=O, per_step=True, dtype="float64", seed=2)
    head.params["b"][...] = rng.standard_normal(O)
    h = rng.standard_normal((T, B, H))
    targets = rng.standard_normal((B, T, O))
    valid = np.array([[True, True], [True, False], [False, False]])
    sums, count, cache = head.forward(h, targets, valid)
    pred = h @ head.params["W"] + head.params["b"]
    want = sum(np.sum((pred[t, b] - targets[b, t]) ** 2) for t in range(T) for b in range(B) if valid[t, b])
    assert count == 3
    np.testing.assert_allclose(sums["loss"], want, rtol=1e-12)
    head.zero_grad()
    dh = head.backward(cache, 1.0)

    def f():
        return head.forward(h, targets, valid)[0]["loss"]

    np.testing.assert_allclose(dh, numeric_grad(f, h), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(head.grads["W"], numeric_grad(f, head.params["W"]), rtol=1e-7, atol=1e-9)
    assert not dh[2].any() and not dh[1, 1].any()


def test_ctc_cer_is_the_best_paths_edits_by_hand():
    """Steps leaning on chosen paths ('1 2 3' read exactly, '2', and '3 1' against the label '3 3')."""
    rng = np.random.default_rng(19912)
    T, B, C = 5, 3, 4
    head = CTCHead(C, C, dtype="float64", seed=3)
    head.params["W"][...] = np.eye(C) + 0.2 * rng.standard_normal((C, C))
    h = 0.3 * rng.standard_normal((T, B, C))
    for b, path in enumerate([[1, 0, 2, 2, 3], [2, 2, 0, 0, 0], [3, 0, 1, 0, 0]]):
        h[np.arange(T), b, path] += 4.0
    lengths = [5, 3, 4]
    valid = np.arange(T)[:, None] < np.array(lengths)[None, :]
    rows = [[1, 2, 3], [2], [3, 3]]
    targets = np.full((B, 3), -1, np.int64)
    for b, r in enumerate(rows):
        targets[b, :len(r)] = r
    sums, count, _ = head.forward(h, targets, valid)
    logits = h @ head.params["W"] + head.params["b"]
    want = 0
    for b, r in enumerate(rows):
        z = logits[:lengths[b], b]
        lp = z - z.max(-1, keepdims=True) - np.log(np.exp(z - z.max(-1, keepdims=True)).sum(-1, keepdims=True))
        out, prev = [], None
        for k in lp.argmax(-1).tolist():
            if k != prev and k != 0:
                out.append(k)
            prev = k
        want += levenshtein(r, out)
    assert count == 3 and sums["chars"] == 6.0
    assert want == 1 and sums["cer"] == float(want)


def test_ctc_blank_inside_a_label_is_refused_as_a_class():
    head = CTCHead(3, 4)
    h = np.zeros((4, 1, 3), np.float32)
    valid = np.ones((4, 1), bool)
    with pytest.raises(ValueError, match=r"classes 1\.\.3 \(0 is the blank\)"):
        head.forward(h, np.array([[1, 0, 2]]), valid)
