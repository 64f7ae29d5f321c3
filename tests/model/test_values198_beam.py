"""The compiled prefix beam search (lnrnn/model/beam.py) against searches written here, on tiny alphabets and
steps where exact ties decide. A brute force sums every one of the C^T paths, collapsed by hand (repeats merge,
blanks drop), into each labelling's log p; a plain prefix beam search here keeps, after each step, the `width`
best prefixes by log p and then by their labels in lexicographic order (a prefix before its extensions). Uniform
steps make whole families of labellings tie exactly (a label swapped for another is the same sum), so the cut
of a narrow beam, the best of a wide one and each width's list are decided by the labels alone. Rows of 0, 1
and more steps share a batch; widths run from 1 to more than the alphabet and more than the prefixes."""
import itertools
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams

NINF = -math.inf


def lse(a, b):
    if a == NINF:
        return b
    if b == NINF:
        return a
    m = max(a, b)
    return m + math.log(math.exp(a - m) + math.exp(b - m))


def collapse(path):
    out = []
    prev = None
    for k in path:
        if k != prev and k != 0:
            out.append(k)
        prev = k
    return tuple(out)


def every_labelling(logp):
    """logp (T,C) -> {labelling: log p} over all C^T paths."""
    T, C = logp.shape
    out = {}
    for path in itertools.product(range(C), repeat=T):
        v = sum(logp[t, k] for t, k in enumerate(path))
        lab = collapse(path)
        out[lab] = lse(out.get(lab, NINF), v)
    return out


def plain_beam(logp, width):
    """logp (T,C) -> [(labels, log p)] kept after the last step, best first (ties: labels ascending)."""
    beams = {(): (0.0, NINF)}
    for lp in logp:
        new = {}
        for prefix, (pb, pnb) in beams.items():
            tot = lse(pb, pnb)
            cand = [(prefix, tot + lp[0], NINF)]
            if prefix:
                cand.append((prefix, NINF, pnb + lp[prefix[-1]]))
            for c in range(1, len(lp)):
                cand.append((prefix + (c,), NINF, (pb if prefix and c == prefix[-1] else tot) + lp[c]))
            for p, b, nb in cand:
                ob, onb = new.get(p, (NINF, NINF))
                new[p] = (lse(ob, b), lse(onb, nb))
        ranked = sorted(new.items(), key=lambda kv: (-lse(*kv[1]), kv[0]))
        beams = dict(kv for kv in ranked[:width] if lse(*kv[1]) > NINF)
    return sorted(((p, lse(*v)) for p, v in beams.items()), key=lambda kv: (-kv[1], kv[0]))


def uniform(T, C):
    return np.full((T, C), -math.log(C))


def check_list(got, want):
    assert [p for p, _ in got] == [p for p, _ in want]
    np.testing.assert_allclose([v for _, v in got], [v for _, v in want], rtol=1e-12)


@pytest.mark.parametrize("T,C", [(1, 3), (2, 3), (3, 4)])
def test_uniform_steps_every_width_keeps_the_plain_beams_tie_broken_list(T, C):
    """Every labelling of one length ties: widths 1, 2, C (past the alphabet) and every prefix."""
    logp = uniform(T, C)
    every = every_labelling(logp)
    for width in (1, 2, C, C + 2, 10 ** 4):
        check_list(prefix_beams(logp, width), plain_beam(logp, width))
    wide = dict(prefix_beams(logp, 10 ** 4))
    assert wide.keys() == {k for k, v in every.items() if v > NINF}
    for lab, v in wide.items():
        np.testing.assert_allclose(v, every[lab], rtol=1e-12, err_msg=str(lab))


def test_one_step_best_is_the_empty_labelling_among_exact_ties():
    """One uniform step of 3 classes: (), (1,), (2,) each log 1/3; the shortest, then the smallest, wins."""
    logp = uniform(1, 3)[:, None, :]
    for width in (1, 2, 3, 50):
        labels, n, logq = beam_search_array(logp, width)
        assert n[0] == 0 and np.all(labels[0] == -1), width
        np.testing.assert_allclose(logq[0], -math.log(3), rtol=1e-12)
    assert [p for p, _ in prefix_beams(logp[:, 0], 3)] == [(), (1,), (2,)]


