"""lnrnn/data/arrays.py (the npz task) against what its docstring promises: boolean x read as 0/1, a
single NaN or infinity in y refused, the message for one half of x_val/y_val naming the half that is there,
lengths_val without x_val refused, each split's own lengths (checked, and handed out with its batches), unsigned
and boolean labels taken for classes counted over both splits, and held-out sizes at awkward N."""
import numpy as np
import pytest

from lnrnn.data.arrays import VAL_FRACTION, check_arrays
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError


def test_boolean_x_is_read_as_zeros_and_ones():
    x = np.array([[True, False, True], [False, False, True]])               # (N 2, T 3)
    out = check_arrays({"x": x, "y": np.array([0, 1])})
    assert out["x"].shape == (2, 3, 1) and out["x"].dtype == np.uint8
    assert out["x"][:, :, 0].tolist() == [[1, 0, 1], [0, 0, 1]]
    out = check_arrays({"x": np.zeros((2, 3, 2)), "y": np.zeros(2, np.int64) + [0, 1],
                        "x_val": np.ones((1, 4, 2), bool), "y_val": np.array([1])})
    assert out["x_val"].dtype == np.uint8 and (out["x_val"] == 1).all()


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("name", ["y", "y_val"])
def test_one_non_finite_target_is_refused(bad, name):
    arrays = {"x": np.zeros((4, 3)), "y": np.array([0.5, 1.0, 0.25, 2.0]),
              "x_val": np.zeros((3, 3)), "y_val": np.array([0.1, 0.2, 0.3])}
    arrays[name] = arrays[name].copy()
    arrays[name][1] = bad                                                    # one value of several
    with pytest.raises(DataError, match=f"{name} holds NaN or infinite"):
        check_arrays(arrays)
    per_step = {"x": np.zeros((2, 3)), "y": np.zeros((2, 3))}
    per_step["y"][1, 2] = bad
    with pytest.raises(DataError, match="NaN or infinite"):
        check_arrays(per_step)


def test_one_half_of_the_validation_pair_is_named():
    x, y = np.zeros((3, 2)), np.array([0, 1, 0])
    with pytest.raises(DataError, match="has y_val without x_val"):
        check_arrays({"x": x, "y": y, "y_val": y})
    with pytest.raises(DataError, match="has x_val without y_val"):
        check_arrays({"x": x, "y": y, "x_val": x})


def test_lengths_val_without_validation_arrays_is_refused():
    with pytest.raises(DataError, match="lengths_val but no x_val"):
        check_arrays({"x": np.zeros((3, 4)), "y": np.array([0, 1, 1]), "lengths_val": np.array([1, 2, 3])})


def _numbered(N, T, lengths):
    """x whose step 0 holds the sequence's number n, so a batch says which sequences it holds."""
    x = np.zeros((N, T, 1), np.float32)
    x[:, 0, 0] = np.arange(N)
    return x, np.asarray(lengths, np.int64)


def test_each_split_keeps_its_own_lengths_in_checks_and_batches(tmp_path):
    x, L = _numbered(6, 5, [1, 2, 3, 4, 5, 5])
    xv, Lv = _numbered(4, 3, [3, 1, 2, 3])
    out = check_arrays({"x": x, "y": np.arange(6) % 2, "lengths": L, "x_val": xv, "y_val": np.arange(4) % 2,
                        "lengths_val": Lv})
    assert out["lengths"].tolist() == L.tolist() and out["lengths_val"].tolist() == Lv.tolist()
    # lengths for x only: the validation sequences have none (they are T long), not x's
    out = check_arrays({"x": x, "y": np.arange(6) % 2, "lengths": L, "x_val": xv, "y_val": np.arange(4) % 2})
    assert out["lengths_val"] is None
    path = tmp_path / "own.npz"
    np.savez(path, x=x, y=np.arange(6) % 2, lengths=L, x_val=xv, y_val=np.arange(4) % 2, lengths_val=Lv)
    t = load_task(task_spec("npz", str(path)))
    for which, want, idx in (("train", L, [5, 0, 3]), ("val", Lv, [2, 0]), ("train", L, [1]), ("val", Lv, [3, 1])):
        xb, yb, lb = t.batch(which, np.array(idx))
        assert lb.tolist() == [int(want[int(n)]) for n in xb[0, :, 0]]        # each sequence's own length


@pytest.mark.parametrize("N", [2, 7, 13, 15, 16, 99])
def test_held_out_split_keeps_each_sequence_with_its_length_and_label(tmp_path, N):
    T = 4
    x, L = _numbered(N, T, 1 + np.arange(N) % T)
    y = (np.arange(N) * 7) % 3
    path = tmp_path / "held.npz"
    np.savez(path, x=x, y=y, lengths=L)
    t = load_task(task_spec("npz", str(path)))
    # VAL_FRACTION of N rounded, at least 1 (no N here is 25, 45 ..., where rounding half up and to even part)
    n_val = max(1, int(np.floor(N * VAL_FRACTION + 0.5)))
    assert (t.size("train"), t.size("val")) == (N - n_val, n_val)
    seen = []
    for which in ("train", "val"):
        idx = np.arange(t.size(which))
        xb, yb, lb = t.batch(which, idx)
        n = xb[0, :, 0].astype(int)
        seen += n.tolist()
        assert lb.tolist() == [1 + k % T for k in n]
        assert yb.tolist() == [(k * 7) % 3 for k in n]
    assert sorted(seen) == list(range(N))                                    # every sequence once
    assert f"{N - n_val} train / {n_val} validation" in t.description


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, bool])
def test_unsigned_and_boolean_labels_are_classes_counted_over_both_splits(dtype):
    x = np.zeros((4, 3))
    if dtype is bool:
        y, y_val, classes = np.array([0, 1, 0, 0], bool), np.array([1, 1], bool), 2
    else:
        y, y_val, classes = np.array([0, 2, 1, 2], dtype), np.array([4, 0], dtype), 5   # 4 only in y_val
    out = check_arrays({"x": x, "y": y, "x_val": x[:2], "y_val": y_val})
    assert out["objective"] == "ce"
    assert out["num_classes"] == classes
    assert out["y"].dtype == np.int64 and out["y"].tolist() == [int(v) for v in y]
    assert out["y_val"].tolist() == [int(v) for v in y_val]
    out = check_arrays({"x": x, "y": y.astype(np.float32)})                  # floats: regression
    assert out["objective"] == "mse" and out["num_classes"] == 1
