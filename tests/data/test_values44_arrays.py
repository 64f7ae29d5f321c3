"""lnrnn/data/arrays.py (the npz task) in numbers: the held-out split's sizes at awkward N (round(0.1 N)
validation sequences, at least one, and every other sequence in training: no sequence in neither split), an
(N, T) x read as T steps of one input, and the classes counted over both splits' labels."""
import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError

# N -> validation sequences held out by hand: round(0.1 N), at least 1
HELD = {2: 1, 3: 1, 7: 1, 10: 1, 11: 1, 16: 2, 99: 10, 101: 10, 1000: 100}


@pytest.mark.parametrize("N", sorted(HELD))
def test_held_out_sizes_cover_every_sequence(N):
    assert arrays.VAL_FRACTION == 0.1
    tr, va = arrays.held_out(N, None, "f.npz")
    assert len(va) == HELD[N] and len(tr) == N - HELD[N]
    assert sorted(np.concatenate([tr, va]).tolist()) == list(range(N))   # each sequence in exactly one split


def test_held_out_of_one_sequence_is_refused():
    with pytest.raises(DataError, match="at least 2"):
        arrays.held_out(1, None, "f.npz")


@pytest.mark.parametrize("N, split", [(11, (7, 3)), (3, (2, 1)), (101, (90, 11))])
def test_held_out_split_counts(N, split):
    tr, va = arrays.held_out(N, split, "f.npz")
    assert (len(tr), len(va)) == split and not set(tr.tolist()) & set(va.tolist())


@pytest.mark.parametrize("N", [11, 101])
def test_npz_task_holds_out_at_awkward_n(tmp_path, N):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(N, 4, 2)).astype(np.float32)
    x[:, 0, 0] = np.arange(N)                                      # each sequence's number in its first input
    y = np.arange(N) % 3
    np.savez(tmp_path / "d.npz", x=x, y=y)
    t = load_task(task_spec("npz", str(tmp_path / "d.npz")))
    assert t.size("train") == N - HELD[N] and t.size("val") == HELD[N]
    assert f"{N - HELD[N]} train / {HELD[N]} validation" in t.description
    seen = np.concatenate([t.x_train[:, 0, 0], t.x_val[:, 0, 0]])
    assert sorted(seen.astype(int).tolist()) == list(range(N))
    np.testing.assert_array_equal(t.y_train, t.x_train[:, 0, 0].astype(int) % 3)


def test_two_dimensional_x_is_t_steps_of_one_input(tmp_path):
    x = np.arange(5 * 6, dtype=np.float32).reshape(5, 6)              # N 5, T 6
    y = np.array([0, 1, 0, 1, 1])
    xv = np.arange(2 * 3, dtype=np.float32).reshape(2, 3) + 100      # T may differ for validation
    np.savez(tmp_path / "d.npz", x=x, y=y, x_val=xv, y_val=np.array([1, 0]))
    t = load_task(task_spec("npz", str(tmp_path / "d.npz")))
    assert t.steps == 6 and t.input_size == 1
    assert t.x_train.shape == (5, 6, 1) and t.x_val.shape == (2, 3, 1)
    xb, yb = t.batch("train", np.array([3, 0]))
    assert xb.shape == (6, 2, 1)                                   # (T, B, I)
    np.testing.assert_array_equal(xb[:, :, 0], x[[3, 0]].T)
    assert "6 steps of 1 input," in t.description
    d = arrays.check_arrays({"x": x, "y": y})
    assert d["x"].shape == (5, 6, 1) and d["x"][2, :, 0].tolist() == x[2].tolist()


def test_classes_count_the_labels_of_both_splits():
    x = np.zeros((4, 3, 1), np.float32)
    d = arrays.check_arrays({"x": x, "y": np.array([0, 1, 0, 1]), "x_val": x[:2], "y_val": np.array([4, 0])})
    assert d["num_classes"] == 5                                   # class 4 only in validation
    d = arrays.check_arrays({"x": x, "y": np.array([[0, -1, 2]] * 4), "x_val": x[:1],
                             "y_val": np.array([[-1, 6, 1]])})
    assert d["num_classes"] == 7 and d["per_step"]
