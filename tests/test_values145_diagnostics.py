"""per_step on BatchNorm models leaves the model as it found it: its training-mode replay of the forward pass
updates running statistics, which must be copies (the layer's running means and variances, float64 like the
model, compared element for element before and after, with a batch whose mean is far from the running one)."""
import numpy as np
import pytest
from test_values70_diagnostics import B, I, O, T, _model

from lnrnn.diagnostics import per_step


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_bn_running_statistics_are_not_moved(cell):
    m = _model(cell, "bn", layers=1, seed=3)
    layer = m.stack.layers[0]
    rng = np.random.default_rng(5)
    for v in layer.buffers.values():                     # running stats away from their initial 0 / 1
        v[...] = v + 0.25 * rng.standard_normal(v.shape)
    assert all(np.asarray(v).dtype == np.float64 for v in layer.buffers.values())
    before = {k: np.array(v) for k, v in layer.buffers.items()}
    x = 3.0 + rng.standard_normal((T, B, I))               # a batch mean far from the running one
    y = rng.integers(0, O, B)
    d = per_step(m, x, y)
    for k, v in layer.buffers.items():
        np.testing.assert_array_equal(np.asarray(v), before[k], err_msg=k)
    assert np.all(np.isfinite(d["pre_std"])) and np.all(d["pre_std"] > 0)
