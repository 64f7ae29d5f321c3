"""lnrnn/data/stroke_files.py on files written here with NumPy: an object-array file of train + val (the other
name of sketch-rnn's valid) loads row for row; a strokes + lengths file of N sequences is split with every
sequence on exactly one side and the held-out count min(N - 1, max(1, round(VAL_FRACTION N))) at awkward N
(round half to even: 15 -> 2, 25 -> 2); rows come back as the float64 values saved, not rounded."""
import numpy as np
import pytest

from lnrnn.data import stroke_files as F
from lnrnn.data.strokes import VAL_FRACTION
from lnrnn.data.tasks import load_task, task_spec


def seq(n, k):
    rng = np.random.default_rng(k)
    s = np.column_stack([rng.normal(0, 3, n), rng.normal(0, 2, n), np.zeros(n)])
    s[0, :2] = 0.0
    s[-1, 2] = 1.0
    return s


def objects(seqs):
    a = np.empty(len(seqs), object)
    for i, s in enumerate(seqs):
        a[i] = s
    return a


def test_object_train_and_val_load_row_for_row(tmp_path):
    train, val = [seq(4, 0), seq(7, 1)], [seq(3, 2)]
    path = tmp_path / "sk.npz"
    np.savez(path, train=objects(train), val=objects(val))
    got = F.load(str(path), allow_pickle=True)
    assert sorted(got) == ["train", "val"]
    for want, have in ((train, got["train"]), (val, got["val"])):
        assert len(want) == len(have) and all(np.array_equal(a, b) for a, b in zip(want, have))


@pytest.mark.parametrize("n", [2, 5, 15, 25])
def test_every_sequence_lands_on_one_side_with_the_defined_held_out_count(tmp_path, n):
    seqs = [seq(3 + i, i) for i in range(n)]          # lengths 3 .. n + 2 tell the sequences apart
    path = tmp_path / "s.npz"
    F.save_npz(path, seqs)
    t = load_task(task_spec("strokes-npz", str(path)))
    sizes = sorted(int(np.diff(t.sets[w].starts)[i]) for w in ("train", "val") for i in range(t.size(w)))
    assert sizes == [len(s) for s in seqs]
    assert t.size("val") == min(n - 1, max(1, round(VAL_FRACTION * n)))


def test_rows_come_back_as_the_float64_values_saved(tmp_path):
    s = seq(6, 7)
    s[1:, :2] += 1e-9 * np.arange(1, 6)[:, None]      # below float32's resolution at these magnitudes
    path = tmp_path / "p.npz"
    F.save_npz(path, [s, seq(3, 8)])
    got = F.load(str(path))["all"]
    assert got[0].dtype == np.float64 and np.array_equal(got[0], s)
    assert np.array_equal(F.read_lines(str(path))[0], s)
