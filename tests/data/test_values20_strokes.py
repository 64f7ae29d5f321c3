"""Counts and sizes of the stroke tasks' data against their definitions: a reader's steps (each line's
whole N points, the longest of both splits), the width of a text batch whose lines have no text (one
column of code 0), the sequences of a packed stroke-3 file (exactly one per length, as long as it says),
the npz task's lengths (one integer per sequence: an (N, 1) array is refused), and a dropped point's
pen lift (moved to the kept point before it, the last one included)."""
import numpy as np
import pytest

from lnrnn.data import strokes as S
from lnrnn.data import stroke_files
from lnrnn.data.arrays import check_arrays
from lnrnn.errors import DataError


def line(n, seed=0):
    """(n, 3) stroke-3 of small steps, the pen lifted after the last point."""
    rng = np.random.default_rng(seed)
    seq = np.zeros((n, 3))
    seq[1:, :2] = rng.normal(0, 3.0, (n - 1, 2))
    seq[-1, 2] = 1.0
    return seq


def test_a_readers_steps_are_the_longest_lines_points_over_both_splits():
    train = [line(5, 1), line(7, 2), line(4, 3)]
    val = [line(9, 4), line(3, 5)]                       # the longest line is a validation one: 9 points
    task = S.make_task({"task": "strokes-hershey", "head": "ctc"}, "test",
                       S.RawSplit(train, texts=["ab", "ba", "a"]), S.RawSplit(val, texts=["b", "ab"]))
    assert isinstance(task, S.ReadingTask)
    assert task.steps == 9                                # a reader reads every point: N steps, not N - 1
    x, _, lengths = task.batch("val", [0, 1])
    assert x.shape[0] == task.steps and list(lengths) == [9, 3]
    x, _, lengths = task.batch("train", [0, 1, 2])
    assert list(lengths) == [5, 7, 4] and x.shape[0] == 7

    plain = S.make_task({"task": "strokes-hershey"}, "test", S.RawSplit(train, texts=["ab", "ba", "a"]),
                        S.RawSplit(val, texts=["b", "ab"]))
    assert plain.steps == 8                               # next-point prediction: N - 1 steps


def test_a_text_batch_of_lines_without_text_has_one_column_of_code_0():
    task = S.make_task({"task": "strokes-hershey"}, "test", S.RawSplit([line(5, 1), line(6, 2)], texts=["ab", ""]),
                       S.RawSplit([line(4, 3), line(5, 4)], texts=["", ""]))
    codes, ulen = task.text_batch("val", [0, 1])
    assert codes.shape == (2, 1) and codes.tolist() == [[0], [0]] and ulen.tolist() == [0, 0]
    codes, ulen = task.text_batch("train", [1, 0])
    assert codes.shape == (2, 2) and ulen.tolist() == [0, 2]
    assert codes[1].tolist() == [task.alphabet.index("a"), task.alphabet.index("b")] and codes[0].tolist() == [0, 0]


def test_a_packed_file_holds_one_sequence_per_length(tmp_path):
    lens = [3, 1, 4]
    seqs = [line(n, k) for k, n in enumerate(lens)]
    path = tmp_path / "packed.npz"
    stroke_files.save_npz(path, seqs)
    got = stroke_files.load(str(path))["all"]
    assert [len(s) for s in got] == lens
    for a, b in zip(got, seqs):
        np.testing.assert_array_equal(a, b)
    lines = stroke_files.read_lines(str(path))            # the reader's view of the same file
    assert [len(s) for s in lines] == lens

    split = tmp_path / "split.npz"
    stroke_files.save_npz(split, seqs[:2], seqs[2:])
    parts = stroke_files.load(str(split))
    assert [len(s) for s in parts["train"]] == [3, 1] and [len(s) for s in parts["val"]] == [4]


def test_lengths_of_shape_n_by_1_are_refused():
    x = np.zeros((3, 4, 2))
    y = np.array([0, 1, 0])
    assert check_arrays({"x": x, "y": y, "lengths": np.array([4, 2, 3])})["lengths"].tolist() == [4, 2, 3]
    with pytest.raises(DataError, match="lengths must be 3 integers"):
        check_arrays({"x": x, "y": y, "lengths": np.array([[4], [2], [3]])})
    with pytest.raises(DataError, match="lengths_val must be 2 integers"):
        check_arrays({"x": x, "y": y, "x_val": x[:2], "y_val": y[:2], "lengths_val": np.array([[4], [2]])})


def test_a_dropped_points_pen_lift_moves_to_the_kept_point_before_it():
    seq = np.zeros((6, 3))
    seq[1:, 0] = 1.0
    seq[2] = [5 * S.GLITCH_STEP, 0.0, 1.0]              # dropped, and it lifted the pen
    seq[5] = [5 * S.GLITCH_STEP, 0.0, 1.0]              # the last point dropped, lifting the pen
    out, dropped = S.drop_long_steps(seq)
    assert dropped == 2
    np.testing.assert_array_equal(out[:, 2], [0, 1, 0, 1])   # rows 0, 1, 3, 4: lifts after rows 1 and 4
    np.testing.assert_array_equal(out[:, 0], [0, 1, 1, 1])
