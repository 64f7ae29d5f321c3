"""lnrnn/model/beam.py, the compiled prefix beam search, against its spec ``decode.prefix_beam_search`` (a
Python loop over a dict of prefixes, a different route) and against label probabilities counted over every
path: random rows of several T, C and widths 1..10, flat and peaked, ragged lengths with rows of 0 and 1
steps, float32 input, inputs full of exact ties, a width that keeps every prefix, and the hand-built row
where beam search beats the best path."""
import itertools

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import beam_search, best_path, prefix_beam_search


def log_softmax(z, axis=-1):
    z = z - z.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def exact_label_probs(p):
    """{label tuple: probability} of p (T,C): every path collapsed by hand and summed per label."""
    T, C = p.shape
    out = {}
    for path in itertools.product(range(C), repeat=T):
        lab = tuple(k for i, k in enumerate(path) if k != 0 and (i == 0 or path[i - 1] != k))
        out[lab] = out.get(lab, 0.0) + float(np.prod(p[np.arange(T), path]))
    return out


def same_beams(got, want):
    """Two [(labels, log p), ...] lists: the same labels in the same order, log p within 1e-12."""
    assert [lab for lab, _ in got] == [lab for lab, _ in want]
    np.testing.assert_allclose([q for _, q in got], [q for _, q in want], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("T, B, C, scale, seed", [(9, 7, 4, 1.0, 0), (14, 6, 6, 3.0, 1), (20, 5, 3, 0.3, 2),
                                                  (12, 6, 9, 6.0, 3)])
def test_each_rows_best_prefix_and_its_log_p_equal_the_specs(T, B, C, scale, seed):
    """Flat (scale 0.3) to peaked (6) random rows, ragged, one of 0 steps and one of 1; every width 1..10."""
    rng = np.random.default_rng(seed)
    logp = log_softmax(scale * rng.standard_normal((T, B, C)))
    lengths = rng.integers(2, T + 1, B)
    lengths[:2] = 0, 1
    for width in range(1, 11):
        labels, n, logq = beam_search_array(logp, width, lengths)
        assert labels.shape == (B, T) and n.dtype == labels.dtype == np.int64
        for b in range(B):
            want, wq = prefix_beam_search(logp[:lengths[b], b], width)[0]
            assert tuple(labels[b, :n[b]]) == want, (width, b)
            assert (labels[b, n[b]:] == -1).all()
            assert logq[b] == pytest.approx(wq, rel=1e-12, abs=1e-12)
        assert beam_search(logp, width, lengths) == [list(prefix_beam_search(logp[:lengths[b], b], width)[0][0])
                                                    for b in range(B)]


@pytest.mark.parametrize("width", [1, 2, 3, 5, 8])
def test_every_kept_prefix_and_its_order_equal_the_specs(width):
    rng = np.random.default_rng(10 + width)
    for T, C in ((6, 3), (11, 5), (25, 4)):
        logp = log_softmax(2.0 * rng.standard_normal((T, C)))
        same_beams(prefix_beams(logp, width), prefix_beam_search(logp, width))


def test_exact_ties_break_as_the_specs_do():
    """Rows whose non-argmax classes share one probability, and rows of equal classes: candidates tie exactly
    at the cut, and the spec keeps the labels that come first. The kernel's sums are the spec's to the bit."""
    rng = np.random.default_rng(20)
    for trial in range(40):
        T, C, width = int(rng.integers(1, 9)), int(rng.integers(2, 6)), int(rng.integers(1, 7))
        q = np.full((T, C), 0.2 / (C - 1))
        q[np.arange(T), rng.integers(0, C, T)] = 0.8
        if trial % 4 == 0:
            q[:] = 1.0 / C
        assert prefix_beams(np.log(q), width) == prefix_beam_search(np.log(q), width)


@pytest.mark.parametrize("T, C, seed", [(4, 3, 0), (5, 3, 1), (3, 4, 2), (4, 4, 3)])
def test_a_width_keeping_every_prefix_gives_every_label_its_exact_probability(T, C, seed):
    rng = np.random.default_rng(seed)
    p = np.exp(log_softmax(1.5 * rng.standard_normal((T, C))))
    exact = exact_label_probs(p)
    beams = prefix_beams(np.log(p), 10 ** 6)
    assert sorted(lab for lab, _ in beams) == sorted(exact)
    for lab, lq in beams:
        assert np.exp(lq) == pytest.approx(exact[lab], rel=1e-12), lab
    same_beams(beams, prefix_beam_search(np.log(p), 10 ** 6))
    labels, n, logq = beam_search_array(np.log(p)[:, None, :], 10 ** 6)
    best = max(exact, key=exact.get)
    assert tuple(labels[0, :n[0]]) == best and np.exp(logq[0]) == pytest.approx(exact[best], rel=1e-12)


def test_a_prefix_dropped_and_reached_again_is_one_prefix():
    """Width 2 over (blank, a, b): the spec keeps a, ab after step 2; a, aba after step 3 (ab dropped, aba
    kept); ab again after step 4 (rebuilt from a) beside abab, whose route runs through the ab dropped before;
    ab, aba after step 5. The rebuilt ab must be the ab of before, or its extension and abab's merge go wrong."""
    p = np.array([[0.1, 0.6, 0.3], [0.3, 0.3, 0.4], [0.3, 0.6, 0.1], [0.1, 0.3, 0.6], [0.3, 0.4, 0.3]])
    want = prefix_beam_search(np.log(p), 2)
    assert [lab for lab, _ in want] == [(1, 2), (1, 2, 1)]
    same_beams(prefix_beams(np.log(p), 2), want)
    for t in range(1, 5):
        same_beams(prefix_beams(np.log(p[:t]), 2), prefix_beam_search(np.log(p[:t]), 2))


def test_beam_search_beats_the_best_path_by_hand():
    """p(blank) = 0.6, p(a) = 0.4 at both of 2 steps: the best path reads "" (0.36), while "a" has three
    paths (a a, a -, - a): 0.64."""
    logp = np.log(np.array([[[0.6, 0.4]], [[0.6, 0.4]]]))              # (T=2, B=1, C=2)
    assert best_path(logp) == [[]]
    labels, n, logq = beam_search_array(logp, 2)
    assert labels[0, :n[0]].tolist() == [1] and np.exp(logq[0]) == pytest.approx(0.64, rel=1e-14)
    assert [(lab, round(float(np.exp(q)), 12)) for lab, q in prefix_beams(logp[:, 0], 2)] == [((1,), 0.64), ((), 0.36)]


def test_width_one_is_the_specs_width_one_not_the_best_path():
    """After "a" (0.7), p = (blank .34, a .30, b .36): width 1 keeps "a" (0.448), the best path reads "ab"."""
    q = np.log(np.array([[[0.2, 0.7, 0.1]], [[0.34, 0.30, 0.36]]]))
    assert best_path(q) == [[1, 2]] and beam_search(q, 1) == [[1]]
    rng = np.random.default_rng(30)
    logp = log_softmax(2.0 * rng.standard_normal((30, 8, 5)))
    labels, n, logq = beam_search_array(logp, 1)
    for b in range(8):
        (want, wq), = prefix_beam_search(logp[:, b], 1)
        assert tuple(labels[b, :n[b]]) == want and logq[b] == pytest.approx(wq, rel=1e-12)


def test_float32_input_is_searched_as_the_spec_searches_it():
    """The spec reads float32 as float64; so does the kernel: the same labels and log p."""
    rng = np.random.default_rng(40)
    logp = log_softmax(2.0 * rng.standard_normal((16, 5, 7))).astype(np.float32)
    lengths = np.array([16, 0, 9, 1, 12])
    labels, n, logq = beam_search_array(logp, 4, lengths)
    for b in range(5):
        want, wq = prefix_beam_search(logp[:lengths[b], b], 4)[0]
        assert tuple(labels[b, :n[b]]) == want and logq[b] == pytest.approx(wq, rel=1e-12, abs=1e-12)


def test_bad_widths_and_lengths_are_refused():
    with pytest.raises(ValueError, match="at least 1"):
        beam_search_array(np.zeros((2, 1, 3)), 0)
    with pytest.raises(ValueError, match="at least 1"):
        prefix_beams(np.zeros((2, 3)), 0)
    with pytest.raises(ValueError, match="lengths"):
        beam_search_array(np.zeros((2, 2, 3)), 2, [1, 3])
    with pytest.raises(ValueError, match="lengths must be 2 step counts between 0 and 2"):
        beam_search_array(np.zeros((2, 2, 3)), 2, [-1, 2])
    with pytest.raises(ValueError, match="lengths must be 2 step counts"):
        beam_search_array(np.zeros((2, 2, 3)), 2, [1, 2, 2])


def test_rows_give_the_same_bits_on_one_and_two_threads():
    """The rows run under prange, each on its own trie: the batch's labels and log p do not depend on how many
    threads share the rows (one thread, then two; ragged rows, rows of 0 and 1 step)."""
    import numba
    rng = np.random.default_rng(7)
    T, B, C = 23, 9, 6
    logp = np.log(rng.dirichlet(np.full(C, 0.4), size=(T, B)))                  # (T,B,C)
    lengths = rng.integers(0, T + 1, B)
    lengths[:2] = [0, 1]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = beam_search_array(logp, 5, lengths)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = beam_search_array(logp, 5, lengths)
    finally:
        numba.set_num_threads(before)
    for a, b in zip(one, two):
        assert a.tobytes() == b.tobytes()
    for b in range(B):
        (lab, lq), = prefix_beam_search(logp[:lengths[b], b], 5)[:1] or [((), 0.0)]
        assert list(one[0][b, :one[1][b]]) == list(lab)
