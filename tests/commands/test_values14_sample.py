"""lnrnn/sample.py writing a given text: a code one past the alphabet is refused by the sampler by name; a
prime of one point is that point as the first input (equal to the unprimed line started there over the
prime's codes and the line's); a primed line's Written.text is the line alone; the prime's text is joined
to a line by a space only where the alphabet has one."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.models import build_model
from lnrnn.sample import sample_strokes, text_inputs

ALPHABET = "\ufffdabc d"
NO_SPACE = "\ufffdabcd"
K, H = 2, 4


def model(alphabet=ALPHABET):
    return build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=H, num_layers=2, dtype="float64",
                            forget_bias=1.0, window=K, alphabet_size=len(alphabet),
                            head={"kind": "mdn", "components": 2, "per_step": True, "scale": [2.0, 0.5]}), seed=3)


def test_a_code_past_the_alphabet_is_refused_by_the_sampler():
    m = model()
    with pytest.raises(UserError, match="line 1 of text"):
        sample_strokes(m, 3, 1, text=[np.array([1, len(ALPHABET)])])


def test_a_one_point_prime_is_the_first_input():
    m = model()
    point = np.array([0.3, -0.2, 0.0])
    pre = np.array([1, 2, 4])                                   # 'ab '
    line = np.array([3, 1])                                     # 'ca'
    primed = sample_strokes(m, 6, 1, bias=0.5, seed=2, text=[line], prime=(point[None], pre))[0]
    plain = sample_strokes(m, 6, 1, bias=0.5, seed=2, text=[np.concatenate([pre, line])], start=point)[0]
    np.testing.assert_allclose(primed.points, plain.points, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(primed.phi, plain.phi, rtol=1e-12, atol=1e-12)


def test_a_primed_lines_text_is_the_line_alone():
    m = model()
    codes, prime, alphabet = text_inputs(m, {"alphabet": ALPHABET}, ["ca"], np.array([[1.0, 0.5, 1.0]]), "ab")
    row = sample_strokes(m, 4, 1, seed=0, text=codes, prime=prime, alphabet=alphabet)[0]
    assert row.text == "ca"
    assert "".join(row.chars) == "ab ca" and row.prime_chars == 3


def test_the_prime_text_is_joined_by_a_space_only_where_the_alphabet_has_one():
    pts = np.array([[1.0, 0.5, 1.0]])
    _, prime, _ = text_inputs(model(NO_SPACE), {"alphabet": NO_SPACE}, ["ca"], pts, "ab")
    assert prime[1].tolist() == [1, 2]
    _, prime, _ = text_inputs(model(), {"alphabet": ALPHABET}, ["ca"], pts, "ab")
    assert prime[1].tolist() == [1, 2, 4]
