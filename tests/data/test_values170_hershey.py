"""lnrnn/data/hershey.py against the package's own text layout and counts made here: with no word gap, slant,
drift or jitter and a spacing wider than any stroke, draw_line's strokes are the package's strokes_for_text of
the whole line (spaces the font's own width), y turned up about base_line, with every pen lift of zero length
joined (the joins and the remaining lifts counted here) and each stroke reduced to its two ends; and in line
texts the first word is capitalized about CAPITAL of the time while later words are about NAME."""
import re

import numpy as np
import pytest

from lnrnn.data import hershey

pytest.importorskip("HersheyFonts")

PLAIN = hershey.Style(scale=1.0, slant=0.0, tilt=0.0, wave=0.0, period=200.0, phase=0.0, word_gap=0.0,
                      spacing=1e6, jitter=0.0)


def by_hand(font, text):
    """The package's polylines of the whole line, y up about the baseline, zero-length lifts joined here."""
    base = font.render_options["base_line"]
    strokes, joins = [], 0
    for st in font.strokes_for_text(text):
        pts = [(float(x), float(base - y)) for x, y in st]
        if strokes and strokes[-1][-1] == pts[0]:
            strokes[-1] += pts[1:]
            joins += 1
        else:
            strokes.append(pts)
    return strokes, joins


@pytest.mark.parametrize("face, text", [("scripts", "mine is on"), ("futural", "Hi ox")])
def test_a_plain_line_is_the_fonts_own_layout_with_joins_merged(face, text):
    font = hershey.load_font(face)
    strokes, joins = by_hand(font, text)
    got = hershey.draw_line(font, text, PLAIN, np.random.default_rng(0))
    assert len(got) == len(strokes) == len(list(font.strokes_for_text(text))) - joins
    for g, st in zip(got, strokes):
        np.testing.assert_allclose(g, [st[0], st[-1]], atol=1e-9)
    if face == "scripts":
        assert joins > 0                     # script letters join: fewer pen lifts than the font's polylines


def test_capitals_of_first_and_later_words():
    texts = hershey.line_texts(np.random.default_rng(170), 3000)
    first = [0, 0]
    later = [0, 0]
    for text in texts:
        words = [w.strip("\"'()") for w in re.split(r"[ \-]", text)]
        words = [re.sub(r"[.,?!;:]+$", "", w) for w in words]
        for j, w in enumerate(words):
            if len(w) < 2 or not w.isalpha() or w.isupper():
                continue                      # one letter, a number, or a word in capitals
            count = first if j == 0 else later
            count[0] += w[0].isupper() and w[1:].islower()
            count[1] += 1
    # a word not in capitals is capitalized with CAPITAL (first) or NAME (later): 0.3 and 0.05
    assert first[0] / first[1] == pytest.approx(hershey.CAPITAL, abs=0.05)
    assert later[0] / later[1] == pytest.approx(hershey.NAME, abs=0.02)
