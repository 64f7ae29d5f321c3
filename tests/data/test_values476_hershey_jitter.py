"""lnrnn/data/hershey.py's draw_line, step 4 of its docstring (every point moves by Gaussian jitter of std
style.jitter): with jitter 0 the points are the slanted, scaled and resampled layout, unmoved, and the line
draws nothing from the generator beyond the layout's word gaps; with jitter s > 0 each stroke's points move by
the next s-scaled normal draws of the same generator, stroke by stroke, in the layout's order."""
import numpy as np
import pytest

pytest.importorskip("HersheyFonts")

from lnrnn.data.hershey import FACES, Style, draw_line, layout, load_font  # noqa: E402
from lnrnn.data.kanjivg import resample  # noqa: E402

TEXT = "ab cd"


def style(jitter):
    return Style(scale=0.8, slant=0.25, tilt=0.01, wave=0.5, period=30.0, phase=0.4, word_gap=6.0, spacing=1.5,
                 jitter=jitter)


def unmoved(font, st, rng):
    """The layout's strokes slanted, drifted, scaled and resampled by hand (steps 2-3), and the generator after."""
    out = []
    for s in layout(font, TEXT, rng, st.word_gap):
        x, y = s[:, 0], s[:, 1]
        drift = st.tilt * x + st.wave * np.sin(2 * np.pi * x / st.period + st.phase)
        out.append(resample(st.scale * np.column_stack([x + st.slant * y, y + drift]), st.spacing))
    return out


def test_no_jitter_leaves_the_points_and_draws_nothing_more():
    font = load_font(FACES[0])
    rng, ref = np.random.default_rng(5), np.random.default_rng(5)
    got = draw_line(font, TEXT, style(0.0), rng)
    want = unmoved(font, style(0.0), ref)
    assert len(got) == len(want) > 1
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert rng.bit_generator.state == ref.bit_generator.state  # the word gaps' draws only
    assert rng.random() == ref.random()


def test_jitter_moves_each_point_by_the_next_normal_draws_in_stroke_order():
    font = load_font(FACES[1])
    s = 0.3
    rng, ref = np.random.default_rng(9), np.random.default_rng(9)
    got = draw_line(font, TEXT, style(s), rng)
    want = unmoved(font, style(s), ref)
    assert len(got) == len(want) > 1
    for g, w in zip(got, want):
        np.testing.assert_allclose(g - w, s * ref.standard_normal(w.shape), rtol=0, atol=1e-12)
    assert rng.bit_generator.state == ref.bit_generator.state
