"""The compiled prefix beam search (lnrnn/model/beam.py) against searches written here. A beam as wide as the
labellings must find, for each row, the labelling of largest probability summed over every path (every path
enumerated and collapsed by hand: test_values48_decode.labellings), with that log p, and prefix_beams must list
every labelling with its log p. Narrow beams (widths 1 and 2) must keep what a plain prefix beam search written
here keeps at each step: every kept prefix is extended by the blank and by each label class (a repeat of its
last label reads the prefix's label-free part), candidates of one prefix are merged, and the best `width` by
log p (then by their labels) go on. Steps of five label classes and a low blank make a width of 1 or 2 choose among more
classes than it keeps; blank-heavy steps keep the empty prefix in a full beam; repeats ride in every row."""
import math

import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from test_values48_decode import labellings, log_softmax   # every path, collapsed by hand


def lse(a, b):
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    m = max(a, b)
    return m + math.log(math.exp(a - m) + math.exp(b - m))


def plain_beam(logp, width):
    """logp (T,C) -> [(labels, log p)] kept after the last step, best first; the blank is class 0."""
    beams = {(): (0.0, -math.inf)}                               # prefix -> (log p ending in blank, in a label)
    for lp in logp:
        new = {}
        for prefix, (pb, pnb) in beams.items():
            tot = lse(pb, pnb)
            cand = [(prefix, tot + lp[0], -math.inf)]
            if prefix:
                cand.append((prefix, -math.inf, pnb + lp[prefix[-1]]))
            for c in range(1, len(lp)):
                src = pb if prefix and c == prefix[-1] else tot
                cand.append((prefix + (c,), -math.inf, src + lp[c]))
            for p, b, nb in cand:
                ob, onb = new.get(p, (-math.inf, -math.inf))
                new[p] = (lse(ob, b), lse(onb, nb))
        ranked = sorted(new.items(), key=lambda kv: (-lse(*kv[1]), kv[0]))
        beams = dict(kv for kv in ranked[:width] if lse(*kv[1]) > -math.inf)
    return sorted(((p, lse(*v)) for p, v in beams.items()), key=lambda kv: (-kv[1], kv[0]))


def rows(seed, T, B, C, blank=0.0, scale=1.5):
    x = scale * np.random.default_rng(seed).standard_normal((T, B, C))
    x[:, :, 0] += blank
    return log_softmax(x)


def test_wide_beams_without_lengths_find_each_rows_most_probable_labelling():
    """T 4, C 3, four rows, no lengths (every row over all 4 steps)."""
    logp = rows(16610, 4, 4, 3)
    logp[:, 3] = log_softmax(np.array([[0.0, 3.0, 0.0], [2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0]]))
    labels, n, logq = beam_search_array(logp, 10 ** 6)
    for b in range(logp.shape[1]):
        every = labellings(logp[:, b])
        best = max(every, key=every.get)
        assert sorted(every.values())[-2] < every[best] - 1e-6     # one best, not a tie
        assert tuple(labels[b, :n[b]]) == best, b
        assert np.all(labels[b, n[b]:] == -1)
        np.testing.assert_allclose(logq[b], every[best], rtol=1e-12)
    assert tuple(labels[3, :n[3]]) == (1, 1, 2)                   # 'a' blank 'a' 'b': a repeat kept apart


def test_width_below_one_is_refused():
    logp = rows(16611, 3, 1, 3)
    for width in (0, -1):
        with pytest.raises(ValueError, match="at least 1"):
            beam_search_array(logp, width)
        with pytest.raises(ValueError, match="at least 1"):
            prefix_beams(logp[:, 0], width)


def test_prefix_beams_list_every_labelling_with_repeats():
    """T 3, C 4 (64 paths): every labelling, repeats ('a a' needs a blank between) included, with its log p."""
    logp = rows(16612, 3, 1, 4, scale=1.0)[:, 0]
    want = {lab: v for lab, v in labellings(logp).items() if v > -math.inf}
    got = prefix_beams(logp, 10 ** 6)
    assert len(got) == len(want) and dict(got).keys() == want.keys()
    for lab, v in got:
        np.testing.assert_allclose(v, want[lab], rtol=1e-12, err_msg=str(lab))
    assert (1, 1) in want and (2, 2) in want


@pytest.mark.parametrize("width", [1, 2])
@pytest.mark.parametrize("blank", [-2.0, 2.5])
def test_narrow_beams_keep_what_a_plain_beam_keeps(width, blank):
    """T 5, C 6 (five label classes, more than a width of 1 or 2 extends by), three rows each."""
    logp = rows(16613 + width, 5, 3, 6, blank=blank)
    labels, n, logq = beam_search_array(logp, width)
    for b in range(logp.shape[1]):
        want = plain_beam(logp[:, b], width)
        got = prefix_beams(logp[:, b], width)
        assert [p for p, _ in got] == [p for p, _ in want], b
        np.testing.assert_allclose([v for _, v in got], [v for _, v in want], rtol=1e-12)
        assert tuple(labels[b, :n[b]]) == want[0][0]
        np.testing.assert_allclose(logq[b], want[0][1], rtol=1e-12)
