"""The Python API (lnrnn/api.py) on a tiny per-step classifier trained here by lnrnn.fit: predict's classes and
probabilities at each step against a plain LSTM and the head's softmax written here in NumPy from the run's
parameters (classes the most probable class at each valid step, -1 past each row's length); Run.step, Run.epoch
and describe() against what fit was asked for (8 rows in batches of 4, one epoch: 2 updates); fit()'s refusals
of both x_val and split and of a nonsensical option, which name the argument and write nothing."""
import os

import numpy as np
import pytest

import lnrnn
from lnrnn.errors import UserError

N, T, I, C, HID = 8, 4, 2, 3, 3


def _arrays(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((N, T, I)).astype(np.float32)
    return x, rng.integers(0, C, (N, T))


@pytest.fixture(scope="module")
def per_step(tmp_path_factory):
    out = tmp_path_factory.mktemp("api101") / "step"
    x, y = _arrays()
    lnrnn.fit(x, y, cell="lstm", out=str(out), epochs=1, hidden=HID, batch_size=4, x_val=x[:2], y_val=y[:2])
    return str(out), x


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _probs_by_hand(params, x):
    """(N,T,C) softmax of the head over a one-layer plain LSTM (gates i, f, g, o) from zero states."""
    Wx, Wh, b = (params[f"rnn.l0.{n}"].astype(np.float64) for n in ("Wx", "Wh", "b"))
    h = c = np.zeros((x.shape[0], HID))
    hs = []
    for t in range(x.shape[1]):
        a = x[:, t].astype(np.float64) @ Wx + h @ Wh + b
        i, f, g, o = (_sigmoid(a[:, :HID]), _sigmoid(a[:, HID:2 * HID]), np.tanh(a[:, 2 * HID:3 * HID]),
                      _sigmoid(a[:, 3 * HID:]))
        c = f * c + i * g
        h = o * np.tanh(c)
        hs.append(h)
    z = np.stack(hs, axis=1) @ params["head.W"].astype(np.float64) + params["head.b"]
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_per_step_predictions_are_each_steps_most_probable_class(per_step):
    folder, x = per_step
    run = lnrnn.load_run(folder)
    lengths = np.array([4, 1, 3, 2, 4, 2, 1, 3])
    p = lnrnn.predict(run, x, lengths, batch_size=3)
    want = _probs_by_hand(run.model.params, x)                      # a row's steps never see later ones
    valid = np.arange(T)[None, :] < lengths[:, None]                # (N,T)
    np.testing.assert_allclose(p.probabilities[valid], want[valid], rtol=2e-5, atol=1e-6)
    assert p.classes.shape == (N, T) and p.classes.dtype == np.int64
    np.testing.assert_array_equal(p.classes, np.where(valid, want.argmax(-1), -1))
    np.testing.assert_array_equal(p.lengths, lengths)
    got = p.probability
    np.testing.assert_allclose(got[valid], np.take_along_axis(want, want.argmax(-1)[..., None], -1)[..., 0][valid],
                               rtol=2e-5, atol=1e-6)
    assert np.all(np.isnan(got[~valid]))


def test_a_run_of_one_epoch_of_two_batches_counts_them(per_step):
    run = lnrnn.load_run(per_step[0])
    assert run.epoch == 1 and run.step == 2                         # 8 rows in batches of 4, one epoch
    assert run.describe() == f"lstm (hidden {HID}, 1 layer) after 1 finished epoch, 2 updates"


def test_fit_refuses_x_val_with_split_and_writes_nothing(tmp_path):
    x, y = _arrays(1)
    out = tmp_path / "both"
    with pytest.raises(UserError, match="fit\\(\\) got both x_val and split"):
        lnrnn.fit(x, y, out=str(out), x_val=x[:2], y_val=y[:2], split="6/2", epochs=1, hidden=2)
    assert not out.exists()
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("option, value, said", [("lr", -1.0, "--lr must be a positive number"),
                                                 ("epochs", 0, "--epochs must be at least 1")])
def test_fit_refuses_a_nonsensical_option_before_writing_the_data(tmp_path, option, value, said):
    x, y = _arrays(2)
    out = tmp_path / "bad"
    with pytest.raises(UserError, match=said):
        lnrnn.fit(x, y, out=str(out), hidden=2, **{option: value})
    assert not out.exists()
