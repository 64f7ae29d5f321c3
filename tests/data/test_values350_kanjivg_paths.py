"""lnrnn/data/kanjivg.py on path data and SVG files written here in KanjiVG's format
(test_values206_kanjivg.svg), eighteenth pass: absolute and relative M/m, L/l, C/c, S/s and Z read to the points
worked out by hand, the curves against the Bezier formula in Bernstein form; a trailing comma read as the
separator it is, and a stray character refused at its position counted by hand; a file declaring an entity and
one whose DOCTYPE cannot be cut refused word for word, each naming the whole path; a kana task's description
saying 1 character held out of 2 and 11 designs and 2 characters held out of 15 (round(0.1 n), at least 1)."""
import os

import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.data.tasks import load_task, task_spec
from test_values206_kanjivg import svg  # a KanjiVG file of the given path data, one <path> per stroke
from test_values232_iamondb import refused  # the DataError's one-line sentence


def bezier(p0, p1, p2, p3):
    """The 17 points of a cubic at t = k / 16, Bernstein form."""
    p0, p1, p2, p3 = (np.asarray(p, float) for p in (p0, p1, p2, p3))
    t = np.arange(17)[:, None] / 16
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3


def test_lines_absolute_and_relative_read_to_hand_points():
    got = kanjivg.path_polylines("M10,20 l5,0 L30,40 l-2,3 m4,-1 L50,50 z")
    assert [p.tolist() for p in got] == [
        [[10, 20], [15, 20], [30, 40], [28, 43]],
        [[32, 42], [50, 50], [32, 42]],              # m4,-1 from (28, 43); z back to that moveto
    ]


def test_relative_curves_follow_the_bezier_formula():
    got = kanjivg.path_polylines("M10,20 c2,8 10,8 12,0 s10,-8 12,0 L40,25")
    assert len(got) == 1 and got[0].shape == (1 + 16 + 16 + 1, 2)
    c = bezier((10, 20), (12, 28), (20, 28), (22, 20))          # c: every point relative to (10, 20)
    s = bezier((22, 20), (24, 12), (32, 12), (34, 20))          # s: (20, 28) reflected about (22, 20); rest + (22, 20)
    want = np.concatenate([c, s[1:], [[40.0, 25.0]]])
    np.testing.assert_allclose(got[0], want, rtol=0, atol=1e-12)


def test_absolute_curves_after_a_relative_start():
    got = kanjivg.path_polylines("m3,4 C5,9 9,9 11,4 S20,-1 24,4")
    c = bezier((3, 4), (5, 9), (9, 9), (11, 4))
    s = bezier((11, 4), (13, -1), (20, -1), (24, 4))            # (9, 9) reflected about (11, 4)
    np.testing.assert_allclose(got[0], np.concatenate([c, s[1:]]), rtol=0, atol=1e-12)


def test_a_trailing_comma_is_a_separator_and_a_stray_character_is_placed():
    got = kanjivg.path_polylines("M10,20 L30,40 ,")
    assert [p.tolist() for p in got] == [[[10, 20], [30, 40]]]
    d = "M10,20 L30,40 #"
    assert refused(kanjivg.path_polylines, d, "x.svg") == f"x.svg: cannot read path data {d!r} at character 13."


def test_an_entity_and_an_uncuttable_doctype_are_refused_naming_the_path(tmp_path):
    ent, dt = tmp_path / "04e00.svg", tmp_path / "04e01.svg"
    ent.write_bytes(svg(["M10,20 L10,26"], prolog='<!DOCTYPE svg [ <!ENTITY x "&#x31c0;"> ]>\n'))
    dt.write_bytes(svg(["M10,20 L10,26"], prolog='<!DOCTYPE svg [ <!ATTLIST g x CDATA "]"> ]>\n'))
    before = sorted(os.listdir(tmp_path))
    assert refused(kanjivg.read_design, str(ent)) == (
        f"{ent} declares XML entities (or is not 8-bit text); refusing to parse it.")
    assert refused(kanjivg.read_design, str(dt)) == (
        f"{dt} has a document type declaration lnrnn cannot skip safely; refusing to parse it.")
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.parametrize("n, held", [(2, "1 character"), (11, "1 character"), (15, "2 characters")])
def test_kana_held_out_counted_in_words(tmp_path, n, held):
    for cp in range(0x3041, 0x3041 + n):                        # hiragana, files named by code point
        (tmp_path / f"{cp:05x}.svg").write_bytes(svg(["M10,20 L10,26", "M5,5 L11,5"]))
    t = load_task(task_spec("strokes-kanjivg", str(tmp_path), split="1/1", charset="kana"))
    assert t.description.startswith(f"KanjiVG kana characters ({n} designs, {held} held out for validation), "
                                    "1-4 per line, augmented, each line's characters its text")
