"""lnrnn/data/kanjivg.py's path data against points worked out here: an S right after a moveto starts its curve at
the current point (no control point carried over from the subpath before), a relative s's second control point
taken from the current point, by de Casteljau's construction (test_values206_kanjivg.curve); one-character last
tokens (a closing z, a digit right after its command letter) read; a 10-unit run resampled every 3 units as 5
points 2.5 apart, both ends kept; the refusals of unreadable data (at the index of the character it stops at) and
of a wrong count of numbers (the count given, past one multiple) word for word."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.errors import DataError
from test_values206_kanjivg import curve  # a cubic's 16 points after its start, by de Casteljau


def test_an_s_right_after_a_moveto_starts_at_the_current_point():
    got = kanjivg.path_polylines("M0,0 C0,30 30,30 30,0 M50,0 S60,30 70,0")
    assert len(got) == 2
    # the second subpath: no previous curve in it, so S's first control point is the current point (50, 0)
    want = [np.array([50.0, 0.0])] + curve((50, 0), (50, 0), (60, 30), (70, 0))
    assert np.allclose(got[1], np.array(want), rtol=0, atol=1e-12)
    # and in lower case, after a relative moveto from (30, 0)
    got = kanjivg.path_polylines("M0,0 C0,30 30,30 30,0 m20,0 s10,30 20,0")
    assert np.allclose(got[1], np.array(want), rtol=0, atol=1e-12)


def test_a_relative_smooth_curve_takes_both_its_points_from_the_current_point():
    got = kanjivg.path_polylines("M10,10 c0,20 20,20 20,0 s20,-20 20,0")
    # c from (10, 10): controls (10, 30), (30, 30), end (30, 10)
    # s from (30, 10): first control 2 * (30, 10) - (30, 30) = (30, -10); second (30, 10) + (20, -20) = (50, -10);
    # end (30, 10) + (20, 0) = (50, 10)
    want = ([np.array([10.0, 10.0])] + curve((10, 10), (10, 30), (30, 30), (30, 10))
            + curve((30, 10), (30, -10), (50, -10), (50, 10)))
    assert len(got) == 1 and got[0].shape == (33, 2)
    assert np.allclose(got[0], np.array(want), rtol=0, atol=1e-12)


def test_one_character_last_tokens_are_read():
    assert [p.tolist() for p in kanjivg.path_polylines("M0,0 L5,0 5,5z")] == [
        [[0.0, 0.0], [5.0, 0.0], [5.0, 5.0], [0.0, 0.0]]]
    assert [p.tolist() for p in kanjivg.path_polylines("M1,2 h7")] == [[[1.0, 2.0], [8.0, 2.0]]]
    assert [p.tolist() for p in kanjivg.path_polylines("M1,2v3")] == [[[1.0, 2.0], [1.0, 5.0]]]


def test_a_10_unit_run_is_resampled_as_5_points_with_both_ends():
    # ceil(10 / 3) = 4 intervals of 10 / 4 = 2.5 units, 5 points
    got = kanjivg.resample(np.array([[0.0, 0.0], [4.0, 0.0], [10.0, 0.0]]))
    assert np.allclose(got, [[0, 0], [2.5, 0], [5, 0], [7.5, 0], [10, 0]], rtol=0, atol=1e-12)
    # an L-shaped run of 4 + 3 = 7 units: ceil(7 / 3) = 3 intervals of 7 / 3
    got = kanjivg.resample(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0]]))
    assert np.allclose(got, [[0, 0], [7 / 3, 0], [4, 2 * 7 / 3 - 4], [4, 3]], rtol=0, atol=1e-12)


def test_unreadable_path_data_is_refused_at_the_character_it_stops_at():
    d = "M0,0L1,1#2"
    with pytest.raises(DataError) as e:
        kanjivg.path_polylines(d, "u.svg")
    assert str(e.value) == f"u.svg: cannot read path data {d!r} at character {d.index('#')}."
    assert d.index("#") == 8


@pytest.mark.parametrize("d, cmd, k, n", [("M0,0 L1,2,3,4,5,6,7", "L", 2, 7),
                                          ("M0,0 C1,2 3,4 5,6 7,8", "C", 6, 8),
                                          ("M0,0 h1 2 3 V4 s1,2 3", "s", 4, 3)])
def test_a_wrong_count_of_numbers_is_refused_with_the_count_given(d, cmd, k, n):
    with pytest.raises(DataError) as e:
        kanjivg.path_polylines(d, "n.svg")
    assert str(e.value) == f"n.svg: path command {cmd} needs a multiple of {k} numbers in {d!r}, got {n}."
