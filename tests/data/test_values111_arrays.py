"""lnrnn/data/arrays.py (the npz task) on .npz files written here: unsigned inputs wider than a byte keep their
values, a file without y is refused in one sentence that names y, --split A/B trains on A and holds out B rows
drawn by the seed-0 permutation (disjoint), the held-out count without --split is the nearest whole tenth at N
where floor, ceil and round part, and files with x_val batch each set with its own lengths."""
import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError, UserError


def build(path, split=None):
    return load_task(task_spec("npz", data_dir=str(path), split=split))


def rows_of(task, which):
    """The (N, T, I) sequences of one split, read back through batch (T, B, I) in order."""
    xb = task.batch(which, np.arange(task.size(which)))[0]
    return np.transpose(xb, (1, 0, 2))


def test_uint16_inputs_keep_their_values(tmp_path):
    x = (np.arange(2 * 3 * 4, dtype=np.uint16).reshape(2, 3, 4) * 97)    # up to 2231, past a byte
    y = np.array([0, 1])
    out = arrays.check_arrays({"x": x, "y": y})
    np.testing.assert_array_equal(out["x"].astype(np.int64), x.astype(np.int64))
    xb = np.concatenate([x] * 5)                                         # 10 sequences: 9 train, 1 held out
    np.savez(tmp_path / "d.npz", x=xb, y=np.tile(y, 5))
    t = build(tmp_path / "d.npz")
    got = np.concatenate([rows_of(t, "train"), rows_of(t, "val")])
    assert sorted(map(tuple, got.reshape(10, -1).tolist())) == sorted(map(tuple, xb.reshape(10, -1).tolist()))


def test_bool_inputs_read_as_zero_and_one():
    x = np.array([[True, False, True], [False, False, True]])
    out = arrays.check_arrays({"x": x, "y": np.array([0, 1])})
    assert out["x"].shape == (2, 3, 1)
    np.testing.assert_array_equal(out["x"][:, :, 0], x.astype(int))


def test_a_file_without_y_is_refused_naming_y(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.zeros((4, 3), np.float32))
    with pytest.raises(DataError, match=r"lacks y\b"):
        build(tmp_path / "d.npz")
    np.savez(tmp_path / "e.npz", y=np.array([0, 1, 0, 1]))
    with pytest.raises(DataError, match=r"lacks x\b"):
        build(tmp_path / "e.npz")


def test_split_trains_on_the_first_count_and_holds_out_the_second(tmp_path):
    N = 11
    x = np.arange(N * 2, dtype=np.float32).reshape(N, 2)                 # row i holds 2i, 2i+1: its identity
    y = np.arange(N) % 3
    np.savez(tmp_path / "d.npz", x=x, y=y)
    t = build(tmp_path / "d.npz", split="6/3")
    assert (t.size("train"), t.size("val")) == (6, 3)
    perm = np.random.default_rng(0).permutation(N)                      # the fixed seed's draw
    ids = {w: (rows_of(t, w)[:, 0, 0] / 2).astype(int) for w in ("train", "val")}
    np.testing.assert_array_equal(ids["train"], perm[:6])
    np.testing.assert_array_equal(ids["val"], perm[6:9])
    assert not set(ids["train"]) & set(ids["val"])
    np.testing.assert_array_equal(t.y_train, y[perm[:6]])
    np.testing.assert_array_equal(t.y_val, y[perm[6:9]])


@pytest.mark.parametrize("N, n_val", [(14, 1), (17, 2), (2, 1), (36, 4)])  # 1.4 (ceil 2), 1.7 (floor 1), 3.6
def test_held_out_count_is_the_nearest_tenth(N, n_val):
    tr, va = arrays.held_out(N, None, "d.npz")
    assert (len(tr), len(va)) == (N - n_val, n_val)
    assert sorted(np.concatenate([tr, va])) == list(range(N))           # disjoint, every row once


def test_split_asking_for_more_rows_than_the_file_holds_is_refused(tmp_path):
    np.savez(tmp_path / "d.npz", x=np.zeros((5, 3), np.float32), y=np.array([0, 1, 0, 1, 0]))
    with pytest.raises(UserError, match="asks for 6 sequences .* holds only 5"):
        build(tmp_path / "d.npz", split="4/2")


def test_x_val_sets_batch_with_their_own_lengths(tmp_path):
    T = 6
    x, lengths = np.ones((4, T, 2), np.float32), np.array([1, 2, 3, 4])
    xv, lengths_val = np.ones((3, T, 2), np.float32), np.array([6, 5, 4])
    np.savez(tmp_path / "d.npz", x=x, y=np.array([0, 1, 1, 0]), lengths=lengths,
             x_val=xv, y_val=np.array([1, 0, 1]), lengths_val=lengths_val)
    t = build(tmp_path / "d.npz")
    assert (t.size("train"), t.size("val")) == (4, 3)
    np.testing.assert_array_equal(t.batch("train", np.arange(4))[2], lengths)
    np.testing.assert_array_equal(t.batch("val", np.array([2, 0]))[2], lengths_val[[2, 0]])
