"""The decoders (lnrnn/model/decode.py), seventeenth pass: collapse on paths worked out by hand (repeats merged,
then blanks dropped: a label repeated across a blank kept twice, blanks at either end, an empty path, NumPy
integers); best_path over one batch with lengths 0, 1 and T, each row's label written out by hand from the
argmax path built into the test; prefix_beam_search, wide enough to keep every prefix, at T 3, C 4 and T 4, C 3
against test_values109_beam's sum over every path."""
import math

import numpy as np
import pytest

from lnrnn.model.decode import best_path, best_path_array, collapse, prefix_beam_search
from test_values109_beam import brute, random_logp


@pytest.mark.parametrize("path,label", [
    ([0, 1, 1, 0, 1, 2, 2, 0, 2], [1, 1, 2, 2]),
    ([3, 3, 3], [3]),
    ([0, 0, 0], []),
    ([], []),
    ([2, 0, 0, 2, 1, 1, 3, 0], [2, 2, 1, 3]),
    (np.array([1, 2, 2, 1, 0, 1], np.int64), [1, 2, 1, 1]),
])
def test_collapse_by_hand(path, label):
    out = collapse(path)
    assert out == label
    assert all(type(k) is int for k in out)


def test_best_path_lengths_0_1_and_T_in_one_batch_by_hand():
    T, C = 6, 4
    paths = [[1, 1, 0, 1, 3, 3],                      # length T: "1 1 3"
             [2, 2, 2, 2, 2, 2],                      # length 0: nothing
             [3, 0, 0, 1, 2, 2],                      # length 1: "3"
             [0, 2, 2, 0, 0, 0],                      # length T: "2"
             [0, 3, 1, 3, 1, 2]]                      # length 4: "3 1 3"
    lengths = np.array([6, 0, 1, 6, 4])
    logp = np.full((T, len(paths), C), math.log(0.1))
    for b, p in enumerate(paths):
        for t, k in enumerate(p):
            logp[t, b, k] = math.log(0.7)
    want = [[1, 1, 3], [], [3], [2], [3, 1, 3]]
    assert best_path(logp, lengths) == want
    labels, n = best_path_array(logp, lengths)
    assert n.tolist() == [3, 0, 1, 1, 3] and n.dtype == np.int64
    assert labels.shape == (5, T)
    for b, w in enumerate(want):
        assert labels[b].tolist() == w + [-1] * (T - len(w))
    # no lengths: every row read to T
    assert best_path(logp) == [[1, 1, 3], [2], [3, 1, 2], [2], [3, 1, 3, 1, 2]]


@pytest.mark.parametrize("T,C,seed", [(3, 4, 320), (4, 3, 321)])
def test_prefix_beam_search_wide_keeps_every_labelling_with_its_probability(T, C, seed):
    logp = random_logp(T, C, seed)
    want = brute(logp)
    got = prefix_beam_search(logp, 1000)
    assert len(got) == len(want)
    for lab, lp in got:
        assert math.isclose(lp, want[lab], rel_tol=1e-12, abs_tol=1e-12), lab
    assert [lp for _, lp in got] == sorted((lp for _, lp in got), reverse=True)