def test_tied_labels_at_a_narrow_cut_keep_the_smaller_classes():
    """A low blank and four equal label classes: width 2 keeps the two smallest, then their extensions."""
    lp = np.log(np.array([0.04, 0.24, 0.24, 0.24, 0.24]))
    for T in (1, 2, 3):
        logp = np.tile(lp, (T, 1))
        for width in (1, 2, 3):
            check_list(prefix_beams(logp, width), plain_beam(logp, width))
    assert [p for p, _ in prefix_beams(lp[None, :], 2)] == [(1,), (2,)]


def test_rows_of_lengths_0_1_and_more_in_one_batch_find_their_own_best():
    """T 3, C 3, rows of 0, 1, 3 and 2 steps; past its length a row's steps are garbage it must not read."""
    rng = np.random.default_rng(19801)
    x = 1.5 * rng.standard_normal((3, 4, 3))
    logp = x - np.log(np.exp(x).sum(axis=-1, keepdims=True))
    lengths = np.array([0, 1, 3, 2])
    logp[2:, 3] = np.log(np.array([0.01, 0.98, 0.01]))     # never read by row 3
    logp[1:, 1] = np.log(np.array([0.01, 0.01, 0.98]))     # never read by row 1
    for width in (1, 3, 100):
        labels, n, logq = beam_search_array(logp, width, lengths)
        for b, L in enumerate(lengths):
            want = plain_beam(logp[:L, b], width)[0]
            assert tuple(labels[b, :n[b]]) == want[0], (width, b)
            assert np.all(labels[b, n[b]:] == -1)
            np.testing.assert_allclose(logq[b], want[1], rtol=1e-12, atol=0)
    assert n[0] == 0 and logq[0] == 0.0                       # no steps: the empty labelling, probability 1
    every = every_labelling(logp[:1, 1])
    assert tuple(labels[1, :n[1]]) == max(sorted(every), key=every.get)
    for b in (2, 3):
        every = every_labelling(logp[:lengths[b], b])
        best = max(every.values())
        np.testing.assert_allclose(logq[b], best, rtol=1e-12)


def test_blank_and_repeat_ties_match_the_brute_force_and_the_plain_beam():
    """Steps where 'a' and the blank tie: 'a a' (a blank between) against 'a' (merged paths)."""
    lp = np.log(np.array([0.45, 0.45, 0.1]))
    logp = np.tile(lp, (4, 1))
    every = every_labelling(logp)
    for width in (1, 2, 4, 10 ** 4):
        check_list(prefix_beams(logp, width), plain_beam(logp, width))
    wide = dict(prefix_beams(logp, 10 ** 4))
    assert wide.keys() == every.keys()
    for lab, v in wide.items():
        np.testing.assert_allclose(v, every[lab], rtol=1e-12)
    labels, n, logq = beam_search_array(logp[:, None, :], 10 ** 4)
    best = min(every, key=lambda k: (-every[k], k))
    assert tuple(labels[0, :n[0]]) == best


def test_an_extension_tying_the_worst_kept_wins_by_its_labels():
    """Step 1: the blank and 'b' tie (0.4 each), 'a' 0.2: width 2 keeps () and (b). Step 2: blank and 'a' 0.5,
    'b' impossible: (), (b) again, (a) and (b a) all read log 0.4 + log 0.5, bit for bit; (a) comes before
    (b) in label order, so width 2 ends with () and (a)."""
    logp = np.array([[math.log(0.4), math.log(0.2), math.log(0.4)], [math.log(0.5), math.log(0.5), NINF]])
    want = plain_beam(logp, 2)
    assert [p for p, _ in want] == [(), (1,)]
    for width in (1, 2, 3):
        check_list(prefix_beams(logp, width), plain_beam(logp, width))
    labels, n, logq = beam_search_array(logp[:, None, :], 2)
    assert n[0] == 0 and logq[0] == want[0][1]
