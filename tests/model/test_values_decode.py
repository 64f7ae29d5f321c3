"""lnrnn/model/decode.py against hand computations and an independent decoder written here: best path on
rows whose padding steps would add labels, a label at step 0, repeats with and without a blank between;
prefix beam search against the exact label probabilities (every path enumerated, a different route than
the module's), a narrow beam keeping the most probable prefixes, and beam search stopping at each row's
length."""
import itertools

import numpy as np
import pytest

from lnrnn.model.decode import beam_search, best_path, best_path_array, collapse, prefix_beam_search


def confident(paths, C, p=0.9):
    """logp (T,B,C) whose per-step argmax spells each row's path (a list of classes of length T)."""
    T, B = len(paths[0]), len(paths)
    q = np.full((T, B, C), (1 - p) / (C - 1))
    for b, path in enumerate(paths):
        q[np.arange(T), b, path] = p
    return np.log(q)


def exact_label_probs(p):
    """{label tuple: probability} of p (T,C) probabilities: every path enumerated and collapsed by hand
    (repeats merged, then blanks dropped), summed per label."""
    T, C = p.shape
    out = {}
    for path in itertools.product(range(C), repeat=T):
        merged = [k for i, k in enumerate(path) if i == 0 or path[i - 1] != k]
        lab = tuple(k for k in merged if k != 0)
        out[lab] = out.get(lab, 0.0) + float(np.prod([p[t, k] for t, k in enumerate(path)]))
    return out


def test_collapse_by_hand():
    assert collapse([0, 1, 0, 1]) == [1, 1]            # a blank separates two equal labels
    assert collapse([1, 1, 0, 2, 2, 2, 0]) == [1, 2]
    assert collapse([2, 0, 0, 2, 1]) == [2, 2, 1]
    assert collapse([]) == [] and collapse([0, 0, 0]) == []


def test_best_path_reads_each_row_up_to_its_length_only():
    """Row 0 has 3 steps and padding that spells a label if read; row 1's label starts at step 0; row 2
    has no step at all."""
    paths = [[1, 0, 1, 2, 3], [2, 2, 0, 2, 1], [3, 3, 3, 3, 3]]
    logp = confident(paths, C=4)
    labels, n = best_path_array(logp, np.array([3, 5, 0]))
    assert n.tolist() == [2, 3, 0] and n.dtype == np.int64
    assert labels.tolist() == [[1, 1, -1, -1, -1], [2, 2, 1, -1, -1], [-1] * 5]
    assert best_path(logp, [3, 5, 0]) == [[1, 1], [2, 2, 1], []]
    assert best_path(logp) == [[1, 1, 2, 3], [2, 2, 1], [3]]          # None: every step


def test_best_path_on_random_scores_equals_collapsing_the_argmax_by_hand():
    rng = np.random.default_rng(4)
    T, B, C = 7, 9, 4
    logp = rng.standard_normal((T, B, C))
    lengths = rng.integers(0, T + 1, B)
    want = []
    for b in range(B):
        arg = [int(np.argmax(logp[t, b])) for t in range(lengths[b])]
        want.append([k for i, k in enumerate(arg) if k != 0 and (i == 0 or arg[i - 1] != k)])
    assert best_path(logp, lengths) == want


@pytest.mark.parametrize("T, C, seed", [(4, 3, 0), (5, 3, 1), (3, 4, 2)])
def test_wide_beam_gives_every_label_its_exact_probability(T, C, seed):
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((T, C)) * 1.5
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    exact = exact_label_probs(p)
    beams = prefix_beam_search(np.log(p), width=10 ** 6)
    assert sorted(lab for lab, _ in beams) == sorted(exact)
    for lab, lq in beams:
        assert np.exp(lq) == pytest.approx(exact[lab], rel=1e-12), lab
    probs = [lq for _, lq in beams]
    assert probs == sorted(probs, reverse=True)                       # most probable first


def test_a_doubled_label_by_hand():
    """Three steps over (blank, a): p(blank) = 0.2, p(a) = 0.8 each. "aa" needs a blank between: only the
    path a - a, 0.8 * 0.2 * 0.8 = 0.128; "a" has the other five paths with an a, 0.992 - 0.128 = 0.864;
    "" is - - -, 0.008."""
    logp = np.log(np.array([[0.2, 0.8]] * 3))
    got = dict(prefix_beam_search(logp, width=10))
    assert set(got) == {(1,), (1, 1), ()}
    assert np.exp(got[(1, 1)]) == pytest.approx(0.128, rel=1e-12)
    assert np.exp(got[(1,)]) == pytest.approx(0.864, rel=1e-12)
    assert np.exp(got[()]) == pytest.approx(0.008, rel=1e-12)


def test_a_narrow_beam_keeps_the_most_probable_prefixes():
    """Confident steps spelling 1 2 1 3 over 5 classes: with width 2 the best label comes first and is the
    one the exact enumeration ranks first; its log-probability is at most the exact one."""
    path = [1, 0, 2, 1, 3]
    logp = confident([path], C=5, p=0.8)[:, 0]
    top = prefix_beam_search(logp, width=2)
    assert len(top) == 2 and top[0][0] == (1, 2, 1, 3)
    exact = exact_label_probs(np.exp(logp))
    assert top[0][0] == max(exact, key=exact.get)
    assert np.exp(top[0][1]) <= exact[top[0][0]] * (1 + 1e-12)


def test_beam_search_stops_at_each_rows_length():
    paths = [[1, 2, 3, 3, 1], [2, 0, 2, 1, 1]]
    logp = confident(paths, C=4)
    assert beam_search(logp, 3, [2, 5]) == [[1, 2], [2, 2, 1]]
    assert beam_search(logp, 3) == [[1, 2, 3, 1], [2, 2, 1]]
    assert beam_search(logp, 3, [0, 1]) == [[], [2]]
