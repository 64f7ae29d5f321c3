"""lnrnn.predict on a tiny per-step regression LSTM that lnrnn.fit trains here: the values against the network
recomputed in NumPy (float64) from the run's export, NaN past each length (1 and T among them) and nothing past
it written to the .csv table, whose rows are worked out here; a width that is not the model's refused naming
the run folder, word for word; and the documented default batch_size=500 (60 sequences in one batch: progress
told 60 once)."""
import csv

import numpy as np
import pytest

import lnrnn
from lnrnn.api import export_run, predict
from lnrnn.errors import UserError
from lnrnn.interop.export import read_safetensors
from lnrnn.predict_io import write_predictions
from test_values196_api import _numpy_logits  # one-layer LSTM and head in NumPy, T 4, HID 3

N, T, I, HID = 5, 4, 2, 3
LENGTHS = np.array([1, 4, 3, 2, 4])


def _x(n, seed):
    return np.random.default_rng(seed).standard_normal((n, T, I)).astype(np.float32)


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    out = tmp_path_factory.mktemp("api277") / "reg"
    y = np.random.default_rng(1).standard_normal((N, T))              # float targets per step: regression
    run = lnrnn.fit(_x(N, 0), y, cell="lstm", out=str(out), epochs=1, hidden=HID, batch_size=4,
                    x_val=_x(3, 2), y_val=np.random.default_rng(3).standard_normal((3, T)))
    export = out.parent / "reg.safetensors"
    export_run(run, export)
    tensors, _ = read_safetensors(export)
    return run, out, tensors


def test_per_step_values_equal_numpy_and_are_nan_past_each_length(fitted, tmp_path):
    run, _, tensors = fitted
    x = _x(N, 5)
    want = _numpy_logits(tensors, x)[:, :, 0]                           # (N,T): one output
    v = predict(run, x, lengths=LENGTHS, batch_size=2)
    valid = np.arange(T)[None, :] < LENGTHS[:, None]
    np.testing.assert_array_equal(v.lengths, LENGTHS)
    assert v.values.shape == (N, T, 1)
    np.testing.assert_allclose(v.values[..., 0][valid], want[valid], rtol=2e-5, atol=1e-6)
    assert np.isnan(v.values[..., 0][~valid]).all()
    assert write_predictions(tmp_path / "v.csv", v) == int(LENGTHS.sum()) == 14
    with open(tmp_path / "v.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["index", "step", "value"]
    assert [(int(i), int(s)) for i, s, _ in rows[1:]] == [(n, t) for n in range(N) for t in range(LENGTHS[n])]
    np.testing.assert_allclose([float(r[2]) for r in rows[1:]], [want[n, t] for n in range(N)
                                                                 for t in range(LENGTHS[n])], rtol=2e-5, atol=1e-5)


def test_a_width_not_the_models_is_refused_naming_the_run_folder(fitted):
    run, out, _ = fitted
    with pytest.raises(UserError) as e:
        predict(run, np.zeros((2, T, 3)))
    assert str(e.value) == (f"the sequences have 3 inputs per step but the model of {out} reads 2; shape (2, 4, 3) "
                            "does not fit it (expected (N,T,2)).")


class _Told:
    def __init__(self):
        self.counts = []

    def update(self, n):
        self.counts.append(n)


def test_the_default_batch_size_is_500(fitted):
    run, _, tensors = fitted
    told = _Told()
    x = _x(60, 6)
    v = predict(run, x, progress=told)
    assert told.counts == [60]
    np.testing.assert_allclose(v.values[..., 0], _numpy_logits(tensors, x)[:, :, 0], rtol=2e-5, atol=1e-6)
