"""lnrnn/data/tasks.py against the tasks' definitions: --split TRAIN/VAL counts on the digits, the adding
problem's two markers (one in each half) and its target summed here from the marked values, the copy task's
sequence rebuilt here from its first K symbols (blanks, the delimiter one step before the answer, the answer as
classes 0..7 on the last K steps), train and validation sequences disjoint, the same data on a second build,
--steps checked at its bound (0 is a value, not "not given") and the MNIST shapes' 60000/10000 images."""
import numpy as np
import pytest

from lnrnn.data.tasks import COPY_ALPHABET, COPY_SYMBOLS, load_task, task_shape, task_spec
from lnrnn.errors import UserError


def _rows(x):
    return {r.tobytes() for r in x.reshape(len(x), -1)}


def test_digits_split_gives_train_then_validation_counts_from_the_digits():
    sklearn = pytest.importorskip("sklearn.datasets")
    t = load_task(task_spec("digits", split="40/24"))
    assert (len(t.x_train), len(t.y_train), len(t.x_val), len(t.y_val)) == (40, 40, 24, 24)
    d = sklearn.load_digits()
    pool = {(img.astype(np.float32) / 16.0).tobytes(): lab for img, lab in zip(d.images.reshape(-1, 64), d.target)}
    for x, y in zip(np.concatenate([t.x_train, t.x_val]), np.concatenate([t.y_train, t.y_val])):
        assert pool[x.reshape(64).astype(np.float32).tobytes()] == y


@pytest.mark.parametrize("T", [2, 7])
def test_adding_sequences_have_one_marker_per_half_and_their_sum_as_target(T):
    t = load_task(task_spec("adding", steps=T))
    assert t.x_train.shape == (10000, T, 2) and t.x_val.shape == (1000, T, 2)
    half = T // 2
    for x, y in ((t.x_train, t.y_train), (t.x_val, t.y_val)):
        values, marks = x[:, :, 0].astype(np.float64), x[:, :, 1]
        assert np.all((values >= 0) & (values < 1))
        assert set(np.unique(marks)) <= {0.0, 1.0}
        assert np.all(marks[:, :half].sum(1) == 1) and np.all(marks[:, half:].sum(1) == 1)
        target = (values * marks).sum(1)
        np.testing.assert_allclose(y, target, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("delay", [1, 3])
def test_copy_sequences_rebuilt_from_their_symbols(delay):
    K, A = COPY_SYMBOLS, COPY_ALPHABET
    t = load_task(task_spec("copy", steps=delay))
    T = delay + 2 * K
    assert t.x_train.shape == (10000, T, A + 2) and t.per_step and t.num_classes == A
    for x, y in ((t.x_train[:300], t.y_train[:300]), (t.x_val[:300], t.y_val[:300])):
        assert np.all(x.sum(2) == 1)  # one-hot at every step
        codes = x.argmax(2)
        symbols = codes[:, :K]
        assert symbols.min() >= 1 and symbols.max() <= A
        want = np.zeros_like(codes)
        want[:, :K] = symbols
        want[:, K + delay - 1] = A + 1
        np.testing.assert_array_equal(codes, want)
        labels = np.full(codes.shape, -1)
        labels[:, T - K:] = symbols - 1
        np.testing.assert_array_equal(y, labels)


@pytest.mark.parametrize("task,opt", [("adding", 5), ("copy", 2)])
def test_synthetic_train_and_validation_are_disjoint_and_reproduced(task, opt):
    a = load_task(task_spec(task, steps=opt))
    assert not (_rows(a.x_train) & _rows(a.x_val))
    b = load_task(task_spec(task, steps=opt))
    np.testing.assert_array_equal(a.x_train, b.x_train)
    np.testing.assert_array_equal(a.y_val, b.y_val)


def test_steps_zero_is_refused_not_taken_for_the_default():
    with pytest.raises(UserError, match="at least 2, not 0"):
        task_shape(task_spec("adding", steps=0))
    with pytest.raises(UserError, match="at least 2, not 1"):
        task_shape(task_spec("adding", steps=1))
    assert task_shape(task_spec("adding", steps=2)).steps == 2
    with pytest.raises(UserError, match="at least 1, not 0"):
        task_shape(task_spec("copy", steps=0))
    with pytest.raises(UserError, match="does not take --steps"):
        task_spec("digits", steps=0)


def test_mnist_shapes_count_the_mnist_files_images():
    for task, T, I in (("mnist", 784, 1), ("pmnist", 784, 1), ("mnist-rows", 28, 28)):
        s = task_shape(task_spec(task))
        assert (s.steps, s.inputs, s.outputs, s.n_train, s.n_val) == (T, I, 10, 60000, 10000)
        s = task_shape(task_spec(task, split="800/200"))
        assert (s.n_train, s.n_val) == (800, 200)
