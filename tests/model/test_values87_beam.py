"""The compiled prefix beam search against a brute-force enumeration and a beam written here (lnrnn/model/beam.py).

Every one of the C^T paths of a tiny row is collapsed by hand (repeats merged, then blanks dropped) and its
probability added to its labelling's: a search wide enough keeps every labelling with that log p. Narrower
widths (1, 2, 3) are checked against a plain prefix beam search written here from the rules (a prefix again:
pb = tot y[blank], pnb = pnb y[last]; a prefix + c: pnb += (pb if c is its last label else tot) y[c]; merged by
prefix, the W largest nonzero totals kept), on random steps where no two totals tie. beam_search_array's rows, each over
its own steps, read the most probable labelling; labels never hold the blank."""
import itertools
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams


def collapse(path):
    out, prev = [], None
    for c in path:
        if c != prev and c != 0:
            out.append(c)
        prev = c
    return tuple(out)


def enumerate_labellings(p):
    """p (T,C) probabilities -> {labelling: probability} over all C^T paths."""
    T, C = p.shape
    total = {}
    for path in itertools.product(range(C), repeat=T):
        q = math.prod(p[t, c] for t, c in enumerate(path))
        total[collapse(path)] = total.get(collapse(path), 0.0) + q
    return total


def beam_here(p, width):
    """A plain prefix beam search in probabilities: [(labelling, probability)] best first."""
    beams = {(): (1.0, 0.0)}                                            # prefix -> (pb, pnb)
    for t in range(p.shape[0]):
        nxt = {}

        def add(k, b, nb):
            ob, onb = nxt.get(k, (0.0, 0.0))
            nxt[k] = (ob + b, onb + nb)
        for k, (pb, pnb) in beams.items():
            tot = pb + pnb
            add(k, tot * p[t, 0], pnb * p[t, k[-1]] if k else 0.0)
            for c in range(1, p.shape[1]):
                add(k + (c,), 0.0, (pb if k and c == k[-1] else tot) * p[t, c])
        live = [kv for kv in nxt.items() if kv[1][0] + kv[1][1] > 0.0]     # a prefix of probability 0 is none
        kept = sorted(live, key=lambda kv: -(kv[1][0] + kv[1][1]))[:width]
        beams = dict(kept)
    return [(k, b + nb) for k, (b, nb) in sorted(beams.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))]


def random_probs(rng, T, C, scale=1.3):
    z = rng.normal(0.0, scale, (T, C))
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("T,C,seed", [(1, 3, 0), (2, 3, 1), (3, 3, 2), (4, 2, 3), (3, 4, 4), (4, 3, 5)])
def test_a_wide_search_keeps_every_labelling_with_its_sum_over_paths(T, C, seed):
    p = random_probs(np.random.default_rng(seed), T, C)
    want = enumerate_labellings(p)
    got = prefix_beams(np.log(p), 10_000)
    assert len(got) == len(want)
    for k, lp in got:
        assert 0 not in k
        assert lp == pytest.approx(math.log(want[k]), abs=1e-12)
    assert [lp for _, lp in got] == sorted((lp for _, lp in got), reverse=True)
    best = max(want, key=want.get)
    labels, n, logq = beam_search_array(np.log(p)[:, None, :], 10_000)
    assert tuple(labels[0, :n[0]]) == best and logq[0] == pytest.approx(math.log(want[best]), abs=1e-12)


@pytest.mark.parametrize("width", [1, 2, 3, 5])
@pytest.mark.parametrize("T,C,seed", [(3, 3, 10), (5, 3, 11), (6, 4, 12), (5, 2, 13), (7, 3, 14)])
def test_narrow_widths_keep_what_a_plain_beam_keeps(T, C, seed, width):
    p = random_probs(np.random.default_rng(seed), T, C)
    want = beam_here(p, width)
    got = prefix_beams(np.log(p), width)
    assert [k for k, _ in got] == [k for k, _ in want]
    np.testing.assert_allclose([lp for _, lp in got], [math.log(q) for _, q in want], rtol=0, atol=1e-12)
    labels, n, logq = beam_search_array(np.log(p)[:, None, :], width)
    assert tuple(labels[0, :n[0]]) == want[0][0] and logq[0] == pytest.approx(math.log(want[0][1]), abs=1e-12)
    assert np.all(labels[0, n[0]:] == -1)


def test_repeats_need_a_blank_between_them():
    """'a a' spells (1, 1) only through a blank; (1,) also through 'a a'. Steps: a, blank, a at 0.9."""
    p = np.array([[0.05, 0.9, 0.05], [0.9, 0.05, 0.05], [0.05, 0.9, 0.05]])
    want = enumerate_labellings(p)
    got = dict(prefix_beams(np.log(p), 10_000))
    assert got[(1, 1)] == pytest.approx(math.log(want[(1, 1)]), abs=1e-12)
    assert got[(1,)] == pytest.approx(math.log(want[(1,)]), abs=1e-12)
    labels, n, _ = beam_search_array(np.log(p)[:, None, :], 3)
    assert tuple(labels[0, :n[0]]) == (1, 1)


def test_rows_of_a_batch_each_read_their_own_steps_most_probable_labelling():
    rng = np.random.default_rng(21)
    T, B, C = 5, 4, 3
    p = np.stack([random_probs(rng, T, C) for _ in range(B)], axis=1)          # (T,B,C)
    lengths = np.array([5, 3, 1, 4])
    for width in (2, 4, 10_000):
        labels, n, logq = beam_search_array(np.log(p), width, lengths)
        for b in range(B):
            want = beam_here(p[:lengths[b], b], width)[0]
            assert tuple(labels[b, :n[b]]) == want[0]
            assert logq[b] == pytest.approx(math.log(want[1]), abs=1e-12)
