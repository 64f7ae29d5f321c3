"""The Python API's (lnrnn/api.py) checks and helpers that need no training: the refusal of an unknown device,
the choices quoted as the device is; batch sizes of 0 and True refused by predict and evaluate_run in one
sentence, before anything reads the run (a run object whose model is only a head stands in: with a check let
through, the call fails on the stand-in instead); sample_run's refusals of steps 0 and count 0, each quoting its
own value, before any run is loaded; Predictions.probability against the probabilities picked by hand at more
sequences than classes; fit's refusal of x_val together with split, word for word, with nothing written."""
from types import SimpleNamespace

import numpy as np
import pytest

import lnrnn
from lnrnn.api import Predictions, Run, evaluate_run, load_run, predict, sample_run
from lnrnn.errors import UserError


def _refusal(call, *args, **kw):
    with pytest.raises(UserError) as e:
        call(*args, **kw)
    return str(e.value)


@pytest.mark.parametrize("device", ["gpu", "CPU"])
def test_load_run_refuses_an_unknown_device_quoting_the_choices(tmp_path, device):
    assert _refusal(load_run, tmp_path, device=device) == f"device must be one of 'cpu', 'cuda', not '{device}'."


def _stand_in():
    """A Run whose model is a classifier head and nothing more; its task record names a task."""
    head = SimpleNamespace(kind="classifier", per_step=False, scale=None)
    return Run("runs/stand-in", {"task": {"task": "npz"}}, SimpleNamespace(head=head))


@pytest.mark.parametrize("size", [0, True, -1])
def test_batch_sizes_below_one_are_refused_before_the_run_is_read(size):
    x = np.zeros((2, 3, 1), np.float32)
    want = f"batch_size must be a whole number of at least 1, not {size!r}."
    assert _refusal(predict, _stand_in(), x, batch_size=size) == want
    assert _refusal(evaluate_run, _stand_in(), batch_size=size) == want


def test_sample_run_refusals_quote_their_own_value(tmp_path):
    nowhere = tmp_path / "no-run"                   # refused before any run is looked for
    assert _refusal(sample_run, nowhere, steps=0, count=3) == "steps must be at least 1, not 0."
    assert _refusal(sample_run, nowhere, steps=700, count=0) == "count must be at least 1, not 0."
    assert _refusal(sample_run, nowhere, steps=5, count=-2) == "count must be at least 1, not -2."
    assert not nowhere.exists()


def test_prediction_probability_is_each_sequences_own_class():
    probs = np.array([[0.1, 0.2, 0.7],
                      [0.5, 0.3, 0.2],
                      [0.25, 0.6, 0.15],
                      [0.3, 0.3, 0.4],
                      [0.05, 0.9, 0.05]])        # 5 sequences, 3 classes
    p = Predictions(np.array([2, 0, 1, 2, 1]), probs)
    np.testing.assert_array_equal(p.probability, [0.7, 0.5, 0.6, 0.4, 0.9])


def test_fit_refuses_x_val_with_split_and_writes_nothing(tmp_path):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((8, 3, 2)).astype(np.float32), rng.integers(0, 2, 8)
    xv, yv = rng.standard_normal((2, 3, 2)).astype(np.float32), rng.integers(0, 2, 2)
    out = tmp_path / "fit"
    msg = _refusal(lnrnn.fit, x, y, cell="lstm", out=out, x_val=xv, y_val=yv, split="6/2", epochs=1, hidden=2)
    assert msg == "fit() got both x_val and split; give one way of choosing the validation set."
    assert list(tmp_path.iterdir()) == []
