"""lnrnn/model/heads.py by value: log_softmax row by row (rows a thousand nats apart in one batch each equal
their own log-softmax, computed by hand; the classifier's loss of such a batch is finite and equal to the
rows' losses apart), and the CTC head's label check (0 is the blank, never a label)."""
import numpy as np
import pytest

from lnrnn.model.heads import CTCHead, ClassifierHead, log_softmax


def _by_hand(row):
    m = max(row)
    return np.array([v - m - np.log(sum(np.exp(u - m) for u in row)) for v in row])


def test_log_softmax_is_taken_row_by_row():
    z = np.array([[1000.0, 1001.0, 999.0], [0.0, 1.0, -1.0], [-2000.0, -2003.0, -1999.5]])
    got = log_softmax(z)
    for r in range(3):
        np.testing.assert_allclose(got[r], _by_hand(z[r]), rtol=0, atol=1e-12)
    per_step = np.stack([z, z[::-1]])                                # (T,B,C): the last axis is the classes'
    np.testing.assert_allclose(log_softmax(per_step)[1], log_softmax(z[::-1]), rtol=0, atol=1e-12)


def test_a_classifiers_loss_over_rows_far_apart_is_the_sum_of_theirs():
    head = ClassifierHead(2, 3, dtype="float64")
    head.params["W"][...] = [[1.0, 0.0, -1.0], [0.5, 2.0, 0.0]]
    head.params["b"][...] = 0.0
    h = np.array([[400.0, 100.0], [0.5, -0.25]])                     # logits ~500 and ~1 apart
    y = np.array([2, 1])
    valid = np.ones(2, bool)
    sums, count, _ = head.forward(h, y, valid)
    logits = h @ head.params["W"]
    want = -sum(_by_hand(logits[b])[y[b]] for b in range(2))
    assert count == 2 and np.isfinite(sums["loss"])
    assert sums["loss"] == pytest.approx(want, rel=1e-12)


def test_a_ctc_label_of_the_blank_is_refused():
    head = CTCHead(3, 4, dtype="float64")
    T, B = 5, 2
    h = np.random.default_rng(0).standard_normal((T, B, 3))
    valid = np.ones((T, B), bool)
    ok = np.array([[1, 3, -1], [2, 2, 3]])
    sums, count, _ = head.forward(h, ok, valid)
    assert count == 2 and np.isfinite(sums["loss"])
    for bad in (np.array([[1, 0, -1], [2, 2, 3]]), np.array([[1, 3, -1], [2, 4, 3]])):
        with pytest.raises(ValueError, match=r"CTC labels are classes 1\.\.3 \(0 is the blank\)"):
            head.forward(h, bad, valid)
