"""lnrnn/diagnostics.py's per-step statistics over the rows that run (module docstring: "Rows count only at steps
they run"): at each step, pre_std and h_std are the population standard deviation of the running rows' values
over rows and units, pre_sat the fraction of them above 3 in magnitude, and a step no row runs gives 0 for each.
Checked on _masked_stats itself with NumPy on the selected values, one unit wide (K 1) and wider, at steps where
one row runs (one value: spread 0), two, all and none; and through per_step on an RNN of one unit whose rows end
at different steps, against the reference forward's own pre-activations."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.diagnostics import SATURATED, _masked_stats, per_step
from lnrnn.model.models import build_model


def expected(a, w):
    """a (T,B,K), w (T,B) 0/1 -> (std (T,), saturated fraction (T,)) from the selected values themselves."""
    std, sat = [], []
    for t in range(a.shape[0]):
        v = a[t][w[t] > 0].ravel()
        std.append(v.std() if v.size else 0.0)
        sat.append((np.abs(v) > SATURATED).mean() if v.size else 0.0)
    return np.array(std), np.array(sat)


@pytest.mark.parametrize("K", [1, 4])
def test_each_steps_figures_are_those_of_its_running_rows(K):
    rng = np.random.default_rng(479)
    a = rng.normal(0, 3.0, (4, 3, K))                                   # (T,B,K)
    w = np.array([[1, 1, 1], [0, 1, 0], [1, 0, 1], [0, 0, 0]], float)   # all, one row, two, none
    std, sat = _masked_stats(a, w)
    want_std, want_sat = expected(a, w)
    np.testing.assert_allclose(std, want_std, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(sat, want_sat, rtol=1e-12, atol=1e-15)
    if K == 1:
        assert std[1] == 0.0 and sat[1] == float(abs(a[1, 1, 0]) > SATURATED)   # one value: no spread


def test_per_step_on_one_unit_counts_each_step_over_the_rows_still_running():
    T, B, I = 5, 3, 2
    model = build_model(dict(cell="rnn", norm="none", input_size=I, hidden_size=1, num_layers=1, dtype="float64",
                             forget_bias=1.0, head={"kind": "regression", "outputs": 1, "per_step": True}), seed=4)
    rng = np.random.default_rng(5)
    x, y = rng.normal(0, 2.0, (T, B, I)), rng.standard_normal((B, T, 1))                # targets (B,T,O)
    lengths = np.array([5, 2, 4])                                       # steps 4: one row; 2-3: two; 0-1: all
    d = per_step(model, x, y, lengths=lengths, state=model.stack.zero_state(B))
    p = {k: np.asarray(v, np.float64) for k, v in model.stack.layers[0].params.items()}
    h, _, cache = ref.rnn_forward(x, np.zeros((B, 1)), p["Wx"], p["Wh"], p["b"], np.ones(1), "none", 1e-5)
    pre = np.stack([s["pre"] for s in cache])                           # (T,B,1)
    w = (np.arange(T)[:, None] < lengths[None, :]).astype(float)        # (T,B)
    want_pre, want_sat = expected(pre, w)
    want_h, _ = expected(h, w)
    np.testing.assert_allclose(d["pre_std"][0], want_pre, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(d["pre_sat"][0], want_sat, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(d["h_std"][0], want_h, rtol=1e-10, atol=1e-14)
    assert d["pre_std"][0][4] == 0.0 and d["h_std"][0][4] == 0.0                # one running row, one unit
