"""lnrnn/data/kanjivg.py against hand computations, on files written here: a file's own DOCTYPE is cut once
and a second declaration refused in one sentence, a stroke of no length reads as one point, a straight stroke
resampled every SPACING = 3 units by hand, a cubic segment's points at t = k/16 of de Casteljau's construction,
and augment's geometry (shear x += slant * y, then a counter-clockwise rotation, then a scale, then jitter)
computed point by point from the same draws."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.errors import DataError

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:kvg="http://kanjivg.tagaini.net" viewBox="0 0 109 109">'
DOCTYPE = '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.0//EN" "http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd">'


def svg(ds, prolog=DOCTYPE + "\n"):
    paths = "".join(f'<path id="kvg:00041-s{k}" d="{d}"/>\n' for k, d in enumerate(ds, 1))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + prolog + SVG_OPEN + '\n<g id="kvg:StrokePaths_00041">\n'
            + paths + "</g>\n</svg>\n").encode()


def test_the_files_doctype_is_cut_once_and_a_second_one_refused(tmp_path):
    assert kanjivg.stroke_paths(svg(["M1,2 L3,4"]), "a.svg") == ["M1,2 L3,4"]
    raw = svg(["M1,2 L3,4"], DOCTYPE + "\n<!DOCTYPE svg>\n")
    with pytest.raises(DataError) as e:
        kanjivg.stroke_paths(raw, "a.svg")
    assert str(e.value) == ("a.svg has a document type declaration lnrnn cannot skip safely; "
                            "refusing to parse it.")


def test_a_stroke_of_no_length_is_one_point(tmp_path):
    got = kanjivg.resample(np.array([[5.0, 7.0], [5.0, 7.0], [5.0, 7.0]]))
    assert got.tolist() == [[5.0, 7.0]]
    f = tmp_path / "00041.svg"
    f.write_bytes(svg(["M10,10 L10,10 l0,0", "M20,30 H20"]))
    design = kanjivg.read_design(str(f))
    assert [d.tolist() for d in design] == [[[10.0, -10.0]], [[20.0, -30.0]]]


def test_a_straight_stroke_is_resampled_every_spacing_units(tmp_path):
    f = tmp_path / "00041.svg"
    f.write_bytes(svg(["M10,10 V40", "M0,0 l3,4 l3,4"]))       # lengths 30 and 10
    a, b = kanjivg.read_design(str(f))
    # 30 / 3 = 10 chords -> 11 points, y negated; 10 / 3 -> ceil 4 chords -> 5 points 2.5 apart
    np.testing.assert_allclose(a, [[10.0, -10.0 - 3.0 * k] for k in range(11)], atol=1e-12)
    np.testing.assert_allclose(b, [[0.6 * 2.5 * k, -0.8 * 2.5 * k] for k in range(5)], atol=1e-12)


def casteljau(p, t):
    p = [np.asarray(q, float) for q in p]
    while len(p) > 1:
        p = [(1 - t) * a + t * b for a, b in zip(p, p[1:])]
    return p[0]


def test_a_cubic_segment_follows_de_casteljau():
    (poly,) = kanjivg.path_polylines("M10,80 C20,10 60,10 90,70 s10,20 15,0")
    first = [casteljau([(10, 80), (20, 10), (60, 10), (90, 70)], k / 16) for k in range(17)]
    # s: first control point the reflection of (60, 10) about (90, 70); the rest relative to (90, 70)
    second = [casteljau([(90, 70), (120, 130), (100, 90), (105, 70)], k / 16) for k in range(1, 17)]
    np.testing.assert_allclose(poly, np.array(first + second), atol=1e-12)


def test_augment_shears_rotates_scales_and_jitters_by_hand():
    design = [np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 3.0]]), np.array([[-4.0, 5.0]])]
    scale, slant = 1.1, 0.2
    got = kanjivg.augment(design, np.random.default_rng(5), scale, slant)
    twin = np.random.default_rng(5)
    a = twin.uniform(-kanjivg.CHAR_ROTATION, kanjivg.CHAR_ROTATION)
    s = scale * twin.uniform(*kanjivg.CHAR_SCALE)
    for st, g in zip(design, got):
        noise = twin.normal(0.0, kanjivg.JITTER, st.shape)
        for (x, y), n, q in zip(st, noise, g):
            xs = x + slant * y                                      # shear
            want = s * np.array([xs * np.cos(a) - y * np.sin(a), xs * np.sin(a) + y * np.cos(a)]) + n
            np.testing.assert_allclose(q, want, atol=1e-12)
    assert len(got) == len(design)
