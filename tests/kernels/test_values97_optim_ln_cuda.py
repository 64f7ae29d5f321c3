"""The optimizers' and LayerNorm's CUDA twins (optim_cuda, layernorm_cuda) under the simulator, float64, against
rules written here in NumPy from their definitions and against the CPU twins (optim, layernorm).

SGD with momentum (v = mu v + g, p -= lr v) and plain RMSProp (n = a n + (1-a) g^2, p -= lr g / (sqrt(n) + eps))
over two steps (the decays show from the second), P = 7 parameters over blocks of 8 threads, momentum, alpha and
eps off their defaults. LayerNorm over 3 rows of F = 5 features (a block of 8 threads with idle ones), gains and
biases away from 1 and 0: y = (x - mean) / sqrt(var + eps) g + b and dx from the definition
dx = rstd (dy g - mean(dy g) - xhat mean(dy g xhat)).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import layernorm, layernorm_cuda, optim, optim_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device  # noqa: E402
from test_cuda_kernels import close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)

P = 7
LR, MOMENTUM, ALPHA, EPS = 0.1, 0.6, 0.7, 0.05
TOL = 1e-12


def grads():
    rng = np.random.default_rng(9740)
    return rng.standard_normal(P), rng.standard_normal(P) * 2.0


def test_sgd_momentum_two_steps_by_definition():
    p0 = np.linspace(-1.0, 1.0, P)
    p_d, v_d = to_device(p0.copy()), to_device(np.zeros(P))
    p_c, v_c = p0.copy(), np.zeros(P)
    p, v = p0.copy(), np.zeros(P)
    for g in grads():
        optim_cuda.sgd_update(p_d, v_d, g, LR, MOMENTUM)
        optim.sgd_update(p_c, v_c, g, LR, MOMENTUM)
        v = MOMENTUM * v + g
        p = p - LR * v
    np.testing.assert_allclose(host(p_d), p, rtol=0, atol=TOL)
    np.testing.assert_allclose(host(v_d), v, rtol=0, atol=TOL)
    assert close(host(p_d), p_c) < TOL and close(host(v_d), v_c) < TOL


def test_rmsprop_two_steps_by_definition():
    p0 = np.linspace(-1.0, 1.0, P)
    sq0 = np.full(P, 0.5)
    p_d, sq_d = to_device(p0.copy()), to_device(sq0.copy())
    p_c, sq_c = p0.copy(), sq0.copy()
    p, n = p0.copy(), sq0.copy()
    for g in grads():
        optim_cuda.rmsprop_update(p_d, sq_d, g, LR, ALPHA, EPS)
        optim.rmsprop_update(p_c, sq_c, g, LR, ALPHA, EPS)
        n = ALPHA * n + (1 - ALPHA) * g * g
        p = p - LR * g / (np.sqrt(n) + EPS)
    np.testing.assert_allclose(host(sq_d), n, rtol=0, atol=TOL)
    np.testing.assert_allclose(host(p_d), p, rtol=0, atol=TOL)
    assert close(host(p_d), p_c) < TOL and close(host(sq_d), sq_c) < TOL


def test_layernorm_twin_equals_definition_and_cpu_twin():
    rng = np.random.default_rng(9750)
    N, F, eps = 3, 5, 0.01
    x = 2.0 * rng.standard_normal((N, F)) + 0.5
    gain, bias = rng.uniform(0.5, 2.0, F), 0.4 * rng.standard_normal(F)
    dy = rng.standard_normal((N, F))
    y, mean, rstd = (host(a) for a in layernorm_cuda.layernorm_forward(x, gain, bias, eps))
    m, r = x.mean(1, keepdims=True), 1 / np.sqrt(x.var(1, keepdims=True) + eps)
    xh = (x - m) * r
    np.testing.assert_allclose(y, xh * gain + bias, rtol=0, atol=TOL)
    np.testing.assert_allclose(mean, m[:, 0], rtol=0, atol=TOL)
    np.testing.assert_allclose(rstd, r[:, 0], rtol=0, atol=TOL)
    dx, dg, db = (host(a) for a in layernorm_cuda.layernorm_backward(dy, x, mean, rstd, gain))
    dxh = dy * gain
    want_dx = r * (dxh - dxh.mean(1, keepdims=True) - xh * (dxh * xh).mean(1, keepdims=True))
    np.testing.assert_allclose(dx, want_dx, rtol=0, atol=TOL)
    np.testing.assert_allclose(np.ravel(dg), (dy * xh).sum(0), rtol=0, atol=TOL)
    np.testing.assert_allclose(np.ravel(db), dy.sum(0), rtol=0, atol=TOL)
    yc, mc, rc = layernorm.layernorm_forward(x, gain, bias, eps, 1)
    dxc = layernorm.layernorm_backward(dy, x, mc, rc, gain, 1)[0]
    assert close(y, yc) < TOL and close(dx, dxc) < TOL
