"""lnrnn/data/hershey.py's sizes by hand: a writer's point spacing and jitter in source units (SPACING times
speed times scale) from known draws, the points a resampled stroke gets at that spacing, each word of a line
moved right by the words before it, their spaces and gaps (never up), and every face of FACES drawn, about
equally often."""
import math
from collections import Counter

import numpy as np
import pytest

from lnrnn.data import hershey as H


class Draws:
    """A stand-in for the generator: uniform(lo, hi) returns the value given for those bounds, else the middle."""

    def __init__(self, uniform):
        self.uniform_values = uniform

    def uniform(self, lo, hi):
        v = self.uniform_values.get((lo, hi), (lo + hi) / 2)
        assert lo <= v <= hi
        return v


def test_a_writers_spacing_and_jitter_are_in_source_units():
    scale, speed = 1.2, 1.1
    style = H.random_style(Draws({H.SCALE: scale, H.SPEED: speed}))
    assert style.scale == scale
    assert style.spacing == pytest.approx(H.SPACING * speed * scale, rel=1e-12)     # 2 * 1.1 * 1.2 = 2.64
    assert style.jitter == pytest.approx(H.JITTER * scale, rel=1e-12)
    assert style.word_gap == H.WORD_GAP[1]
    small = H.random_style(Draws({H.SCALE: 0.8, H.SPEED: 1.0}))
    assert small.spacing == pytest.approx(1.6, rel=1e-12)


def test_a_straight_stroke_gets_its_points_at_the_writers_spacing():
    style = H.random_style(Draws({H.SCALE: 1.25, H.SPEED: 1.0, H.SLANT: 0.0, (-H.TILT, H.TILT): 0.0,
                                  H.WAVE: 0.0}))._replace(jitter=0.0)
    font = H.load_font("futural")
    strokes = H.draw_line(font, "l", style, np.random.default_rng(0))      # l: one vertical bar
    assert len(strokes) == 1
    (st,) = strokes
    length = float(np.hypot(*(st[-1] - st[0])))
    raw, _ = H.word_strokes(font, "l")
    assert length == pytest.approx(1.25 * float(np.hypot(*(raw[0][-1] - raw[0][0]))), rel=1e-9)
    assert len(st) == math.ceil(length / 2.5) + 1                            # spacing 2 * 1.0 * 1.25
    np.testing.assert_allclose(np.hypot(*np.diff(st, axis=0).T), length / (len(st) - 1), rtol=1e-9)


@pytest.mark.parametrize("gap, drawn", [(0.0, 0.0), (4.0, 3.0)])
def test_each_word_moves_right_by_the_words_before_it(gap, drawn):
    font = H.load_font("futural")
    ab, w_ab = H.word_strokes(font, "ab")
    cd, w_cd = H.word_strokes(font, "cd")
    e, _ = H.word_strokes(font, "e")
    space = H.word_strokes(font, " ")[1]
    got = H.layout(font, "ab cd e", Draws({(0.0, gap): drawn}), gap)
    x2 = w_ab + space + drawn
    x3 = x2 + w_cd + space + drawn
    want = ab + [p + [x2, 0.0] for p in cd] + [p + [x3, 0.0] for p in e]     # no stroke of these joins
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=0, atol=1e-12)
    ys = np.concatenate([s[:, 1] for s in ab + cd + e])
    assert np.concatenate(got)[:, 1].min() == ys.min() and np.concatenate(got)[:, 1].max() == ys.max()


def test_every_face_is_drawn_about_equally(monkeypatch):
    monkeypatch.setattr(H, "load_font", lambda face: face)
    monkeypatch.setattr(H, "draw_line", lambda font, text, style, rng: [np.array([[0.0, 0.0], [1.0, 1.0]])])
    lines, texts, names = H.make_lines(np.random.default_rng(5), 300)
    assert len(lines) == len(texts) == len(names) == 300
    faces = Counter(n.rsplit("-", 1)[0] for n in names)
    assert set(faces) == set(H.FACES)
    assert all(60 <= faces[f] <= 140 for f in H.FACES)                      # 300 / 3 = 100 each, give or take
    assert [n.rsplit("-", 1)[1] for n in names[:3]] == ["00000", "00001", "00002"]
