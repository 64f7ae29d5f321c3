"""lnrnn/data/splits.py and lnrnn/data/taskdata.py by definition: --split at awkward counts is the two integers
typed, and a malformed one is refused in one sentence that quotes what the user typed; a TaskData built without
objective, scale, per_step, head or extra is a classification task whose batches are the stored values, and
batches of 3 over 7 samples (a partial last batch of 1) put together are the whole set, time-major."""
import numpy as np
import pytest

from lnrnn.data.splits import parse_split
from lnrnn.data.taskdata import TaskData
from lnrnn.errors import UserError


@pytest.mark.parametrize("a,b", [(1, 1), (2, 1), (3, 7), (11, 101)])
def test_awkward_counts_are_the_integers_typed(a, b):
    assert parse_split(f"{a}/{b}") == (a, b)


@pytest.mark.parametrize("bad", ["10/5/1", "7", "a/b", "1.5/2"])
def test_a_malformed_split_quotes_what_was_typed(bad):
    with pytest.raises(UserError) as e:
        parse_split(bad)
    msg = str(e.value)
    assert msg.startswith("--split must be TRAIN/VAL counts") and msg.endswith(f"not {bad!r}.") and "[" not in msg


def _plain(n_train=7, n_val=2, T=3, I=2):
    """A TaskData given only what it must have: float values that are not pixels."""
    rng = np.random.default_rng(186)
    return TaskData(spec={"task": "plain"}, description="plain sequences",
                    x_train=rng.standard_normal((n_train, T, I)), y_train=np.arange(n_train) % 3,
                    x_val=rng.standard_normal((n_val, T, I)), y_val=np.arange(n_val) % 3, num_classes=3)


def test_defaults_are_a_classification_task_left_as_stored():
    t = _plain()
    assert (t.objective, t.per_step, t.scale, t.head) == ("ce", False, 1.0, None)
    assert t.extra == {} and t.extra is not _plain().extra
    x, y = t.batch("val", [1, 0], np.float64)
    for j, i in enumerate([1, 0]):
        np.testing.assert_array_equal(x[:, j], t.x_val[i])     # x[s, j] == x_val[i, s], nothing scaled
    np.testing.assert_array_equal(y, t.y_val[[1, 0]])


def test_batches_of_three_over_seven_samples_make_the_whole_set():
    t = _plain()
    n, size = t.size("train"), 3
    order = np.random.default_rng(5).permutation(n)               # a seeded shuffle, drawn again below
    np.testing.assert_array_equal(order, np.random.default_rng(5).permutation(n))
    xs, ys, rows = [], [], []
    for lo in range(0, n, size):
        idx = order[lo:lo + size]
        x, y = t.batch("train", idx, np.float64)
        assert x.shape == (t.steps, len(idx), t.input_size) and len(y) == len(idx)
        xs.append(x), ys.append(y), rows.append(len(idx))
    assert rows == [3, 3, 1]
    whole = np.concatenate(xs, axis=1)                              # (T, N, I)
    np.testing.assert_array_equal(whole, np.stack([t.x_train[i] for i in order], axis=1))
    np.testing.assert_array_equal(np.concatenate(ys), [i % 3 for i in order])
