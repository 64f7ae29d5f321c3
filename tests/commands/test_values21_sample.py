"""The sampler's drawing and checks by hand: strokes_of splits a stroke-3 line after every pen lift and
keeps the points after the last lift (a sample cut at the step cap ends with the pen down) as a path of
their own; a prime of no point is refused; lnrnn sample refuses --count 0 and --steps 0 before it reads
the run (the run folder here does not exist)."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import check_stroke3, strokes_of
from test_cli import assert_clean_error, invoke


def test_strokes_of_keeps_the_points_after_the_last_lift():
    pts = np.array([[0, 0, 0], [1, 0, 1], [0, 2, 0], [3, 0, 0], [0, -1, 0]], float)
    paths = strokes_of(pts, origin=(10.0, 20.0))
    # absolute positions from (10, 20): (10,20) (11,20) | (11,22) (14,22) (14,21)
    assert len(paths) == 2
    np.testing.assert_array_equal(paths[0], [[10, 20], [11, 20]])
    np.testing.assert_array_equal(paths[1], [[11, 22], [14, 22], [14, 21]])
    lifted = pts.copy()
    lifted[-1, 2] = 1.0                                   # the same line, the pen lifted at its end
    assert [p.tolist() for p in strokes_of(lifted, (10.0, 20.0))] == [p.tolist() for p in paths]
    dot = strokes_of(np.array([[2.0, 3.0, 0.0]]))          # one point, pen down: one path of one point
    assert len(dot) == 1 and dot[0].tolist() == [[2.0, 3.0]]


def test_a_prime_of_no_point_is_refused():
    with pytest.raises(UserError, match="at least one point"):
        check_stroke3(np.zeros((0, 3)), "the prime")
    assert check_stroke3(np.zeros((1, 3)), "the prime").shape == (1, 3)


@pytest.mark.parametrize("option", ["--count", "--steps"])
def test_sample_refuses_zero_before_reading_the_run(tmp_path, option):
    r = invoke("sample", "--checkpoint", tmp_path / "no-run", option, 0, "--out", tmp_path / "s.png")
    assert_clean_error(r, f"{option} must be at least 1, not 0")
    assert not (tmp_path / "s.png").exists()
