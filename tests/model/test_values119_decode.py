"""lnrnn.model.decode against a brute force over every path at tiny sizes: the probability of a labelling is
the sum over the C^T paths that collapse to it (repeats merged, then blanks dropped, written out here), so
prefix_beam_search as wide as the labellings' count returns each labelling with that log p, best first, and
nothing else; the best path is each step's most probable class collapsed, row by row over a (T,B,C) batch
whose B differs from T and whose rows end at their own lengths."""
import itertools

import numpy as np
import pytest

from lnrnn.kernels.codes import CTC_BLANK
from lnrnn.model.decode import best_path, best_path_array, prefix_beam_search


def _collapse(path):
    merged = [k for i, k in enumerate(path) if i == 0 or k != path[i - 1]]
    return tuple(k for k in merged if k != CTC_BLANK)


def _brute_force(logp):
    """{labelling: log p} over every path of logp (T,C)."""
    T, C = logp.shape
    p = np.exp(logp)
    total = {}
    for path in itertools.product(range(C), repeat=T):
        total[_collapse(path)] = total.get(_collapse(path), 0.0) + float(np.prod(p[np.arange(T), path]))
    return {k: np.log(v) for k, v in total.items() if v > 0}


def _log_softmax(a):
    a = a - a.max(axis=-1, keepdims=True)
    return a - np.log(np.exp(a).sum(axis=-1, keepdims=True))


def _steps(kind, T, C, seed=0):
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        return np.full((T, C), -np.log(C))
    if kind == "random":
        return _log_softmax(rng.normal(size=(T, C)) * 2)
    if kind == "last-class":                       # the last class most probable at every step
        a = rng.normal(size=(T, C)) * 0.3
        a[:, C - 1] += 2.0
        return _log_softmax(a)
    raise ValueError(kind)


@pytest.mark.parametrize("kind,T,C", [("uniform", 3, 3), ("random", 4, 3), ("random", 3, 4), ("last-class", 3, 3)])
def test_a_wide_search_returns_every_labelling_with_its_probability(kind, T, C):
    logp = _steps(kind, T, C, seed=T * C)
    want = _brute_force(logp)
    got = prefix_beam_search(logp, width=len(want) + 5)
    assert sorted(p for p, _ in got) == sorted(want)
    for prefix, lp in got:
        assert lp == pytest.approx(want[prefix], abs=1e-10), prefix
    scores = [lp for _, lp in got]
    assert scores == sorted(scores, reverse=True)
    assert np.logaddexp.reduce(scores) == pytest.approx(0.0, abs=1e-10)   # the labellings share all mass


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_narrow_search_keeps_the_most_probable_labelling_here(seed):
    logp = _steps("random", 4, 3, seed=seed)
    want = _brute_force(logp)
    best = max(want, key=want.get)
    prefix, lp = prefix_beam_search(logp, width=len(want))[0]
    assert prefix == best and lp == pytest.approx(want[best], abs=1e-10)


def test_best_path_of_a_batch_of_another_size_than_its_steps():
    T, B, C = 6, 3, 4
    rng = np.random.default_rng(7)
    logp = _log_softmax(rng.normal(size=(T, B, C)) * 3)
    lengths = np.array([6, 4, 1])
    want = [list(_collapse(logp[:lengths[b], b].argmax(axis=1).tolist())) for b in range(B)]
    assert best_path(logp, lengths) == want
    labels, n = best_path_array(logp, lengths)
    assert labels.shape == (B, T) and n.tolist() == [len(w) for w in want]
    for b in range(B):
        assert labels[b, :n[b]].tolist() == want[b] and (labels[b, n[b]:] == -1).all()
    full = [list(_collapse(logp[:, b].argmax(axis=1).tolist())) for b in range(B)]
    assert best_path(logp) == full
