"""lnrnn/data/tasks.py against the tasks' definitions: the digits read row after row (each sequence is one of
scikit-learn's images, found here by its pixels) and the counts their description names; the adding problem's
two markers, one in each half, and its target their values' sum; the copy task's labels (-1 before the recall,
the remembered symbols after); --steps at the least a task takes; and every shape told before building against
the built task."""
import numpy as np
import pytest

from lnrnn.data.tasks import COPY_ALPHABET, COPY_SYMBOLS, load_task, task_shape, task_spec
from lnrnn.errors import UserError


def _digit_images():
    from sklearn.datasets import load_digits
    d = load_digits()
    pixels = {}
    for img, label in zip(d.images, d.target):
        seq = [float(img[r][c]) for r in range(8) for c in range(8)]      # by hand: row after row
        pixels.setdefault(tuple(seq), set()).add(int(label))
    return pixels


@pytest.mark.parametrize("split", ["23/9", "1/1"])
def test_digits_are_images_row_after_row_with_their_labels(split):
    pytest.importorskip("sklearn")
    pixels = _digit_images()
    t = load_task(task_spec("digits", split=split))
    a, b = (int(v) for v in split.split("/"))
    assert t.x_train.shape == (a, 64, 1) and t.x_val.shape == (b, 64, 1)
    for x, y in ((t.x_train, t.y_train), (t.x_val, t.y_val)):
        for seq, label in zip(x, y):
            key = tuple(float(v) * 16.0 for v in seq[:, 0])               # values were pixel / 16
            assert key in pixels, "a sequence that is no image read row after row"
            assert int(label) in pixels[key]


def test_digits_description_counts_each_split():
    pytest.importorskip("sklearn")
    t = load_task(task_spec("digits", split="23/9"))
    assert (t.size("train"), t.size("val")) == (23, 9)
    assert "23 train / 9 validation images" in t.description
    tb = load_task(task_spec("digits-binary", split="7/30"))
    assert "7 train / 30 validation images" in tb.description
    assert set(np.unique(tb.x_train)) <= {0.0, 1.0}


@pytest.mark.parametrize("T", [2, 6, 7])
def test_adding_has_one_marker_in_each_half_and_sums_their_values(T):
    t = load_task(task_spec("adding", steps=T))
    for x, y in ((t.x_train, t.y_train), (t.x_val, t.y_val)):
        marks = x[:, :, 1]                                                   # (N, T)
        assert set(np.unique(marks)) <= {0.0, 1.0}
        assert (marks.sum(axis=1) == 2).all()                                # two markers per sequence
        assert (marks[:, :T // 2].sum(axis=1) == 1).all()                    # one in the first T // 2 steps
        assert ((x[:, :, 0] >= 0) & (x[:, :, 0] < 1)).all()                  # values in [0, 1)
        want = (x[:, :, 0] * marks).sum(axis=1, dtype=np.float64)            # the marked values' sum
        np.testing.assert_allclose(y, want, rtol=0, atol=1e-6)


def test_steps_at_the_least_each_task_takes():
    t = load_task(task_spec("adding", steps=2))                              # least 2
    assert t.steps == 2
    with pytest.raises(UserError, match="at least 2"):
        load_task(task_spec("adding", steps=1))
    c = load_task(task_spec("copy", steps=1))                                # least 1 blank
    assert c.steps == 1 + 2 * COPY_SYMBOLS
    with pytest.raises(UserError, match="at least 1"):
        load_task(task_spec("copy", steps=0))
    assert task_shape(task_spec("copy", steps=1)).steps == 1 + 2 * COPY_SYMBOLS


@pytest.mark.parametrize("delay", [1, 3])
def test_copy_labels_are_the_symbols_on_the_last_steps_and_minus_one_before(delay):
    t = load_task(task_spec("copy", steps=delay))
    K, T = COPY_SYMBOLS, delay + 2 * COPY_SYMBOLS
    for x, y in ((t.x_train, t.y_train), (t.x_val, t.y_val)):
        assert x.shape[1:] == (T, COPY_ALPHABET + 2) and y.shape == (len(x), T)
        assert (x.sum(axis=2) == 1).all()                                    # one-hot codes
        codes = x.argmax(axis=2)                                             # (N, T)
        assert ((codes[:, :K] >= 1) & (codes[:, :K] <= COPY_ALPHABET)).all()
        assert (codes[:, K + delay - 1] == COPY_ALPHABET + 1).all()          # the delimiter
        assert (y[:, :T - K] == -1).all()                                    # not scored
        np.testing.assert_array_equal(y[:, T - K:], codes[:, :K] - 1)        # the symbols, classes 0..7
        assert y[:, T - K:].max() < t.num_classes == COPY_ALPHABET


@pytest.mark.parametrize("task, kw", [("copy", {"steps": 2}), ("adding", {"steps": 3}),
                                      ("digits", {"split": "11/4"}), ("digits-binary", {})])
def test_shape_told_before_building_is_the_built_tasks(task, kw):
    if task.startswith("digits"):
        pytest.importorskip("sklearn")
    spec = task_spec(task, **kw)
    s = task_shape(spec)
    t = load_task(spec)
    assert (s.steps, s.inputs) == (t.steps, t.input_size)
    assert s.outputs == t.num_classes
    assert s.per_step == t.per_step
    assert (s.n_train, s.n_val) == (t.size("train"), t.size("val"))
    if t.objective == "ce":                                                  # classes over every split
        labels = np.concatenate([t.y_train.ravel(), t.y_val.ravel()])
        assert labels.max() + 1 <= s.outputs
