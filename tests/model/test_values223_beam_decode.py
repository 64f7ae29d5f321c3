"""Beam search (lnrnn/model/beam.py, lnrnn/model/decode.py) against a brute-force enumeration of every path
(test_values48_decode.labellings) on alphabets of two and three labels: wide beams keep every labelling with
its exact log p, in the spec (prefix_beam_search) and the compiled search alike, with repeats that collapse;
a batch's rows (one of 0 steps) find their most probable labelling over their own steps; exact ties go to the
smaller labelling (the shorter first, then the first smaller label), at the end and at a beam's cut in one
step; and the refusal of bad lengths, word for word."""
import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from lnrnn.model.decode import beam_search, prefix_beam_search
from test_values48_decode import labellings, log_softmax


def ranked(exact, digits=12):
    """{labelling: log p} -> [(labelling, log p)] by log p descending (ties within 1e-12), then labelling."""
    return sorted(exact.items(), key=lambda kv: (-round(kv[1], digits), kv[0]))


@pytest.mark.parametrize("seed", [0, 1])
def test_wide_beams_hold_every_labelling_with_its_exact_log_p(seed):
    """T 4, C 3, logits of scale 2 (repeats 'a a' and 'a b a' among the labellings): width 64 keeps all."""
    rng = np.random.default_rng(22310 + seed)
    lp = log_softmax(2.0 * rng.standard_normal((4, 3)))
    exact = {k: v for k, v in labellings(lp).items() if v > -np.inf}
    for got in (dict(prefix_beams(lp, 64)), dict(prefix_beam_search(lp, 64))):
        assert set(got) == set(exact)
        for lab in exact:
            np.testing.assert_allclose(got[lab], exact[lab], rtol=1e-10, err_msg=str(lab))


def test_rows_find_their_most_probable_labelling_over_their_own_steps():
    rng = np.random.default_rng(22312)
    T, B, C = 4, 4, 3
    logp = log_softmax(1.5 * rng.standard_normal((T, B, C)))
    lengths = np.array([4, 0, 3, 2])
    labels, n, logq = beam_search_array(logp, 64, lengths)
    for b in range(B):
        best, p = ranked(labellings(logp[:lengths[b], b]))[0]
        assert tuple(labels[b, :n[b]]) == best
        assert not (labels[b, n[b]:] + 1).any()
        np.testing.assert_allclose(logq[b], p, rtol=1e-10, atol=1e-12)


TIES = {
    "uniform, two steps": np.full((2, 3), 1 / 3),
    "one step, two labels alike": np.array([[0.2, 0.4, 0.4]]),
    "three labels alike, two steps": np.array([[0.1, 0.3, 0.3, 0.3]] * 2),
    "blank-heavy, three steps": np.array([[0.5, 0.25, 0.25]] * 3),
    "uniform, three steps": np.full((3, 4), 0.25),
}


@pytest.mark.parametrize("name", list(TIES))
def test_exact_ties_go_to_the_smaller_labelling(name):
    lp = np.log(TIES[name])
    want = ranked(labellings(lp))[0][0]
    assert tuple(beam_search(lp[:, None, :], 64)[0]) == want
    assert prefix_beams(lp, 64)[0][0] == want
    assert prefix_beam_search(lp, 64)[0][0] == want


def test_one_step_beams_keep_the_smallest_labellings_of_a_tie_at_their_cut():
    """One step: the beam of width W holds the W most probable labellings exactly, a tie at the cut going to
    the smaller labelling: (3,) over (4,) at 0.15 each."""
    lp = np.log(np.array([[0.1, 0.3, 0.3, 0.15, 0.15]]))
    order = ranked(labellings(lp))
    for W in (1, 2, 3, 4, 5):
        got = prefix_beams(lp, W)
        assert [k for k, _ in got] == [k for k, _ in order[:W]], W
        assert tuple(beam_search(lp[:, None, :], W)[0]) == order[0][0]


def test_lengths_refusal_word_for_word():
    logp = np.log(np.full((3, 2, 3), 1 / 3))
    for bad in ([0, 4], [-1, 2], [3]):
        with pytest.raises(ValueError) as e:
            beam_search_array(logp, 2, np.array(bad))
        assert str(e.value) == "lengths must be 2 step counts between 0 and 3"
    labels, n, logq = beam_search_array(logp, 2, np.array([0, 3]))
    assert n[0] == 0 and logq[0] == 0.0
