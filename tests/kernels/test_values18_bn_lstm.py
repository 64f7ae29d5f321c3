"""The fused BN-LSTM (lnrnn/kernels/bn_lstm.py) against the NumPy spec, float64, in training with T > Ts: the
running rows of all three BatchNorms (x side, h side, cell) after the forward, each row t < Ts updated
exactly once (the steps t >= Ts record nothing), and every gradient, on one part and on two (three asked
for, as many as B = 4's two row blocks allow: the summed gain gradients are added by column chunks)."""
import numpy as np
import pytest

from bn_problems import bn_problem
from lnrnn import reference as ref
from lnrnn.kernels import bn_lstm
from lnrnn.kernels.cpu import threads

T, B, I, H, TS = 5, 4, 5, 5, 2
MOM, EPS = 0.1, 1e-5
TOL = 1e-10
KEYS = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")


def close(name, got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape, name
    err = np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0)
    assert err <= TOL, f"{name}: error {err:.3g}"


@pytest.mark.parametrize("parts", [None, 3])
def test_running_rows_and_gradients_with_T_past_Ts(parts, monkeypatch):
    monkeypatch.setattr(threads, "PART_THREADS", parts)
    a, run, dy = bn_problem(np.random.default_rng(18), "lstm", T, B, I, H, TS)
    run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
    out_k = bn_lstm.bn_lstm_forward(*a.values(), *run_k, True, MOM, EPS, 0 if parts else bn_lstm.PAR_MIN_WORK)
    out_r = ref.bn_lstm_forward(*a.values(), *run_r, True, MOM, EPS)
    for k, (g, w) in enumerate(zip(out_k[:3], out_r[:3])):
        close(f"output {k}", g, w)
    c = np.stack([s["c"] for s in out_r[3]["steps"]])  # (T,B,H)
    for t in range(TS):  # the cell's rows by hand: one update each
        np.testing.assert_allclose(run_k[4][t], (1 - MOM) * run[4][t] + MOM * c[t].mean(0), rtol=1e-12)
        np.testing.assert_allclose(run_k[5][t], (1 - MOM) * run[5][t] + MOM * c[t].var(0, ddof=1), rtol=1e-12)
    for k, (g, w) in enumerate(zip(run_k, run_r)):
        close(f"running statistics {k}", g, w)
    g_k = bn_lstm.bn_lstm_backward(dy, out_k[3], *[a[k] for k in KEYS], 0 if parts else bn_lstm.PAR_MIN_WORK)
    g_r = ref.bn_lstm_backward(dy, out_r[3], *[a[k] for k in KEYS])
    for k, (g, w) in enumerate(zip(g_k, g_r)):
        close(f"gradient {k}", g, w)
