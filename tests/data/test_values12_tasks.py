"""The memory a task's spec says its data take before they are built (``task_shape``'s data_bytes), against the
built arrays of both splits: the training and the validation images alike."""
import pytest

from lnrnn.data.tasks import load_task, task_shape, task_spec


@pytest.mark.parametrize("task,split", [("digits", "300/97"), ("digits-binary", "40/400"), ("digits", None)])
def test_digits_data_bytes_are_both_splits_arrays(task, split):
    spec = task_spec(task, split=split)
    shape = task_shape(spec)
    t = load_task(spec)
    assert (shape.n_train, shape.n_val) == (len(t.x_train), len(t.x_val))
    assert shape.data_bytes == t.x_train.nbytes + t.y_train.nbytes + t.x_val.nbytes + t.y_val.nbytes
