"""The class probabilities lnrnn predict writes (lnrnn/predict_io.py: softmax), by value: each row of (N,C) logits,
N and C different, equals exp(z) / sum(exp(z)) of that row alone, whatever the other rows hold; a row shifted by
a constant gives the same probabilities; logits of 1000 and -1000 give finite probabilities that sum to 1."""
import numpy as np

from lnrnn.predict_io import softmax


def by_hand(row):
    e = [np.exp(v) for v in row]
    return [v / sum(e) for v in e]


def test_each_row_is_its_own_softmax():
    z = np.array([[0.0, 1.0, 2.0, -1.0], [3.0, 3.0, 0.5, 0.0], [-2.0, 0.0, 0.0, 1.5]])  # N 3, C 4
    got = softmax(z)
    assert got.shape == z.shape and got.dtype == np.float64
    for row, want in zip(got, z):
        np.testing.assert_allclose(row, by_hand(want), rtol=1e-12)


def test_a_shifted_row_gives_the_same_probabilities():
    z = np.array([[0.5, -0.25, 2.0], [10.5, 9.75, 12.0]])  # the second is the first plus 10
    got = softmax(z)
    np.testing.assert_allclose(got[0], got[1], rtol=1e-12)


def test_large_logits_stay_finite():
    got = softmax(np.array([[1000.0, 0.0], [-1000.0, -999.0], [0.0, 0.0]]))
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(got[0], [1.0, 0.0], atol=1e-300)
    np.testing.assert_allclose(got[1], by_hand([-1.0, 0.0]), rtol=1e-12)
