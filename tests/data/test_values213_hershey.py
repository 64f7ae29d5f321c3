"""lnrnn/data/hershey.py against draws and layouts written here. A line's style is drawn from one generator in
the documented order (scale in SCALE, slant, tilt in +-TILT, wave, period, phase in [0, 2 pi); spacing SPACING
times a speed in SPEED times the scale, jitter JITTER times the scale, the word gap WORD_GAP's top). Line texts
are drawn by hand with the same seed: a word count, a closing mark, then each word (a number or a word of
WORDS, capitals, capitalized, quoted or in parentheses, opening mark first) and the separator before it
(a hyphen, an inner mark and a space, or a space), stopping before MAX_CHARS. layout's strokes are the font's
own polylines (strokes_for_text of each word, y turned up about base_line) point by point, each word shifted
by the widths, spaces and gaps before it, zero-length lifts joined. make_lines names line i '<face>-<i:05d>';
a character the font lacks is named alone in the refusal."""
import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.data.words import WORDS
from lnrnn.errors import DataError

pytest.importorskip("HersheyFonts")


def test_a_style_is_drawn_in_the_documented_order_and_ranges():
    for seed in range(5):
        rng = np.random.default_rng(seed)
        scale = rng.uniform(0.8, 1.25)
        slant, tilt, wave = rng.uniform(-0.2, 0.3), rng.uniform(-0.03, 0.03), rng.uniform(0.0, 1.5)
        period, phase = rng.uniform(150.0, 400.0), rng.uniform(0.0, 2 * np.pi)
        speed = rng.uniform(0.85, 1.15)
        got = hershey.random_style(np.random.default_rng(seed))
        want = hershey.Style(scale=scale, slant=slant, tilt=tilt, wave=wave, period=period, phase=phase,
                             word_gap=6.0, spacing=2.0 * speed * scale, jitter=0.15 * scale)
        np.testing.assert_allclose(np.array(got), np.array(want), rtol=1e-14)


def word_by_hand(rng, first):
    w = str(int(rng.integers(0, 2027))) if rng.random() < 0.05 else WORDS[int(rng.integers(len(WORDS)))]
    if rng.random() < 0.06:
        w = w.upper()
    elif rng.random() < (0.3 if first else 0.05):
        w = w.capitalize()
    if rng.random() < 0.04:
        pair = ('""', "''", "()")[int(rng.integers(3))]
        w = pair[0] + w + pair[1]
    return w


def line_by_hand(rng):
    n = int(rng.integers(2, 7))
    mark = str(rng.choice(list(".,?!"))) if rng.random() < 0.25 else ""
    words = [word_by_hand(rng, True)]
    seps = []
    for _ in range(n - 1):
        w = word_by_hand(rng, False)
        if rng.random() < 0.03:
            sep = "-"
        elif rng.random() < 0.06:
            sep = ",;:"[int(rng.integers(3))] + " "
        else:
            sep = " "
        if len("".join(a + b for a, b in zip([""] + seps, words))) + len(sep) + len(w) + len(mark) > 32:
            break
        words.append(w)
        seps.append(sep)
    return "".join(a + b for a, b in zip([""] + seps, words)) + mark


def test_line_texts_are_drawn_by_hand_with_the_same_seed():
    got = hershey.line_texts(np.random.default_rng(213), 500)
    own = np.random.default_rng(int(np.random.default_rng(213).integers(2**63)))
    want = [line_by_hand(own) for _ in range(500)]
    assert got == want
    wrapped = [t for t in got if "(" in t]
    assert wrapped and all(t.index("(") < t.index(")") for t in wrapped)
    assert 0 < sum("-" in t for t in got) and all(len(t) <= 32 for t in got)


def test_layout_is_the_fonts_polylines_shifted_word_by_word():
    font = hershey.load_font("futural")
    base = font.render_options["base_line"]
    text, gap = "no ox", 4.0
    space = sum(g.char_width for g in font.glyphs_for_text(" "))
    gaps = np.random.default_rng(5).uniform(0.0, gap, 2)
    want, x = [], 0.0
    for k, word in enumerate(text.split(" ")):
        for st in font.strokes_for_text(word):
            pts = [(px + x, base - py) for px, py in st]
            if want and want[-1][-1] == pts[0]:
                want[-1] += pts[1:]
            else:
                want.append(pts)
        x += sum(g.char_width for g in font.glyphs_for_text(word)) + space + gaps[k]
    got = hershey.layout(font, text, np.random.default_rng(5), gap)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.array(w, np.float64), atol=1e-12)


def test_make_lines_names_line_i_by_its_face_and_index():
    lines, texts, names = hershey.make_lines(np.random.default_rng(3), 3, faces=("futural",))
    assert names == ["futural-00000", "futural-00001", "futural-00002"]
    assert len(lines) == len(texts) == 3


def test_a_missing_glyph_is_named_alone():
    font = hershey.load_font("futural")
    with pytest.raises(DataError) as e:
        hershey.word_strokes(font, "ab\u00e9c")
    assert str(e.value) == ("the Hershey font has no glyph for '\u00e9'; reinstall pip install 'lnrnn[hershey]' "
                            "(the hershey-fonts package).")
