"""Decoding (lnrnn/model/decode.py) against loops written here: best_path_array's rows as each row's per-step
argmax over its own steps, repeats merged and blanks (class 0) dropped, one step at a time, the rest of the row
-1; prefix_beam_search, wide enough to keep every prefix, against the sum over all C^T paths of the
probabilities of those that collapse to each labelling."""
import itertools

import numpy as np
import pytest

from lnrnn.model.decode import best_path, best_path_array, prefix_beam_search


def log_softmax(z):
    z = z - z.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def greedy(logp_row, n):
    out, prev = [], None
    for t in range(n):
        k = int(np.argmax(logp_row[t]))
        if k != prev and k != 0:
            out.append(k)
        prev = k
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_best_path_array_against_a_greedy_loop(seed):
    T, B, C = 7, 4, 3
    rng = np.random.default_rng(seed)
    logp = log_softmax(rng.normal(0, 2.0, (T, B, C)))
    lengths = np.array([7, 0, 3, 5])
    labels, n = best_path_array(logp, lengths)
    assert labels.shape == (B, T) and labels.dtype == np.int64
    for b in range(B):
        want = greedy(logp[:, b], lengths[b])
        assert n[b] == len(want)
        assert labels[b, :n[b]].tolist() == want
        assert np.all(labels[b, n[b]:] == -1)
    assert best_path(logp, lengths) == [greedy(logp[:, b], lengths[b]) for b in range(B)]


def collapse(path):
    out, prev = [], None
    for k in path:
        if k != prev and k != 0:
            out.append(k)
        prev = k
    return tuple(out)


@pytest.mark.parametrize("seed", [3, 4])
def test_wide_prefix_beam_search_against_every_path(seed):
    T, C = 4, 3
    rng = np.random.default_rng(seed)
    logp = log_softmax(rng.normal(0, 1.0, (T, C)))
    p = np.exp(logp)
    total = {}
    for path in itertools.product(range(C), repeat=T):
        lab = collapse(path)
        total[lab] = total.get(lab, 0.0) + float(np.prod(p[np.arange(T), path]))
    got = prefix_beam_search(logp, width=100)
    assert {lab for lab, _ in got} == set(total)
    for lab, lp in got:
        assert lp == pytest.approx(np.log(total[lab]), rel=1e-10, abs=1e-12)
    probs = [lp for _, lp in got]
    assert probs == sorted(probs, reverse=True)
