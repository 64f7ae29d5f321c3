"""A batch of no lines (lnrnn/data/strokes.py: StrokeTask.batch, ReadingTask.batch, text_batch) has nothing to step
through: x (0, 0, 3) in the dtype asked for, targets (0, 0, 3) or labels with no rows, lengths (0,) int64, as the
longest line of a batch sets T; beside it, a batch of lines whose longest has N points has T = N - 1 steps to
predict (N to read), the same lines' arrays with the empty batch's shapes but for B and T."""
import numpy as np
import pytest

from lnrnn.data.tasks import load_task, task_spec

NONE = np.array([], np.int64)


@pytest.fixture(scope="module")
def hershey():
    return load_task(task_spec("strokes-hershey"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_stroke_task_batch_of_no_lines(hershey, dtype):
    t = hershey
    x, y, lengths = t.batch("val", NONE, dtype)
    assert (x.shape, y.shape, lengths.shape) == ((0, 0, 3), (0, 0, 3), (0,))
    assert x.dtype == y.dtype == dtype and lengths.dtype == np.int64
    codes, ulen = t.text_batch("val", NONE)
    assert codes.shape == (0, 1) and ulen.shape == (0,)
    idx = np.array([0, 2])
    points = t.sets["val"].starts[idx + 1] - t.sets["val"].starts[idx]          # N_b
    x, y, lengths = t.batch("val", idx, dtype)
    assert lengths.tolist() == (points - 1).tolist()
    assert x.shape == (points.max() - 1, 2, 3) and y.shape == (2, points.max() - 1, 3)


def test_a_reading_task_batch_of_no_lines():
    t = load_task(task_spec("strokes-hershey", head="ctc"))
    x, labels, lengths = t.batch("val", NONE, np.float64)
    assert x.shape == (0, 0, 3) and x.dtype == np.float64 and labels.shape[0] == 0 and lengths.shape == (0,)
    idx = np.array([1, 3])
    points = t.sets["val"].starts[idx + 1] - t.sets["val"].starts[idx]
    x, labels, lengths = t.batch("val", idx, np.float64)
    assert lengths.tolist() == points.tolist() and x.shape == (points.max(), 2, 3) and labels.shape[0] == 2
