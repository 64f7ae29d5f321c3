"""lnrnn.diagnostics against hand computations: _masked_stats' spread and saturated share over the running rows
only, by a loop over each step's running rows here (rows past their length hold large values, so counting
them shows); per_step's h_std of an LN-LSTM whose cell-norm gain and bias are moved apart is the spread of the
h the model's own kernels compute, step by step."""
import numpy as np
import pytest
from test_values70_diagnostics import _model

from lnrnn.diagnostics import SATURATED, _masked_stats, per_step


def test_masked_stats_count_only_the_running_rows():
    rng = np.random.default_rng(3)
    T, B, K = 4, 3, 5
    a = rng.standard_normal((T, B, K)) * 2.0
    lengths = [4, 2, 1]
    w = np.array([[1.0 if t < n else 0.0 for n in lengths] for t in range(T)])      # (T,B)
    a[w == 0] = 50.0                                                                 # padding: far off
    std, sat = _masked_stats(a, w)
    for t in range(T):
        vals = [a[t, b, k] for b in range(B) if t < lengths[b] for k in range(K)]
        mean = sum(vals) / len(vals)
        var = sum((v - mean) ** 2 for v in vals) / len(vals)
        assert std[t] == pytest.approx(var ** 0.5, rel=1e-12)
        assert sat[t] == pytest.approx(sum(abs(v) > SATURATED for v in vals) / len(vals), rel=1e-12)


def test_h_std_is_the_spread_of_the_models_own_h():
    m = _model("lstm", "ln", layers=1, seed=4)
    layer = m.stack.layers[0]
    H = layer.H
    layer.params["gc"][...] = np.linspace(0.5, 2.0, H)          # gain and bias far apart: swapping them shows
    layer.params["bc"][...] = np.linspace(-1.0, 0.3, H)
    T, B, I = 5, 4, 2
    rng = np.random.default_rng(6)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, 3, B)
    h, _ = m.stack.forward(x, None, training=False, keep=False)          # (T,B,H), the compiled kernels
    d = per_step(m, x, y)
    for t in range(T):
        assert d["h_std"][0, t] == pytest.approx(np.asarray(h[t]).std(), rel=1e-9)
