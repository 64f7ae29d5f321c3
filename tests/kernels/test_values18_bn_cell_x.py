"""A BN cell's narrow-input x side (lnrnn/kernels/bn_cell_x.py, the fold path: BN_t(x_t Wx) from the batch mean
and covariance of x_t): in float32, a column whose variance W^T C W is a small difference of large terms
(x's two inputs almost equal, the column their difference) must still get the variance of the float64
formula, so the quadratic form must be summed in float64; and inference on the fold path, with running means
far from zero, must equal the NumPy spec forward and backward."""
import numpy as np

from bn_problems import bn_problem
from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm

MOM = 0.1


def test_float32_fold_variance_of_a_cancelling_column():
    T, B, I, H, Ts = 2, 8, 2, 1, 2
    assert I <= FOLD_MAX_I
    rng = np.random.default_rng(18)
    a, run, _ = bn_problem(rng, "lstm", T, B, I, H, Ts, dtype=np.float32)
    u = 100.0 * rng.standard_normal((T, B))
    x = np.stack([u, u + 1e-3 * rng.standard_normal((T, B))], axis=2).astype(np.float32)  # (T,B,2)
    Wx = np.array([[1.0, 0.5, 0.3, -0.2], [-1.0, -0.5, 0.1, 0.4]], np.float32)  # columns 0, 1: x0 - x1
    a["x"], a["Wx"] = x, Wx
    eps = 1e-9
    saved = bn_lstm.bn_lstm_forward(*a.values(), *[r.copy() for r in run], True, MOM, eps)[3]
    assert saved[0].shape == (T, I + I * I)  # the fold path ran
    xw = x.astype(np.float64) @ Wx.astype(np.float64)  # (T,B,G)
    var = xw.var(axis=1)
    assert var[:, 0].max() < 1e-4 * (u ** 2).mean()  # the column cancels
    np.testing.assert_allclose(saved[1], xw.mean(axis=1), rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(saved[2], 1.0 / np.sqrt(var + eps), rtol=1e-4)


def test_fold_inference_with_far_running_means_equals_the_spec():
    T, B, I, H, Ts = 3, 4, 2, 2, 2
    a, run, dy = bn_problem(np.random.default_rng(19), "lstm", T, B, I, H, Ts)
    run = [r + 3.0 if k % 2 == 0 else r for k, r in enumerate(run)]
    out_k = bn_lstm.bn_lstm_forward(*a.values(), *[r.copy() for r in run], False, MOM, 1e-5)
    out_r = ref.bn_lstm_forward(*a.values(), *[r.copy() for r in run], False, MOM, 1e-5)
    assert out_k[3][0].shape == (T, I + I * I)
    for k, (g, w) in enumerate(zip(out_k[:3], out_r[:3])):
        np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-12, err_msg=f"output {k}")
    keys = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
    g_k = bn_lstm.bn_lstm_backward(dy, out_k[3], *[a[k] for k in keys])
    g_r = ref.bn_lstm_backward(dy, out_r[3], *[a[k] for k in keys])
    for k, (g, w) in enumerate(zip(g_k, g_r)):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-11, err_msg=f"gradient {k}")
