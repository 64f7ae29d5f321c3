"""The mixture density head's sampling and its parameters' stream by value (round 292 of the planted bugs,
tests/mutants/mutants_values292.py): MDNHead.sample against the mixture drawn by hand with Graves's bias
(test_values52_sampler.draw: pi = softmax(pi_hat (1 + b)), sigma = exp(sigma_hat - b)) from a generator seeded
alike, at a bias where the component picked and the spread both change; and a head's W drawn from a stream
of its own, default_rng([seed, 7]), uniform in +-1/sqrt(H), for two seeds."""
import numpy as np
import pytest

from lnrnn.model.heads import MDNHead
from test_values52_sampler import M, draw


@pytest.mark.parametrize("bias", [0.0, 1.5])
def test_sample_is_the_mixture_drawn_by_hand_with_the_bias(bias):
    head = MDNHead(4, components=M, dtype="float64")
    rng = np.random.default_rng(0)
    out = rng.normal(0.0, 1.0, (7, 6 * M + 1))
    out[:, 1:1 + M] = [[0.0, 0.6, 0.3]] * 7                   # a bias sharpens pi towards component 2
    got = head.sample(out, np.random.default_rng(21), bias)
    want = draw(out, np.random.default_rng(21), bias)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    if bias:
        assert not np.allclose(got, draw(out, np.random.default_rng(21), 0.0))


@pytest.mark.parametrize("seed", [0, 3])
def test_a_heads_weights_come_from_a_stream_of_its_own(seed):
    head = MDNHead(5, components=2, seed=seed, dtype="float64")
    want = np.random.default_rng([seed, 7]).uniform(-1 / np.sqrt(5), 1 / np.sqrt(5), (5, 13))
    np.testing.assert_array_equal(head.params["W"], want)
    np.testing.assert_array_equal(head.params["b"], np.zeros(13))
