"""The batch an evaluation reads (lnrnn/training/evaluation.py: task_batch): the task's own (x, targets, lengths),
and for a model conditioned on text a fourth item, the samples' texts as StrokeTask.text_batch gives them (codes
(B,U), lengths (B,)), for the same samples in the same order."""
import numpy as np
import pytest

from lnrnn.data.strokes import RawSplit, make_task
from lnrnn.training.evaluation import task_batch


def writer_task():
    rng = np.random.default_rng(434)
    pts = []
    for k in range(5):
        ln = np.c_[rng.normal(0, 2, (4 + 2 * k, 2)), (rng.random(4 + 2 * k) < 0.3).astype(float)]
        ln[0, :2] = 0
        pts.append(ln)
    train = RawSplit(pts[:3], texts=["ab", "ba", "abc"])
    val = RawSplit(pts[3:], texts=["cab", "b"])
    return make_task({"task": "strokes-npz"}, "lines", train, val)


@pytest.mark.parametrize("which, idx", [("val", [1, 0]), ("train", [2, 0, 1])])
def test_a_conditioned_batch_carries_the_samples_texts(which, idx):
    task = writer_task()
    got = task_batch(task, which, np.array(idx), np.float64, text=True)
    assert len(got) == 4
    own = task.batch(which, np.array(idx), np.float64)
    for a, b in zip(got[:3], own):
        np.testing.assert_array_equal(a, b)
    codes, ulen = got[3]
    want_codes, want_len = task.text_batch(which, np.array(idx))
    np.testing.assert_array_equal(codes, want_codes)
    np.testing.assert_array_equal(ulen, want_len)
    texts = task.texts_val if which == "val" else task.texts_train
    assert ulen.tolist() == [len(texts[i]) for i in idx]


def test_an_unconditioned_batch_is_the_tasks_own():
    task = writer_task()
    got = task_batch(task, "val", np.array([0, 1]), np.float32)
    own = task.batch("val", np.array([0, 1]), np.float32)
    assert len(got) == 3
    for a, b in zip(got, own):
        np.testing.assert_array_equal(a, b)
    assert got[0].dtype == np.float32 and got[2].tolist() == [9, 11]    # lines of 10 and 12 points: N - 1 steps
