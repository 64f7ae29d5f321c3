"""lnrnn/data/arrays.py's checks of the npz task, one line each: x's rank, y's dtype, lengths and per-step
labels against T (the steps, not the inputs), y and y_val both per sequence or both per step, the distinct
labels of every split counted in the out-of-range message, an object array refused without pickle, and the
held-out split keeping each sequence's own label (found by a number written into the sequence)."""
import numpy as np
import pytest

from lnrnn.data.arrays import check_arrays, read_file
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError


@pytest.mark.parametrize("shape", [(4,), (4, 3, 2, 1)])
def test_x_of_rank_1_or_4_is_refused(shape):
    with pytest.raises(DataError, match=r"x must be \(N, T, I\) or \(N, T\), not an array of shape"):
        check_arrays({"x": np.zeros(shape), "y": np.array([0, 1, 0, 1])})


def test_complex_targets_are_refused():
    with pytest.raises(DataError, match="y must hold numbers, not complex128"):
        check_arrays({"x": np.zeros((3, 2)), "y": np.array([0, 1, 1], complex)})
    with pytest.raises(DataError, match="y_val must hold numbers, not complex64"):
        check_arrays({"x": np.zeros((3, 2)), "y": np.array([0, 1, 1]),
                      "x_val": np.zeros((2, 2)), "y_val": np.array([1, 0], np.complex64)})


def test_lengths_and_per_step_labels_are_checked_against_the_steps():
    N, T, I = 3, 5, 2                                        # T and I differ, so one cannot pass for the other
    x = np.zeros((N, T, I))
    out = check_arrays({"x": x, "y": np.array([0, 1, 0]), "lengths": np.array([5, 1, 3])})
    assert out["lengths"].tolist() == [5, 1, 3] and out["lengths"].dtype == np.int64
    with pytest.raises(DataError, match=f"lengths must lie between 1 and T={T}, but one is 6"):
        check_arrays({"x": x, "y": np.array([0, 1, 0]), "lengths": np.array([6, 1, 3])})
    y = np.arange(N * T).reshape(N, T) % 2                   # one label per step
    out = check_arrays({"x": x, "y": y})
    assert out["per_step"] and out["y"].shape == (N, T)
    with pytest.raises(DataError, match=rf"y must be \({N},\) .* or \({N}, {T}\)"):
        check_arrays({"x": x, "y": np.zeros((N, I), np.int64)})
    xv = np.zeros((2, 4, I))
    out = check_arrays({"x": x, "y": np.array([0, 1, 0]), "x_val": xv, "y_val": np.array([1, 0]),
                        "lengths_val": np.array([4, 2], np.int32)})
    assert out["lengths_val"].tolist() == [4, 2]


@pytest.mark.parametrize("per_step_y", [False, True])
def test_y_and_y_val_per_sequence_and_per_step_mixed_are_refused(per_step_y):
    x, xv = np.zeros((3, 4)), np.zeros((2, 4))
    y, yv = np.array([0, 1, 0]), np.array([1, 0])
    if per_step_y:
        y = np.zeros((3, 4), np.int64) + [0, 1, 0, 1]
    else:
        yv = np.zeros((2, 4), np.int64) + [0, 1, 1, 0]
    with pytest.raises(DataError, match="y and y_val must both be per sequence or both per step"):
        check_arrays({"x": x, "y": y, "x_val": xv, "y_val": yv})


def test_the_out_of_range_message_counts_the_labels_of_every_split():
    y, yv = np.array([0, 1, 1, 3]), np.array([2, 200_000, 5])
    distinct = len(set(y.tolist()) | set(yv.tolist()))       # 0 1 2 3 5 200000
    with pytest.raises(DataError, match=f"y_val holds the label 200000, .* where y holds {distinct} distinct"):
        check_arrays({"x": np.zeros((4, 2)), "y": y, "x_val": np.zeros((3, 2)), "y_val": yv})


def test_an_object_array_is_refused_naming_it(tmp_path):
    path = tmp_path / "obj.npz"
    np.savez(path, x=np.zeros((2, 3)), y=np.array([[1], [2, 3]], dtype=object))
    with pytest.raises(DataError, match="array y is an object array .*pickle"):
        read_file(path)


@pytest.mark.parametrize("N", [10, 23])
def test_held_out_sequences_keep_their_own_labels(tmp_path, N):
    T = 3
    x = np.zeros((N, T, 1), np.float32)
    x[:, 0, 0] = np.arange(N)                                # step 0 says which sequence it is
    y = (np.arange(N) * 7 + 2) % 5
    path = tmp_path / "own.npz"
    np.savez(path, x=x, y=y)
    t = load_task(task_spec("npz", str(path)))
    seen = []
    for which in ("train", "val"):
        xb, yb = t.batch(which, np.arange(t.size(which)))
        n = xb[0, :, 0].astype(int)
        assert yb.tolist() == y[n].tolist(), which
        seen += n.tolist()
    assert sorted(seen) == list(range(N))
