"""Task specs and built tasks (lnrnn/data/tasks.py) against what the task list, README and the data's definitions say:
which options each task takes (--steps for the adding problem, --head ctc for the text tasks, a malformed --split
refused when the spec is made, the refusals word for word); the kanjivg charset's default (README: digits and Latin
letters); MNIST's planned sizes (the 60000 train and 10000 t10k images of its files); the pixel tasks' descriptions
from tiny IDX files (784 steps of 1 is rows * cols steps of one pixel, mnist-rows rows steps of a row); the adding
problem's tolerance (the regression head's 0.04); an npz spec's objective kept through load_task.
"""
import numpy as np
import pytest

from lnrnn.data.tasks import check_reading, load_task, task_shape, task_spec
from lnrnn.errors import UserError
from lnrnn.model.heads import RegressionHead
from test_values361_tasks import mnist_dir  # noqa: F401  (the fixture: tiny train and t10k IDX files)


def test_the_adding_problem_takes_steps_and_digits_refuses_them_by_the_option_name():
    assert task_spec("adding", steps=7) == {"task": "adding", "steps": 7}
    with pytest.raises(UserError) as e:
        task_spec("digits", steps=7)
    assert str(e.value) == "task digits does not take --steps."


@pytest.mark.parametrize("task", ["strokes", "strokes-kanjivg", "strokes-hershey"])
def test_every_text_task_takes_head_ctc_into_its_spec(task):
    spec = task_spec(task, head="ctc")
    assert spec["head"] == "ctc"
    check_reading(task)  # no refusal


@pytest.mark.parametrize("task", ["digits", "strokes-npz", "strokes-synthetic"])
def test_a_task_without_text_refuses_a_reader_naming_the_text_tasks(task):
    with pytest.raises(UserError) as e:
        check_reading(task)
    assert str(e.value) == (f"--head ctc reads each handwriting line's text as its labels, and the sequences of task "
                            f"{task} carry none; use strokes-hershey, strokes-kanjivg, strokes (IAM-OnDB with its "
                            "ascii/ transcriptions).")


def test_the_kanjivg_charset_defaults_to_latin_and_is_written_into_the_spec():
    assert task_spec("strokes-kanjivg")["charset"] == "latin"
    assert task_spec("strokes-kanjivg", charset="kana")["charset"] == "kana"


@pytest.mark.parametrize("split", ["7", "a/b", "5/"])
def test_a_malformed_split_is_refused_when_the_spec_is_made(split):
    with pytest.raises(UserError):
        task_spec("digits", split=split)


def test_mnist_plans_its_files_sizes_and_a_split_its_own():
    for task, T, I in (("mnist", 784, 1), ("pmnist", 784, 1), ("mnist-rows", 28, 28)):
        shape = task_shape(task_spec(task))
        assert (shape.steps, shape.inputs, shape.n_train, shape.n_val) == (T, I, 60000, 10000)
        shape = task_shape(task_spec(task, split="800/200"))
        assert (shape.n_train, shape.n_val) == (800, 200)


def test_the_pixel_tasks_describe_their_steps(mnist_dir):  # noqa: F811
    d, (xi, _), _ = mnist_dir
    rows, cols = xi.shape[1:]
    mnist = load_task(task_spec("mnist", data_dir=d)).description
    assert f" read pixel by pixel ({rows * cols} steps of 1), " in mnist
    pm = load_task(task_spec("pmnist", data_dir=d)).description
    assert f" read pixel by pixel in a fixed permutation ({rows * cols} steps of 1), " in pm
    mr = load_task(task_spec("mnist-rows", data_dir=d)).description
    assert f" read row by row ({rows} steps of {cols}), " in mr


def test_the_adding_problem_counts_a_prediction_right_within_the_regression_heads_tolerance():
    task = load_task(task_spec("adding", steps=2))
    tol = RegressionHead(4).tolerance
    assert tol == 0.04
    assert task.extra["tolerance"] == tol
    assert f"accuracy = within {tol})" in task.description
    # the targets are the sums of the two marked values
    x, y = task.x_train[:50], task.y_train[:50]
    np.testing.assert_allclose(y, (x[:, :, 0] * x[:, :, 1]).sum(axis=1), rtol=1e-6)


def test_an_npz_specs_objective_survives_load_task(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "seqs.npz"
    np.savez(path, x=rng.standard_normal((12, 3, 2)).astype(np.float32), y=rng.integers(0, 3, 12))
    spec = task_spec("npz", data_dir=str(path), objective="mse")
    assert spec["objective"] == "mse"
    task = load_task(spec)
    assert task.objective == "mse"
