"""Decoding (lnrnn/model/beam.py, lnrnn/model/decode.py) against brute force and the Python spec. Wide beams on
one label class (C 2, three labellings in four steps) and on two (C 3, nine in three) hold every labelling
with its log p summed here over every path (test_values48_decode.labellings); narrow beams of widths 3 to 5
on five classes keep the spec's (prefix_beam_search) prefixes with its log p at each width, where the
candidates' heap must drop its least probable; a batch's rows, of their own lengths, find the most probable
labelling of their steps, first label included; best path at B 3 != T 5 gives each row's argmax path over
its own steps, collapsed by hand, and its length."""
import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import beam_search, best_path, best_path_array, prefix_beam_search
from test_values48_decode import collapse_by_hand, labellings, log_softmax


@pytest.mark.parametrize("T,C", [(4, 2), (3, 3)])
def test_wide_beams_hold_every_prefix_there_is(T, C):
    rng = np.random.default_rng(23510 + C)
    lp = log_softmax(rng.standard_normal((T, C)))
    exact = labellings(lp)                                # a repeat needs a blank between: fewer than the
    assert len(exact) == {2: 3, 3: 9}[C]                  # sequences of at most T labels, which the width caps at
    got = dict(prefix_beams(lp, 100))
    assert set(got) == set(exact)
    for lab, v in exact.items():
        np.testing.assert_allclose(got[lab], v, rtol=1e-10, err_msg=str(lab))
    labels, n, logq = beam_search_array(lp[:, None, :], 100)
    best = max(exact, key=exact.get)
    assert labels[0, :n[0]].tolist() == list(best)
    np.testing.assert_allclose(logq[0], exact[best], rtol=1e-10)


@pytest.mark.parametrize("width", [3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_narrow_beams_keep_the_spec_prefixes(width, seed):
    rng = np.random.default_rng(23520 + seed)
    lp = log_softmax(1.2 * rng.standard_normal((6, 5)))
    want = prefix_beam_search(lp, width)
    got = prefix_beams(lp, width)
    assert [p for p, _ in got] == [p for p, _ in want]
    np.testing.assert_allclose([s for _, s in got], [s for _, s in want], rtol=1e-12)


def test_rows_of_their_own_lengths_find_their_most_probable_labelling():
    rng = np.random.default_rng(23530)
    T, B, C = 4, 3, 3
    z = 1.5 * rng.standard_normal((T, B, C))
    z[:, :, 0] -= 2.0                                     # blanks less likely: every row's best has labels
    logp = log_softmax(z)
    lengths = np.array([4, 2, 3])
    got = beam_search(logp, 64, lengths)
    labels, n, logq = beam_search_array(logp, 64, lengths)
    for b in range(B):
        exact = labellings(logp[:lengths[b], b])
        best = max(exact, key=exact.get)
        assert len(best) >= 1
        assert got[b] == list(best)
        assert labels[b].tolist() == list(best) + [-1] * (T - len(best))
        np.testing.assert_allclose(logq[b], exact[best], rtol=1e-10)


def test_best_path_per_row_over_its_own_steps():
    rng = np.random.default_rng(23540)
    T, B, C = 5, 3, 4
    logp = rng.standard_normal((T, B, C))
    lengths = np.array([5, 2, 4])
    labels, n = best_path_array(logp, lengths)
    assert labels.shape == (B, T) and n.shape == (B,)
    for b in range(B):
        want = collapse_by_hand([int(np.argmax(logp[t, b])) for t in range(lengths[b])])
        assert n[b] == len(want)
        assert labels[b].tolist() == list(want) + [-1] * (T - len(want))
    assert best_path(logp, lengths) == [list(collapse_by_hand([int(np.argmax(logp[t, b])) for t in range(lengths[b])]))
                                        for b in range(B)]
