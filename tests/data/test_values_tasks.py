"""lnrnn/data/tasks.py by value: the shape a spec announces before its data are built (mnist and pmnist pixel by
pixel, mnist-rows row by row), and the adding problem's shortest --steps (2: one marker in each half)."""
import pytest

from lnrnn.data.tasks import load_task, task_shape, task_spec
from lnrnn.errors import UserError


def test_mnist_is_read_by_pixels_and_mnist_rows_by_rows():
    assert task_shape(task_spec("mnist"))[:2] == (784, 1)
    assert task_shape(task_spec("pmnist"))[:2] == (784, 1)
    assert task_shape(task_spec("mnist-rows"))[:2] == (28, 28)


def test_the_adding_problem_needs_two_steps():
    with pytest.raises(UserError, match="needs --steps of at least 2, not 1"):
        load_task(task_spec("adding", steps=1))
    x = load_task(task_spec("adding", steps=2)).x_train
    assert x.shape[1:] == (2, 2) and (x[:, :, 1] == 1).all()   # both steps marked
