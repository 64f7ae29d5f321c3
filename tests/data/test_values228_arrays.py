"""Your arrays (the npz task) against their definitions at awkward sizes: refusals of lengths past T, of y of the
wrong shape and of x_val with another input count, word for word at N != T != I; the refusal of a label past
MAX_CLASSES naming the set that holds it, the classes it would make (largest label + 1) and the distinct labels of
every split counted here, both past a power of ten; class labels int64 and regression targets float32 whatever
the stored dtype; arrays given as None (what fit() passes) counted as absent; batches of the held-out split in the
dtype asked for, element by element against the seed-0 permutation drawn here."""
import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.errors import DataError

from test_values220_arrays import _load  # tasks.load_task of an npz file's spec


def _refusal(given):
    with pytest.raises(DataError) as e:
        arrays.check_arrays(given)
    return str(e.value)


def test_lengths_past_the_steps_refused_naming_t():
    N, T = 3, 5                                                  # N != T: a message naming N says 3
    x = np.zeros((N, T), np.float32)
    y = np.array([0, 1, 0])
    for bad, lengths in ((6, [2, 6, 5]), (0, [0, 5, 5])):
        assert _refusal({"x": x, "y": y, "lengths": np.array(lengths)}) == (
            f"the arrays: lengths must lie between 1 and T=5, but one is {bad}.")
    xv = np.zeros((7, 4, 1), np.float32)                         # validation: its own N 7 and T 4
    assert _refusal({"x": x, "y": y, "x_val": xv, "y_val": np.arange(7) % 2,
                     "lengths_val": np.array([1, 2, 3, 4, 5, 4, 4])}) == (
        "the arrays: lengths_val must lie between 1 and T=4, but one is 5.")
    ok = arrays.check_arrays({"x": x, "y": y, "lengths": np.array([1, 5, 3], np.int32)})
    assert ok["lengths"].tolist() == [1, 5, 3] and ok["lengths"].dtype == np.int64


def test_targets_of_the_wrong_shape_refused_as_n_by_t():
    x = np.zeros((3, 5, 2), np.float32)                          # N 3, T 5
    assert _refusal({"x": x, "y": np.zeros(5, np.int64)}) == (
        "the arrays: y must be (3,) (one target per sequence) or (3, 5) (one per step) to match x, not shape (5,).")
    assert _refusal({"x": x, "y": np.zeros((5, 3), np.int64)}) == (
        "the arrays: y must be (3,) (one target per sequence) or (3, 5) (one per step) to match x, not shape (5, 3).")
    assert _refusal({"x": x, "y": np.array([0, 1, 0]), "x_val": np.zeros((4, 7, 2)), "y_val": np.zeros((7, 4))}) == (
        "the arrays: y_val must be (4,) (one target per sequence) or (4, 7) (one per step) to match x, not shape "
        "(7, 4).")


def test_validation_inputs_of_another_count_refused_by_their_count():
    x = np.zeros((4, 5, 2), np.float32)                          # I 2
    xv = np.zeros((3, 7, 3), np.float32)                         # I 3 (T 7, N 3: neither may stand in for it)
    assert _refusal({"x": x, "y": np.arange(4) % 2, "x_val": xv, "y_val": np.array([0, 1, 1])}) == (
        "the arrays: x has 2 inputs per step but x_val has 3; they must match.")


def _too_many_classes(name, top, distinct):
    return (f"the arrays: {name} holds the label {top}, out of range: classes are numbered 0..C-1, so it would make "
            f"{top + 1:,} classes (at most {arrays.MAX_CLASSES:,}) where y holds {distinct:,} distinct labels; "
            "renumber them (numpy.unique(y, return_inverse=True)), or pass --objective mse for regression.")


