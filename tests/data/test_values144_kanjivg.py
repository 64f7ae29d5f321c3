"""lnrnn/data/kanjivg.py against hand computations and definitions, on files written here: a DOCTYPE naming only
an external DTD is cut and the DTD never fetched, an <svg> root with or without the SVG namespace is read and
another root refused in one line, path data may end in any whitespace, a Z with numbers is refused, every cubic
segment (C, c, S, s, implicit repeats) is flattened into CURVE_POINTS = 16 chords whose points lie at t = k/16 of
the curve computed by de Casteljau's construction, files of a few tens of kB are read and files over 1 MiB refused,
and the charsets are the code points Unicode's own names put in them."""
import string
import unicodedata

import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.errors import DataError

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:kvg="http://kanjivg.tagaini.net" viewBox="0 0 109 109">'


def body(cp, ds, open_tag=SVG_OPEN):
    paths = "".join(f'<path id="kvg:{cp:05x}-s{k}" d="{d}"/>\n' for k, d in enumerate(ds, 1))
    return f'{open_tag}\n<g id="kvg:StrokePaths_{cp:05x}">\n{paths}</g>\n</svg>\n'


def one_line(excinfo):
    msg = str(excinfo.value)
    assert "\n" not in msg and msg.strip()
    return msg


def casteljau(p, t):
    p = [np.asarray(q, float) for q in p]
    while len(p) > 1:
        p = [(1 - t) * a + t * b for a, b in zip(p, p[1:])]
    return p[0]


def curve(p0, p1, p2, p3, n=16):
    return np.array([casteljau([p0, p1, p2, p3], k / n) for k in range(1, n + 1)])


# ---------------------------------------------------------------- the XML around the paths

@pytest.mark.parametrize("doctype", [
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.0//EN" "http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd">',
    '<!DOCTYPE svg SYSTEM "file:///nonexistent/kanjivg.dtd">',
    '<!DOCTYPE svg>'])
def test_doctype_with_external_dtd_only_is_cut_and_never_fetched(tmp_path, doctype):
    f = tmp_path / "00041.svg"
    f.write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + doctype + "\n" + body(0x41, ["M1,2 L3,4", "M5,6 l1,1"]))
    assert kanjivg.stroke_paths(f.read_bytes(), str(f)) == ["M1,2 L3,4", "M5,6 l1,1"]
    design = kanjivg.read_design(str(f))
    np.testing.assert_allclose(design[0][[0, -1]], [[1, -2], [3, -4]])
    np.testing.assert_allclose(design[1][[0, -1]], [[5, -6], [6, -7]])


def test_entities_refused_in_one_line(tmp_path):
    raw = (b'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
           + body(0x41, ["M1,2 L3,4"]).replace('d="M1,2 L3,4"', 'd="&x;"').encode())
    with pytest.raises(DataError) as e:
        kanjivg.stroke_paths(raw, "ent.svg")
    assert "ent.svg" in one_line(e)


@pytest.mark.parametrize("open_tag", ["<svg>", '<svg xmlns="http://www.w3.org/2000/svg">', SVG_OPEN])
def test_svg_root_with_or_without_namespace(open_tag):
    raw = body(0x42, ["M0,0 H5", "M0,0 V5"], open_tag).encode()
    assert kanjivg.stroke_paths(raw, "b.svg") == ["M0,0 H5", "M0,0 V5"]


def test_other_root_refused_in_one_line():
    raw = body(0x42, ["M0,0 H5"]).replace("<svg", "<html").replace("</svg>", "</html>").encode()
    with pytest.raises(DataError) as e:
        kanjivg.stroke_paths(raw, "page.svg")
    msg = one_line(e)
    assert "page.svg" in msg and "html" in msg


# ---------------------------------------------------------------- path data

@pytest.mark.parametrize("tail", [" ", "\n", "\t", "\r\n", " ,\n\t ", ","])
def test_trailing_whitespace_and_commas_end_the_data(tail):
    (poly,) = kanjivg.path_polylines("M1 2 L3 4" + tail)
    np.testing.assert_allclose(poly, [[1, 2], [3, 4]])


def test_leading_and_inner_whitespace_of_every_kind():
    (poly,) = kanjivg.path_polylines("\n\tM 1,2\n\tl\t3 4\r\nh-1 v-1")
    np.testing.assert_allclose(poly, [[1, 2], [4, 6], [3, 6], [3, 5]])


@pytest.mark.parametrize("d", ["M0,0 L1,0 Z5", "M0,0 L1,0 z 5", "M0,0 L1,0 Z 5,6"])
def test_closepath_with_numbers_refused_in_one_line(d):
    with pytest.raises(DataError) as e:
        kanjivg.path_polylines(d, "c.svg")
    assert "c.svg" in one_line(e)


