"""lnrnn/data/kanjivg.py's path data against points worked out by hand: relative and absolute moveto, lines,
H/V, closepath, implicitly repeated arguments, a cubic sampled at CURVE_POINTS + 1 values of t against de
Casteljau's construction; a file of eleven strokes, written out of order, read back in stroke order."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.data.kanjivg import CURVE_POINTS, path_polylines, stroke_paths


def polys(d):
    return [p.tolist() for p in path_polylines(d)]


@pytest.mark.parametrize("d, want", [
    ("M10,10 l5,0 m3,3 l1,1", [[[10, 10], [15, 10]], [[18, 13], [19, 14]]]),
    ("M10,10 L15,10 m-5,0 l0,2", [[[10, 10], [15, 10]], [[10, 10], [10, 12]]]),
    ("m1,1 m2,2 l1,0", [[[1, 1]], [[3, 3], [4, 3]]]),
    ("M1,1 L4,1 M2,2 L2,5", [[[1, 1], [4, 1]], [[2, 2], [2, 5]]]),
])
def test_moveto_absolute_and_relative(d, want):
    assert polys(d) == want


@pytest.mark.parametrize("d, want", [
    ("M0,0 L10,0 L10,10 Z", [[[0, 0], [10, 0], [10, 10], [0, 0]]]),
    ("M2,3 h4 v5 z", [[[2, 3], [6, 3], [6, 8], [2, 3]]]),
    ("M2,3 H4 V5 Z M7,7 l1,0 z", [[[2, 3], [4, 3], [4, 5], [2, 3]], [[7, 7], [8, 7], [7, 7]]]),
])
def test_closepath_draws_back_to_the_subpaths_start(d, want):
    assert polys(d) == want


@pytest.mark.parametrize("d, want", [
    ("M0,0 L1 2 3 4", [[[0, 0], [1, 2], [3, 4]]]),
    ("M0,0 L1,2,3,4,5,6", [[[0, 0], [1, 2], [3, 4], [5, 6]]]),
    ("M0 0 1 1 2 0", [[[0, 0], [1, 1], [2, 0]]]),                # pairs after M are lines
    ("m1,1 2,2 1,-1", [[[1, 1], [3, 3], [4, 2]]]),               # after m, relative lines
    ("M0,0 l1 2 3 4", [[[0, 0], [1, 2], [4, 6]]]),
    ("M0,0 H1 2 3", [[[0, 0], [1, 0], [2, 0], [3, 0]]]),
    ("M0,0 v1 2", [[[0, 0], [0, 1], [0, 3]]]),
])
def test_implicitly_repeated_arguments(d, want):
    assert polys(d) == want


def casteljau(ctrl, t):
    pts = [np.asarray(p, float) for p in ctrl]
    while len(pts) > 1:
        pts = [(1 - t) * a + t * b for a, b in zip(pts, pts[1:])]
    return pts[0]


@pytest.mark.parametrize("d, ctrl", [
    ("M0,0 C0,3 3,3 3,0", [(0, 0), (0, 3), (3, 3), (3, 0)]),
    ("M10,20 c1,5 6,5 8,0", [(10, 20), (11, 25), (16, 25), (18, 20)]),
    ("M1,1 C2,7 9,-4 12,3", [(1, 1), (2, 7), (9, -4), (12, 3)]),
])
def test_a_cubic_against_de_casteljau(d, ctrl):
    (got,) = path_polylines(d)
    ts = np.arange(CURVE_POINTS + 1) / CURVE_POINTS
    want = np.array([casteljau(ctrl, t) for t in ts])
    assert got.shape == (CURVE_POINTS + 1, 2)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_eleven_strokes_come_back_in_stroke_order():
    order = [3, 11, 1, 10, 2, 7, 5, 9, 4, 6, 8]
    paths = "\n".join(f'<path id="kvg:04e00-s{k}" kvg:type="x" d="M{k},0 L{k},1"/>' for k in order)
    svg = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<svg xmlns="http://www.w3.org/2000/svg" xmlns:kvg="http://kanjivg.tagaini.net" width="109" '
           'height="109" viewBox="0 0 109 109">\n<g id="kvg:StrokePaths_04e00">\n'
           f'<g id="kvg:04e00" kvg:element="x">\n{paths}\n</g>\n</g>\n</svg>\n').encode()
    assert stroke_paths(svg, "x.svg") == [f"M{k},0 L{k},1" for k in range(1, 12)]


def test_read_design_resamples_each_stroke_and_turns_y_up(tmp_path):
    body = '<path id="kvg:04e00-s2" d="M0,0 L0,6"/><path id="kvg:04e00-s1" d="M0,0 l6,0"/>'
    p = tmp_path / "04e00.svg"
    p.write_bytes(('<svg xmlns="http://www.w3.org/2000/svg" xmlns:kvg="http://kanjivg.tagaini.net">'
                   f'<g>{body}</g></svg>').encode())
    first, second = kanjivg.read_design(str(p))
    # length 6 at SPACING 3: ceil(6 / 3) + 1 = 3 points evenly apart; y down in the file, up here
    np.testing.assert_allclose(first, [[0, 0], [3, 0], [6, 0]])
    np.testing.assert_allclose(second, [[0, 0], [0, -3], [0, -6]])
