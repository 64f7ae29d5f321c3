"""lnrnn/model/decode.py by hand: best path without lengths reads every step (a label on the last one), a
blank separating repeats in collapse, and prefix beam search returning at most ``width`` prefixes, the most
probable ones (one step: each prefix's probability is one class's)."""
import numpy as np
import pytest

from lnrnn.model.decode import best_path, best_path_array, collapse, prefix_beam_search

from test_values_decode import confident, exact_label_probs


def test_best_path_without_lengths_reads_the_last_step():
    """Rows whose last step is a new label: 0 1 0 2 reads 1 2, 1 1 0 1 reads 1 1, 2 0 0 1 reads 2 1."""
    logp = confident([[0, 1, 0, 2], [1, 1, 0, 1], [2, 0, 0, 1]], C=3)
    assert best_path(logp) == [[1, 2], [1, 1], [2, 1]]
    labels, n = best_path_array(logp)
    assert n.tolist() == [2, 2, 2]
    assert labels.tolist() == [[1, 2, -1, -1], [1, 1, -1, -1], [2, 1, -1, -1]]


def test_collapse_lets_a_blank_separate_repeats():
    assert collapse([1, 0, 1]) == [1, 1]
    assert collapse([2, 2, 0, 2, 0, 0, 2, 1, 0, 1, 1]) == [2, 2, 2, 1, 1]
    assert collapse([0, 0, 3, 0]) == [3]


@pytest.mark.parametrize("width", [1, 2, 3])
def test_one_step_keeps_the_width_most_probable_prefixes(width):
    """T 1, probabilities 0.2 (blank), 0.5, 0.3: the prefixes are (), (1,), (2,) with those probabilities."""
    p = np.array([[0.2, 0.5, 0.3]])
    got = prefix_beam_search(np.log(p), width)
    want = [((1,), 0.5), ((2,), 0.3), ((), 0.2)][:width]
    assert [g[0] for g in got] == [w[0] for w in want]
    np.testing.assert_allclose([np.exp(g[1]) for g in got], [w[1] for w in want], rtol=1e-12)


@pytest.mark.parametrize("width", [1, 2, 4])
def test_narrow_beams_return_width_prefixes_of_their_exact_probability_or_less(width):
    """Three steps of three classes (many prefixes): exactly ``width`` come back, most probable first, each
    with at most its exact probability (a pruned search drops paths, never adds any)."""
    rng = np.random.default_rng(2603)
    p = rng.dirichlet(np.ones(3), size=3)
    exact = exact_label_probs(p)
    got = prefix_beam_search(np.log(p), width)
    assert len(got) == width
    lps = [g[1] for g in got]
    assert lps == sorted(lps, reverse=True)
    for lab, lp in got:
        assert np.exp(lp) <= exact[lab] * (1 + 1e-12)
