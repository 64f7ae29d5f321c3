"""What a task's spec says of its head before its data are built (``tasks.task_shape``: the memory check's head
outputs, scored on the last step or every step) against the task the same spec builds (lnrnn/data/tasks.py): the
steps, inputs, head outputs and whether the head scores every step agree for every task whose shape is known
before building (the digits, the MNIST family from small t10k files, adding, copy at two lengths). A shape that
said every step for a last-step task counted T times the head's outputs into the memory estimate."""
import pytest

from lnrnn.data.tasks import TASKS, load_task, task_shape, task_spec

from test_values21_tasks import small_t10k

SPECS = [("digits", {}), ("digits-binary", {"split": "30/10"}), ("mnist", None), ("pmnist", None),
         ("mnist-rows", None), ("adding", {"steps": 5}), ("copy", {"steps": 1}), ("copy", {"steps": 4})]


def test_every_task_with_a_shape_before_building_is_listed():
    assert sorted({n for n, _ in SPECS}) == sorted(n for n, t in TASKS.items() if t.shape is not None)


@pytest.mark.parametrize("name, options", SPECS)
def test_the_shape_before_building_is_the_built_tasks(tmp_path, name, options):
    options = {"data_dir": small_t10k(tmp_path, 9), "split": "5/4"} if options is None else options
    spec = task_spec(name, **options)
    shape, task = task_shape(spec), load_task(spec)
    assert (shape.steps, shape.inputs) == (task.steps, task.input_size)
    assert shape.outputs == task.num_classes
    assert shape.per_step is task.per_step
    assert (shape.n_train, shape.n_val) == (task.size("train"), task.size("val"))
