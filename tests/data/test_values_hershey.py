"""lnrnn/data/hershey.py's layout and writer geometry by hand, on a font written here (two glyphs of
straight strokes: no package needed, every point known): words advance by their width plus the font's
space plus the drawn gap, joins merge without repeating the joint, the slant shears by the height, the
baseline drifts by tilt and wave at x, and a line's text never passes MAX_CHARS with its closing mark."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.data import hershey

SPACE = 4.0


class Font:
    """The two methods and the option hershey.word_strokes reads, as the hershey-fonts package has them:
    'l' a vertical stroke 0..10 (y down from the baseline at 10), width 3; 'v' two strokes joined at the
    bottom, width 6; ' ' nothing, width SPACE. Strokes come laid out along the word, in y-down units."""
    render_options = {"base_line": 10.0}
    GLYPHS = {"l": ([[(1.0, 10.0), (1.0, 0.0)]], 3.0),
              "v": ([[(0.0, 0.0), (2.0, 10.0)], [(2.0, 10.0), (4.0, 0.0)]], 6.0),
              " ": ([], SPACE)}

    def glyphs_for_text(self, text):
        return [SimpleNamespace(char_width=self.GLYPHS[c][1]) for c in text if c in self.GLYPHS]

    def strokes_for_text(self, text):
        x = 0.0
        for c in text:
            strokes, width = self.GLYPHS[c]
            for st in strokes:
                yield [(px + x, py) for px, py in st]
            x += width


def plain(**kw):
    d = dict(scale=1.0, slant=0.0, tilt=0.0, wave=0.0, period=100.0, phase=0.0, word_gap=0.0, spacing=100.0,
             jitter=0.0)
    d.update(kw)
    return hershey.Style(**d)


def test_words_advance_by_width_space_and_the_drawn_gap():
    """'l lv l' with word_gap 5: word k starts at the widths and spaces before it plus the gaps drawn so
    far (the generator replayed here); y is turned up (baseline 0)."""
    rng, replay = np.random.default_rng(3), np.random.default_rng(3)
    strokes = hershey.layout(Font(), "l lv l", rng, 5.0)
    gaps = [replay.uniform(0.0, 5.0) for _ in range(3)]
    x1 = 3.0 + SPACE + gaps[0]
    x2 = x1 + 9.0 + SPACE + gaps[1]
    want = [[[1, 0], [1, 10]],
            [[x1 + 1, 0], [x1 + 1, 10]],
            [[x1 + 3, 10], [x1 + 5, 0], [x1 + 7, 10]],        # v's two strokes joined once
            [[x2 + 1, 0], [x2 + 1, 10]]]
    assert len(strokes) == 4
    for got, w in zip(strokes, want):
        np.testing.assert_allclose(got, w, rtol=0, atol=1e-12)


def test_merge_joins_drops_only_the_repeated_joint():
    a, b, c = np.array([[0.0, 0], [1, 1]]), np.array([[1.0, 1], [2, 0], [3, 3]]), np.array([[5.0, 5], [6, 6]])
    out = hershey.merge_joins([a, b, c])
    assert len(out) == 2
    assert out[0].tolist() == [[0, 0], [1, 1], [2, 0], [3, 3]] and out[1].tolist() == c.tolist()


def test_slant_shears_by_height_and_the_baseline_drifts_at_x():
    """One 'l' at x = 1 (0..10 tall): each point (1, y) goes to scale * (1 + slant y, y + tilt + wave
    sin(2 pi / period + phase)); the stroke's two ends only (spacing past its length)."""
    style = plain(scale=1.5, slant=0.3, tilt=0.02, wave=1.3, period=37.0, phase=0.4)
    (st,) = hershey.draw_line(Font(), "l", style, np.random.default_rng(0))
    drift = 0.02 * 1.0 + 1.3 * np.sin(2 * np.pi * 1.0 / 37.0 + 0.4)
    want = 1.5 * np.array([[1.0, 0.0 + drift], [1.0 + 0.3 * 10, 10.0 + drift]])
    np.testing.assert_allclose(st, want, rtol=1e-12)


def test_resampled_by_spacing_in_source_units():
    (st,) = hershey.draw_line(Font(), "l", plain(scale=2.0, spacing=5.0), np.random.default_rng(0))
    np.testing.assert_allclose(st[:, 1], [0, 5, 10, 15, 20])          # 20 source units in steps of 5
    np.testing.assert_allclose(st[:, 0], 2.0)


def test_line_texts_never_pass_max_chars_with_their_mark():
    texts = hershey.line_texts(np.random.default_rng(11), 3000)
    assert max(len(t) for t in texts) <= hershey.MAX_CHARS
    marked = [t for t in texts if t[-1] in hershey.MARKS]
    assert len(marked) > 300 and max(len(t) for t in marked) == hershey.MAX_CHARS
    assert all(len(t.split(" ")) <= hershey.WORDS_PER_LINE[1] for t in texts)
