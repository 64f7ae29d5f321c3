"""lnrnn/data/stroke_files.py on .npy/.npz files written here: object arrays (which need pickle) refused by load,
by the strokes-npz task without its allow_pickle option and by read_lines, each in its one exact sentence, and
read back sequence by sequence where the task option allows them; save_npz's train/val file and a points +
lengths file read back row by row against the arrays written, the lengths cutting where their cumulative sums
say."""
import numpy as np
import pytest

from lnrnn.data import stroke_files as F
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError
from test_values135_stroke_files import objects


def seq(n, k):
    s = np.zeros((n, 3))
    s[:, 0] = np.arange(n) + k
    s[:, 1] = -np.arange(n) * 0.5 - k
    s[n // 2, 2] = 1.0
    s[-1, 2] = 1.0
    return s


def test_object_arrays_are_refused_by_load_unless_allowed(tmp_path):
    seqs = [seq(4, 1), seq(7, 2), seq(5, 3)]
    path = tmp_path / "obj.npy"
    np.save(path, objects(seqs), allow_pickle=True)
    with pytest.raises(DataError) as e:
        F.load(str(path))
    assert str(e.value) == f"{path} holds object arrays that need pickle, which can run arbitrary code; {F.PICKLE_HINT}."
    got = F.load(str(path), allow_pickle=True)["all"]
    assert len(got) == 3 and all(np.array_equal(a, b) for a, b in zip(got, seqs))


def test_the_task_refuses_pickle_unless_its_option_allows_it(tmp_path):
    seqs = [seq(3 + i, i) for i in range(6)]
    path = tmp_path / "obj.npy"
    np.save(path, objects(seqs), allow_pickle=True)
    with pytest.raises(DataError) as e:
        load_task(task_spec("strokes-npz", str(path)))
    assert str(e.value) == f"{path} holds object arrays that need pickle, which can run arbitrary code; {F.PICKLE_HINT}."
    t = load_task(task_spec("strokes-npz", str(path), allow_pickle=True))
    sizes = sorted(int(np.diff(t.sets[w].starts)[i]) for w in ("train", "val") for i in range(t.size(w)))
    assert sizes == [len(s) for s in seqs]


def test_read_lines_refuses_object_arrays_in_one_sentence(tmp_path):
    path = tmp_path / "obj.npy"
    np.save(path, objects([seq(4, 1), seq(3, 2)]), allow_pickle=True)
    with pytest.raises(DataError) as e:
        F.read_lines(str(path))
    assert str(e.value) == (f"{path} holds object arrays, which need pickle and are not read; save the lines as "
                            "points (S, 3) and lengths (n,) arrays in an .npz.")


def test_written_files_read_back_row_by_row(tmp_path):
    train, val = [seq(4, 1), seq(6, 2), seq(3, 3)], [seq(5, 4), seq(2, 5)]
    path = tmp_path / "tv.npz"
    F.save_npz(path, train, val)
    with np.load(path) as z:
        assert sorted(z.files) == ["train_lengths", "train_strokes", "val_lengths", "val_strokes"]
        assert z["train_lengths"].tolist() == [4, 6, 3] and z["val_strokes"].shape == (7, 3)
    got = F.load(str(path))
    for want, have in ((train, got["train"]), (val, got["val"])):
        assert len(want) == len(have) and all(np.array_equal(a, b) for a, b in zip(want, have))
    lines = [seq(3, 7), seq(5, 8)]
    pl = tmp_path / "pl.npz"
    np.savez(pl, points=np.concatenate(lines), lengths=np.array([3, 5]))
    back = F.read_lines(str(pl))
    assert len(back) == 2 and all(np.array_equal(a, b) for a, b in zip(back, lines))
