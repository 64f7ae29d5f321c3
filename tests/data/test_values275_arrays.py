"""The npz task counted and refused against hand computations: --split 5/2 of 11 sequences taking the first 5 of
the seed-0 permutation for training and the next 2 for validation (in that order); the held-out sizes at N = 14
and 36 (the nearest whole number to a tenth: 1 and 4); a file's own lengths_val read and carried by the
validation batches; the description's steps and inputs at T = 4, I = 3 (and I = 1 in the singular); and the
refusals of a file lacking x and y, of a file of one sequence and of a text file, word for word, with nothing
written beside the file."""
import os

import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data.splits import parse_split
from lnrnn.errors import DataError
from test_values220_arrays import _load  # tasks.load_task of an npz file's spec


def _refused(tmp_path, path, **kw):
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(DataError) as e:
        _load(path, **kw)
    assert sorted(os.listdir(tmp_path)) == before           # nothing written
    return str(e.value)


def _numbered(tmp_path, N, I=1):
    """x[n] holds n on every step, so a split's sequences are read off x[:, 0, 0]."""
    x = np.repeat(np.arange(N, dtype=np.float32)[:, None, None], 3, axis=1).repeat(I, axis=2)   # (N, 3, I)
    y = (np.arange(N) % 2).astype(np.int64)
    path = tmp_path / "d.npz"
    np.savez(path, x=x, y=y)
    return path


def test_split_counts_taken_in_their_order():
    assert parse_split("5/2") == (5, 2)
    assert parse_split("1/30") == (1, 30)


def test_split_five_two_of_eleven_is_the_permutations_first_five_then_two(tmp_path):
    task = _load(_numbered(tmp_path, 11), split="5/2")
    perm = np.random.default_rng(0).permutation(11)
    assert task.x_train[:, 0, 0].tolist() == perm[:5].tolist()
    assert task.x_val[:, 0, 0].tolist() == perm[5:7].tolist()
    assert task.y_train.tolist() == (perm[:5] % 2).tolist()


@pytest.mark.parametrize("N, n_val", [(14, 1), (36, 4)])    # 1.4 -> 1, 3.6 -> 4 (a fifth would give 3 and 7)
def test_held_out_a_tenth_at_awkward_sizes(tmp_path, N, n_val):
    task = _load(_numbered(tmp_path, N))
    perm = np.random.default_rng(0).permutation(N)
    assert (len(task.x_train), len(task.x_val)) == (N - n_val, n_val)
    assert task.x_val[:, 0, 0].tolist() == perm[N - n_val:].tolist()
    assert f"{N - n_val} train / {n_val} validation (held out from x by a fixed seed)" in task.description


def test_own_lengths_val_read_and_carried_by_validation_batches(tmp_path):
    path = tmp_path / "own.npz"
    np.savez(path, x=np.ones((4, 3), np.float32), y=np.array([0, 1, 0, 1]), lengths=np.array([3, 2, 1, 3]),
             x_val=np.ones((3, 3), np.float32), y_val=np.array([1, 0, 1]), lengths_val=np.array([2, 3, 1]))
    task = _load(path)
    assert task.batch("val", np.array([0, 2]))[2].tolist() == [2, 1]
    assert task.batch("train", np.array([1, 3]))[2].tolist() == [2, 3]


@pytest.mark.parametrize("I, inputs", [(3, "3 inputs"), (1, "1 input")])
def test_description_says_steps_then_inputs(tmp_path, I, inputs):
    path = tmp_path / "d.npz"
    np.savez(path, x=np.zeros((5, 4, I), np.float32), y=np.array([0, 1, 0, 1, 1]))
    task = _load(path)                                         # 5 sequences: 0.5 rounds to 0, at least 1 held out
    assert task.description == (f"your sequences from {path}: 4 steps of {inputs}, 2 classes; "
                                "4 train / 1 validation (held out from x by a fixed seed)")


def test_file_lacking_x_and_y_refused_naming_both(tmp_path):
    path = tmp_path / "only.npz"
    np.savez(path, lengths=np.array([1, 2]))
    assert _refused(tmp_path, path) == (f"{path} lacks x and y: the npz task needs x (N, T, I) or (N, T) and "
                                        "y (N,) or (N, T).")


def test_one_sequence_refused_in_the_singular(tmp_path):
    path = tmp_path / "one.npz"
    np.savez(path, x=np.zeros((1, 4), np.float32), y=np.array([1]))
    assert _refused(tmp_path, path) == (f"{path} holds 1 sequence; holding some out for validation needs at "
                                        "least 2 (or give x_val, y_val).")


def test_text_and_binary_files_refused_saying_which(tmp_path):
    text = tmp_path / "d.csv"
    text.write_bytes(b"x,y\n1,2\n")
    assert _refused(tmp_path, text) == (
        f"{text} is not a NumPy .npy or .npz (zip) file (text b'x,y\\n1,'...); the npz task reads an .npz (zip) "
        "file of named arrays: save them with numpy.savez(path, x=..., y=...).")
    raw = tmp_path / "d.bin"
    raw.write_bytes(b"\x00\x01\x02")
    assert arrays.numpy_kind(raw) == "is not a NumPy .npy or .npz (zip) file (it begins with bytes b'\\x00\\x01\\x02')"
