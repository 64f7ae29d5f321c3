"""lnrnn/data/hershey.py's word_strokes against a font written here in Hershey's own data format (James
Hurt's lines: columns 8-9 the left and right side, then x/y pairs as letters relative to 'R', ' R' a pen
lift), its points worked out by hand; a character the font has no glyph for refused by name."""
import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.errors import DataError

pytest.importorskip("HersheyFonts")
from HersheyFonts import HersheyFonts  # noqa: E402

# 'a': sides M..W (-5..5, width 10), one stroke (0,-12) -> (0,7)
# 'b': sides N..V (-4..4, width 8), strokes (-2,0) -> (2,0) and (0,-5) -> (0,5)
FONT = ["    1  3MWRFRY",
        "    2  6NVPRTR RRMRW"]


def hand_font():
    font = HersheyFonts()
    font.read_from_string_lines(FONT, first_glyph_ascii_code=ord("a"))
    return font


def test_a_short_word_against_the_font_data_by_hand():
    font = hand_font()
    assert font.render_options["base_line"] == 9                  # the format's default baseline
    strokes, width = hershey.word_strokes(font, "ab")
    # x: the pen's advance so far + (x - left side); y up: baseline 9 minus the stored y (y down)
    want = [[(0 + 0 + 5, 9 + 12), (5, 9 - 7)],                    # a
            [(10 + -2 + 4, 9 - 0), (10 + 2 + 4, 9 - 0)],          # b, its bar
            [(10 + 0 + 4, 9 + 5), (10 + 0 + 4, 9 - 5)]]           # b, its stem
    assert len(strokes) == len(want)
    for got, w in zip(strokes, want):
        np.testing.assert_array_equal(got, np.array(w, np.float64))
    assert width == 10 + 8
    strokes, width = hershey.word_strokes(font, "ba")
    np.testing.assert_array_equal(strokes[2], [[8 + 5, 21], [8 + 5, 2]])
    assert width == 18


@pytest.mark.parametrize("word, missing", [("abz", "'z'"), ("za", "'z'"), ("a\u00e9b\u00e9", "'\u00e9'")])
def test_a_character_without_a_glyph_is_refused_by_name(word, missing):
    with pytest.raises(DataError, match=f"no glyph for {missing}"):
        hershey.word_strokes(hand_font(), word)
    with pytest.raises(DataError, match="no glyph for"):
        hershey.word_strokes(hershey.load_font("futural"), "ab\u00e9")
