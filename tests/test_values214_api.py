"""The Python API (lnrnn/api.py) on a tiny per-step LSTM classifier that lnrnn.fit trains here into an existing,
empty folder: predict against the network recomputed here in NumPy (float64) from the run's export (torch's gate
order i, f, g, o), in batches of two over five rows (a partial last batch) with lengths 1 and T among them, and
without lengths (every row T steps); evaluate_run's loss and accuracy against the mean cross-entropy and the
share of right argmaxes over the validation steps, recomputed the same way; fit's refusals of an out that already
holds a run and of an unknown training option, word for word, with nothing written."""
import dataclasses
import os

import numpy as np
import pytest

import lnrnn
from lnrnn.api import FIT_FIXED, evaluate_run, export_run, predict
from lnrnn.errors import UserError
from lnrnn.interop.export import read_safetensors
from lnrnn.training.runconfig import TrainConfig
from test_values161_api import _arrays  # (n, T, I) float32 inputs and (n, T) classes, T 4, I 2, C 3 as here
from test_values196_api import _numpy_logits  # the LSTM and head in NumPy, torch's formulas

N, T, I, C, HID = 5, 4, 2, 3, 3          # T != I: an axis mixed up shows
LENGTHS = np.array([1, 4, 3, 2, 4])      # 1 and T; the fifth row alone in the last batch of two


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    out = tmp_path_factory.mktemp("api214")                                  # exists, empty
    x, y = _arrays(N, 0)
    xv, yv = _arrays(3, 1)
    run = lnrnn.fit(x, y, cell="lstm", out=str(out), epochs=1, hidden=HID, batch_size=4, x_val=xv, y_val=yv)
    export = out.parent / "api214.safetensors"
    export_run(run, export)
    tensors, meta = read_safetensors(export)
    assert meta["gate_order"] == "i,f,g,o"
    return run, out, {k: np.asarray(v, np.float64) for k, v in tensors.items()}, (xv, yv)


def _probabilities(w, x):
    """x (N,T,I) -> softmax of the head's outputs (N,T,C), a one-layer LSTM from zero states."""
    logits = _numpy_logits(w, x)
    e = np.exp(logits - logits.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_predict_in_batches_of_two_equals_numpy_with_and_without_lengths(fitted):
    run, _, w, _ = fitted
    x, _ = _arrays(N, 3)
    probs = _probabilities(w, x)
    p = predict(run, x, lengths=LENGTHS, batch_size=2)
    valid = np.arange(T)[None, :] < LENGTHS[:, None]                        # (N,T)
    np.testing.assert_array_equal(p.lengths, LENGTHS)
    np.testing.assert_allclose(p.probabilities[valid], probs[valid], rtol=2e-5, atol=1e-6)
    np.testing.assert_array_equal(p.classes, np.where(valid, probs.argmax(-1), -1))
    q = predict(run, x, batch_size=2)                                        # no lengths: T steps each
    np.testing.assert_array_equal(q.lengths, np.full(N, T))
    np.testing.assert_allclose(q.probabilities, probs, rtol=2e-5, atol=1e-6)
    np.testing.assert_array_equal(q.classes, probs.argmax(-1))


def test_evaluate_run_equals_cross_entropy_and_accuracy_recomputed(fitted):
    run, _, w, (xv, yv) = fitted
    probs = _probabilities(w, xv)
    picked = np.take_along_axis(probs, yv[..., None], -1)[..., 0]          # (N,T) probability of the target
    ev = evaluate_run(run, "val", batch_size=2)                              # 3 rows: a partial last batch
    assert ev.sequences == 3 and ev.which == "val"
    assert ev.metrics["loss"] == pytest.approx(-np.log(picked).mean(), rel=1e-4)
    assert ev.metrics["acc"] == pytest.approx((probs.argmax(-1) == yv).mean(), abs=1e-9)


def test_fit_refuses_an_out_holding_a_run_and_writes_nothing(fitted):
    _, out, _, _ = fitted
    before = {p: os.path.getmtime(os.path.join(out, p)) for p in os.listdir(out)}
    x, y = _arrays(N, 4)
    with pytest.raises(UserError) as e:
        lnrnn.fit(x, y, cell="lstm", out=str(out), epochs=1, hidden=HID)
    assert str(e.value) == (f"{out} already holds a run; choose another out (or resume it with lnrnn train --out "
                            f"{out} --resume).")
    assert {p: os.path.getmtime(os.path.join(out, p)) for p in os.listdir(out)} == before


def test_fit_refuses_an_unknown_option_naming_it_quoted(tmp_path):
    known = ", ".join(sorted({f.name for f in dataclasses.fields(TrainConfig)} - set(FIT_FIXED)))
    x, y = _arrays(N, 5)
    for name in ("epoch", "task"):                                           # a typo, and one fit sets itself
        with pytest.raises(UserError) as e:
            lnrnn.fit(x, y, out=str(tmp_path / "new"), **{name: 1})
        assert str(e.value) == f"fit() takes no training option '{name}'; the options are: {known}."
    assert os.listdir(tmp_path) == []
