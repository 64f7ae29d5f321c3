"""The compiled prefix beam search (lnrnn/model/beam.py) where label classes tie exactly. A step's extensions come
from its K = 2W most probable classes, chosen in index order; of equal classes the first must be chosen (an
equal class does not pass one before it, nor displace it once K are chosen), as the spec's tie rule (labels in
lexicographic order) keeps it, or the beam keeps another prefix of the same probability than
``decode.prefix_beam_search``. A hand-built row of width 1 (K = 2) decides it: the kept prefix's own class comes
first, two equal classes compete for the second place, and the class order is turned three ways. Rows of
probabilities drawn from a few values, so that ties are everywhere, are checked against the spec at widths 1 to
3 besides (the heap's cut ties)."""
import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import prefix_beam_search


@pytest.mark.parametrize("a,b,c", [(3, 1, 2), (1, 2, 3), (2, 1, 3)])
def test_of_two_equal_classes_the_first_extends_the_prefix(a, b, c):
    # (a,) is kept with pb ~ pnb; at the last step repeating a or staying lose to (a, b) and (a, c), equal
    p = np.zeros((3, 4))
    p[:, [0, b, c, a]] = [[0.07, 0.015, 0.015, 0.9],
                          [0.49, 0.005, 0.005, 0.5],
                          [0.02, 0.29, 0.29, 0.4]]
    logp = np.log(p)
    labels, n, logq = beam_search_array(logp[:, None, :], 1)
    assert n.tolist() == [2] and labels[0].tolist() == [a, min(b, c), -1]
    tot = 0.9 * 0.99                                   # (a,) after two steps: 0.9 * (0.49 + 0.5)
    assert logq[0] == pytest.approx(np.log(tot * 0.29), rel=1e-12)
    assert prefix_beams(logp, 1) == prefix_beam_search(logp, 1) == [((a, min(b, c)), logq[0])]


@pytest.mark.parametrize("width", [1, 2, 3])
def test_rows_full_of_ties_keep_the_specs_prefixes(width):
    rng = np.random.default_rng(432 + width)
    T, B, C = 4, 40, 5
    w = rng.choice([1.0, 2.0, 3.0], size=(T, B, C))   # few values: equal classes on most steps
    logp = np.log(w / w.sum(axis=-1, keepdims=True))
    labels, n, logq = beam_search_array(logp, width)
    for b in range(B):
        spec = prefix_beam_search(logp[:, b], width)
        assert len(spec) == width, b
        assert prefix_beams(logp[:, b], width) == spec, b
        assert tuple(labels[b, :n[b]]) == spec[0][0] and logq[b] == spec[0][1], b
