"""Counts and sizes that data preparation derives, against their definitions on inputs where a wrong
formula gives another number: the npz task's held-out size (VAL_FRACTION of N rounded to the nearest
count, at least one) at N where rounding down, up or to nearest differ; its class count over the labels
of every split; the stroke tasks' group split (a rounded share of the distinct groups, at least one,
never all); a stroke set's steps and batch lengths; and KanjiVG's augmentation (writer's slant, the
character's rotation and scale) and line joining (the gap) against a hand computation."""
import math

import numpy as np
import pytest

from lnrnn.data import arrays, kanjivg
from lnrnn.data import strokes as S
from lnrnn.errors import UserError


def nearest(v):
    """v rounded to the nearest integer; the tests pick v away from .5, where conventions differ."""
    assert abs(v - math.floor(v) - 0.5) > 1e-9
    return math.floor(v + 0.5)


# ---- the npz task

@pytest.mark.parametrize("N", [2, 3, 9, 11, 14, 16, 19, 24, 26, 94, 96, 104, 106])
def test_held_out_default_is_a_rounded_tenth(N):
    tr, va = arrays.held_out(N, None, "f.npz")
    b = max(1, nearest(N * arrays.VAL_FRACTION))
    assert len(va) == b and len(tr) == N - b
    assert sorted(np.concatenate([tr, va]).tolist()) == list(range(N))


@pytest.mark.parametrize("split", [(7, 3), (5, 5), (9, 1), (3, 2)])
def test_held_out_split_takes_exactly_its_counts(split):
    N = 10
    tr, va = arrays.held_out(N, split, "f.npz")
    assert (len(tr), len(va)) == split and not set(tr.tolist()) & set(va.tolist())
    assert set(tr.tolist()) | set(va.tolist()) <= set(range(N))
    with pytest.raises(UserError, match="asks for 11 sequences"):
        arrays.held_out(N, (split[0], 11 - split[0]), "f.npz")


def test_class_count_reads_every_splits_labels():
    x, xv = np.zeros((6, 3, 1)), np.zeros((4, 3, 1))
    y, yv = np.array([0, 1, 1, 0, 2, 1]), np.array([0, 4, 1, 1])
    d = arrays.check_arrays({"x": x, "y": y, "x_val": xv, "y_val": yv})
    assert d["num_classes"] == 1 + max(y.max(), yv.max()) == 5
    d = arrays.check_arrays({"x": xv, "y": yv, "x_val": x, "y_val": y})
    assert d["num_classes"] == 5
    # per step, -1 unscored: the largest label of either split
    ys = np.array([[0, 1, -1], [2, -1, -1]])
    ysv = np.array([[3, -1, -1], [-1, 0, 1]])
    d = arrays.check_arrays({"x": x[:2], "y": ys, "x_val": xv[:2], "y_val": ysv})
    assert d["num_classes"] == 4 and d["per_step"]


# ---- the stroke tasks

@pytest.mark.parametrize("n,fraction", [(2, 0.1), (3, 0.1), (14, 0.1), (16, 0.1), (19, 0.1), (26, 0.1),
                                        (3, 0.9), (4, 0.95), (7, 0.3)])
def test_group_split_holds_out_a_rounded_share_of_whole_groups(n, fraction):
    groups = [f"g{k % n:02d}" for k in range(3 * n + 1)]       # n groups, one of them with an extra member
    val = S.split_groups(groups, fraction=fraction)
    held = {g for g, v in zip(groups, val) if v}
    kept = {g for g, v in zip(groups, val) if not v}
    assert len(held) == min(n - 1, max(1, nearest(fraction * n)))
    assert not held & kept and len(held | kept) == n


def test_stroke_set_steps_and_batch_lengths_are_points_minus_one():
    rng = np.random.default_rng(0)
    npts = [2, 7, 4, 5]
    lines = [np.column_stack([rng.normal(size=(k, 2)), np.zeros(k)]) for k in npts]
    for ln in lines:
        ln[0, :2], ln[-1, 2] = 0.0, 1.0
    t = S.make_task({"task": "x"}, "test", S.RawSplit(lines), S.RawSplit(lines[:2]))
    assert t.sets["train"].max_steps == max(npts) - 1 and t.sets["val"].max_steps == 6 and t.steps == 6
    idx = np.array([2, 0, 3])
    x, y, lengths = t.batch("train", idx)
    assert lengths.tolist() == [npts[i] - 1 for i in idx] and x.shape == (4, 3, 3) and y.shape == (3, 4, 3)
    for b, i in enumerate(idx):
        ln = t.line("train", i)
        np.testing.assert_array_equal(x[:lengths[b], b], ln[:-1])
        np.testing.assert_array_equal(y[b, :lengths[b]], ln[1:])
        assert not x[lengths[b]:, b].any() and not y[b, lengths[b]:].any()


