"""lnrnn/data/tasks.py and splits.py against their definitions: the adding problem's markers one in each half
of an odd number of steps (the middle step in the second half), its sequences drawn from DATA_SEED's stream
the same on every load, the digits' shape before building equal to what building gives (1797 images, every
class in both sets), --split's pool disjoint and seeded, flags that are booleans only, and --split strings
refused when empty or not two positive counts."""
import numpy as np
import pytest

from lnrnn.data.splits import parse_split
from lnrnn.data.tasks import DATA_SEED, SYNTHETIC_TRAIN, SYNTHETIC_VAL, load_task, task_shape, task_spec
from lnrnn.errors import UserError


@pytest.mark.parametrize("T", [3, 5])
def test_adding_markers_one_in_each_half_of_an_odd_length(T):
    data = load_task(task_spec("adding", steps=T))
    half = T // 2                                        # steps 0..half-1 first half, half..T-1 second
    for x, y in ((data.x_train, data.y_train), (data.x_val, data.y_val)):
        marks = x[:, :, 1]
        assert set(np.unique(marks)) <= {0.0, 1.0}
        assert np.all(marks[:, :half].sum(axis=1) == 1)   # exactly one marker in the first half
        assert np.all(marks[:, half:].sum(axis=1) == 1)   # and one in the second
        np.testing.assert_allclose(y, (x[:, :, 0] * marks).sum(axis=1), rtol=1e-6)
    # over 10000 sequences every step of each half carries a marker somewhere
    steps = data.x_train[:, :, 1].sum(axis=0)
    assert np.all(steps > 0)


def test_adding_drawn_from_the_data_seed_every_load():
    T = 4
    a = load_task(task_spec("adding", steps=T))
    b = load_task(task_spec("adding", steps=T))
    np.testing.assert_array_equal(a.x_train, b.x_train)
    np.testing.assert_array_equal(a.x_val, b.x_val)
    # the values are the seed's first draws: uniform [0, 1) float32, (N, T)
    first = np.random.default_rng(DATA_SEED).random((SYNTHETIC_TRAIN, T), dtype=np.float32)
    np.testing.assert_array_equal(a.x_train[:, :, 0], first)
    assert a.x_train.shape == (SYNTHETIC_TRAIN, T, 2) and a.x_val.shape == (SYNTHETIC_VAL, T, 2)


@pytest.mark.parametrize("task", ["digits", "digits-binary"])
@pytest.mark.parametrize("split", [None, "7/3"])
def test_digits_shape_before_building_is_what_building_gives(task, split):
    spec = task_spec(task, split=split)
    shape = task_shape(spec)
    data = load_task(spec)
    assert (shape.steps, shape.inputs) == data.x_train.shape[1:]
    assert (shape.n_train, shape.n_val) == (len(data.x_train), len(data.x_val))
    assert shape.outputs == data.num_classes
    if split is None:
        from sklearn.datasets import load_digits
        assert shape.n_train + shape.n_val == len(load_digits().target)    # the whole pool: 1797 images
        assert set(data.y_train) == set(data.y_val) == set(range(data.num_classes))


def test_digits_split_disjoint_and_seeded():
    from sklearn.datasets import load_digits
    images = load_digits().images.reshape(-1, 64) / 16.0
    data = load_task(task_spec("digits", split="5/4"))
    perm = np.random.default_rng(DATA_SEED).permutation(len(images))
    np.testing.assert_allclose(data.x_train[:, :, 0], images[perm[:5]], rtol=1e-6)
    np.testing.assert_allclose(data.x_val[:, :, 0], images[perm[5:9]], rtol=1e-6)
    with pytest.raises(UserError, match=r"asks for 1798 samples .* holds only 1797"):
        load_task(task_spec("digits", split="1000/798"))


@pytest.mark.parametrize("bad", [1, 0, 2, "yes", 1.0])
def test_flags_take_booleans_only(bad):
    with pytest.raises(UserError, match="allow_pickle must be true or false"):
        task_spec("strokes-npz", allow_pickle=bad)


def test_flags_keep_their_boolean():
    assert task_spec("strokes-npz", allow_pickle=True)["allow_pickle"] is True
    assert task_spec("strokes-npz", allow_pickle=False)["allow_pickle"] is False


@pytest.mark.parametrize("bad", ["", "7", "7/3/1", "a/b", "0/3", "3/-1", "/"])
def test_split_strings_refused(bad):
    with pytest.raises(UserError, match="--split"):
        parse_split(bad)
    with pytest.raises(UserError, match="--split"):
        task_spec("digits", split=bad)


def test_split_counts_in_their_order():
    assert parse_split(None) is None
    assert parse_split("7/3") == (7, 3)
    assert parse_split("3/7") == (3, 7)
