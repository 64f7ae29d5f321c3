"""lnrnn/data/hershey.py, eighteenth pass: a line laid out word by word against the hershey-fonts package's own
strokes_for_text and glyph widths (y turned up about its base line, each word after the previous words' widths
and one space, zero-length lifts joined by hand); a task's --split 11/10 and 2/1 giving that many training and
validation lines."""
import numpy as np
import pytest

from HersheyFonts import HersheyFonts

from lnrnn.data import hershey
from lnrnn.data.tasks import load_task, task_spec


def _package_font(face):
    font = HersheyFonts()
    font.load_default_font(face)
    return font


def _by_hand(font, text):
    """The package's strokes of each word, y up, shifted right by the widths before it; then joins merged."""
    base = font.render_options["base_line"]
    space = sum(g.char_width for g in font.glyphs_for_text(" "))
    strokes, x = [], 0.0
    for word in text.split(" "):
        strokes += [np.array([[px + x, base - py] for px, py in st], float) for st in font.strokes_for_text(word)]
        x += sum(g.char_width for g in font.glyphs_for_text(word)) + space
    out = []
    for st in strokes:
        if out and tuple(st[0]) == tuple(out[-1][-1]):
            out[-1] = np.concatenate([out[-1], st[1:]])
        else:
            out.append(st)
    return out


@pytest.mark.parametrize("face, text", [("futural", "Ab cd Ef"), ("scripts", "go on now")])
def test_a_line_lays_words_out_as_the_package_draws_them(face, text):
    got = hershey.layout(hershey.load_font(face), text, np.random.default_rng(3), 0.0)
    want = _by_hand(_package_font(face), text)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=0, atol=1e-12)


@pytest.mark.parametrize("split, n_train, n_val", [("11/10", 11, 10), ("2/1", 2, 1)])
def test_split_gives_that_many_lines(split, n_train, n_val):
    t = load_task(task_spec("strokes-hershey", None, split=split))
    assert (t.size("train"), t.size("val")) == (n_train, n_val)
