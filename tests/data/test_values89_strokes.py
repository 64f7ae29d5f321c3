"""lnrnn/data/strokes.py's counts and layouts against hand computations: stroke-3 of a square and a line (offsets,
one pen lift at each stroke's end, an empty stroke refused), the text codes of a small alphabet and their CTC
labels, a next-point batch of lines of 3, 5 and 2 points (lengths N - 1, T the longest, zero padding, inputs
p_0..p_{N-2} and targets p_1..p_{N-1}), split_raw's two sides, split_groups' sizes at N 7, 10, 11 and 101 with
whole groups and a fixed seed, and every synthetic spike's way in and out."""

import numpy as np
import pytest

from lnrnn.data import strokes as S
from lnrnn.errors import DataError

SQUARE = [(0, 0), (2, 0), (2, 2), (0, 2), (0, 0)]
LINE = [(5, 1), (8, 5)]


def test_a_square_and_a_line_in_stroke_3():
    got = S.to_stroke3([np.array(SQUARE, float), np.array(LINE, float)])
    want = [[0, 0, 0], [2, 0, 0], [0, 2, 0], [-2, 0, 0], [0, -2, 1],   # the square, lifted after its 5th point
            [5, 1, 0], [3, 4, 1]]                                      # a pen-up move to (5, 1), then the line
    np.testing.assert_array_equal(got, want)
    assert got[:, 2].sum() == 2                                        # one lift per stroke
    back = S.to_strokes(got)
    np.testing.assert_array_equal(back[0], SQUARE)
    np.testing.assert_array_equal(back[1], LINE)


def test_an_empty_stroke_is_refused():
    with pytest.raises(ValueError, match="no empty stroke"):
        S.to_stroke3([np.array(SQUARE, float), np.zeros((0, 2)), np.array(LINE, float)])


def test_text_codes_and_ctc_labels_of_a_small_alphabet():
    alphabet = S.make_alphabet(["abba", "cab"])
    assert alphabet == S.UNKNOWN + "abc"
    np.testing.assert_array_equal(S.encode_text("cab?", alphabet), [3, 1, 2, 0])
    for text in ("abc", "cba", "a"):
        np.testing.assert_array_equal(S.encode_text(text, alphabet), [alphabet.index(c) for c in text])
    labels = S.text_labels(["ca", "b", ""], alphabet)
    np.testing.assert_array_equal(labels, [[4, 2], [3, -1], [-1, -1]])
    assert S.classes_to_text([4, 2, 3], alphabet) == "cab"


def lines_of(*counts, seed=3):
    rng = np.random.default_rng(seed)
    out = []
    for n in counts:
        ln = np.round(rng.normal(0, 3, (n, 3)), 1)
        ln[0, :2] = 0.0
        ln[:, 2] = 0.0
        ln[-1, 2] = 1.0
        out.append(ln)
    return out


def test_next_point_batch_by_hand():
    lines = lines_of(3, 5, 2)
    st = S.StrokeSet(lines)
    task = S.StrokeTask({"task": "x"}, "x", st, S.StrokeSet(lines[:1]), [1.0, 1.0])
    idx = [2, 0, 1]
    x, y, lengths = task.batch("train", idx)
    np.testing.assert_array_equal(lengths, [1, 2, 4])
    assert x.shape == (4, 3, 3) and y.shape == (3, 4, 3)
    for b, i in enumerate(idx):
        ln = lines[i].astype(np.float32)
        n = len(ln) - 1
        np.testing.assert_array_equal(x[:n, b], ln[:-1])
        np.testing.assert_array_equal(y[b, :n], ln[1:])
        assert not x[n:, b].any() and not y[b, n:].any()
    assert task.steps == 4 and task.size("train") == 3


def test_split_raw_keeps_each_side_in_order():
    lines = [np.full((2, 3), k, float) for k in range(6)]
    mask = np.array([True, False, False, True, False, True])
    names = [f"n{k}" for k in range(6)]
    texts = [f"t{k}" for k in range(6)]
    train, val = S.split_raw(lines, mask, names, texts)
    assert [int(ln[0, 0]) for ln in train.lines] == [1, 2, 4]
    assert [int(ln[0, 0]) for ln in val.lines] == [0, 3, 5]
    assert train.names == ["n1", "n2", "n4"] and val.texts == ["t0", "t3", "t5"]
    none_train, none_val = S.split_raw(lines, mask)
    assert none_train.names is None and none_val.texts is None


@pytest.mark.parametrize("n, fraction, want", [
    (7, 0.1, 1), (10, 0.1, 1), (11, 0.1, 1), (101, 0.1, 10),   # 0.7, 1.0, 1.1, 10.1 -> nearest, at least 1
    (7, 0.3, 2), (10, 0.3, 3), (11, 0.3, 3), (101, 0.3, 30),   # 2.1, 3.0, 3.3, 30.3
    (2, 0.9, 1), (7, 0.95, 6),                                 # never all
])
def test_split_groups_sizes_whole_groups_and_seed(n, fraction, want):
    groups = [f"g{k % n}" for k in range(3 * n)]               # every group thrice, interleaved
    mask = S.split_groups(groups, fraction)
    held = {g for g, m in zip(groups, mask) if m}
    assert len(held) == want
    for g in set(groups):                                      # a group lies on one side whole
        assert len({bool(m) for gg, m in zip(groups, mask) if gg == g}) == 1
    np.testing.assert_array_equal(mask, S.split_groups(groups, fraction))


def test_split_groups_needs_two_groups():
    with pytest.raises(DataError, match="at least two"):
        S.split_groups(["a01-000u", "a01-000u", "a01-000u"])


def test_every_synthetic_spike_leaves_as_it_came():
    lines, spikes = S.synthetic_lines(np.random.default_rng(7), 12, glitch_rate=1.0)
    assert spikes == 12
    for ln in lines:
        step = np.hypot(ln[:, 0], ln[:, 1])
        long = np.flatnonzero(step > S.GLITCH_STEP)
        assert len(long) == 2 and long[1] == long[0] + 1       # in at i, out at i + 1
        i = long[0]
        assert abs(step[i] - S.SYN_SPIKE) < S.GLITCH_STEP / 2  # a pen move plus the spike
        # the jump cancels: the two offsets add up to two ordinary pen moves, so the line comes back
        assert np.hypot(*(ln[i, :2] + ln[i + 1, :2])) < S.GLITCH_STEP / 2
        fixed, dropped = S.drop_long_steps(ln)
        assert dropped == 2 and len(fixed) == len(ln) - 2
