"""The task registry's counts against their definitions: the digits task's --split 7/11 taking exactly those
images (scikit-learn's own, at seed 0's permutation of the 1797 drawn here), the copy task's 10000 / 1000
sequences of --steps + 20 steps whose last 10 labels are the first 10 symbols less one, the adding task's shape
before building equal to what building gives, and load_task keeping a spec's --steps."""
import numpy as np
import pytest

from lnrnn.data import tasks


def test_digits_split_takes_exactly_its_counts_of_the_bundled_images():
    from sklearn.datasets import load_digits

    d = load_digits()
    perm = np.random.default_rng(0).permutation(1797)
    t = tasks.load_task(tasks.task_spec("digits", split="7/11"))
    assert (len(t.x_train), len(t.x_val)) == (7, 11)
    np.testing.assert_array_equal(t.y_train, d.target[perm[:7]])
    np.testing.assert_array_equal(t.y_val, d.target[perm[7:18]])
    np.testing.assert_allclose(t.x_val[:, :, 0], d.images[perm[7:18]].reshape(11, 64) / 16.0)
    assert "7 train / 11 validation images, 10 classes" in t.description


def test_copy_draws_ten_thousand_and_a_thousand_sequences():
    t = tasks.load_task(tasks.task_spec("copy", steps=1))                  # T = 1 + 2 * 10
    assert t.x_train.shape == (10000, 21, 10) and t.x_val.shape == (1000, 21, 10)
    assert t.description.endswith("10000 train / 1000 validation sequences")
    for x, y in ((t.x_train, t.y_train), (t.x_val, t.y_val)):
        codes = x.argmax(axis=2)
        np.testing.assert_array_equal(y[:, 11:], codes[:, :10] - 1)        # the symbols 1..8 as classes 0..7
        assert (y[:, :11] == -1).all() and (codes[:, 10] == 9).all()      # delimiter on the one blank


@pytest.mark.parametrize("steps", [7, 2])
def test_adding_shape_before_building_is_what_building_gives(steps):
    spec = tasks.task_spec("adding", steps=steps)
    shape, t = tasks.task_shape(spec), tasks.load_task(spec)
    assert (shape.steps, shape.inputs, shape.n_train, shape.n_val) == (steps, 2, 10000, 1000)
    assert t.x_train.shape == (shape.n_train, shape.steps, shape.inputs)
    assert t.x_val.shape == (shape.n_val, shape.steps, shape.inputs)
    held = t.x_train.nbytes + t.y_train.nbytes + t.x_val.nbytes + t.y_val.nbytes
    assert shape.data_bytes >= held


def test_load_task_keeps_the_specs_steps():
    assert tasks.load_task({"task": "adding", "steps": 9}).x_train.shape[1] == 9
    t = tasks.load_task({"task": "copy", "steps": 3})
    assert t.x_val.shape[1] == 23 and t.description.startswith("copy memory: recall 10 symbols after 3 blanks (23")
