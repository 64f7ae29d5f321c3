"""lnrnn/data/hershey.py with the hershey-fonts package's own faces: a word's advance is the sum of its
glyphs' widths as the font gives them one by one; a second word's strokes are the font's strokes of that
word moved right by the first word's glyph widths, the space glyph's and the drawn gap (replayed here), y
turned up about the font's baseline; and a built task's names are the face and line number, its texts the
words written (not the names)."""
import re

import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.data.tasks import load_task, task_spec

pytest.importorskip("HersheyFonts")


def glyph_widths(font, text):
    """The widths of the font's glyphs of ``text``, one character at a time."""
    out = []
    for c in text:
        g = list(font.glyphs_for_text(c))
        assert len(g) == 1, c
        out.append(float(g[0].char_width))
    return out


@pytest.mark.parametrize("face", hershey.FACES)
def test_a_words_width_is_its_glyphs_widths(face):
    font = hershey.load_font(face)
    for word in ("cab", "Ox", "w", "it's", "2026"):
        assert hershey.word_strokes(font, word)[1] == sum(glyph_widths(font, word)), word


def test_the_second_word_starts_after_the_first_words_glyphs_the_space_and_the_gap():
    font = hershey.load_font("futural")
    base = float(font.render_options["base_line"])
    gap_max = 5.0
    got = hershey.layout(font, "ham lid", np.random.default_rng(11), gap_max)
    gap = np.random.default_rng(11).uniform(0.0, gap_max)
    shift = sum(glyph_widths(font, "ham")) + sum(glyph_widths(font, " ")) + gap
    first = [[(x, base - y) for x, y in st] for st in font.strokes_for_text("ham")]
    second = [[(x + shift, base - y) for x, y in st] for st in font.strokes_for_text("lid")]
    want = first + second              # futural's letters have no zero-length lifts to merge here
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.array(w, float), rtol=0, atol=1e-12)


def test_a_built_tasks_names_are_face_and_number_and_its_texts_the_words():
    t = load_task(task_spec("strokes-hershey", split="4/3"))
    for w, n in (("train", 4), ("val", 3)):
        s = t.sets[w]
        assert [re.sub(r"^(scripts|cursive|futural)-", "", name) for name in s.names] == \
            [f"{i:05d}" for i in range(n)], w
        for text in s.texts:
            assert not re.fullmatch(r"(scripts|cursive|futural)-\d{5}", text) and len(text) <= hershey.MAX_CHARS
            assert re.search(r"[A-Za-z0-9]", text)
    assert t.alphabet is not None and set("".join(t.texts_train)) <= set(t.alphabet)
