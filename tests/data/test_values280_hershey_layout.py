"""lnrnn/data/hershey.py's layout, thirteenth pass: a capitalized word laid out against the HersheyFonts package's
own strokes_for_text of the whole line (y turned up about its baseline, joins folded in by the definition), the
second word's offset counted by hand from the glyphs' advances ('Box ' is 21 + 19 + 17 + 16 = 73 in futural);
script letters joined by a zero-length pen lift written as one stroke, point by point from the font's strokes;
a writer's point spacing against its definition (SPACING = 2 font units times a speed in [0.85, 1.15] times the
scale) and its jitter (0.15 font units times the scale)."""
import numpy as np
import pytest

from lnrnn.data import hershey
from test_values265_hershey_lines import Script, _font_line  # draws written in the test; the package's own line

pytest.importorskip("HersheyFonts")


def test_a_capitalized_word_advances_by_its_own_glyphs():
    font = hershey.load_font("futural")
    got = hershey.layout(font, "Box at", Script(("uniform", 0.0), ("uniform", 0.0)), 6.0)
    want = _font_line(font, "Box at")
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, np.array(w))
    # 'a' of futural alone: its stem from (15, -5) to (15, 9), baseline 9; after 'B' 21, 'o' 19, 'x' 17 and the
    # space 16 it stands at x = 73 + 15 = 88, y up 14 to 0
    assert any(g.tolist() == [[88.0, 14.0], [88.0, 0.0]] for g in got)


def test_joined_script_letters_are_one_stroke():
    font = hershey.load_font("scripts")
    got = hershey.layout(font, "an", Script(("uniform", 0.0)), 6.0)
    # the package's strokes of 'an' (y down, baseline 9): 'a' ends at (16, 4) where 'n' starts (a join), and
    # 'n' lifts from (19, 9) to (20, 6) (a real lift); y up is 9 - y
    a = [(9, 3), (8, 1), (6, 0), (4, 0), (2, 1), (1, 2), (0, 4), (0, 6), (1, 8), (3, 9), (5, 9), (7, 8), (8, 6),
         (10, 0), (9, 5), (9, 8), (10, 9), (11, 9), (13, 8), (14, 7), (16, 4)]
    n1 = [(16, 4), (18, 1), (20, 0), (21, 1), (21, 2), (20, 6), (19, 9)]
    n2 = [(20, 6), (21, 4), (23, 1), (25, 0), (27, 0), (28, 1), (28, 3), (27, 6), (27, 8), (28, 9), (29, 9),
          (31, 8), (32, 7), (34, 4)]
    up = [[[float(x), 9.0 - y] for x, y in st] for st in (a + n1[1:], n2)]
    assert [g.tolist() for g in got] == up


def test_a_writers_point_spacing_is_two_font_units_times_speed_and_scale():
    rng = np.random.default_rng(0)
    styles = [hershey.random_style(rng) for _ in range(400)]
    speed = np.array([s.spacing / (2.0 * s.scale) for s in styles])
    assert speed.min() >= 0.85 and speed.max() <= 1.15
    assert speed.min() < 0.86 and speed.max() > 1.14                  # 400 draws reach both ends of the range
    np.testing.assert_allclose([s.jitter for s in styles], [0.15 * s.scale for s in styles], rtol=1e-15)
    assert all(0.8 <= s.scale <= 1.25 for s in styles)
