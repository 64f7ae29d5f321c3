"""The adding problem's and the copy task's sequences against their definitions (lnrnn/data/tasks.py's
docstring), on short --steps: two markers per adding sequence, one in each half, the target the sum of the
two marked values; a copy sequence of steps + 20 one-hot steps (10 symbols, blanks, the delimiter on the last
blank, 10 blanks) labelled only on its last 10 steps with the symbols it began with, as task_shape told."""
import numpy as np

from lnrnn.data.tasks import COPY_ALPHABET, COPY_SYMBOLS, load_task, task_shape, task_spec


def test_adding_targets_are_the_sums_of_the_two_marked_values():
    spec = task_spec("adding", steps=8)
    t = load_task(spec)
    for x, y in ((t.x_train, t.y_train), (t.x_val, t.y_val)):
        assert x.shape[1:] == (8, 2)
        marks = x[:, :, 1]
        assert np.all(marks.sum(axis=1) == 2)
        assert np.all(marks[:, :4].sum(axis=1) == 1) and np.all(marks[:, 4:].sum(axis=1) == 1)
        want = (x[:, :, 0] * marks).sum(axis=1)
        np.testing.assert_allclose(y, want, rtol=1e-6)
    shape = task_shape(spec)
    assert (shape.steps, shape.inputs, shape.n_train, shape.n_val) == (8, 2, len(t.x_train), len(t.x_val))


def test_copy_sequences_are_symbols_blanks_delimiter_and_the_recall_block():
    delay = 3
    spec = task_spec("copy", steps=delay)
    t = load_task(spec)
    K, T = COPY_SYMBOLS, delay + 2 * COPY_SYMBOLS
    shape = task_shape(spec)
    assert (shape.steps, shape.inputs, shape.outputs) == (T, COPY_ALPHABET + 2, COPY_ALPHABET)
    for x, y in ((t.x_train[:300], t.y_train[:300]), (t.x_val[:300], t.y_val[:300])):
        assert x.shape[1:] == (T, COPY_ALPHABET + 2) and y.shape[1:] == (T,)
        assert np.all(x.sum(axis=2) == 1)                               # one-hot at every step
        code = x.argmax(axis=2)                                         # (n, T)
        assert np.all((code[:, :K] >= 1) & (code[:, :K] <= COPY_ALPHABET))
        want = np.zeros_like(code[0])
        want[K + delay - 1] = COPY_ALPHABET + 1                         # the delimiter on the last blank
        assert np.all(code[:, K:] == want[K:])
        assert np.all(y[:, :T - K] == -1)
        np.testing.assert_array_equal(y[:, T - K:], code[:, :K] - 1)
