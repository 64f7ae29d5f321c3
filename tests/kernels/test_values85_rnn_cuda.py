"""rnn_cuda (the RNN's CUDA twin) on each of its three time loops (the sequence kernels, one launch pair a step, and
the captured plans replayed on the simulator's stand-in library) against the CPU twin (rnn) and the NumPy spec
(lnrnn/reference.py), float64: T = 3 steps, B = 3 rows, I = 2, H = 5 hidden units over blocks of 4 threads; the
LN gain and the bias off their defaults in every column, h0 of its own in every row, eps 0.3; a sequence run as two
chunks, the second starting from the first's final state.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import rnn, rnn_cuda  # noqa: E402
from test_cuda_kernels import NORM, RNN_FWD, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import LOOPS, use_loop  # noqa: E402

T, B, I, H = 3, 3, 2, 5
EPS = 0.3
GRADS = ("dx", "dh0", "dWx", "dWh", "db", "dg")


def problem(seed, T=T, I=I):
    """x (T,B,I) and the parameters, gain and bias off their defaults, h0 of its own in every row; dy (T,B,H)."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), Wx=n(0.6, I, H), Wh=n(0.5, H, H), b=n(0.3, H),
             g=rng.uniform(0.5, 1.5, H))
    return p, n(1, T, B, H)


def run(mod, p, dy, norm):
    y, hT, saved = mod.rnn_forward(*[p[k] for k in RNN_FWD], NORM[norm], EPS, 1)
    grads = mod.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], 1)
    return [host(a) for a in (y, hT)], [host(a) for a in grads]


@pytest.mark.parametrize("loop", list(LOOPS))
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_every_loop_equals_the_cpu_twin_and_the_spec(norm, loop, monkeypatch):
    """y, hT and the six gradients equal the CPU twin's and the spec's on each loop; hT is y at the last step."""
    use_loop(monkeypatch, loop)
    p, dy = problem(8511 + (norm == "ln"))
    (outs, grads), (outs_c, grads_c) = run(rnn_cuda, p, dy, norm), run(rnn, p, dy, norm)
    for k, (a, e) in enumerate(zip(outs, outs_c)):
        assert a.shape == e.shape and close(a, e) < TOL64, f"output {k}: {close(a, e):.2e}"
    for name, a, e in zip(GRADS, grads, grads_c):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"
    y, hT, cache = reference.rnn_forward(*[p[k] for k in RNN_FWD], norm, EPS)
    spec = reference.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    assert close(outs[0], y) < 1e-10 and np.array_equal(outs[1], outs[0][T - 1])
    for name, a, e in zip(GRADS, grads, spec):
        assert close(a, e) < 1e-10, f"{name} against the spec"


@pytest.mark.parametrize("loop", list(LOOPS))
def test_ln_gradients_by_hand_at_one_step(loop, monkeypatch):
    """One LN step (T = 1, so h0 feeds the only product) recomputed here: z = g (a - mean) / sqrt(var + eps) + b,
    y = tanh z; with dz = dy (1 - y^2): db = sum dz, dg = sum dz ahat, and da by the LayerNorm's backward
    r (g dz - mean(g dz) - ahat mean(g dz ahat)); dh0 = da Wh^T, dWh = h0^T da."""
    use_loop(monkeypatch, loop)
    p, dy = problem(8513)
    p, dy = dict(p, x=p["x"][:1]), dy[:1]
    (outs, grads) = run(rnn_cuda, p, dy, "ln")
    a = p["x"][0] @ p["Wx"] + p["h0"] @ p["Wh"]
    m = a.mean(1, keepdims=True)
    r = 1.0 / np.sqrt(((a - m) ** 2).mean(1, keepdims=True) + EPS)
    ah = (a - m) * r
    y = np.tanh(p["g"] * ah + p["b"])
    dz = dy[0] * (1 - y * y)
    gd = p["g"] * dz
    da = r * (gd - gd.mean(1, keepdims=True) - ah * (gd * ah).mean(1, keepdims=True))
    g = dict(zip(GRADS, grads))
    assert close(outs[0][0], y) < 1e-12
    assert close(g["db"], dz.sum(0)) < 1e-12 and close(g["dg"], (dz * ah).sum(0)) < 1e-12
    assert close(g["dh0"], da @ p["Wh"].T) < 1e-12 and close(g["dWh"], p["h0"].T @ da) < 1e-12


@pytest.mark.parametrize("loop", list(LOOPS))
def test_chunks_carried_over_equal_one_call(loop, monkeypatch):
    """Steps 0-1, then step 2 from that call's hT: the second chunk's y and hT equal one CPU call's last step."""
    use_loop(monkeypatch, loop)
    p, _ = problem(8514)
    y_all, hT_all, _ = rnn.rnn_forward(*[p[k] for k in RNN_FWD], NORM["ln"], EPS, 1)
    _, h1, _ = rnn_cuda.rnn_forward(*[dict(p, x=p["x"][:2])[k] for k in RNN_FWD], NORM["ln"], EPS, 1)
    assert close(host(h1), y_all[1]) < 1e-12
    y2, h2, _ = rnn_cuda.rnn_forward(*[dict(p, x=p["x"][2:], h0=host(h1))[k] for k in RNN_FWD], NORM["ln"], EPS, 1)
    assert close(host(y2)[0], y_all[2]) < 1e-12 and close(host(h2), hT_all) < 1e-12
