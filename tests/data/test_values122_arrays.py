"""lnrnn/data/arrays.py (the npz task) on files written here: a file that is no .npy or .npz is described by
its first six bytes, as text when every byte is printable or whitespace, with '...' when the file goes on; a
file with arrays the task does not read is refused naming those arrays only; a file with every optional array
(x_val, y_val, lengths, lengths_val, per-step labels with -1) comes back as its definition says: each set's own
labels, lengths as int64 whatever their stored integer dtype, classes counted over both sets."""
import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError


def _expected_description(data):
    """What the message says of a file's beginning, from the definition: six bytes, text or bytes, '...' when
    the file is longer than what is quoted."""
    head = data[:6]
    text = all(32 <= c < 127 or c in (9, 10, 13) for c in head)
    return f"({'text' if text else 'it begins with bytes'} {head!r}{'...' if len(data) > 6 else ''})"


@pytest.mark.parametrize("data", [b"x y z\n1 2 3\n", b"a b", b"a,b\tc d e f g", b"\x00\x01 abc def", b"ab"])
def test_a_file_that_is_no_npz_is_described_by_its_first_bytes(tmp_path, data):
    path = tmp_path / "d.npz"
    path.write_bytes(data)
    with pytest.raises(DataError) as e:
        arrays.read_file(str(path))
    assert _expected_description(data) in str(e.value)
    assert "numpy.savez" in str(e.value)


def test_unknown_arrays_are_named_and_only_they(tmp_path):
    x, y = np.zeros((3, 4, 2), np.float32), np.array([0, 1, 0])
    extra = {"weights": np.ones(3), "labels": np.array([1, 2, 3])}
    np.savez(tmp_path / "d.npz", x=x, y=y, x_val=x, y_val=y, **extra)
    with pytest.raises(DataError) as e:
        arrays.read_file(str(tmp_path / "d.npz"))
    msg = str(e.value)
    unknown = sorted(set(extra))                                          # labels, weights
    assert f"has arrays {', '.join(unknown)} the npz task does not read" in msg
    head = msg.split(" the npz task does not read")[0]
    for k in ("x", "y", "x_val", "y_val"):
        assert f" {k}," not in head and not head.endswith(f" {k}")


def _every_array(rng, lengths_dtype, lengths_val_dtype):
    N, Nv, T, I = 13, 7, 5, 2
    x = rng.standard_normal((N, T, I)).astype(np.float32)
    xv = rng.standard_normal((Nv, T, I)).astype(np.float32)
    lengths = rng.integers(1, T + 1, N).astype(lengths_dtype)
    lengths_val = rng.integers(1, T + 1, Nv).astype(lengths_val_dtype)
    y = rng.integers(0, 3, (N, T))
    yv = rng.integers(0, 5, (Nv, T))                                      # the validation set holds classes 3, 4
    for ys, L in ((y, lengths), (yv, lengths_val)):
        for n, l in enumerate(L):
            ys[n, int(l):] = -1                                           # steps past a row's end are not scored
    yv[0, 0] = 4
    return dict(x=x, y=y, lengths=lengths, x_val=xv, y_val=yv, lengths_val=lengths_val)


@pytest.mark.parametrize("dtypes", [(np.uint8, np.int32), (np.int16, np.uint64), (np.int64, np.uint8)])
def test_every_optional_array_against_its_definition(tmp_path, dtypes):
    given = _every_array(np.random.default_rng(122), *dtypes)
    out = arrays.check_arrays(dict(given))
    for k in ("x", "x_val"):
        np.testing.assert_array_equal(out[k], given[k])
    for k in ("y", "y_val"):
        assert out[k].dtype == np.int64 and out[k].shape == given[k].shape
        np.testing.assert_array_equal(out[k], given[k])
    for k in ("lengths", "lengths_val"):
        assert out[k].dtype == np.int64
        np.testing.assert_array_equal(out[k], given[k].astype(np.int64))
    assert out["num_classes"] == max(given["y"].max(), given["y_val"].max()) + 1 == 5
    assert out["per_step"] is True and out["objective"] == "ce"

    np.savez(tmp_path / "d.npz", **given)
    task = load_task(task_spec("npz", data_dir=str(tmp_path / "d.npz")))
    for which, k in (("train", ""), ("val", "_val")):
        idx = np.arange(len(given["x" + k]))[::-1]
        xb, yb, L = task.batch(which, idx)
        np.testing.assert_array_equal(xb, given["x" + k][idx].transpose(1, 0, 2))
        np.testing.assert_array_equal(np.asarray(yb), given["y" + k][idx])
        assert L.dtype == np.int64
        np.testing.assert_array_equal(L, given["lengths" + k][idx].astype(np.int64))


def test_regression_targets_keep_each_sets_own_values():
    rng = np.random.default_rng(5)
    y, yv = rng.standard_normal(6), rng.standard_normal(3) + 10.0
    out = arrays.check_arrays({"x": np.zeros((6, 2)), "y": y, "x_val": np.zeros((3, 2)), "y_val": yv})
    assert out["objective"] == "mse" and out["num_classes"] == 1
    np.testing.assert_array_equal(out["y"], y.astype(np.float32))
    np.testing.assert_array_equal(out["y_val"], yv.astype(np.float32))
