"""The batch an evaluation reads (lnrnn/training/evaluation.py: task_batch): the task's own (x, targets, lengths),
and for a model conditioned on text a fourth item, the samples' texts as StrokeTask.text_batch gives them (codes
(B,U), lengths (B,)), for the same samples in the same order."""
import numpy as np
import pytest

from lnrnn.training.evaluation import task_batch
from test_values433_strokes import writer_task

VAL_TEXTS = ("cab", "b")   # two validation lines, of 7 and 8 points


@pytest.mark.parametrize("which, idx", [("val", [1, 0]), ("train", [2, 0, 1])])
def test_a_conditioned_batch_carries_the_samples_texts(which, idx):
    task = writer_task(val=VAL_TEXTS)
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
    task = writer_task(val=VAL_TEXTS)
    got = task_batch(task, "val", np.array([0, 1]), np.float32)
    own = task.batch("val", np.array([0, 1]), np.float32)
    assert len(got) == 3
    for a, b in zip(got, own):
        np.testing.assert_array_equal(a, b)
    assert got[0].dtype == np.float32 and got[2].tolist() == [6, 7]    # lines of 7 and 8 points: N - 1 steps
