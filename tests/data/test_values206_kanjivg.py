"""lnrnn/data/kanjivg.py on SVG files written here in KanjiVG's layout (one <path id="kvg:XXXXX-sK" d=...> per
stroke): every path command kind (M L H V C S Z, absolute and relative) flattened against a hand computation, a
cubic's points at t = k/16 by de Casteljau's construction and S's first control point the reflection of the
previous second one; resampling every SPACING = 3 units of Euclidean arc length by hand (a 3-4-5 diagonal, a
horizontal run); a file without the SVG namespace read like one with it; an entity, a truncated file and a
path of the wrong arity refused in one exact sentence."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.errors import DataError

NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:kvg="http://kanjivg.tagaini.net" '


def svg(ds, ns=NS, prolog=""):
    paths = "".join(f'  <path id="kvg:04e00-s{k}" kvg:type="&#x31c0;" d="{d}"/>\n' for k, d in enumerate(ds, 1))
    if not ns:
        paths = paths.replace(' kvg:type="&#x31c0;"', "")
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{prolog}<svg {ns}width="109" height="109" '
            f'viewBox="0 0 109 109">\n<g id="kvg:StrokePaths_04e00">\n{paths}</g>\n</svg>\n').encode()


def casteljau(p0, p1, p2, p3, t):
    def lerp(a, b):
        return (1 - t) * np.asarray(a, float) + t * np.asarray(b, float)
    a, b, c = lerp(p0, p1), lerp(p1, p2), lerp(p2, p3)
    d, e = lerp(a, b), lerp(b, c)
    return lerp(d, e)


def curve(p0, p1, p2, p3):
    return [casteljau(p0, p1, p2, p3, k / 16) for k in range(1, 17)]   # the start point is the previous end


def test_lines_of_every_kind_absolute_and_relative():
    got = kanjivg.path_polylines("M10,10 l5,0 h5 v5 H10 V20 z L4,4 m1,1 L2-2")
    want0 = [(10, 10), (15, 10), (20, 10), (20, 15), (10, 15), (10, 20), (10, 10), (4, 4)]
    assert len(got) == 2
    assert got[0].tolist() == [list(map(float, p)) for p in want0]
    assert got[1].tolist() == [[5.0, 5.0], [2.0, -2.0]]


def test_a_cubic_and_its_smooth_continuation_by_de_casteljau():
    got = kanjivg.path_polylines("M0,0 C0,30 30,30 30,0 S60,-30 60,0 s30,30 30,0")
    # S: first control point = 2 * current - previous second control point
    want = ([np.array([0.0, 0.0])] + curve((0, 0), (0, 30), (30, 30), (30, 0))
            + curve((30, 0), (30, -30), (60, -30), (60, 0)) + curve((60, 0), (60, 30), (90, 30), (90, 0)))
    assert len(got) == 1 and got[0].shape == (49, 2)
    assert np.allclose(got[0], np.array(want), rtol=0, atol=1e-12)


def test_a_diagonal_and_a_run_resampled_every_3_units_of_arc(tmp_path):
    f = tmp_path / "04e00.svg"
    f.write_bytes(svg(["M0,0 L18,24", "M10,50 H40"]))      # lengths 30 (3-4-5) and 30
    diag, run = kanjivg.read_design(str(f))
    k = np.arange(11)[:, None]                              # 30 / 3 + 1 points, y turned up
    assert np.allclose(diag, k * [1.8, -2.4], rtol=0, atol=1e-12)
    assert np.allclose(run, [10.0, -50.0] + k * [3.0, 0.0], rtol=0, atol=1e-12)
    assert np.allclose(np.hypot(*np.diff(diag, axis=0).T), kanjivg.SPACING)
    assert kanjivg.SPACING == 3.0


def test_a_file_without_the_svg_namespace_reads_like_one_with_it(tmp_path):
    ds = ["M0,0 L0,9", "M5,5 h6"]
    assert kanjivg.stroke_paths(svg(ds, ns=""), "a.svg") == ds
    (tmp_path / "04e00.svg").write_bytes(svg(ds, ns=""))
    (tmp_path / "04e01.svg").write_bytes(svg(ds))
    plain, spaced = (kanjivg.read_design(str(tmp_path / n)) for n in ("04e00.svg", "04e01.svg"))
    assert [p.tolist() for p in plain] == [[[0.0, 0.0], [0.0, -3.0], [0.0, -6.0], [0.0, -9.0]],
                                           [[5.0, -5.0], [8.0, -5.0], [11.0, -5.0]]]
    assert [p.tolist() for p in spaced] == [p.tolist() for p in plain]


def test_malformed_files_and_paths_are_refused_in_one_sentence():
    with pytest.raises(DataError) as e:
        kanjivg.stroke_paths(svg(["M0,0 L1,1"], prolog='<!DOCTYPE svg [<!ENTITY x "1">]>\n'), "e.svg")
    assert str(e.value) == "e.svg declares XML entities (or is not 8-bit text); refusing to parse it."
    with pytest.raises(DataError) as e:
        kanjivg.stroke_paths(svg(["M0,0 L1,1"])[:-20], "t.svg")
    assert str(e.value).startswith("t.svg is malformed or truncated XML (")
    with pytest.raises(DataError) as e:
        kanjivg.path_polylines("M0,0 C1,2 3,4 5", "c.svg")
    assert str(e.value) == "c.svg: path command C needs a multiple of 6 numbers in 'M0,0 C1,2 3,4 5', got 5."
