"""lnrnn/data/tasks.py by value: a --split that uses every digit is taken and one more is refused, the adding
problem's markers fall anywhere in their halves (the last step included) at an odd T, and each synthetic
task's shape before building equals the sequences built, at --steps where a wrong formula differs."""
import numpy as np
import pytest

from lnrnn.data.tasks import COPY_ALPHABET, COPY_SYMBOLS, load_task, task_shape, task_spec
from lnrnn.errors import UserError


def test_a_split_of_every_digit_is_taken_and_one_more_refused():
    t = load_task(task_spec("digits", split="1000/797"))
    assert (t.size("train"), t.size("val")) == (1000, 797)
    with pytest.raises(UserError, match="asks for 1798 samples but the digits data set holds only 1797"):
        load_task(task_spec("digits", split="1000/798"))


@pytest.mark.parametrize("T", [2, 5])
def test_adding_markers_fall_anywhere_in_their_halves(T):
    t = load_task(task_spec("adding", steps=T))
    x = t.x_train
    marks = x[:, :, 1]
    assert np.all(marks.sum(axis=1) == 2)
    half = T // 2
    first, second = marks[:, :half].argmax(axis=1), half + marks[:, half:].argmax(axis=1)
    assert np.all(marks[:, :half].sum(axis=1) == 1) and np.all(marks[:, half:].sum(axis=1) == 1)
    assert set(first.tolist()) == set(range(half))            # every step of the first half is drawn
    assert set(second.tolist()) == set(range(half, T))        # ... and of the second, the last one too
    rows = np.arange(len(x))
    np.testing.assert_array_equal(t.y_train, x[rows, first, 0] + x[rows, second, 0])


@pytest.mark.parametrize("task, steps", [("copy", 3), ("copy", None), ("adding", 7)])
def test_the_shape_before_building_is_the_built_one(task, steps):
    spec = task_spec(task, steps=steps)
    shape, t = task_shape(spec), load_task(spec)
    assert (shape.n_train, shape.n_val) == (len(t.x_train), len(t.x_val))
    assert (shape.steps, shape.inputs) == t.x_train.shape[1:]
    if task == "copy":
        assert shape.steps == (steps or 50) + 2 * COPY_SYMBOLS and shape.inputs == COPY_ALPHABET + 2
        assert shape.per_step and shape.outputs == COPY_ALPHABET
