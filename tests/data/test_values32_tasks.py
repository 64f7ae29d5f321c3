"""lnrnn/data by value against what is built: a task's shape before it is built (``task_shape``, what the memory
check reads) names the steps, inputs, outputs, head and set sizes its data then have, for every classification
and synthetic task at its default --steps and split and at given ones, with the data bytes by hand; and a stroke
task read with CTC has one head output per class its labels use: the blank (0) and each character of the
alphabet (1..A), over the training and the validation lines. --steps 0 is a value, not "not given": the synthetic
tasks refuse it, before building (their shape) and when building, as they refuse any --steps below their least."""
import numpy as np
import pytest

from lnrnn.data import strokes
from lnrnn.errors import UserError
from lnrnn.data.tasks import COPY_SYMBOLS, SYNTHETIC_TRAIN, SYNTHETIC_VAL, load_task, task_shape, task_spec


@pytest.mark.parametrize("task,kw", [("adding", {}), ("adding", {"steps": 7}), ("copy", {}), ("copy", {"steps": 3}),
                                     ("digits", {}), ("digits-binary", {"split": "100/37"})])
def test_the_shape_before_building_is_the_built_tasks(task, kw):
    spec = task_spec(task, **kw)
    shape = task_shape(spec)
    built = load_task(spec)
    assert shape.steps == built.steps == built.x_train.shape[1]
    assert shape.inputs == built.input_size
    assert (shape.n_train, shape.n_val) == (built.size("train"), built.size("val"))
    assert shape.per_step == built.per_step
    assert shape.outputs == built.num_classes


@pytest.mark.parametrize("steps,T", [(None, 100), (7, 7), (2, 2)])
def test_the_adding_tasks_bytes_by_hand(steps, T):
    shape = task_shape(task_spec("adding", steps=steps))
    # per sequence: x (T, 2) float32 and as much drawn while building, the float32 target, two int64 draws a step
    per = 2 * (T * 2 * 4) + 4 + 2 * T * 8
    assert shape.steps == T and shape.data_bytes == (SYNTHETIC_TRAIN + SYNTHETIC_VAL) * per


def test_copy_shape_counts_its_blanks_and_symbols():
    for steps, T in ((None, 50 + 2 * COPY_SYMBOLS), (1, 1 + 2 * COPY_SYMBOLS)):
        assert task_shape(task_spec("copy", steps=steps)).steps == T


def _line(n, seed):
    rng = np.random.default_rng(seed)
    pts = np.zeros((n, 3))
    pts[1:, :2] = rng.normal(size=(n - 1, 2))
    pts[-1, 2] = 1
    return pts


def test_a_ctc_reading_task_has_an_output_for_the_blank_and_every_character():
    train_texts = ["ab", "ba c", "cab"]
    val_texts = ["abc", "z a"]                              # z: no training text uses it (code 0)
    train = strokes.RawSplit([_line(30, k) for k in range(3)], texts=train_texts)
    val = strokes.RawSplit([_line(30, 10 + k) for k in range(2)], texts=val_texts)
    task = strokes.make_task({"task": "strokes", "head": "ctc"}, "test lines", train, val)
    assert isinstance(task, strokes.ReadingTask)
    A = len(task.alphabet)
    assert task.alphabet == strokes.UNKNOWN + " abc" and A == 5
    outputs = task.head["outputs"]
    assert outputs == A + 1                                 # the blank, then one class per character
    used = set()
    for which in ("train", "val"):
        _, labels, _ = task.batch(which, np.arange(task.size(which)))
        used |= set(labels[labels >= 0].tolist())
    assert 0 not in used and max(used) == A and max(used) < outputs   # the last character (c) has its class
    assert strokes.classes_to_text([A], task.alphabet) == "c"


@pytest.mark.parametrize("task,least", [("adding", 2), ("copy", 1)])
@pytest.mark.parametrize("steps", [0, -1, "least - 1"])
def test_steps_below_the_least_are_refused_zero_included(task, least, steps):
    steps = least - 1 if steps == "least - 1" else steps
    spec = task_spec(task, steps=steps)
    for step in (task_shape, load_task):
        with pytest.raises(UserError, match=f"needs --steps of at least {least}, not {steps}"):
            step(spec)
    assert task_shape(task_spec(task, steps=least)).steps == least + (2 * COPY_SYMBOLS if task == "copy" else 0)
