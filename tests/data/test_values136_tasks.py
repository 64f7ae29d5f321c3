"""lnrnn/data/tasks.py and taskdata.py by value, against the definitions: a --split past the digits pool names
both counts; --split on MNIST takes its rows from the t10k files by the seed-0 permutation (images written
here as IDX files, the rows gathered by hand); train and validation images of another height or width are
refused; a too-short --steps quotes the steps given; the copy task is scored per step (labels read back from
the one-hot inputs); a Path --data-dir is kept as text; a charset given wins over the default; a batch's
labels follow the rows asked for, per sequence (B,) and per step (B, T)."""
import json

import numpy as np
import pytest

from lnrnn.data.idx import write_idx
from lnrnn.data.taskdata import TaskData
from lnrnn.data.tasks import COPY_ALPHABET, COPY_SYMBOLS, load_task, task_spec
from lnrnn.errors import DataError, UserError


def test_a_split_past_the_digits_pool_names_what_it_asks_for_and_what_there_is():
    pool = len(pytest.importorskip("sklearn.datasets").load_digits().target)   # 1797
    a, b = pool - 5, 11                                                     # 6 too many
    with pytest.raises(UserError, match=rf"asks for {a + b} samples but the digits data set holds only {pool}\."):
        load_task(task_spec("digits", split=f"{a}/{b}"))


def _mnist_dir(tmp_path, train_shape, t10k_shape):
    """train images hold 0..; t10k images hold 100.. (distinct rows, so a row says where it came from)."""
    for split, (n, h, w), base in (("train", train_shape, 0), ("t10k", t10k_shape, 100)):
        images = (base + np.arange(n * h * w) % 100).reshape(n, h, w).astype(np.uint8)
        write_idx(tmp_path / f"{split}-images-idx3-ubyte", images)
        write_idx(tmp_path / f"{split}-labels-idx1-ubyte", (np.arange(n) % 10).astype(np.uint8))
    return tmp_path


@pytest.mark.parametrize("task", ["mnist", "mnist-rows"])
def test_a_split_of_mnist_draws_its_rows_from_the_t10k_files_by_the_seed_0_permutation(tmp_path, task):
    _mnist_dir(tmp_path, (4, 3, 4), (7, 3, 4))
    t10k = (100 + np.arange(7 * 12) % 100).reshape(7, 3, 4).astype(np.uint8)
    labels = np.arange(7) % 10
    perm = np.random.default_rng(0).permutation(7)       # the documented DATA_SEED
    d = load_task(task_spec(task, data_dir=str(tmp_path), split="3/2"))
    steps = (3, 4) if task == "mnist-rows" else (12, 1)
    for x, y, rows in ((d.x_train, d.y_train, perm[:3]), (d.x_val, d.y_val, perm[3:5])):
        assert x.shape == (len(rows),) + steps
        np.testing.assert_array_equal(x.reshape(len(rows), 3, 4), t10k[rows])
        np.testing.assert_array_equal(y, labels[rows])


@pytest.mark.parametrize("t10k_hw", [(3, 5), (4, 4)])
def test_train_and_validation_images_of_other_sizes_are_refused(tmp_path, t10k_hw):
    _mnist_dir(tmp_path, (4, 3, 4), (5,) + t10k_hw)
    with pytest.raises(DataError, match=rf"train images are 3x4 but validation images are "
                                        rf"{t10k_hw[0]}x{t10k_hw[1]}"):
        load_task(task_spec("mnist", data_dir=str(tmp_path)))


@pytest.mark.parametrize("task,steps,least", [("adding", 1, 2), ("copy", 0, 1), ("copy", -3, 1)])
def test_a_short_steps_is_refused_quoting_the_steps_given(task, steps, least):
    with pytest.raises(UserError, match=rf"needs --steps of at least {least}, not {steps}\.$"):
        load_task(task_spec(task, steps=steps))


def test_the_copy_task_scores_every_step_with_its_symbols_on_the_last_k():
    delay = 3
    d = load_task(task_spec("copy", steps=delay))
    K, T = COPY_SYMBOLS, delay + 2 * COPY_SYMBOLS
    assert d.per_step is True and d.num_classes == COPY_ALPHABET
    for x, y in ((d.x_train, d.y_train), (d.x_val, d.y_val)):
        assert x.shape[1:] == (T, COPY_ALPHABET + 2) and y.shape == (len(x), T)
        codes = x.argmax(axis=2)                          # one-hot: 0 blank, 1..8 symbols, 9 delimiter
        assert (x.sum(axis=2) == 1).all()
        assert (y[:, :T - K] == -1).all()
        np.testing.assert_array_equal(y[:, T - K:], codes[:, :K] - 1)
    b = d.batch("val", np.array([4, 1, 0]))
    assert b[1].shape == (3, T)


def test_a_path_data_dir_is_kept_as_text_in_the_spec(tmp_path):
    path = tmp_path / "mine.npz"
    spec = task_spec("npz", data_dir=path)
    assert type(spec["data_dir"]) is str and spec["data_dir"] == str(path)
    assert json.loads(json.dumps(spec))["data_dir"] == str(path)


@pytest.mark.parametrize("charset", ["kana", "kanji", "latin"])
def test_a_charset_given_wins_over_the_default(charset):
    assert task_spec("strokes-kanjivg", charset=charset)["charset"] == charset
    assert task_spec("strokes-kanjivg")["charset"] == "latin"
    assert "head" not in task_spec("strokes-kanjivg")


def test_a_batch_gathers_labels_of_the_rows_asked_for_per_sequence_and_per_step():
    N, T, I = 5, 4, 2
    x = np.arange(N * T * I, dtype=np.float32).reshape(N, T, I)
    per_seq = np.array([3, 1, 4, 1, 5])
    per_step = np.arange(N * T).reshape(N, T) % 3 - 1                 # -1 marks unscored steps
    idx = np.array([3, 0, 4])
    for y in (per_seq, per_step):
        d = TaskData({"task": "t"}, "", x, y, x[:2], y[:2], num_classes=3, per_step=y.ndim == 2, scale=0.5)
        xb, yb = d.batch("train", idx)
        expect_x = np.stack([x[i] for i in idx], axis=1) * 0.5        # (T, B, I)
        np.testing.assert_array_equal(xb, expect_x)
        expect_y = np.array([y[i] for i in idx])                       # (B,) or (B, T)
        assert yb.shape == expect_y.shape
        np.testing.assert_array_equal(yb, expect_y)
        xv, yv = d.batch("val", np.array([1, 0]))
        np.testing.assert_array_equal(yv, np.array([y[1], y[0]]))
