"""lnrnn/data/hershey.py against the hershey-fonts package itself and the module's definitions: each face's
word strokes are the font's own polylines with y turned up about its base line and the word's width the sum
of its glyphs' widths; a line's style draws the wave's phase over the whole turn, the widest word gap and
the spacing and jitter from the scale; wrapped words close with their own closing mark; a missing glyph is
named alone."""
import re

import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.data.hershey import JITTER, MAX_CHARS, SCALE, SLANT, SPACING, SPEED, TILT, WAVE, WORD_GAP, WRAPS
from lnrnn.errors import DataError

pytest.importorskip("HersheyFonts")


@pytest.mark.parametrize("face", hershey.FACES)
def test_word_strokes_are_the_fonts_polylines(face):
    from HersheyFonts import HersheyFonts
    ref = HersheyFonts()
    ref.load_default_font(face)
    base = float(ref.render_options["base_line"])
    word = "Box 7"
    strokes, width = hershey.word_strokes(hershey.load_font(face), word)
    expected = [np.array([[x, base - y] for x, y in st], float) for st in ref.strokes_for_text(word)]
    assert len(strokes) == len(expected)
    for got, want in zip(strokes, expected):
        np.testing.assert_array_equal(got, want)
    assert width == sum(g.char_width for g in ref.glyphs_for_text(word))


def test_the_faces_differ():
    """scripts and futural draw 'a' differently, so a face loaded by name is that face."""
    a = hershey.word_strokes(hershey.load_font("scripts"), "a")[0]
    b = hershey.word_strokes(hershey.load_font("futural"), "a")[0]
    assert len(a) != len(b) or any(x.shape != y.shape or not np.array_equal(x, y) for x, y in zip(a, b))


def test_style_within_its_ranges():
    rng = np.random.default_rng(3)
    styles = [hershey.random_style(rng) for _ in range(400)]
    phase = np.array([s.phase for s in styles])
    assert np.all((phase >= 0) & (phase < 2 * np.pi))
    quarters = np.floor(phase / (np.pi / 2)).astype(int)
    assert set(quarters) == {0, 1, 2, 3}                 # the phase covers the whole turn
    for s in styles:
        assert SCALE[0] <= s.scale <= SCALE[1] and SLANT[0] <= s.slant <= SLANT[1]
        assert -TILT <= s.tilt <= TILT and WAVE[0] <= s.wave <= WAVE[1]
        assert s.word_gap == WORD_GAP[1]                  # the most extra space after a word
        assert SPACING * SPEED[0] <= s.spacing / s.scale <= SPACING * SPEED[1]
        assert s.jitter == pytest.approx(JITTER * s.scale)


def test_wrapped_words_close_with_their_own_mark():
    texts = hershey.line_texts(np.random.default_rng(5), 600)
    opened = 0
    for text in texts:
        assert len(text) <= MAX_CHARS
        depth = 0
        for ch in text:                                   # '(' always before its ')', never nested
            if ch == "(":
                depth += 1
                opened += 1
                assert depth == 1, text
            elif ch == ")":
                depth -= 1
                assert depth == 0, text
        assert depth == 0, text
        assert text.count('"') % 2 == 0 and text.count("'") % 2 == 0, text
    assert opened >= 5                                    # the draws did wrap some words in parentheses
    assert all(len(w) == 2 for w in WRAPS)


def test_a_missing_glyph_is_named_alone():
    font = hershey.load_font("futural")
    with pytest.raises(DataError) as e:
        hershey.word_strokes(font, "ab\u00e9c")
    msg = str(e.value)
    assert re.search(r"no glyph for '(.*?)'", msg)[1] == "\u00e9"
    assert "\n" not in msg
