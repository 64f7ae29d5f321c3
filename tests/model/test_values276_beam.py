"""The compiled prefix beam search (lnrnn/model/beam.py), thirteenth pass, against brute force: every one of
the C^T paths of 3 steps over a blank and 2 labels (27 paths, 15 prefixes) summed by labelling
(test_values198_beam.every_labelling); a beam of every prefix must return each row's most probable labelling,
its length and log p, padded with -1, including rows whose best is the empty labelling or two labels, and rows
cut short by their lengths."""
import numpy as np

from lnrnn.model.beam import beam_search_array
from test_values198_beam import every_labelling


def test_a_beam_of_every_prefix_returns_the_brute_force_best_of_each_row():
    T, B, C = 3, 24, 3
    z = 1.5 * np.random.default_rng(27604).standard_normal((T, B, C))
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    lengths = np.array([3, 2, 1, 0] * 6)
    labels, n, logq = beam_search_array(logp, 15, lengths)
    seen = set()
    for b in range(B):
        every = every_labelling(logp[:lengths[b], b]) if lengths[b] else {(): 0.0}
        best = min(every, key=lambda k: (-every[k], k))
        seen.add(len(best))
        assert n[b] == len(best), b
        assert tuple(labels[b, :n[b]]) == best, b
        assert np.all(labels[b, n[b]:] == -1), b
        np.testing.assert_allclose(logq[b], every[best], rtol=1e-12, err_msg=str(b))
    assert {0, 1, 2} <= seen
