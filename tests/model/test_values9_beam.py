"""lnrnn/model/beam.py with a single label (C = 2: blank and one label), where the width the search needs
(the prefixes T steps can spell: empty, a, aa, ...) is smallest: every row's best prefix, and every kept
prefix in order, equal the NumPy spec's (lnrnn.model.decode) at each width, also the least probable last."""
import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import prefix_beam_search


def log_softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("seed", range(4))
def test_one_label_rows_equal_the_spec_at_every_width(seed):
    rng = np.random.default_rng(seed)
    T, B = 7, 6
    logp = log_softmax(1.5 * rng.standard_normal((T, B, 2)))
    lengths = rng.integers(1, T + 1, B)
    for width in range(1, T + 3):
        labels, n, logq = beam_search_array(logp, width, lengths)
        for b in range(B):
            want, wq = prefix_beam_search(logp[:lengths[b], b], width)[0]
            assert tuple(labels[b, :n[b]]) == want, (width, b)
            assert logq[b] == pytest.approx(wq, rel=1e-12, abs=1e-12)
        kept = prefix_beams(logp[:, 0], width)
        spec = prefix_beam_search(logp[:, 0], width)
        assert [lab for lab, _ in kept] == [lab for lab, _ in spec]
        np.testing.assert_allclose([q for _, q in kept], [q for _, q in spec], rtol=1e-12, atol=1e-12)
        assert all(a[1] >= b[1] for a, b in zip(kept, kept[1:]))   # most probable first
