"""The heads (lnrnn/model/heads.py) in float64: dL/dh, the gradient a head hands back to the stack, against
central differences of scale times a loss written here from the definitions (test_values151_heads: the
log-softmax of the label's class, the squared error, Graves 2013's mixture density per point, the sum over
every CTC path), over ragged rows (T 4, B 3, lengths 4, 1, 0: T != B, so a (B,T) layout cannot pass for a
(T,B) one); a padded step's dh is 0. The CTC head refuses what it cannot read: a label row with -1 inside it
(a gap, only end padding is allowed), a row whose valid steps are not its first ones, a label 0 (the blank) or
one past the classes."""
import numpy as np
import pytest

from lnrnn.model.heads import ClassifierHead, CTCHead, RegressionHead
from gradcheck_util import numeric_grad
from test_values151_heads import (B, H, SCALE, T, VALID, ctc_loss_brute, logsoftmax, mdn_point_loss, mdn_problem,
                                  randomized)


def check_dh(head, h, targets, valid, loss_here):
    """head.backward's dh (T,B,H) or (B,H) against central differences of SCALE * loss_here() in h."""
    head.zero_grad()
    _, _, cache = head.forward(h, targets, valid)
    dh = head.backward(cache, SCALE)
    want = numeric_grad(lambda: SCALE * loss_here(), h, eps=1e-6, order=2)
    assert dh.shape == h.shape
    np.testing.assert_allclose(dh, want, rtol=1e-6, atol=1e-8)
    return dh


def test_classifier_per_step_dh():
    rng = np.random.default_rng(16620)
    head = randomized(ClassifierHead(H, 3, per_step=True, dtype="float64"), 1)
    h = rng.standard_normal((T, B, H))
    targets = np.array([[2, -1, 0, 1], [1, 2, 2, 2], [0, 0, 0, 0]])     # (B,T); row 0's step 1 unlabelled

    def by_hand():
        return -sum(logsoftmax(h[t, b] @ head.params["W"] + head.params["b"])[targets[b, t]]
                    for t, b in zip(*np.nonzero(VALID)) if targets[b, t] >= 0)

    dh = check_dh(head, h, targets, VALID, by_hand)
    assert not dh[1, 0].any() and not dh[:, 2].any()


def test_regression_last_step_dh():
    rng = np.random.default_rng(16621)
    head = randomized(RegressionHead(H, 2, dtype="float64"), 2, w=0.3, b=0.1)
    h = rng.standard_normal((B, H))
    targets = rng.normal(0.0, 0.5, (B, 2))
    valid = np.array([True, False, True])

    def by_hand():
        return sum(float(np.sum((h[b] @ head.params["W"] + head.params["b"] - targets[b]) ** 2)) for b in (0, 2))

    dh = check_dh(head, h, targets, valid, by_hand)
    assert not dh[1].any()


def test_mdn_dh_in_step_major_layout():
    head, h, targets = mdn_problem()

    def by_hand():
        return sum(mdn_point_loss(h[t, b] @ head.params["W"] + head.params["b"], targets[b, t])
                   for t, b in zip(*np.nonzero(VALID)))

    dh = check_dh(head, h, targets, VALID, by_hand)
    assert not dh[~VALID].any()


def test_ctc_dh_over_rows_of_their_own_lengths():
    """Labels 'a a' in 4 steps, 'b' in 1 step (its one path), and a row of no step."""
    rng = np.random.default_rng(16622)
    head = randomized(CTCHead(H, 3, dtype="float64"), 5, w=0.6, b=0.5)
    h = rng.standard_normal((T, B, H))
    targets = np.array([[1, 1], [2, -1], [1, -1]])
    labels, lengths = [[1, 1], [2], [1]], [4, 1, 0]

    def by_hand():
        return sum(ctc_loss_brute(np.array([h[t, b] @ head.params["W"] + head.params["b"] for t in range(n)]), lab)
                   for b, (lab, n) in enumerate(zip(labels, lengths)) if n > 0)

    dh = check_dh(head, h, targets, VALID, by_hand)
    assert not dh[~VALID].any()


@pytest.mark.parametrize("targets,valid,match", [
    ([[1, -1, 2], [2, -1, -1]], VALID[:, :2], "padded at their end"),
    ([[1, 2, -1], [-1, 2, -1]], VALID[:, :2], "padded at their end"),
    ([[1, 0, -1], [2, -1, -1]], VALID[:, :2], "0 is the blank"),
    ([[1, 3, -1], [2, -1, -1]], VALID[:, :2], "0 is the blank"),
    ([[1, 2, -1], [2, -1, -1]], np.array([[True, False], [True, False], [True, False], [False, True]]),
     "right padding"),
    ([[1, 2, -1], [2, -1, -1]], np.array([[True, True], [False, True], [True, True], [True, True]]),
     "right padding"),
])
def test_ctc_head_refuses_what_it_cannot_read(targets, valid, match):
    head = CTCHead(H, 3, dtype="float64")
    h = np.random.default_rng(16623).standard_normal((T, 2, H))
    with pytest.raises(ValueError, match=match):
        head.forward(h, np.array(targets), valid)
