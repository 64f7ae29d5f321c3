"""lnrnn/data/kanjivg.py's path data, thirteenth pass: M, L and l flattened to their points by hand; C and c against
de Casteljau's construction at t = k/16 with every control point written out; S and s with their first control
point the reflection 2 * current - previous second control point, worked out in the test; a file written in
KanjiVG's layout whose first stroke has two subpaths (a second moveto) read to three strokes, each resampled every
SPACING = 3 units by hand with y turned up."""
import numpy as np

from lnrnn.data import kanjivg
from test_values206_kanjivg import curve, svg  # a cubic's 16 points after its start; a KanjiVG file of paths


def _points(polys):
    return [p.tolist() for p in polys]


def test_absolute_and_relative_lines():
    got = kanjivg.path_polylines("M10,10 L20,30 l5,5 L0,0")
    assert _points(got) == [[[10.0, 10.0], [20.0, 30.0], [25.0, 35.0], [0.0, 0.0]]]


def test_absolute_and_relative_cubics_by_de_casteljau():
    got = kanjivg.path_polylines("M5,5 C15,5 25,35 35,35 c10,0 0,-30 10,-30")
    # c from (35, 35): controls (45, 35) and (35, 5), end (45, 5)
    want = [(5, 5)] + curve((5, 5), (15, 5), (25, 35), (35, 35)) + curve((35, 35), (45, 35), (35, 5), (45, 5))
    assert len(got) == 1 and got[0].shape == (33, 2)
    np.testing.assert_allclose(got[0], np.array(want, float), rtol=0, atol=1e-12)


def test_smooth_cubics_reflect_the_previous_control_point():
    got = kanjivg.path_polylines("M0,0 C0,10 10,10 10,0 S20,-10 20,0 s10,10 10,0")
    # S at (10, 0) after C's second control (10, 10): first control 2 (10, 0) - (10, 10) = (10, -10);
    # s at (20, 0) after S's second control (20, -10): first control (20, 10), second (20, 0) + (10, 10)
    want = ([(0, 0)] + curve((0, 0), (0, 10), (10, 10), (10, 0)) + curve((10, 0), (10, -10), (20, -10), (20, 0))
            + curve((20, 0), (20, 10), (30, 10), (30, 0)))
    assert len(got) == 1 and got[0].shape == (49, 2)
    np.testing.assert_allclose(got[0], np.array(want, float), rtol=0, atol=1e-12)


def test_a_stroke_with_two_subpaths_is_two_polylines(tmp_path):
    path = tmp_path / "04e00.svg"
    path.write_bytes(svg(["M0,0 L9,0 M0,5 L0,11", "M20,0 L20,3"]))
    assert len(kanjivg.path_polylines("M0,0 L9,0 M0,5 L0,11")) == 2
    got = kanjivg.read_design(str(path))
    # 9 units: ceil(9 / 3) + 1 = 4 points; 6 units: 3 points; 3 units: 2 points; y turned up
    want = [[[0, 0], [3, 0], [6, 0], [9, 0]], [[0, -5], [0, -8], [0, -11]], [[20, 0], [20, -3]]]
    assert _points(got) == [[[float(x), float(y)] for x, y in st] for st in want]
