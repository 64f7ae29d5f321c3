"""lnrnn/sample.py against definitions: a free model refuses a prime (it has no window to read its text); a
written line's points are the inputs its next steps read (the normalized draws) times the head's scale (dx by
sx, dy by sy, the pen as drawn), and its prime is the given normalized points times the same scale; shortened
keeps a repr that fits the limit exactly and otherwise keeps its ends around an ellipsis, cut by hand here;
written_label's notes by hand (the cap note only for a capped line, the prime's note only for a primed one)."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import Written, sample_strokes, shortened, written_label
from test_values99_sampler import UNITS, enc, free_model, recorded, text_model


def test_a_free_model_refuses_a_prime_and_a_text():
    m = free_model()
    prime = (np.array([[0.1, 0.2, 0.0], [0.3, -0.1, 1.0]]), enc("ab"))
    with pytest.raises(UserError, match="without text"):
        sample_strokes(m, 3, 1, prime=prime)
    with pytest.raises(UserError, match="without text"):
        sample_strokes(m, 3, 1, text=[enc("ab")])
    assert len(sample_strokes(m, 3, 1)[0]) == 3          # no prime, no text: it draws freely


def test_written_points_are_the_next_inputs_times_the_scale():
    m = text_model()
    seen = recorded(m, window=True)
    prime_pts = np.array([[0.2, -0.4, 0.0], [0.5, 0.25, 0.0], [-0.3, 0.1, 1.0]])
    rows = sample_strokes(m, 6, 2, bias=0.5, seed=4, text=[enc("ab"), enc("c")], prime=(prime_pts, enc("d ")))
    P = len(prime_pts) - 1                                # teacher-forced steps before the first draw
    for b, r in enumerate(rows):
        np.testing.assert_array_equal(r.prime, prime_pts * [UNITS[0], UNITS[1], 1.0])
        n = len(r.points)
        assert n >= 1
        for i in range(n - 1):                            # draw i is the input of drawing step i + 1
            x_next = seen[P + i + 1][1][b]
            np.testing.assert_allclose(r.points[i], x_next * [UNITS[0], UNITS[1], 1.0], rtol=1e-12, atol=1e-12)
        assert UNITS[0] != UNITS[1]


def test_shortened_keeps_what_fits_and_cuts_the_middle_by_hand():
    assert shortened("abc", 5) == "'abc'"                 # repr of 5 characters, limit 5: kept whole
    assert shortened("abc", 6) == "'abc'"
    # repr "'abcdefghijkl'" (14) at limit 10: keep 7, the first 5 and the last 2 around the ellipsis
    assert shortened("abcdefghijkl", 10) == "'abcd\u2026l'"
    assert len(shortened("abcdefghijkl", 10)) <= 10


def row(capped, primed=False, n=4, text="ab"):
    return Written(points=np.zeros((n, 3)), phi=np.zeros((n, len(text))), capped=capped, text=text,
                   chars=list(text), codes=np.arange(len(text)), prime=np.zeros((2, 3)) if primed else None)


def test_written_label_notes_by_hand():
    assert written_label(row(False)) == "'ab'"
    assert written_label(row(True, n=7)) == "'ab' (stopped at the 7-point cap)"
    assert written_label(row(False, primed=True)) == "'ab' after the prime (grey)"
    assert written_label(row(True, primed=True, n=3)) == "'ab' after the prime (grey) (stopped at the 3-point cap)"
