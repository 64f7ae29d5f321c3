"""lnrnn/data/kanjivg.py on files written here in KanjiVG's own format (the SVG namespace, the document type
with its internal ATTLIST subset, kvg: attributes, strokes as <path id="kvg:XXXXX-sK" d=...> inside
groups): path data flattened point by point by hand (absolute and relative lines, H, V, Z, a relative
cubic against the Bernstein form evaluated here), a file's strokes in stroke order, resampled and y up by
hand; an empty stroke path, an entity declaration and unreadable path data refused in one line naming the
file (entities before any parsing); a reader's validation lines drawn afresh, a writer's held-out designs
named as the ones its validation texts use."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError

DTD = ('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.0//EN" "http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd" [\n'
       '<!ATTLIST g\nxmlns:kvg CDATA #FIXED "http://kanjivg.tagaini.net"\nkvg:element CDATA #IMPLIED >\n'
       '<!ATTLIST path\nxmlns:kvg CDATA #FIXED "http://kanjivg.tagaini.net"\nkvg:type CDATA #IMPLIED >\n]>\n')


def kvg_file(cp, paths, order=None):
    """A KanjiVG file of code point ``cp`` whose stroke K (1-based) has path data paths[K-1]; the paths
    appear in the file in ``order`` (stroke numbers), nested in two groups as KanjiVG nests radicals."""
    h = f"{cp:05x}"
    order = order or list(range(1, len(paths) + 1))
    half = len(order) // 2
    body = lambda ks: "".join(f'<path id="kvg:{h}-s{k}" kvg:type="&#x31C0;" d="{paths[k - 1]}"/>\n' for k in ks)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!--\nCopyright (C) 2009/2010/2011 Ulrich Apel.\n-->\n' + DTD +
            '<svg xmlns="http://www.w3.org/2000/svg" width="109" height="109" viewBox="0 0 109 109" '
            'xmlns:kvg="https://kanjivg.tagaini.net/">\n'
            f'<g id="kvg:StrokePaths_{h}" style="fill:none;stroke:#000000;stroke-width:3">\n'
            f'<g id="kvg:{h}" kvg:element="x">\n<g id="kvg:{h}-g1">\n{body(order[:half])}</g>\n'
            f'{body(order[half:])}</g>\n</g>\n'
            f'<g id="kvg:StrokeNumbers_{h}"><text transform="matrix(1 0 0 1 1 2)">1</text></g>\n</svg>\n'
            ).encode("utf-8")


def one_line(e):
    msg = str(e.value)
    assert "\n" not in msg and msg.strip()
    return msg


def test_lines_h_v_and_z_point_by_point():
    got = kanjivg.path_polylines("M10,20 L13,24 l0,-4 H20 v5 Z m1,1 h2")
    assert [p.tolist() for p in got] == [[[10, 20], [13, 24], [13, 20], [20, 20], [20, 25], [10, 20]],
                                         [[11, 21], [13, 21]]]


def test_a_relative_cubic_is_its_bernstein_form_from_the_current_point():
    p = kanjivg.path_polylines("M10,10 c3,0 6,3 6,6")
    assert len(p) == 1
    pts = p[0]
    p0, p1, p2, p3 = (np.array(v, float) for v in ([10, 10], [13, 10], [16, 13], [16, 16]))
    t = np.arange(len(pts))[:, None] / (len(pts) - 1)
    want = (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3
    assert len(pts) >= 5
    np.testing.assert_allclose(pts, want, atol=1e-12)
    np.testing.assert_allclose(pts[-1], [16, 16], atol=1e-12)


def test_a_known_file_in_stroke_order_resampled_and_y_up(tmp_path):
    assert kanjivg.SPACING == 3.0
    # stroke 1 a bar of 9 down (4 points at 3 apart), stroke 2 a bar of 6 right drawn relative (3 points),
    # stroke 3 one dot; the file lists them 3, 1, 2
    p = tmp_path / "04e00.svg"
    p.write_bytes(kvg_file(0x4E00, ["M10,10 L10,19", "M20,10 l6,0", "M30,30 L30,30"], order=[3, 1, 2]))
    got = kanjivg.read_design(str(p))
    want = [[[10, -10], [10, -13], [10, -16], [10, -19]], [[20, -10], [23, -10], [26, -10]], [[30, -30]]]
    assert len(got) == 3
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, atol=1e-12)


@pytest.mark.parametrize("paths, words", [
    (["M1,1 L5,5", ""], "stroke path kvg:04e01-s2 has no path data"),
    (["M1,1 L5,#"], "cannot read path data"),
    (["M1,1 L5"], "needs a multiple of 2 numbers"),
    (["L1,1 L5,5"], "draws before its first moveto"),
])
def test_bad_path_data_is_refused_naming_the_file(tmp_path, paths, words):
    p = tmp_path / "04e01.svg"
    p.write_bytes(kvg_file(0x4E01, paths))
    with pytest.raises(DataError) as e:
        kanjivg.read_design(str(p))
    msg = one_line(e)
    assert str(p) in msg and words in msg, msg


def test_an_entity_is_refused_before_any_parsing(tmp_path, monkeypatch):
    raw = kvg_file(0x4E02, ["M1,1 L5,5"]).replace(b"<!ATTLIST g", b'<!ENTITY x SYSTEM "http://example.invalid/">\n'
                                                                  b"<!ATTLIST g")
    p = tmp_path / "04e02.svg"
    p.write_bytes(raw)

    def no_parse(*a, **k):
        raise AssertionError("the parser was handed a file with an entity")
    monkeypatch.setattr(ET, "fromstring", no_parse)  # the parser kanjivg reaches through iamondb.parse_xml
    with pytest.raises(DataError) as e:
        kanjivg.read_design(str(p))
    assert str(p) in one_line(e) and "entities" in one_line(e)


def _folder(tmp_path, chars):
    for i, ch in enumerate(chars):
        paths = [f"M{10 + i},10 L{10 + i},40", f"M5,{20 + i} l30,0", "M40,40 c5,0 10,5 10,10"][:1 + i % 3]
        (tmp_path / f"{ord(ch):05x}.svg").write_bytes(kvg_file(ord(ch), paths))
    return str(tmp_path)


def test_a_readers_validation_lines_are_not_training_lines(tmp_path):
    folder = _folder(tmp_path, "ABC")
    t = load_task(task_spec("strokes-kanjivg", folder, split="6/4", head="ctc"))
    train = [t.line("train", i) for i in range(t.size("train"))]
    for i in range(t.size("val")):
        v = t.line("val", i)
        assert not any(len(v) == len(x) and np.allclose(v, x) for x in train), i
    assert set("".join(t.texts_val)) <= set("ABC") and set("".join(t.texts_train)) <= set("ABC")


def test_a_writers_held_out_designs_are_the_validation_texts_characters(tmp_path):
    chars = "ABCDEFGH"
    folder = _folder(tmp_path, chars)
    t = load_task(task_spec("strokes-kanjivg", folder, split="30/30"))
    held = {chr(c) for c in t.extra["val_designs"]}
    in_val, in_train = set("".join(t.texts_val)), set("".join(t.texts_train))
    assert held and in_val <= held and not held & in_train
    assert held | in_train == set(chars) and held == in_val
