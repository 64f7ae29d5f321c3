"""lnrnn/data/kanjivg.py against hand computations and files written here in KanjiVG's SVG format: resampling
puts evenly spaced points along the polyline's arc length (at most SPACING apart, as few as that allows, each on
the path), a relative command after a curve starts at the curve's end, the curve's samples are the cubic
Bezier's, and --charset latin draws only the latin designs of a folder that holds kana as well."""
import numpy as np

from lnrnn.data import kanjivg
from lnrnn.data.kanjivg import CURVE_POINTS, SPACING, path_polylines, resample
from lnrnn.data.tasks import load_task, task_spec


def arc_position(p, poly):
    """Arc length from poly[0] of a point p lying on the polyline (the first segment holding it)."""
    run = 0.0
    for a, b in zip(poly[:-1], poly[1:]):
        seg = np.hypot(*(b - a))
        t = np.dot(p - a, b - a) / seg ** 2
        if -1e-9 <= t <= 1 + 1e-9 and np.hypot(*(a + t * (b - a) - p)) < 1e-9:
            return run + t * seg
        run += seg
    raise AssertionError(f"{p} is not on the polyline")


def test_resampling_spaces_points_evenly_along_the_arc():
    poly = np.array([[0.0, 0.0], [6.0, 0.0], [6.0, 8.0], [1.0, 8.0]])   # arc length 6 + 8 + 5 = 19
    pts = resample(poly)
    s = np.array([arc_position(p, poly) for p in pts])
    np.testing.assert_allclose(s[[0, -1]], [0.0, 19.0], atol=1e-9)
    steps = np.diff(s)
    np.testing.assert_allclose(steps, steps[0])                         # even along the arc
    assert steps[0] <= SPACING + 1e-9                                   # no wider than SPACING
    assert 19.0 / (len(pts) - 2) > SPACING                              # one point fewer would be wider


def test_a_relative_line_after_a_curve_starts_at_its_end():
    (poly,) = path_polylines("M0,0 c0,10 10,10 10,0 l5,0")
    np.testing.assert_allclose(poly[-2], [10.0, 0.0], atol=1e-12)       # the curve ends at (0,0) + (10,0)
    np.testing.assert_allclose(poly[-1], [15.0, 0.0], atol=1e-12)
    t = np.linspace(0.0, 1.0, CURVE_POINTS + 1)
    p1, p2, p3 = np.array([0.0, 10.0]), np.array([10.0, 10.0]), np.array([10.0, 0.0])
    bez = [3 * (1 - v) ** 2 * v * p1 + 3 * (1 - v) * v ** 2 * p2 + v ** 3 * p3 for v in t]
    np.testing.assert_allclose(poly[:-1], bez, atol=1e-12)
    (poly2,) = path_polylines("M1,1 c0,4 4,4 4,0 v3")
    np.testing.assert_allclose(poly2[-1], [5.0, 4.0], atol=1e-12)


SVG = ('<?xml version="1.0" encoding="UTF-8"?>\n'
       '<svg xmlns="http://www.w3.org/2000/svg" xmlns:kvg="http://kanjivg.tagaini.net" width="109" height="109" '
       'viewBox="0 0 109 109">\n<g id="kvg:StrokePaths_{cp:05x}" style="fill:none;stroke:#000000;stroke-width:3">\n'
       '<g id="kvg:{cp:05x}" kvg:element="{ch}">\n'
       '\t<path id="kvg:{cp:05x}-s1" d="M{a},20 l0,{b}"/>\n'
       '\t<path id="kvg:{cp:05x}-s2" d="M20,{a} c10,0 20,5 {b},0"/>\n'
       '</g>\n</g>\n</svg>\n')


def test_latin_lines_draw_only_latin_designs(tmp_path):
    chars = "ABCDE" + "\u3042\u30a2"                                   # five latin letters, a hiragana, a katakana
    for k, ch in enumerate(chars):
        cp = ord(ch)
        (tmp_path / f"{cp:05x}.svg").write_text(SVG.format(cp=cp, ch=ch, a=20 + 5 * k, b=30 + 3 * k),
                                                encoding="utf-8")
    t = load_task(task_spec("strokes-kanjivg", data_dir=str(tmp_path), split="12/4"))
    drawn = set("".join(t.texts_train)) | set("".join(t.texts_val))
    assert drawn <= set("ABCDE")
    assert {chr(c) for c in t.extra["val_designs"]} <= set("ABCDE")
    assert "5 designs" in t.description
    k = load_task(task_spec("strokes-kanjivg", data_dir=str(tmp_path), split="6/2", charset="kana"))
    assert set("".join(k.texts_train)) | set("".join(k.texts_val)) <= set("\u3042\u30a2")
