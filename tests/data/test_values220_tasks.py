"""Task registry values: the option refusals word for word, the copy and digits descriptions against counts made
here, and the digits validation split's labels and pixels against the fixed-seed permutation drawn here."""
import numpy as np
import pytest

from lnrnn.data import tasks
from lnrnn.errors import UserError


def test_head_option_refuses_anything_but_ctc():
    with pytest.raises(UserError) as e:
        tasks.task_spec("strokes-hershey", head="mdn")
    assert str(e.value) == ("task option head must be ctc (read each line's text with a CTC head), not 'mdn'; "
                            "leave it out for the task's own head.")
    assert tasks.task_spec("strokes-hershey", head="ctc")["head"] == "ctc"


def test_head_on_a_task_without_text_is_the_reading_refusal():
    with pytest.raises(UserError) as e:
        tasks.task_spec("digits", head="ctc")
    assert str(e.value) == ("--head ctc reads each handwriting line's text as its labels, and the sequences of "
                            "task digits carry none; use strokes-hershey, strokes-kanjivg, strokes (IAM-OnDB with "
                            "its ascii/ transcriptions).")
    with pytest.raises(UserError) as e:
        tasks.task_spec("copy", charset="kana")
    assert str(e.value) == "task copy does not take the option charset."


def test_flag_refusal_quotes_the_value():
    with pytest.raises(UserError) as e:
        tasks.task_spec("strokes-npz", data_dir="lines.npz", allow_pickle="yes")
    assert str(e.value) == "task option allow_pickle must be true or false, not 'yes'."
    assert tasks.task_spec("strokes-npz", data_dir="lines.npz", allow_pickle=True)["allow_pickle"] is True


def test_unknown_option_is_refused_even_when_none():
    with pytest.raises(TypeError) as e:
        tasks.task_spec("digits", colour=None)
    assert str(e.value) == "task_spec() got an unknown option 'colour'"


def test_copy_description_and_layout_by_hand():
    delay = 3
    d = tasks.load_task(tasks.task_spec("copy", steps=delay))
    K, T = 10, 10 + delay + 10                 # symbols, blanks (delimiter on the last), recall steps
    assert d.x_train.shape[1:] == (T, 10) and d.x_val.shape == (1000, T, 10)
    assert d.description == (f"copy memory: recall {K} symbols after {delay} blanks ({T} steps, per-step head "
                             f"scored on the last {K}), 10000 train / 1000 validation sequences")
    codes = d.x_val.argmax(axis=2)             # (N, T)
    assert (codes[:, K + delay - 1] == 9).all()
    assert (d.y_val[:, :T - K] == -1).all()
    np.testing.assert_array_equal(d.y_val[:, T - K:], codes[:, :K] - 1)


@pytest.mark.parametrize("task", ["digits", "digits-binary"])
def test_digits_description_and_validation_split_by_hand(task):
    from sklearn.datasets import load_digits
    d = tasks.load_task(tasks.task_spec(task, split="31/17"))
    pixels = "1 where a pixel is 8 or more of 16, else 0" if task == "digits-binary" else "values in [0, 1]"
    assert d.description == (f"scikit-learn 8x8 digits read pixel by pixel (64 steps of 1 input, {pixels}), "
                             "31 train / 17 validation images, 10 classes")
    raw = load_digits()
    perm = np.random.default_rng(0).permutation(1797)
    val = perm[31:48]
    np.testing.assert_array_equal(d.y_val, raw.target[val])
    img = raw.images[val].reshape(17, 64)
    want = (img >= 8).astype(np.float32) if task == "digits-binary" else img / 16.0
    np.testing.assert_allclose(d.x_val[:, :, 0], want, rtol=1e-6)
    np.testing.assert_array_equal(d.y_train, raw.target[perm[:31]])