def test_text_batch_pads_to_the_longest_text():
    lines = [np.array([[0, 0, 0], [1, 1, 1.0]])] * 3
    t = S.make_task({"task": "x"}, "test", S.RawSplit(lines, texts=["ab", "abca", "c"]),
                    S.RawSplit(lines[:1], texts=["b"]))
    codes, ulen = t.text_batch("train", [2, 1, 0])
    assert ulen.tolist() == [1, 4, 2] and codes.shape == (3, 4)
    assert codes[1].tolist() == t.encode("abca").tolist() and codes[0, 1:].tolist() == [0, 0, 0]


# ---- KanjiVG: augmentation and joining, by hand

def test_augment_is_slant_then_rotation_then_scale(monkeypatch):
    """One stroke of known points, jitter off: each point (x, y) becomes (x + slant y, y) (the writer's
    slant: x shifts by slant per unit of height), rotated counter-clockwise by the character's angle a,
    times the writer's scale and the character's own; a and the scale are the generator's first draws."""
    monkeypatch.setattr(kanjivg, "JITTER", 0.0)
    stroke = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 20.0], [3.0, -4.0]])
    scale, slant = 1.1, 0.25
    draws = np.random.default_rng(3)
    a = draws.uniform(-kanjivg.CHAR_ROTATION, kanjivg.CHAR_ROTATION)
    s = scale * draws.uniform(*kanjivg.CHAR_SCALE)
    got = kanjivg.augment([stroke], np.random.default_rng(3), scale, slant)[0]
    for (x, y), (gx, gy) in zip(stroke, got):
        xs, ys = x + slant * y, y
        want = (s * (xs * math.cos(a) - ys * math.sin(a)), s * (xs * math.sin(a) + ys * math.cos(a)))
        assert (gx, gy) == pytest.approx(want, abs=1e-12)
    # the jitter is per point with the stated spread
    monkeypatch.setattr(kanjivg, "JITTER", 0.4)
    many = np.zeros((4000, 2))
    got = kanjivg.augment([many], np.random.default_rng(4), 1.0, 0.0)[0]
    assert abs(got.std() - 0.4) < 0.02


def test_join_line_puts_each_character_a_scaled_gap_after_the_last():
    a = [np.array([[0.0, 0.0], [5.0, 2.0]]), np.array([[2.0, 1.0], [7.0, 3.0]])]   # right edge 7
    b = [np.array([[3.0, 0.0], [4.0, 1.0]])]                                         # left edge 3
    c = [np.array([[-1.0, 2.0], [2.0, 0.0]])]
    scale = 1.3
    draws = np.random.default_rng(5)
    gaps = [scale * draws.uniform(*kanjivg.GAP) for _ in range(2)]
    out = kanjivg.join_line([a, b, c], np.random.default_rng(5), scale)
    assert len(out) == 4
    np.testing.assert_array_equal(out[0], a[0])
    np.testing.assert_array_equal(out[1], a[1])
    assert out[2][:, 0].min() == pytest.approx(7.0 + gaps[0])                        # b's left edge
    assert out[3][:, 0].min() == pytest.approx(out[2][:, 0].max() + gaps[1])          # c's left edge after b's right
    for got, orig in ((out[2], b[0]), (out[3], c[0])):
        np.testing.assert_allclose(got[:, 1], orig[:, 1])                            # y unchanged
        np.testing.assert_allclose(np.diff(got[:, 0]), np.diff(orig[:, 0]))          # shifted whole


@pytest.mark.parametrize("split", [None, "12/5"])
def test_npz_task_lengths_and_labels_follow_their_sequences(tmp_path, split):
    """19 sequences whose first value is their index: after the held-out split each set's labels and
    lengths are its own sequences' (label n % 3, length 1 + n % T), and the description counts them."""
    N, T = 19, 4
    x = np.zeros((N, T, 2), np.float32)
    x[:, :, 0] = np.arange(N)[:, None]
    path = tmp_path / "d.npz"
    np.savez(path, x=x, y=np.arange(N) % 3, lengths=1 + np.arange(N) % T)
    task = arrays.build({"data_dir": str(path), "split": split})
    sizes = (17, 2) if split is None else (12, 5)
    assert (len(task.x_train), len(task.x_val)) == sizes
    assert f"{sizes[0]} train / {sizes[1]} validation" in task.description and "3 classes" in task.description
    for xs, ys, ls in ((task.x_train, task.y_train, task.lengths_train), (task.x_val, task.y_val, task.lengths_val)):
        n = xs[:, 0, 0].astype(int)
        assert ys.tolist() == (n % 3).tolist() and ls.tolist() == (1 + n % T).tolist()
    x_b, y_b, l_b = task.batch("val", np.array([1, 0]))
    assert l_b.tolist() == task.lengths_val[[1, 0]].tolist()
