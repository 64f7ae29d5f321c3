"""The task registry against its documentation and independent computations: the digits task's 1437 / 360 images
without --split, each split's class counts equal to scikit-learn's bundled targets at the seed-0 permutation drawn
here, and its shape before building saying the same; the adding problem's 10000 / 1000 sequences at --steps 2 with
each target the sum of its two marked values, one marker in each half; --head ctc refused for strokes-synthetic
word for word (through task_spec and through `lnrnn train`, which writes nothing) while strokes-hershey takes it;
a --split of a zero count refused by task_spec word for word before anything is built."""
import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.data.tasks import load_task, task_shape, task_spec
from lnrnn.errors import UserError

READING_REFUSAL = ("--head ctc reads each handwriting line's text as its labels, and the sequences of task "
                   "{task} carry none; use strokes-hershey, strokes-kanjivg, strokes (IAM-OnDB with its ascii/ "
                   "transcriptions).")


def test_digits_default_split_sizes_and_class_counts_over_each_split():
    from sklearn.datasets import load_digits
    d = load_digits()
    perm = np.random.default_rng(0).permutation(1797)
    task = load_task(task_spec("digits"))
    assert (len(task.x_train), len(task.x_val)) == (1437, 360)            # the docstring: 1437 / 360 of 1797
    for y, rows in ((task.y_train, perm[:1437]), (task.y_val, perm[1437:1797])):
        np.testing.assert_array_equal(np.bincount(y, minlength=10), np.bincount(d.target[rows], minlength=10))
    np.testing.assert_array_equal(task.y_val, d.target[perm[1437:]])
    np.testing.assert_allclose(task.x_val[:, :, 0], d.images[perm[1437:]].reshape(360, 64) / 16.0)
    shape = task_shape(task_spec("digits"))
    assert (shape.n_train, shape.n_val, shape.steps) == (1437, 360, 64)


def test_adding_problem_counts_and_targets_by_definition():
    task = load_task(task_spec("adding", steps=2))
    assert (len(task.x_train), len(task.x_val)) == (10000, 1000)
    for x, y in ((task.x_train, task.y_train), (task.x_val, task.y_val)):
        assert x.shape[1:] == (2, 2)
        np.testing.assert_array_equal(x[:, :, 1], np.ones((len(x), 2)))   # T = 2: one marker in each half
        np.testing.assert_allclose(y, x[:, 0, 0] + x[:, 1, 0], rtol=1e-6)
    assert "10000 train / 1000 validation sequences" in task.description


def test_head_ctc_refused_for_synthetic_strokes_and_taken_by_hershey():
    with pytest.raises(UserError) as e:
        task_spec("strokes-synthetic", head="ctc")
    assert str(e.value) == READING_REFUSAL.format(task="strokes-synthetic")
    with pytest.raises(UserError) as e:
        task_spec("digits", head="ctc")
    assert str(e.value) == READING_REFUSAL.format(task="digits")
    assert task_spec("strokes-hershey", split="4/2", head="ctc") == {"task": "strokes-hershey", "split": "4/2",
                                                                     "head": "ctc"}


def test_train_refuses_head_ctc_on_synthetic_strokes_and_writes_nothing(tmp_path):
    from lnrnn.cli import main
    r = CliRunner().invoke(main, ["train", "--task", "strokes-synthetic", "--head", "ctc", "--split", "4/2",
                                  "--epochs", "1", "-q", "--out", str(tmp_path / "run")])
    assert r.exit_code != 0
    assert READING_REFUSAL.format(task="strokes-synthetic") in " ".join(r.output.split())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("split,why", [("5/0", "--split needs positive counts, not '5/0'."),
                                       ("0/5", "--split needs positive counts, not '0/5'."),
                                       ("5-2", "--split must be TRAIN/VAL counts such as 8000/2000, not '5-2'.")])
def test_bad_split_refused_by_task_spec_word_for_word(split, why):
    for task in ("digits", "strokes-synthetic"):
        with pytest.raises(UserError) as e:
            task_spec(task, split=split)
        assert str(e.value) == why
