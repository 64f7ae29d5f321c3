"""Central differences judge the CUDA path: float64 LN-LSTM, LN-RNN and BN-LSTM (training mode, batch
statistics) whose loss is computed by the CUDA forward and whose gradients come from the CUDA
backward, with no CPU kernel involved.

A forward under the simulator costs 0.2-0.5 s here, so two random elements of each array are checked;
tests/kernels/test_cuda_kernels.py pins every element of every gradient to the CPU twin, which the CPU tests
check against the reference and finite differences.
"""
import numpy as np
import pytest

from test_cuda_kernels import small_blocks  # noqa: F401  (autouse fixture; skips this module without CUDA)

from lnrnn.gradcheck import TOLERANCE, numeric_grad, rel_error, sample_idx
from lnrnn.kernels import bn_lstm_cuda, lstm_cuda, rnn_cuda
from lnrnn.kernels.cuda.arrays_cuda import to_host

EPS = 1e-5
PER_ARRAY = 2  # elements checked per array


def _check(loss, analytic, targets, seed):
    rng = np.random.default_rng(seed)
    errors = {}
    for name, arr in targets.items():
        idx = sample_idx(arr, PER_ARRAY, rng)
        num = numeric_grad(loss, arr, idx=idx)
        errors[name] = rel_error(analytic[name].reshape(-1)[idx], num)
    bad = {k: v for k, v in errors.items() if not v < TOLERANCE}
    assert not bad, f"relative errors above {TOLERANCE}: {bad}"


def test_ln_lstm_cuda_gradcheck():
    rng = np.random.default_rng(0)
    T, B, I, H = 3, 2, 2, 3
    G = 4 * H
    shapes = dict(x=(T, B, I), h0=(B, H), c0=(B, H), Wx=(I, G), Wh=(H, G), b=(G,), gx=(G,), bx=(G,), gh=(G,),
                  bh=(G,), gc=(H,), bc=(H,))
    p = {k: rng.standard_normal(s) * (0.5 if k.startswith("W") else 1.0) for k, s in shapes.items()}
    for k in ("gx", "gh", "gc"):
        p[k] = 1 + 0.3 * p[k]
    R = rng.standard_normal((T, B, H))

    def loss():
        y = lstm_cuda.lstm_forward(*p.values(), lstm_cuda.NORM_LN, EPS)[0]
        return float(np.sum(to_host(y) * R))

    y, hT, cT, saved = lstm_cuda.lstm_forward(*p.values(), lstm_cuda.NORM_LN, EPS)
    grads = lstm_cuda.lstm_backward(R, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                                    lstm_cuda.NORM_LN)
    analytic = dict(zip(shapes, to_host(grads)))
    _check(loss, analytic, p, seed=1)


def test_ln_rnn_cuda_gradcheck():
    rng = np.random.default_rng(2)
    T, B, I, H = 3, 2, 2, 5
    shapes = dict(x=(T, B, I), h0=(B, H), Wx=(I, H), Wh=(H, H), b=(H,), g=(H,))
    p = {k: rng.standard_normal(s) * (0.5 if k.startswith("W") else 1.0) for k, s in shapes.items()}
    p["g"] = 1 + 0.3 * p["g"]
    R = rng.standard_normal((T, B, H))

    def loss():
        return float(np.sum(to_host(rnn_cuda.rnn_forward(*p.values(), rnn_cuda.NORM_LN, EPS)[0]) * R))

    y, hT, saved = rnn_cuda.rnn_forward(*p.values(), rnn_cuda.NORM_LN, EPS)
    grads = rnn_cuda.rnn_backward(R, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], rnn_cuda.NORM_LN)
    _check(loss, dict(zip(shapes, to_host(grads))), p, seed=3)


def test_bn_lstm_cuda_gradcheck():
    """Training mode: the batch statistics are part of the function being differentiated."""
    rng = np.random.default_rng(4)
    T, B, I, H, Ts = 2, 3, 2, 2, 2
    G = 4 * H
    shapes = dict(x=(T, B, I), h0=(B, H), c0=(B, H), Wx=(I, G), Wh=(H, G), b=(G,), gx=(G,), gh=(G,), gc=(H,),
                  bc=(H,))
    p = {k: rng.standard_normal(s) * (0.5 if k.startswith("W") else 1.0) for k, s in shapes.items()}
    for k in ("gx", "gh", "gc"):
        p[k] = 1 + 0.3 * p[k]
    run = [rng.standard_normal((Ts, w)) if k % 2 == 0 else rng.uniform(0.5, 1.5, (Ts, w))
           for k, w in enumerate((G, G, G, G, H, H))]
    R = rng.standard_normal((T, B, H))

    def forward():
        return bn_lstm_cuda.bn_lstm_forward(*p.values(), *[r.copy() for r in run], True, 0.1, EPS)

    def loss():
        return float(np.sum(to_host(forward()[0]) * R))

    saved = forward()[3]
    grads = bn_lstm_cuda.bn_lstm_backward(R, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"],
                                           p["gc"])
    names = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")
    _check(loss, dict(zip(names, to_host(grads))), p, seed=5)


@pytest.fixture(autouse=True)
def _tiny_rows(small_blocks, monkeypatch):  # noqa: F811  (after small_blocks: it sets 8)
    """Four threads per row: G = 12 spans three strides, H = 3 leaves a thread idle."""
    from lnrnn import config
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
