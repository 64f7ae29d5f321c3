"""lnrnn/data/strokes.py by hand on known lines: a stroke batch's input at step t is point t of its line and its
target point t + 1 (time-major x, batch-major y, lengths N - 1, zeros past a line's end); a reading batch holds
each line's own N points from its first; a synthetic spike moves one point by a jump of SYN_SPIKE and the next
step back by the same jump (the glitched line minus the same draw's clean line, generator replayed); split_groups
holds out the groups a permutation of the sorted distinct groups puts first, recomputed here."""
import numpy as np

from lnrnn.data.strokes import (SYN_SPIKE, VAL_FRACTION, ReadingTask, StrokeSet, StrokeTask, split_groups,
                                synthetic_lines)

A = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [3.0, -1.0, 1.0], [0.5, 0.5, 0.0]])   # (4,3)
B_ = np.array([[2.0, 1.0, 0.0], [-1.0, 4.0, 1.0]])                                    # (2,3)
C_ = np.array([[0.0, 0.0, 0.0], [0.25, 0.75, 0.0], [1.5, -2.0, 1.0]])                 # (3,3)


def task(kind=StrokeTask, texts=None):
    train = StrokeSet([A, B_, C_], texts=texts)
    val = StrokeSet([C_], texts=None if texts is None else texts[2:])
    return kind({"task": "hand", "head": "ctc" if kind is ReadingTask else "mdn"}, "hand", train, val, [1.0, 1.0])


def test_stroke_batch_inputs_are_the_points_before_the_targets():
    x, y, lengths = task().batch("train", [1, 0, 2])
    lines = [B_, A, C_]
    np.testing.assert_array_equal(lengths, [1, 3, 2])
    assert x.shape == (3, 3, 3) and y.shape == (3, 3, 3)
    for b, ln in enumerate(lines):
        n = len(ln) - 1
        for t in range(3):
            want_x = ln[t] if t < n else np.zeros(3)
            want_y = ln[t + 1] if t < n else np.zeros(3)
            np.testing.assert_array_equal(x[t, b], want_x)
            np.testing.assert_array_equal(y[b, t], want_y)


def test_reading_batch_holds_each_lines_own_points():
    t = task(ReadingTask, texts=["ab", "b", "ba"])
    x, labels, lengths = t.batch("train", [2, 1, 0])
    lines = [C_, B_, A]
    np.testing.assert_array_equal(lengths, [3, 2, 4])
    assert x.shape == (4, 3, 3)
    for b, ln in enumerate(lines):
        np.testing.assert_array_equal(x[:len(ln), b], ln)
        np.testing.assert_array_equal(x[len(ln):, b], 0.0)
    codes = {c: t.alphabet.index(c) + 1 for c in "ab"}     # CTC class = code + 1
    np.testing.assert_array_equal(labels, [[codes["b"], codes["a"]], [codes["b"], -1], [codes["a"], codes["b"]]])


def test_a_synthetic_spike_goes_out_and_comes_back():
    for seed in (0, 1, 2):
        (spiked,), n1 = synthetic_lines(np.random.default_rng(seed), 1, glitch_rate=1.0)
        (clean,), n0 = synthetic_lines(np.random.default_rng(seed), 1, glitch_rate=0.0)
        assert (n1, n0) == (1, 0)
        d = spiked - clean                                 # (N,3): the same line, the spike added
        rows = np.flatnonzero(np.abs(d).sum(axis=1) > 0)
        assert len(rows) == 2 and rows[1] == rows[0] + 1
        jump = d[rows[0], :2]
        assert abs(np.hypot(*jump) - SYN_SPIKE) < 1e-6
        np.testing.assert_allclose(d[rows[1], :2], -jump, rtol=0, atol=1e-9)
        np.testing.assert_array_equal(d[:, 2], 0.0)
        np.testing.assert_allclose(spiked[:, :2].sum(axis=0), clean[:, :2].sum(axis=0), rtol=0, atol=1e-6)


def test_split_groups_holds_out_the_permutations_first_groups():
    groups = [f"form{k // 3:02d}" for k in range(60)]       # 20 forms of 3 lines each
    mask = split_groups(groups, seed=4)
    distinct = sorted(set(groups))
    n_val = max(1, round(VAL_FRACTION * len(distinct)))
    held = {distinct[i] for i in np.random.default_rng(4).permutation(len(distinct))[:n_val]}
    np.testing.assert_array_equal(mask, [g in held for g in groups])
    assert mask.sum() == 3 * n_val
