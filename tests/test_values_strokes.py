"""Stroke geometry against its definitions, on lines whose axes differ (unequal spreads and scales, a
slanted line, glitches that are vertical or diagonal rather than along x): stroke-3 round trips with
sx != sy, Graves's glitch fix measured by the offset's length, the offset scale as the standard
deviation of the offsets (row 0 is not an offset), and each axis divided by its own scale."""
import numpy as np
import pytest

from lnrnn.data.strokes import (GLITCH_STEP, RawSplit, drop_long_steps, make_task, offset_scale, to_stroke3,
                                to_strokes)


def slanted_strokes(rng, n=3):
    """Absolute pen-down strokes of a slanted line: steps of about 20 in x, 2 in y."""
    out, x0 = [], 0.0
    for _ in range(n):
        k = int(rng.integers(4, 9))
        y = rng.normal(0, 2, k).cumsum()
        x = x0 + np.linspace(0, 120, k) + 0.4 * y
        out.append(np.column_stack([x, y]))
        x0 = x[-1] + 15
    return out


def test_strokes_round_trip_with_unequal_scales():
    rng = np.random.default_rng(0)
    strokes = slanted_strokes(rng)
    seq = to_stroke3(strokes)
    sx, sy = 7.0, 0.25
    back = to_strokes(seq / [sx, sy, 1.0], scale=(sx, sy))
    origin = strokes[0][0]
    assert len(back) == len(strokes)
    for a, b in zip(back, strokes):
        np.testing.assert_allclose(a, b - origin, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("jump", [(0.0, 1.5 * GLITCH_STEP), (0.8 * GLITCH_STEP, -0.8 * GLITCH_STEP)],
                         ids=["vertical", "diagonal"])
def test_glitches_are_measured_by_length_both_ways(jump):
    """An offset is a glitch when its length exceeds GLITCH_STEP, whatever its direction: a vertical
    jump, or a diagonal one whose components are each below the threshold. The point it reaches is
    dropped, its pen lift moves to the point before, and the rest keep their own offsets."""
    rng = np.random.default_rng(1)
    seq = to_stroke3(slanted_strokes(rng, 2))
    i = 3
    seq[i, :2] += jump
    seq[i, 2] = 1.0
    assert np.hypot(*jump) > GLITCH_STEP
    fixed, dropped = drop_long_steps(seq)
    assert dropped == 1
    want = np.delete(seq, i, axis=0)
    want[i - 1, 2] = 1.0
    np.testing.assert_array_equal(fixed, want)


def test_offset_scale_is_the_std_of_the_offsets():
    rng = np.random.default_rng(2)
    lines = [to_stroke3(slanted_strokes(rng, k)) for k in (1, 2, 3)]
    d = np.concatenate([ln[1:, :2] for ln in lines])      # row 0 of every line is (0, 0) by construction
    assert offset_scale(lines) == pytest.approx(list(d.std(axis=0)), rel=1e-12)
    assert offset_scale(lines)[0] > 2 * offset_scale(lines)[1]   # the axes differ


def test_task_normalizes_each_axis_by_its_own_std():
    rng = np.random.default_rng(3)
    train = [to_stroke3(slanted_strokes(rng, 2)) for _ in range(4)]
    val = [to_stroke3(slanted_strokes(rng, 2)) for _ in range(2)]
    task = make_task({"task": "strokes-test"}, "test lines", RawSplit(train), RawSplit(val))
    sx, sy = task.scale
    assert [sx, sy] == pytest.approx(offset_scale(train), rel=1e-12) and sx > 2 * sy
    for which, lines in (("train", train), ("val", val)):
        for i, ln in enumerate(lines):
            got = task.line(which, i).astype(np.float64)
            np.testing.assert_allclose(got[:, 0] * sx, ln[:, 0], rtol=1e-5, atol=1e-4)
            np.testing.assert_allclose(got[:, 1] * sy, ln[:, 1], rtol=1e-5, atol=1e-4)
            np.testing.assert_array_equal(got[:, 2], ln[:, 2])
    x, y, lengths = task.batch("train", [1, 0])
    np.testing.assert_array_equal(lengths, [len(train[1]) - 1, len(train[0]) - 1])
    np.testing.assert_array_equal(x[:lengths[0], 0], task.line("train", 1)[:-1])
    np.testing.assert_array_equal(y[0, :lengths[0]], task.line("train", 1)[1:])
