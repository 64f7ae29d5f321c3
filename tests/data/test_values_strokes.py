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


# ---------------------------------------------------------------- text as CTC labels, lines to read

def test_ctc_steps_needed_by_hand():
    """A label's length plus one blank between every two equal neighbours; the -1 padding is nothing."""
    from lnrnn.data.strokes import ctc_steps_needed
    labels = np.array([[1, 1, 2, -1, -1], [3, -1, -1, -1, -1], [2, 2, 2, -1, -1], [1, 2, 1, 2, 2],
                       [-1, -1, -1, -1, -1]])
    assert ctc_steps_needed(labels).tolist() == [4, 1, 5, 6, 0]


def test_labels_are_codes_plus_one_and_read_back():
    """Alphabet UNKNOWN a b (codes 0 1 2): "ba" is classes 3 2 (class 0 is the blank), "" a row of padding,
    and an unseen character UNKNOWN's class 1."""
    from lnrnn.data.strokes import UNKNOWN, classes_to_text, make_alphabet, text_labels
    alphabet = make_alphabet(["ab", "b"])
    assert alphabet == UNKNOWN + "ab"
    labels = text_labels(["ba", "", "zab"], alphabet)
    assert labels.tolist() == [[3, 2, -1], [-1, -1, -1], [1, 2, 3]]
    assert classes_to_text([3, 2], alphabet) == "ba" and classes_to_text([2, 2, 3], alphabet) == "aab"
    assert classes_to_text([], alphabet) == ""


def test_a_line_to_read_is_fixed_and_scaled_as_the_training_lines():
    """normalize_line: the glitch step (index 2) dropped with its pen lift moved back, then dx / sx and
    dy / sy on their own axes."""
    from lnrnn.data.strokes import normalize_line
    seq = np.array([[0.0, 0.0, 0.0], [4.0, 1.0, 0.0], [0.0, 2 * GLITCH_STEP, 1.0], [8.0, -3.0, 0.0],
                    [2.0, 6.0, 1.0]])
    got = normalize_line(seq, [2.0, 0.5])
    want = np.array([[0.0, 0.0, 0.0], [2.0, 2.0, 1.0], [4.0, -6.0, 0.0], [1.0, 12.0, 1.0]])
    np.testing.assert_array_equal(got, want)


def test_a_step_of_exactly_the_threshold_is_kept():
    seq = np.array([[0.0, 0.0, 0.0], [600.0, 800.0, 0.0], [600.0, 800.0001, 0.0], [1.0, 1.0, 1.0]])
    fixed, dropped = drop_long_steps(seq, threshold=1000.0)
    assert dropped == 1
    np.testing.assert_array_equal(fixed, seq[[0, 1, 3]])


def test_group_split_counts_groups_not_items():
    """Ten forms of six lines each, a tenth held out: one whole form (six lines), whatever the item count."""
    from lnrnn.data.strokes import split_groups
    groups = [f"form{k}" for k in range(10) for _ in range(6)]
    val = split_groups(groups, fraction=0.1)
    held = {g for g, v in zip(groups, val) if v}
    assert len(held) == 1 and val.sum() == 6
    assert all(v == (g in held) for g, v in zip(groups, val))
