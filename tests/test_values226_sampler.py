"""lnrnn/sample.py's writing path against a replay worked out here: two lines of unequal length (5 and 3
characters, so the shorter row's window text is padded) are written with bias 1.5, and every point of each row
is Graves's biased mixture (test_values162_sampler's graves_draw) drawn from one default_rng(seed) in the
sampler's order, each step's input the point drawn before; Written.text and chars are the lines' characters,
code k being the alphabet's k-th. A prime whose text uses the alphabet's last code is read (its codes first
in the row's, counted in prime_chars) and the row's phi is the NumPy reference's (test_values133_sampler's
check_row); a prime code past the alphabet is refused with [0, C) word for word. An empty list of lines is
refused for its count (0 lines, count 1), not asked for text=.

One layer (LN), H = 5, K = 2, mixture of 2, float64 (test_values133_sampler's text_model)."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import sample_strokes
from test_values133_sampler import ALPHABET, UNIT, check_row, codes, text_model
from test_values162_sampler import graves_draw
from test_values213_sampler import fake_model

M = 2  # text_model's mixture components


def replay(m, lines, steps, bias, seed):
    """Every row's points (B,steps,3) in data units, drawn here step by step from default_rng(seed)."""
    B, U = len(lines), max(len(c) for c in lines)
    padded = np.zeros((B, U), np.int64)
    for b, c in enumerate(lines):
        padded[b, :len(c)] = c
    txt = (padded, np.array([len(c) for c in lines], np.int64))
    rng = np.random.default_rng(seed)
    x, state, out = np.zeros((B, 3)), None, []
    for t in range(steps):
        o, state = m.step(x, state, t=t, text=txt)
        x = graves_draw(np.asarray(o, np.float64), M, bias, rng)
        out.append(x)
    return np.stack(out, axis=1) * UNIT


def test_written_rows_are_the_biased_mixture_drawn_here_with_the_same_seed():
    m = text_model()
    assert not m.state_noise
    lines, steps, bias, seed = codes("abcde", "dab"), 6, 1.5, 226
    want = replay(m, lines, steps, bias, seed)
    rows = sample_strokes(m, steps, 2, bias, seed, text=lines, alphabet=ALPHABET)
    for b, r in enumerate(rows):
        n = len(r.points)
        assert 1 <= n <= steps
        np.testing.assert_allclose(r.points, want[b, :n], rtol=1e-10, atol=1e-12)
    # an unbiased draw is another one: the bias reached the mixture
    assert not np.allclose(replay(m, lines, 1, 0.0, seed)[:, 0], want[:, 0])
    assert [r.text for r in rows] == ["abcde", "dab"]
    assert rows[0].chars == ["a", "b", "c", "d", "e"] and rows[1].chars == ["d", "a", "b"]


def test_without_an_alphabet_a_rows_text_is_its_codes():
    rows = sample_strokes(text_model(), 3, 2, 0.0, 1, text=codes("eb", "a"))
    # '\ufffd abcde': 'e' is code 6, 'b' code 3, 'a' code 2
    assert [r.text for r in rows] == ["6 3", "2"]
    assert rows[0].chars == ["6", "3"] and rows[1].chars == ["2"]


def test_a_prime_using_the_alphabets_last_code_is_read_before_the_line():
    m = text_model()
    C = len(ALPHABET)
    pre = np.column_stack([np.random.default_rng(6).normal(0.0, 0.5, (3, 2)), [0.0, 1.0, 0.0]])
    prime = (pre, codes("e ")[0])
    assert prime[1][0] == C - 1                                  # 'e' is the alphabet's last code
    lines = codes("ab")
    rows = sample_strokes(m, 12, 1, 0.4, 2, text=lines, prime=prime, alphabet=ALPHABET)
    check_row(m, rows[0], lines[0], None, 12, prime=prime)
    assert rows[0].prime_chars == 2 and rows[0].chars == ["e", " ", "a", "b"]
    with pytest.raises(UserError) as e:
        sample_strokes(m, 12, 1, text=lines, prime=(pre, np.array([C - 1, C])), alphabet=ALPHABET)
    assert str(e.value) == (f"the prime's codes must be a non-empty 1-D array of codes in [0, {C}) (the model's "
                            "alphabet); encode a str with lnrnn.data.strokes.encode_text.")


def test_an_empty_list_of_lines_is_refused_for_its_count():
    with pytest.raises(UserError) as e:
        sample_strokes(fake_model(5), 4, 1, text=[])
    assert str(e.value) == "text holds 0 lines but count is 1: each line is one sample."
