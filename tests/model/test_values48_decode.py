"""Decoding (lnrnn/model/decode.py, lnrnn/model/beam.py) against searches written here. For tiny T and three
classes every path is enumerated, collapsed by hand (repeats merged, then blanks dropped) and its probability
added to its labelling's: a prefix beam search as wide as the number of labellings must return each of them
with its exact log p (the spec, decode.prefix_beam_search, and the compiled twin, beam.prefix_beams), and the
compiled search of a batch (beam_search_array) must find, for each row over its own steps, the most probable
labelling. Uniform steps make two routes into one prefix exactly equal (their log-add-exp is log 2 above
each); blank-heavy steps keep the empty prefix best, so the merge of its extension into a kept child runs
from slot 0. Best path is checked by hand on two rows of different labels and lengths."""
import itertools
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import beam_search, best_path, best_path_array, prefix_beam_search


def collapse_by_hand(path):
    out, prev = [], None
    for k in path:
        if k != prev and k != 0:
            out.append(k)
        prev = k
    return tuple(out)


def labellings(logp):
    """logp (T,C) -> {labelling: log p} summed over every path (log-sum-exp done here)."""
    T, C = logp.shape
    per = {}
    for path in itertools.product(range(C), repeat=T):
        per.setdefault(collapse_by_hand(path), []).append(sum(logp[t, k] for t, k in enumerate(path)))
    out = {}
    for lab, vals in per.items():
        top = max(vals)
        out[lab] = top + math.log(sum(math.exp(v - top) for v in vals)) if top > -np.inf else -np.inf
    return out


def log_softmax(x):
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def cases():
    rng = np.random.default_rng(4830)
    T, C = 4, 3
    yield "uniform", np.full((T, C), -np.log(C))
    blanky = rng.standard_normal((T, C))
    blanky[:, 0] += 2.0
    yield "blank-heavy", log_softmax(blanky)
    for k in range(3):
        yield f"random{k}", log_softmax(1.5 * rng.standard_normal((T, C)))
    # 'a b a' and 'a b b' need the repeat rule to read the prefix's last label, not its first
    yield "aba", log_softmax(np.array([[0.0, 3.0, 0.0], [0.0, 0.0, 3.0], [1.0, 2.5, 0.0], [0.5, 1.0, 1.0]]))


CASES = list(cases())


@pytest.mark.parametrize("name,logp", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("search", [prefix_beam_search, prefix_beams], ids=["spec", "compiled"])
def test_wide_beams_return_every_labelling_with_its_exact_log_p(name, logp, search):
    want = {lab: v for lab, v in labellings(logp).items() if v > -np.inf}
    got = search(logp, 10 ** 6)
    assert len(got) == len(want)
    got = dict(got)
    assert set(got) == set(want)
    for lab, v in want.items():
        np.testing.assert_allclose(got[lab], v, rtol=1e-12, err_msg=f"{name} {lab}")
    ranked = [lab for lab, _ in search(logp, 10 ** 6)]
    np.testing.assert_allclose(want[ranked[0]], max(want.values()), rtol=1e-12)  # most probable first


def test_uniform_steps_count_two_equal_routes_twice():
    """Two uniform steps over 3 classes: 'a' is read by (a,a), (a,blank), (blank,a): p = 3/9 exactly."""
    logp = np.full((2, 3), -np.log(3.0))
    for search in (prefix_beam_search, prefix_beams):
        got = dict(search(logp, 100))
        np.testing.assert_allclose(got[(1,)], np.log(3.0 / 9.0), rtol=1e-14)
        np.testing.assert_allclose(got[()], np.log(1.0 / 9.0), rtol=1e-14)
        np.testing.assert_allclose(got[(1, 2)], np.log(1.0 / 9.0), rtol=1e-14)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batch_search_finds_each_rows_most_probable_labelling_over_its_own_steps(seed):
    rng = np.random.default_rng(4840 + seed)
    T, B, C = 4, 3, 3
    logp = log_softmax(1.5 * rng.standard_normal((T, B, C)))
    lengths = np.array([4, 2, 3])
    labels, n, logq = beam_search_array(logp, 50, lengths)
    rows = beam_search(logp, 50, lengths)
    for b in range(B):
        exact = labellings(logp[:lengths[b], b])
        best = max(exact, key=exact.get)
        assert tuple(labels[b, :n[b]]) == best and tuple(rows[b]) == best
        assert np.all(labels[b, n[b]:] == -1)
        np.testing.assert_allclose(logq[b], exact[best], rtol=1e-12)


def test_best_path_by_hand_on_two_rows_of_their_own_lengths():
    """Row 0's argmax path 1 1 0 2 2 -> [1, 2]; row 1's 0 2 1 1 | 2 (its 4 steps) -> [2, 1] (its labels come
    at steps where row 0 has none, so gathering step by step across rows would swap them); row 2 of length 0
    reads nothing."""
    paths = [[1, 1, 0, 2, 2], [0, 2, 1, 1, 2], [1, 2, 1, 2, 1]]
    lengths = [5, 4, 0]
    T, B, C = 5, 3, 3
    x = np.zeros((T, B, C))
    for b, p in enumerate(paths):
        for t, k in enumerate(p):
            x[t, b, k] = 4.0 + 0.1 * t
    want = [[1, 2], [2, 1], []]
    assert best_path(x, lengths) == want
    assert best_path(log_softmax(x), lengths) == want
    out, n = best_path_array(x, lengths)
    assert n.tolist() == [2, 2, 0]
    assert out.tolist() == [[1, 2, -1, -1, -1], [2, 1, -1, -1, -1], [-1] * 5]