@pytest.mark.parametrize("where", ["y", "y_val"])
def test_label_past_max_classes_names_its_set_and_counts(where):
    assert arrays.MAX_CLASSES == 100_000
    y = np.arange(1200, dtype=np.int64)                          # 1200 labels, past 999 and 1000
    y_val = np.array([0, 1, 2, 5], np.int64)
    top = 123_456
    (y if where == "y" else y_val)[-1] = top
    distinct = len(set(y.tolist()) | set(y_val.tolist()))        # every split's labels
    assert distinct == (1200 if where == "y" else 1201)
    given = {"x": np.zeros((1200, 2), np.float32), "y": y, "x_val": np.zeros((4, 3), np.float32), "y_val": y_val}
    assert _refusal(given) == _too_many_classes(where, top, distinct)
    y[-1] = arrays.MAX_CLASSES                                   # label 100000: 100,001 classes, one too many
    if where == "y_val":
        y[-1], y_val[-1] = 1199, arrays.MAX_CLASSES
    assert _refusal(given) == _too_many_classes(where, arrays.MAX_CLASSES, distinct)
    alone = {"x": np.zeros((1200, 2), np.float32), "y": np.arange(1200) * 97}   # no validation set: named y
    assert _refusal(alone) == _too_many_classes("y", 1199 * 97, 1200)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.uint64])
def test_class_labels_come_out_int64(dtype):
    y, y_val = np.array([0, 3, 1, 2, 3]).astype(dtype), np.array([1, 4]).astype(dtype)
    d = arrays.check_arrays({"x": np.zeros((5, 3)), "y": y, "x_val": np.zeros((2, 3)), "y_val": y_val})
    assert d["y"].dtype == np.int64 and d["y_val"].dtype == np.int64
    assert d["y"].tolist() == [0, 3, 1, 2, 3] and d["y_val"].tolist() == [1, 4] and d["num_classes"] == 5


@pytest.mark.parametrize("dtype", [np.float64, np.float16])
def test_regression_targets_come_out_float32(dtype, tmp_path):
    y, y_val = np.array([0.1, -2.5, 7.0]).astype(dtype), np.array([0.3, 1e3]).astype(dtype)
    d = arrays.check_arrays({"x": np.zeros((3, 2)), "y": y, "x_val": np.zeros((2, 2)), "y_val": y_val})
    assert d["y"].dtype == np.float32 and d["y_val"].dtype == np.float32 and d["num_classes"] == 1
    np.testing.assert_array_equal(d["y"], y.astype(np.float32))
    np.testing.assert_array_equal(d["y_val"], y_val.astype(np.float32))
    path = tmp_path / "r.npz"
    np.savez(path, x=np.zeros((3, 2)), y=y, x_val=np.zeros((2, 2)), y_val=y_val)
    task = _load(path)
    assert task.y_train.dtype == np.float32 and task.y_val.dtype == np.float32 and task.objective == "mse"


def test_arrays_given_as_none_are_absent():
    x, y = np.arange(12.0).reshape(4, 3), np.array([0, 1, 1, 0])
    d = arrays.check_arrays({"x": x, "y": y, "lengths": None, "x_val": None, "y_val": None, "lengths_val": None},
                            "fit()")
    assert "x_val" not in d and "y_val" not in d and d["lengths"] is None and d["num_classes"] == 2
    np.testing.assert_array_equal(d["x"], x[:, :, None])
    with_val = arrays.check_arrays({"x": x, "y": y, "x_val": x[:2], "y_val": y[:2], "lengths_val": None})
    assert with_val["lengths_val"] is None and with_val["y_val"].tolist() == [0, 1]


@pytest.mark.parametrize("with_lengths", [True, False])
def test_held_out_batches_in_the_dtype_asked_for(tmp_path, with_lengths):
    N, T, I = 13, 3, 2                                           # 10% of 13 is 1.3: one held out
    x = (np.arange(N * T * I).reshape(N, T, I) * 0.1).astype(np.float64)   # 0.1 steps: not float32 numbers
    y = np.arange(N) % 4
    lengths = np.arange(N) % T + 1
    path = tmp_path / "f.npz"
    np.savez(path, x=x, y=y, **({"lengths": lengths} if with_lengths else {}))
    task = _load(path)
    perm = np.random.default_rng(0).permutation(N)
    for which, rows in (("train", perm[:12]), ("val", perm[12:])):
        idx = np.arange(len(rows))[::-1]
        got = task.batch(which, idx, np.float64)
        assert len(got) == (3 if with_lengths else 2)
        xb = got[0]
        assert xb.dtype == np.float64 and xb.shape == (T, len(rows), I) and xb.flags["C_CONTIGUOUS"]
        for j, i in enumerate(idx):
            np.testing.assert_array_equal(xb[:, j], x[rows[i]])
            assert got[1][j] == y[rows[i]]
            if with_lengths:
                assert got[2][j] == lengths[rows[i]]
        assert task.batch(which, idx)[0].dtype == np.float32