def test_closepath_then_moveto_by_hand():
    a, b = kanjivg.path_polylines("M0,0 L4,0 L4,3 Z M10,10 l1,1 z")
    np.testing.assert_allclose(a, [[0, 0], [4, 0], [4, 3], [0, 0]])
    np.testing.assert_allclose(b, [[10, 10], [11, 11], [10, 10]])


@pytest.mark.parametrize("d", ["L1,2", "1,2 M0,0"])
def test_drawing_before_a_moveto_refused(d):
    with pytest.raises(DataError) as e:
        kanjivg.path_polylines(d, "m.svg")
    assert "m.svg" in one_line(e)


def test_absolute_cubic_sixteen_chords_at_equal_t():
    p = [(1, 2), (10, 30), (40, -5), (50, 20)]
    (poly,) = kanjivg.path_polylines("M1,2 C10,30 40,-5 50,20")
    assert poly.shape == (17, 2)                                  # the start and 16 points per segment
    np.testing.assert_allclose(poly[0], p[0])
    np.testing.assert_allclose(poly[1:], curve(*p), atol=1e-12)


def test_relative_cubic_and_implicit_repeat_by_hand():
    # c's numbers are relative to the point where each segment starts; the second triple repeats c
    (poly,) = kanjivg.path_polylines("m5,5 c1,4 6,4 8,0 2,-3 5,-3 6,1")
    first = [(5, 5), (6, 9), (11, 9), (13, 5)]
    second = [(13, 5), (15, 2), (18, 2), (19, 6)]
    assert poly.shape == (33, 2)
    np.testing.assert_allclose(poly, np.vstack([[5, 5], curve(*first), curve(*second)]), atol=1e-12)


def test_smooth_cubics_reflect_the_previous_control_point():
    (poly,) = kanjivg.path_polylines("M0,0 C0,10 20,10 20,0 S40,-10 40,0 s10,10 20,0")
    c1 = [(0, 0), (0, 10), (20, 10), (20, 0)]
    c2 = [(20, 0), (20, -10), (40, -10), (40, 0)]     # reflection of (20,10) about (20,0)
    c3 = [(40, 0), (40, 10), (50, 10), (60, 0)]       # reflection of (40,-10) about (40,0); s relative to (40,0)
    np.testing.assert_allclose(poly, np.vstack([[0, 0], curve(*c1), curve(*c2), curve(*c3)]), atol=1e-12)


def test_smooth_cubic_after_a_line_uses_the_current_point():
    (poly,) = kanjivg.path_polylines("M0,0 L10,0 S20,10 30,0")
    np.testing.assert_allclose(poly, np.vstack([[0, 0], [10, 0], curve((10, 0), (10, 0), (20, 10), (30, 0))]),
                               atol=1e-12)


def test_curve_points_is_the_documented_sixteen():
    assert kanjivg.CURVE_POINTS == 16


# ---------------------------------------------------------------- file size

def test_files_of_tens_of_kilobytes_are_read(tmp_path):
    ds = [f"M{k % 100},1 " + " ".join(f"L{k % 100},{j}" for j in range(2, 60)) for k in range(1, 41)]
    f = tmp_path / "09f8d.svg"
    f.write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + body(0x9F8D, ds))
    assert 12_000 < f.stat().st_size < 1 << 20
    design = kanjivg.read_design(str(f))
    assert len(design) == 40
    np.testing.assert_allclose(design[4][[0, -1]], [[5, -1], [5, -59]])


def test_files_over_one_mebibyte_refused_in_one_line(tmp_path):
    f = tmp_path / "00041.svg"
    text = body(0x41, ["M1,2 L3,4"])
    f.write_text("<!--" + "x" * (1 << 20) + "-->\n" + text)
    with pytest.raises(DataError) as e:
        kanjivg.read_design(str(f))
    assert str(f) in one_line(e)


# ---------------------------------------------------------------- charsets

def test_latin_charset_is_digits_and_ascii_letters():
    assert sorted(kanjivg.CHARSETS["latin"]) == sorted(map(ord, string.digits + string.ascii_letters))


def test_kana_charset_is_every_hiragana_and_katakana_letter():
    letters = [cp for cp in range(0x3040, 0x3100)
               if unicodedata.name(chr(cp), "").startswith(("HIRAGANA LETTER ", "KATAKANA LETTER "))]
    assert sorted(kanjivg.CHARSETS["kana"]) == letters
    assert 0x30FB not in kanjivg.CHARSETS["kana"]          # KATAKANA MIDDLE DOT is punctuation


def test_kanji_charset_is_the_unified_ideographs_block():
    block = kanjivg.CHARSETS["kanji"]
    assert block[0] == 0x4E00 and block[-1] == 0x9FFF and len(block) == 0x9FFF - 0x4E00 + 1
    assert unicodedata.name(chr(block[0] - 1)).startswith("HEXAGRAM")
    assert not unicodedata.name(chr(block[-1] + 1)).startswith("CJK")
