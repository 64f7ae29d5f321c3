"""lnrnn/sample.py's stroke-3 check refuses points that are not numbers whatever they hold: text (numerals, which NumPy
would convert, and letters, which it would not), booleans, bytes, dates, complex numbers and objects, given as an
array or in a .npy prime file, each with its one line; integers and floats pass, as float64 of the same values."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import check_stroke3, read_stroke3

NOT_NUMBERS = [np.array([["1", "2", "0"], ["0.5", "1", "1"]]),               # numerals as text
               np.array([["a", "b", "c"]]),                                  # letters
               np.array([[True, False, True], [False, False, False]]),      # booleans
               np.array([[b"1", b"2", b"0"]]),                               # bytes
               np.array([["2020-01-01"] * 3], dtype="datetime64[D]"),        # dates
               np.array([[1 + 2j, 0j, 1 + 0j]]),                             # complex numbers
               np.array([[1.0, 2.0, 0.0]], dtype=object)]                    # objects


@pytest.mark.parametrize("points", NOT_NUMBERS, ids=lambda a: a.dtype.str)
def test_points_that_are_not_numbers_are_refused(points):
    with pytest.raises(UserError) as e:
        check_stroke3(points, "the prime")
    assert str(e.value) == (f"the prime must be numbers (an (N,3) stroke-3 array: dx, dy, pen), not {points.dtype} "
                            "values.")


@pytest.mark.parametrize("points", NOT_NUMBERS[:6], ids=lambda a: a.dtype.str)
def test_a_prime_file_of_points_that_are_not_numbers_is_refused(tmp_path, points):
    path = tmp_path / "prime.npy"
    np.save(path, points, allow_pickle=False)
    with pytest.raises(UserError, match=r"must be numbers \(an \(N,3\) stroke-3 array"):
        read_stroke3(path)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.float32, np.float64])
def test_integers_and_floats_pass_as_float64(dtype):
    points = np.array([[1, 2, 0], [3, -1, 1]]).astype(dtype) if dtype != np.uint16 else \
        np.array([[1, 2, 0], [3, 1, 1]], dtype)
    got = check_stroke3(points, "the prime")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, points.astype(np.float64))
