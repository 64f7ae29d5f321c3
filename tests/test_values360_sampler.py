"""lnrnn/sample.py, nineteenth pass (round 360 of the planted bugs, tests/mutants/mutants_values360.py): a batch
of three written lines comes back as three rows, each replayed through lnrnn/reference.py's window
(test_values133_sampler.check_row: its phi in float64 to 1e-9, its stop at the first step whose weight just
past the text beats every character's, or the cap); check_stroke3 keeps float64 digits (0.1, 1/3, 1e-9 and
integers, compared with the same numbers written as float64) and a primed row keeps its prime's points to the
last digit in data units; read_stroke3 refuses a .npy of pickled objects word for word (a UserError, not
NumPy's ValueError) and reads the first line of a .npz of points and lengths."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import check_stroke3, read_stroke3, sample_strokes
from test_values133_sampler import ALPHABET, UNIT, check_row, codes, text_model


def test_three_lines_come_back_as_three_rows_each_the_references():
    m = text_model()
    lines = codes("cab", "e", "abcd")
    rows = sample_strokes(m, 14, 3, 0.4, 17, text=lines, alphabet=ALPHABET)
    assert len(rows) == 3
    assert [r.text for r in rows] == ["cab", "e", "abcd"]
    for r, c in zip(rows, lines):
        assert r.phi.dtype == np.float64
        check_row(m, r, c, np.zeros(3), 14)


def test_check_stroke3_keeps_float64_digits():
    given = [[0.1, 1 / 3, 1.0], [1e-9, -2.7182818284590455, 0.0], [3, -4, 1]]
    got = check_stroke3(given, "the points")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, np.array(given, np.float64))
    assert got[0, 0] == 0.1 and got[0, 1] == 1 / 3 and got[1, 0] == 1e-9


def test_a_primed_row_keeps_its_primes_points_to_the_last_digit():
    m = text_model()
    pre = np.array([[0.1, 1 / 3, 0.0], [-0.7, 0.2, 1.0], [0.3, -1 / 7, 0.0]])     # normalized
    rows = sample_strokes(m, 6, 1, 0.0, 3, text=codes("ab"), prime=(pre, codes("c ")[0]), alphabet=ALPHABET)
    np.testing.assert_array_equal(rows[0].prime, pre * UNIT)


def test_a_npy_of_pickled_objects_is_refused_word_for_word(tmp_path):
    path = tmp_path / "objects.npy"
    np.save(path, np.array([{"dx": 1.0}, None], dtype=object), allow_pickle=True)
    with pytest.raises(UserError) as e:
        read_stroke3(path)
    assert str(e.value) == (f"prime_strokes {path} cannot be read as stroke-3 (it holds pickled objects, which "
                            "are not read).")


def test_a_npz_of_points_and_lengths_gives_its_first_line(tmp_path):
    path = tmp_path / "lines.npz"
    pts = np.array([[1.5, 0.25, 0.0], [2.0, -1.0, 1.0], [0.5, 0.5, 0.0], [7.0, 7.0, 1.0]])
    np.savez(path, points=pts, lengths=np.array([2, 2]))
    np.testing.assert_array_equal(read_stroke3(path), pts[:2])
