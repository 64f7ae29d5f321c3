"""Stroke files and stroke tasks against hand computations: a CTC-read batch of lines of 3 and 2 points padded
to the longer's 3 steps (the pen column unscaled, the padding zeros); the glitch threshold's default of 1000
source units (an offset (600, 800), 1000 long, kept; (600, 800.5) dropped, its pen lift moved back); and the
strokes-npz refusals word for word with nothing written: a folder of two files (one .npy, one .npz), an .npz of
a lone train array, lengths with a negative entry (its position counted from 0) and lengths adding up to more
rows than the strokes have."""
import os

import numpy as np
import pytest

from lnrnn.data import strokes as S
from lnrnn.data import stroke_files
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError
from test_values258_strokes import A, B, C  # lines of 3, 5 and 2 points


def _refused(tmp_path, data_dir):
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(DataError) as e:
        load_task(task_spec("strokes-npz", data_dir=str(data_dir)))
    assert sorted(os.listdir(tmp_path)) == before           # nothing written
    return str(e.value)


def test_ctc_batch_padded_to_its_longest_line():
    task = S.make_task({"task": "strokes-hershey", "head": "ctc"}, "lines",
                       S.RawSplit([A, B, C], texts=["ab", "b", "a"]), S.RawSplit([C, A], texts=["a", "ab"]))
    x, labels, lengths = task.batch("train", [0, 2])
    assert lengths.tolist() == [3, 2]
    assert x.shape == (3, 2, 3)                             # (T = 3 points of A, B = 2, 3)
    assert x[:, 0, 2].tolist() == [0.0, 0.0, 1.0] and x[:2, 1, 2].tolist() == [0.0, 1.0]
    assert x[2, 1].tolist() == [0.0, 0.0, 0.0]              # C's padding
    assert labels.tolist() == [[2, 3], [2, -1]]             # alphabet UNKNOWN, a, b (codes 0, 1, 2) + 1


def test_glitch_threshold_default_is_a_thousand():
    edge = np.array([[0.0, 0.0, 0.0], [3.0, 4.0, 0.0], [600.0, 800.0, 1.0], [1.0, 1.0, 0.0]])
    out, dropped = S.drop_long_steps(edge)
    assert dropped == 0 and out.tolist() == edge.tolist()
    past = edge.copy()
    past[2, 1] = 800.5                                      # hypot(600, 800.5) > 1000
    out, dropped = S.drop_long_steps(past)
    assert dropped == 1
    assert out.tolist() == [[0.0, 0.0, 0.0], [3.0, 4.0, 1.0], [1.0, 1.0, 0.0]]
    task = S.make_task({"task": "strokes-synthetic"}, "lines", S.RawSplit([past, A]), S.RawSplit([edge]))
    assert task.extra["dropped_steps"] == 1
    assert "; 1 glitch step longer than 1000 dropped" in task.description


def test_folder_of_an_npy_and_an_npz_refused_naming_both(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    np.save(d / "a.npy", np.zeros((2, 3)))
    stroke_files.save_npz(d / "b.npz", [A, B])
    with pytest.raises(DataError) as e:
        load_task(task_spec("strokes-npz", data_dir=str(d)))
    assert str(e.value) == (f"{d} holds 2 .npz/.npy files (a.npy, b.npz); pass --data-dir with the one file "
                            "to read.")
    assert sorted(os.listdir(d)) == ["a.npy", "b.npz"]


def test_lone_train_array_refused_listing_the_arrays(tmp_path):
    path = tmp_path / "t.npz"
    np.savez(path, train=np.zeros((2, 3)))
    assert _refused(tmp_path, path) == (f"{path} has arrays train; expected strokes + lengths, train_/val_strokes "
                                        "+ train_/val_lengths, or sketch-rnn's train + valid.")


def test_negative_length_refused_at_its_entry_counted_from_zero(tmp_path):
    path = tmp_path / "neg.npz"
    np.savez(path, strokes=np.zeros((5, 3)), lengths=np.array([2, 4, -1]))
    assert _refused(tmp_path, path) == (f"{path}: the lengths beside strokes include -1 (entry 2); a sequence's "
                                        "length is a count of rows, 0 or more.")


def test_lengths_adding_past_the_rows_refused_with_their_sum(tmp_path):
    path = tmp_path / "sum.npz"
    np.savez(path, strokes=np.zeros((4, 3)), lengths=np.array([2, 3]))      # 2 + 3 = 5 rows named, 4 held
    assert _refused(tmp_path, path) == (f"{path}: the lengths beside strokes add up to 5 but it has 4 rows; "
                                        "the arrays do not belong together.")
