"""lnrnn/model/beam.py on a row no prefix survives: where one step gives every class probability 0 (log p -inf
everywhere), no labelling of the row has a path of positive probability, so the search ends with no prefix; its
row reads as the empty label with log p -inf (probability 0, not the empty label's probability 1), padded with
-1, while the other rows of the batch, and the same row cut before that step, are searched as the spec
searches them."""
import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import prefix_beam_search


def log_softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("width", [1, 3])
def test_a_row_with_a_step_of_probability_zero_everywhere_has_no_label(width):
    rng = np.random.default_rng(3)
    T, B, C = 6, 3, 4
    logp = log_softmax(rng.normal(size=(T, B, C)))
    logp[2, 1, :] = -np.inf                                  # row 1, step 2: nothing can happen
    labels, n, logq = beam_search_array(logp, width)
    assert n[1] == 0 and logq[1] == -np.inf and (labels[1] == -1).all()
    assert prefix_beams(logp[:, 1], width) == []
    for b in (0, 2):                                         # the other rows: as the spec
        want, wq = prefix_beam_search(logp[:, b], width)[0]
        assert tuple(labels[b, :n[b]]) == want and logq[b] == pytest.approx(wq, rel=1e-12)
        assert np.isfinite(logq[b])
    cut, ncut, qcut = beam_search_array(logp, width, np.array([T, 2, T]))   # row 1 ends before the step
    want, wq = prefix_beam_search(logp[:2, 1], width)[0]
    assert tuple(cut[1, :ncut[1]]) == want and qcut[1] == pytest.approx(wq, rel=1e-12) and np.isfinite(qcut[1])
