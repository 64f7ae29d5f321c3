"""lstm_cuda (the LSTM's CUDA twin) against the CPU twin (lstm) and the NumPy spec (lnrnn/reference.py), float64,
on shapes that are no multiple of the block: T = 2 steps, B = 3 rows, H = 5 hidden units over blocks of 4 threads,
and an input of I = 1 column (config.FOLD_MAX_I: the backward recomputes xhat_x) or I = 5 (xhat_x saved), on each
of the three time loops; every gain and bias off its default, h0 and c0 of their own in every row (never equal),
eps 0.3. Every output (y, hT, cT) and the gradient of every input and parameter are compared, and hT and cT with
the last step's y and c_t recomputed here by the definition (c_t = f c_{t-1} + i g from the CPU twin's gates).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import GRADS, LOOPS, use_loop  # noqa: E402

T, B, H = 2, 3, 5
G = 4 * H
EPS = 0.3


def problem(seed, I):
    """Gains in [0.5, 1.5), biases of scale 0.3; h0, c0 and dy of their own in every row."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    u = lambda *s: rng.uniform(0.5, 1.5, s)  # noqa: E731
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), c0=n(0.8, B, H) + 0.5, Wx=n(0.6, I, G), Wh=n(0.5, H, G),
             b=n(0.3, G), gx=u(G), bx=n(0.3, G), gh=u(G), bh=n(0.3, G), gc=u(H), bc=n(0.3, H))
    return p, n(1, T, B, H)


def run(mod, p, dy, norm):
    y, hT, cT, saved = mod.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 1)
    grads = mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                              NORM[norm], 1)
    return [host(a) for a in (y, hT, cT)], [host(a) for a in grads], saved


@pytest.mark.parametrize("I", [1, 5])
@pytest.mark.parametrize("loop", list(LOOPS))
@pytest.mark.parametrize("norm", ["ln", "none"])
def test_outputs_and_every_gradient_equal_the_cpu_twin_and_the_spec(norm, loop, I, monkeypatch):
    """y, hT, cT and the twelve gradients equal the CPU twin's and the spec's (the spec's gains and their gradients
    only with LN); hT is the last step's y, cT is f c_{T-2} + i g of the last step."""
    use_loop(monkeypatch, loop)
    assert lstm_cuda.lstm_path(H, np.float64, T=T) == LOOPS[loop]
    p, dy = problem(10400 + I + 10 * (norm == "ln"), I)
    outs, grads, _ = run(lstm_cuda, p, dy, norm)
    outs_c, grads_c, saved = run(lstm, p, dy, norm)
    for k, (a, e) in enumerate(zip(outs, outs_c)):
        assert a.shape == e.shape and close(a, e) < TOL64, f"output {k}: {close(a, e):.2e}"
    for name, a, e in zip(GRADS, grads, grads_c):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"
    gates, c = saved[0], saved[1]
    i, f, g = gates[T - 1, :, :H], gates[T - 1, :, H:2 * H], gates[T - 1, :, 2 * H:3 * H]
    assert close(outs[2], f * c[T - 2] + i * g) < 1e-12, "cT is c of the last step"
    assert close(outs[1], outs[0][T - 1]) < 1e-15, "hT is y of the last step"
    y, hT, cT, cache = reference.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)
    spec = reference.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for k, (a, e) in enumerate(zip(outs, (y, hT, cT))):
        assert close(a, e) < 1e-10, f"output {k} against the spec"
    for name, a, e in zip(GRADS, grads, spec):
        if norm == "ln" or name in GRADS[:6]:
            assert close(a, e) < 1e-10, f"{name} against the spec"
