"""lnrnn/data/stroke_files.py against files written here with numpy: an .npz with strokes but no lengths is
refused as a DataError naming its arrays; the file's own split saved as train_* + valid_* loads both splits
row for row; read_lines reads back the strokes + lengths file save_npz writes, line by line; an .npy saved
under an .npz name is refused naming the kind it is (.npy) and the suffix it has (.npz)."""
import numpy as np
import pytest

from lnrnn.data.stroke_files import load, read_lines, save_npz
from lnrnn.errors import DataError
from test_values116_stroke_files import assert_same  # sequence by sequence, bit for bit


def seqs(rng, sizes):
    out = []
    for n in sizes:
        s = rng.normal(size=(n, 3))
        s[:, 2] = rng.integers(0, 2, n)
        s[-1, 2] = 1.0
        out.append(s)
    return out


def test_strokes_without_lengths_are_refused_naming_the_arrays(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, strokes=np.zeros((4, 3)))
    with pytest.raises(DataError) as e:
        load(str(path))
    assert "has arrays strokes;" in str(e.value) and "strokes + lengths" in str(e.value)


def test_a_valid_split_packed_as_valid_star_loads_both_splits(tmp_path):
    rng = np.random.default_rng(126)
    train, val = seqs(rng, [3, 2]), seqs(rng, [4, 1, 2])
    path = tmp_path / "s.npz"
    np.savez(path, train_strokes=np.concatenate(train), train_lengths=np.array([3, 2]),
             valid_strokes=np.concatenate(val), valid_lengths=np.array([4, 1, 2]))
    parts = load(str(path))
    assert sorted(parts) == ["train", "val"]
    assert_same(parts["train"], train)
    assert_same(parts["val"], val)


def test_read_lines_reads_back_what_save_npz_writes(tmp_path):
    rng = np.random.default_rng(7)
    lines = seqs(rng, [2, 5, 1])
    path = tmp_path / "lines.npz"
    save_npz(path, lines)
    with np.load(path) as f:                     # save_npz's layout by its definition: strokes + lengths
        assert sorted(f.files) == ["lengths", "strokes"]
    assert_same(read_lines(path), lines)


def test_read_lines_names_the_kind_a_misnamed_file_is(tmp_path):
    path = tmp_path / "line.npz"
    with open(path, "wb") as f:
        np.save(f, np.zeros((3, 3)))             # an .npy's bytes under an .npz name
    with pytest.raises(DataError) as e:
        read_lines(path)
    msg = str(e.value)
    assert "is a .npy file; expected a .npz holding" in msg, msg
