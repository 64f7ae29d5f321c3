"""lnrnn/data/kanjivg.py's geometry by hand: relative h and v from the current point, S's first control
point reflected through the current point (the same curve as the C it abbreviates), the Bezier weights
at t = 1/4, Z back to the subpath's own moveto, strokes ordered by number past s9, resampling that never
leaves a gap wider than the spacing, and a design turned y up."""
import numpy as np
import pytest

from lnrnn.data import kanjivg


def test_relative_h_and_v_start_from_the_current_point():
    (p,) = kanjivg.path_polylines("M10,20h5v-4h-2V30H1")
    assert p.tolist() == [[10, 20], [15, 20], [15, 16], [13, 16], [13, 30], [1, 30]]


def test_s_reflects_the_last_control_point_through_the_current_point():
    """S after C: its first control point is 2 * end - (C's second control point) = 2 (10,0) - (8,10)
    = (12,-10); the C written out draws the same points."""
    (s,) = kanjivg.path_polylines("M0,0C2,10 8,10 10,0S25,-5 20,3")
    (c,) = kanjivg.path_polylines("M0,0C2,10 8,10 10,0C12,-10 25,-5 20,3")
    np.testing.assert_allclose(s, c, rtol=0, atol=1e-12)
    (r,) = kanjivg.path_polylines("m0,0c2,10 8,10 10,0s15,-5 10,3")           # relative, same curve
    np.testing.assert_allclose(r, c, rtol=0, atol=1e-12)


def test_cubic_weights_at_a_quarter():
    """B(1/4) = (27 p0 + 27 p1 + 9 p2 + p3) / 64."""
    (p,) = kanjivg.path_polylines("M0,0C64,0 0,64 64,64")
    k = kanjivg.CURVE_POINTS // 4
    assert kanjivg.CURVE_POINTS % 4 == 0 and len(p) == kanjivg.CURVE_POINTS + 1
    np.testing.assert_allclose(p[k], [(27 * 64 + 64) / 64, (9 * 64 + 64) / 64], rtol=1e-12)
    np.testing.assert_allclose(p[-1], [64, 64])


def test_z_closes_to_the_subpaths_own_start():
    two = kanjivg.path_polylines("M5,5L10,5L10,9ZM20,20l3,0z")
    assert two[0].tolist() == [[5, 5], [10, 5], [10, 9], [5, 5]]
    assert two[1].tolist() == [[20, 20], [23, 20], [20, 20]]


def test_resampled_points_are_never_further_apart_than_the_spacing():
    """A length of 10 at spacing 3: ceil(10/3) = 4 steps of 2.5 (3 steps would be 3.33 apart)."""
    poly = np.array([[0.0, 0.0], [10.0, 0.0]])
    pts = kanjivg.resample(poly, 3.0)
    np.testing.assert_allclose(pts[:, 0], [0, 2.5, 5, 7.5, 10])
    for length, spacing in ((10.0, 3.0), (7.0, 2.0), (1.0, 3.0), (9.0, 3.0)):
        pts = kanjivg.resample(np.array([[0.0, 0.0], [0.0, length]]), spacing)
        steps = np.diff(pts[:, 1])
        assert steps.max() <= spacing + 1e-12 and len(pts) == max(2, int(np.ceil(length / spacing)) + 1)


def svg(paths, order):
    body = "\n".join(f'<path id="kvg:00041-s{k + 1}" d="{paths[k]}"/>' for k in order)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="109" height="109">\n<g id="kvg:00041">\n{body}\n'
            '</g>\n</svg>\n').encode()


def test_strokes_are_ordered_by_number_past_nine(tmp_path):
    """Twelve strokes, stroke k a horizontal line at y = k, written in the document in a shuffled order:
    the design lists them s1..s12 (by number, not as text: s10 after s9), y up (y = -k)."""
    paths = [f"M0,{k + 1}L5,{k + 1}" for k in range(12)]
    order = np.random.default_rng(0).permutation(12).tolist()
    assert kanjivg.stroke_paths(svg(paths, order), "f.svg") == paths
    f = tmp_path / "00041.svg"
    f.write_bytes(svg(paths, order))
    design = kanjivg.read_design(str(f))
    assert [float(st[0, 1]) for st in design] == [-(k + 1.0) for k in range(12)]
    assert all(st[0, 0] == 0 and st[-1, 0] == 5 for st in design)
