"""Quantities computed beside the models, against their definitions: the word error rate of error_rates
splits words on any whitespace (two spaces or a tab between words are no extra word, as ``wer`` of one line
says), and predict's softmax is taken row by row (a row whose logits are far below another row's keeps its
own probabilities), in float64 whatever the logits' dtype."""
import numpy as np

from lnrnn.predict_io import softmax
from lnrnn.textmetrics import error_rates, wer


def test_word_errors_split_on_any_whitespace():
    refs, hyps = ["the  cat sat", "a\tdog"], ["the cat sat", "a dog"]
    assert [wer(r, h) for r, h in zip(refs, hyps)] == [0.0, 0.0]
    rates = error_rates(refs, hyps)
    assert rates["wer"] == 0.0
    assert rates["cer"] == (1 + 1) / (len(refs[0]) + len(refs[1]))    # the extra space, the tab for a space
    assert error_rates(["one two  three"], ["one too three"])["wer"] == 1 / 3


def test_softmax_row_by_row_with_rows_far_apart():
    z = np.array([[0.0, 1.0], [-2000.0, -1999.0], [3000.0, 3000.0]])
    p = softmax(z)
    e = np.e
    want = np.array([[1 / (1 + e), e / (1 + e)], [1 / (1 + e), e / (1 + e)], [0.5, 0.5]])
    np.testing.assert_allclose(p, want, rtol=1e-12)


def test_softmax_of_float32_logits_is_float64():
    z = np.array([[0.0, 1e-4, 20.0]], np.float32)
    p = softmax(z)
    assert p.dtype == np.float64
    e = np.exp(np.array([0.0, np.float32(1e-4), 20.0]) - 20.0)
    np.testing.assert_allclose(p[0], e / e.sum(), rtol=1e-15)
