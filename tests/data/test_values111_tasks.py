"""lnrnn/data/tasks.py and taskdata.py against their definitions: the copy task's x is, at every step, the
one-hot of its code (the K symbols, blanks, the delimiter at step K + delay - 1, blanks again) and its labels the
symbols on the last K steps; a task's spec names only the options that task reads; TaskData's steps, inputs and
sizes are T, I and N of its arrays, and a validation batch pairs the validation sequences with their own labels."""
import numpy as np

from lnrnn.data import tasks
from lnrnn.data.taskdata import TaskData
from lnrnn.data.tasks import COPY_ALPHABET, COPY_SYMBOLS, TASKS, load_task, task_spec


def test_copy_inputs_are_the_one_hot_of_their_codes():
    K, delay, n = COPY_SYMBOLS, 3, 7
    x, y = tasks._copy_sequences(np.random.default_rng(5), n, delay)
    T = delay + 2 * K
    assert x.shape == (n, T, COPY_ALPHABET + 2) and y.shape == (n, T)
    assert (x.sum(axis=2) == 1).all()                                   # one symbol per step
    code = x.argmax(axis=2)                                             # (n, T)
    symbols = y[:, T - K:] + 1                                          # 1..8
    assert ((symbols >= 1) & (symbols <= COPY_ALPHABET)).all()
    want = np.zeros((n, T), int)
    want[:, :K] = symbols
    want[:, K + delay - 1] = COPY_ALPHABET + 1
    np.testing.assert_array_equal(code, want)
    assert (y[:, :T - K] == -1).all()


def test_copy_task_built_twice_is_the_same():
    a = load_task(task_spec("copy", steps=2))
    b = load_task(task_spec("copy", steps=2))
    np.testing.assert_array_equal(a.x_val, b.x_val)
    np.testing.assert_array_equal(a.y_val, b.y_val)
    assert (a.x_train.sum(axis=2) == 1).all()
    code = a.x_train[:20].argmax(axis=2)
    np.testing.assert_array_equal(code[:, :COPY_SYMBOLS], a.y_train[:20, -COPY_SYMBOLS:] + 1)


def test_a_spec_names_only_the_options_its_task_reads():
    for name, task in TASKS.items():
        spec = task_spec(name)
        assert set(spec) - {"task"} <= set(task.reads), name
    assert task_spec("digits") == {"task": "digits"}
    assert task_spec("adding", steps=7) == {"task": "adding", "steps": 7}
    assert task_spec("strokes-kanjivg")["charset"] == "latin"            # its own default


def make(N=5, Nv=3, T=7, I=2):
    rng = np.random.default_rng(0)
    return TaskData({"task": "x"}, "d", rng.random((N, T, I)).astype(np.float32), np.arange(N),
                    rng.random((Nv, T, I)).astype(np.float32), 100 + np.arange(Nv), num_classes=200)


def test_taskdata_sizes_are_its_arrays_shapes():
    t = make(N=5, Nv=3, T=7, I=2)
    assert (t.steps, t.input_size) == (7, 2)
    assert (t.size("train"), t.size("val")) == (5, 3)


def test_a_validation_batch_carries_the_validation_labels():
    t = make()
    idx = np.array([2, 0])
    xb, yb = t.batch("val", idx)
    np.testing.assert_array_equal(yb, [102, 100])
    np.testing.assert_array_equal(xb, t.x_val[idx].transpose(1, 0, 2))
    xb, yb = t.batch("train", idx)
    np.testing.assert_array_equal(yb, [2, 0])
    np.testing.assert_array_equal(xb, t.x_train[idx].transpose(1, 0, 2))
