"""Your own arrays: files with no arrays, missing files and folders refused word for word, per-step labels that
make no class, and held-out batches (x, y and lengths element by element) against the fixed-seed split drawn
here at an awkward N."""
import numpy as np
import pytest

from lnrnn.data import arrays, tasks
from lnrnn.errors import DataError


def _load(path, **kw):
    return tasks.load_task(tasks.task_spec("npz", data_dir=str(path), **kw))


def test_empty_npz_is_read_and_lacks_x_and_y(tmp_path):
    path = tmp_path / "empty.npz"
    np.savez(path)                                   # a zip of no arrays: the end record only
    assert open(path, "rb").read(4) == b"PK\x05\x06"
    assert arrays.numpy_kind(path) == "npz"
    assert arrays.read_file(path) == {}
    with pytest.raises(DataError) as e:
        _load(path)
    assert str(e.value) == (f"{path} lacks x and y: the npz task needs x (N, T, I) or (N, T) and y (N,) or (N, T).")


def test_missing_file_and_folder_refusals(tmp_path):
    missing = tmp_path / "nothing.npz"
    with pytest.raises(DataError) as e:
        arrays.read_file(missing)
    assert str(e.value) == f"data file {missing} does not exist."
    with pytest.raises(DataError) as e:
        arrays.read_file(tmp_path)
    assert str(e.value) == f"--data-dir {tmp_path} is a folder; the npz task reads one .npz file: pass its path."


@pytest.mark.parametrize("fill,count", [(-1, "0 classes"), (0, "1 class")])
def test_per_step_labels_making_too_few_classes(fill, count):
    y = np.full((3, 4), fill, np.int64)
    with pytest.raises(DataError) as e:
        arrays.check_arrays({"x": np.zeros((3, 4), np.float32), "y": y})
    assert str(e.value) == (f"the arrays: y holds {count}; a classifier needs at least 2 (labels 0..C-1), or pass "
                            "--objective mse for regression.")


@pytest.mark.parametrize("split,a,b", [(None, 6, 1), ("3/2", 3, 2)])
def test_held_out_batches_element_by_element(tmp_path, split, a, b):
    N, T, I = 7, 5, 2
    rng = np.random.default_rng(3)
    x = rng.normal(size=(N, T, I)).astype(np.float32)
    y = np.arange(N) % 3
    lengths = np.array([5, 1, 3, 4, 2, 5, 3])
    path = tmp_path / "mine.npz"
    np.savez(path, x=x, y=y, lengths=lengths)
    d = _load(path, split=split)
    perm = np.random.default_rng(0).permutation(N)       # 10% of 7 rounds to 1 held out without --split
    for which, rows in (("train", perm[:a]), ("val", perm[a:a + b])):
        idx = np.arange(len(rows))[::-1]
        xb, yb, lb = d.batch(which, idx)
        assert xb.shape == (T, len(rows), I)
        for j, i in enumerate(idx):
            np.testing.assert_array_equal(xb[:, j], x[rows[i]])
            assert yb[j] == y[rows[i]] and lb[j] == lengths[rows[i]]
    assert d.description.endswith(f"{a} train / {b} validation (held out from x by a fixed seed)")
