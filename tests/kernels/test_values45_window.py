"""The synthesis layer with its window (lnrnn/kernels/window.py) with LayerNorm at an eps far from the default,
against the NumPy reference in float64: the forward's outputs and every gradient; the saved 1/std rows are
those of the reference's three LayerNorms."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels import window
from lnrnn.kernels.codes import NORM_LN

MOM = 0.1


def close(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64) * np.ones(np.shape(a))
    return float(np.max(np.abs(a - b), initial=0.0) / max(np.max(np.abs(b), initial=0.0), 1e-300))


@pytest.mark.parametrize("eps", [1e-5, 0.5])
def test_layernorm_window_layer_with_a_large_eps(eps):
    """T 4, B 3 (one row padded from step 2), I 2, H 3, K 2, C 4, U 3: y, w, hT, cT to 1e-12 and every gradient
    to 1e-10 of the reference with the same eps (0.5 against variances of O(1) moves each 1/std by tens of
    percent)."""
    T, B, I, H, K, C, U = 4, 3, 2, 3, 2, 4, 3
    G = 4 * H
    rng = np.random.default_rng(4580)

    def nrm(*shape, sc=1.0, mu=0.0):
        return mu + sc * rng.standard_normal(shape)
    a = dict(x=nrm(T, B, I), h0=nrm(B, H, sc=0.5), c0=nrm(B, H, sc=0.5), kappa0=rng.uniform(0.0, 1.0, (B, K)),
             w0=rng.uniform(0.0, 0.5, (B, C)), chars=rng.integers(0, C, (B, U)), ulen=np.array([3, 2, 1], np.int64),
             Wx=nrm(I + C, G, sc=0.4), Wh=nrm(H, G, sc=0.4), b=nrm(G, sc=0.1), gx=nrm(G, sc=0.2, mu=1.0),
             bx=nrm(G, sc=0.1), gh=nrm(G, sc=0.2, mu=1.0), bh=nrm(G, sc=0.1), gc=nrm(H, sc=0.2, mu=1.0),
             bc=nrm(H, sc=0.1), Wp=nrm(H, 3 * K, sc=0.3),
             bp=np.concatenate([nrm(K, sc=0.1), nrm(K, sc=0.1, mu=-1.0), nrm(K, sc=0.1, mu=-0.5)]))
    run = [np.zeros((0, 0))] * 6
    lengths = np.array([4, 2, 4], np.int64)
    dy, dw = nrm(T, B, H), nrm(T, B, C)
    want = ref.window_lstm_forward(*a.values(), *run, "ln", True, MOM, eps, lengths)
    got = window.window_lstm_forward(*a.values(), *run, NORM_LN, True, MOM, eps, lengths, True)
    for k in range(4):  # y, w, hT, cT
        assert close(got[k], want[k]) < 1e-12, k
    g_want = ref.window_lstm_backward(dy, dw, want[-1], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"],
                                      a["chars"], 0.0)
    g_got = window.window_lstm_backward(dy, dw, got[-1], a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"],
                                        a["ulen"], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], NORM_LN, 0.0)
    for k, (g, w) in enumerate(zip(g_got, g_want)):
        assert close(g, w) < 1e-10, k
