"""The compiled prefix beam search (lnrnn/model/beam.py), twelfth pass, against exhaustive enumeration and the
plain prefix beam written out by hand (test_values198_beam's every_labelling over all C^T paths and plain_beam):
a width of every prefix the steps can spell (1 + 2 + 4 + 8 = 15 at T 3, C 3; 1 + 3 + 9 = 13 at T 2, C 4) or past
it must list every labelling some path spells (9 and 10 of them by hand: a repeated label needs a blank between)
with its sum over paths, and each row's best must be the exhaustive best; widths 1, 2 and the alphabet
(and one past it) on random rows of awkward sizes, and on uniform steps where every labelling of one length ties
(the cut then decided by the labels' order, shorter prefixes first)."""
import numpy as np
import pytest

from lnrnn.model.beam import beam_search_array, prefix_beams
from test_values198_beam import check_list, every_labelling, plain_beam, uniform
from test_values250_beam import check_widths, exhaustive_best, log_rows


@pytest.mark.parametrize("T,C,prefixes,spelt", [(3, 3, 15, 1 + 2 + 4 + 2), (2, 4, 13, 1 + 3 + 6)])
def test_a_search_wider_than_every_prefix_lists_every_labelling(T, C, prefixes, spelt):
    logp = log_rows(25721 + C, T, 4, C, 0.8)
    labels, n, logq = beam_search_array(logp, 50)
    for b in range(4):
        every = every_labelling(logp[:, b])
        assert len(every) == spelt
        want = sorted(every.items(), key=lambda kv: (-kv[1], kv[0]))
        check_list(prefix_beams(logp[:, b], 50), want)
        check_list(prefix_beams(logp[:, b], prefixes), want)
        best, v = exhaustive_best(logp[:, b])
        assert tuple(labels[b, :n[b]]) == best
        np.testing.assert_allclose(logq[b], v, rtol=1e-12)


@pytest.mark.parametrize("T,C", [(5, 3), (4, 5)])
def test_widths_one_two_the_alphabet_and_past_it_on_random_rows(T, C):
    B = 5
    logp = log_rows(25730 + T, T, B, C, 1.3)
    check_widths(logp, (1, 2, 3, C, C + 1))


@pytest.mark.parametrize("T,C", [(2, 3), (3, 3), (2, 4), (3, 2)])
def test_uniform_steps_keep_the_plain_beams_tie_broken_list(T, C):
    logp = uniform(T, C)
    for width in (1, 2, C, C + 1):
        want = plain_beam(logp, width)
        check_list(prefix_beams(logp, width), want)
        labels, n, logq = beam_search_array(logp[:, None, :], width)
        assert tuple(labels[0, :n[0]]) == want[0][0], width
