"""lnrnn/data/stroke_files.py on odd files written here: rows that are not (dx, dy, pen) triples, an
infinite offset, a file's own train/validation split kept the right way round (sizes and lines), the held-out
count of a file of sequences at awkward n, the "strokes" name for read_lines' points and the line an error
names."""
import numpy as np
import pytest

from lnrnn.data.stroke_files import read_lines, save_npz
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError


def _line(N, k=0):
    seq = np.zeros((N, 3))
    seq[1:, 0] = np.arange(1, N) + k
    seq[1:, 1] = (-1.0) ** np.arange(1, N) * (k + 1)
    seq[-1, 2] = 1.0
    return seq


def test_rows_of_four_columns_are_refused(tmp_path):
    four = np.zeros((5, 4))
    four[-1, 2] = 1.0
    np.save(tmp_path / "four.npy", four)
    with pytest.raises(DataError, match=r"\(N, 3\)"):
        read_lines(tmp_path / "four.npy")
    np.savez(tmp_path / "four.npz", strokes=four, lengths=np.array([2, 3]))
    with pytest.raises(DataError, match=r"\(N, 3\)"):
        load_task(task_spec("strokes-npz", str(tmp_path / "four.npz")))
    two = np.zeros((5, 2))
    np.save(tmp_path / "two.npy", two)
    with pytest.raises(DataError, match=r"\(N, 3\)"):
        read_lines(tmp_path / "two.npy")


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_an_infinite_or_nan_offset_is_refused(tmp_path, bad):
    seq = _line(4)
    seq[2, 1] = bad
    np.save(tmp_path / "line.npy", seq)
    with pytest.raises(DataError, match="NaN or infinite"):
        read_lines(tmp_path / "line.npy")
    train = [_line(4, k) for k in range(4)]
    train[3] = seq
    save_npz(tmp_path / "all.npz", train)
    with pytest.raises(DataError, match="NaN or infinite"):
        load_task(task_spec("strokes-npz", str(tmp_path / "all.npz")))


def test_a_files_own_split_keeps_train_and_validation(tmp_path):
    train = [_line(3 + k % 3, k) for k in range(5)]
    val = [_line(6, 10 + k) for k in range(3)]
    save_npz(tmp_path / "own.npz", train, val)
    t = load_task(task_spec("strokes-npz", str(tmp_path / "own.npz")))
    assert (t.size("train"), t.size("val")) == (5, 3)
    assert "5 train / 3 validation lines" in t.description
    for which, lines in (("train", train), ("val", val)):
        for i, ln in enumerate(lines):
            np.testing.assert_allclose(t.line(which, i)[:, :2] * t.scale, ln[:, :2], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [2, 9, 15, 21])
def test_sequences_without_a_split_hold_out_a_tenth(tmp_path, n):
    seqs = [_line(3 + k % 4, k) for k in range(n)]
    save_npz(tmp_path / "all.npz", seqs)
    t = load_task(task_spec("strokes-npz", str(tmp_path / "all.npz")))
    n_val = min(n - 1, max(1, int(np.floor(0.1 * n + 0.5))))                 # a tenth, at least 1, never all
    # (no n here is 25, 45 ..., where rounding half up and to even part)
    assert (t.size("train"), t.size("val")) == (n - n_val, n_val)
    lens = sorted(len(t.line(w, i)) for w in ("train", "val") for i in range(t.size(w)))
    assert lens == sorted(len(s) for s in seqs)                              # every sequence once


def test_read_lines_takes_strokes_when_there_are_no_points(tmp_path):
    a, b = _line(3), _line(4, 2)
    np.savez(tmp_path / "s.npz", strokes=np.concatenate([a, b]), lengths=np.array([3, 4]))
    got = read_lines(tmp_path / "s.npz")
    assert [g.tolist() for g in got] == [a.tolist(), b.tolist()]
    with open(tmp_path / "one.NPZ", "wb") as f:                              # savez would add .npz
        np.savez(f, strokes=a)                                               # no lengths: one line
    assert [g.tolist() for g in read_lines(tmp_path / "one.NPZ")] == [a.tolist()]


@pytest.mark.parametrize("lengths, line", [([2, 3, 0, 1], 3), ([0, 6], 1), ([1, 1, 1, 3, 0], 5)])
def test_read_lines_names_the_empty_line(tmp_path, lengths, line):
    pts = np.zeros((sum(lengths), 3))
    pts[-1, 2] = 1.0
    np.savez(tmp_path / "lines.npz", points=pts, lengths=np.array(lengths))
    with pytest.raises(DataError, match=f"line {line} has no point"):
        read_lines(tmp_path / "lines.npz")
