"""lstm_cuda (the LSTM's CUDA twin) with every option on at once, against the CPU twin (lstm) and the NumPy spec
(lnrnn/reference.py), float64: T = 3 steps, B = 3 rows, H = 5 hidden units over blocks of 4 threads (neither a
multiple of the block), an input of I = 4 columns (config.FOLD_MAX_I: the widest input whose xhat_x the backward
recomputes) or I = 5 (saved); every gain and bias off its default, a forget-gate bias of +1, h0 and c0 of their
own in every row and never equal, eps 0.3. Compared: y, hT, cT and all twelve gradients on each time loop; a
sequence cut in two chunks (the second from t0 = 1) whose backward carries dL/dh and dL/dc_T from the later chunk
into the earlier one; lstm_infer against the CPU twin's.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import GRADS, LOOPS, use_loop  # noqa: E402

T, B, H = 3, 3, 5
G = 4 * H
EPS = 0.3


def problem(seed, I):
    """Gains in [0.5, 1.5), biases of scale 0.3 (bc of 0.5) plus 1 on the forget gate's columns; h0, c0 and dy of
    their own in every row."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    u = lambda *s: rng.uniform(0.5, 1.5, s)  # noqa: E731
    b = n(0.3, G)
    b[H:2 * H] += 1.0  # forget bias
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), c0=n(0.8, B, H) - 0.4, Wx=n(0.6, I, G), Wh=n(0.5, H, G), b=b,
             gx=u(G), bx=n(0.3, G), gh=u(G), bh=n(0.3, G), gc=u(H), bc=n(0.5, H))
    return p, n(1, T, B, H)


def forward(mod, p, norm):
    return mod.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 1)


def backward(mod, dy, saved, p, norm, dcT=None):
    return [host(a) for a in mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"],
                                               p["gh"], p["gc"], NORM[norm], 1, dcT=dcT)]


@pytest.mark.parametrize("loop", list(LOOPS))
@pytest.mark.parametrize("norm, I", [("ln", 4), ("ln", 5), ("none", 4)])  # the input's width matters with LN only
def test_every_output_and_gradient_equal_the_cpu_twin_and_the_spec(norm, I, loop, monkeypatch):
    """y, hT, cT and the twelve gradients equal the CPU twin's, and the spec's (its gains' gradients only with LN);
    hT is y at the last step and cT is f c_{T-2} + i g of the last step's gates, recomputed here."""
    use_loop(monkeypatch, loop)
    p, dy = problem(15300 + I + 10 * (norm == "ln"), I)
    y, hT, cT, saved = forward(lstm_cuda, p, norm)
    outs = [host(a) for a in (y, hT, cT)]
    grads = backward(lstm_cuda, dy, saved, p, norm)
    y_c, hT_c, cT_c, saved_c = forward(lstm, p, norm)
    grads_c = backward(lstm, dy, saved_c, p, norm)
    for k, (a, e) in enumerate(zip(outs, (y_c, hT_c, cT_c))):
        assert a.shape == e.shape and close(a, e) < TOL64, f"output {k}: {close(a, e):.2e}"
    for name, a, e in zip(GRADS, grads, grads_c):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"
    gates, c = saved_c[0], saved_c[1]
    i, f, g = gates[T - 1, :, :H], gates[T - 1, :, H:2 * H], gates[T - 1, :, 2 * H:3 * H]
    assert close(outs[2], f * c[T - 2] + i * g) < 1e-12
    assert close(outs[1], outs[0][T - 1]) < 1e-15
    ys, hs, cs, cache = reference.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)
    spec = reference.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for k, (a, e) in enumerate(zip(outs, (ys, hs, cs))):
        assert close(a, e) < 1e-10, f"output {k} against the spec"
    for name, a, e in zip(GRADS, grads, spec):
        if norm == "ln" or name in GRADS[:6]:
            assert close(a, e) < 1e-10, f"{name} against the spec"


@pytest.mark.parametrize("loop", ["per-step", "graph"])
def test_two_chunks_forward_and_backward_equal_one_cpu_call(loop, monkeypatch):
    """LN-LSTM over step 0, then steps 1-2 from that chunk's (hT, cT); backward of the later chunk first, then of
    the earlier one with the later chunk's dh0 added to its last dy and its dc0 as the seed dL/dc_T: y, the final
    states, dx and dh0, dc0 equal one CPU call over the three steps, and the weight gradients are the two chunks'
    sums."""
    use_loop(monkeypatch, loop)
    I = 4
    p, dy = problem(15320, I)
    y_c, hT_c, cT_c, saved_c = forward(lstm, p, "ln")
    want = backward(lstm, dy, saved_c, p, "ln")
    a = dict(p, x=p["x"][:1])
    y1, h1, c1, sv1 = forward(lstm_cuda, a, "ln")
    b = dict(p, x=p["x"][1:], h0=host(h1), c0=host(c1))
    y2, h2, c2, sv2 = forward(lstm_cuda, b, "ln")
    assert close(np.concatenate([host(y1), host(y2)]), y_c) < TOL64
    assert close(host(h2), hT_c) < TOL64 and close(host(c2), cT_c) < TOL64
    g2 = backward(lstm_cuda, dy[1:], sv2, b, "ln")
    dy1 = dy[:1].copy()
    dy1[0] += g2[1]
    g1 = backward(lstm_cuda, dy1, sv1, a, "ln", dcT=g2[2])
    assert close(np.concatenate([g1[0], g2[0]]), want[0]) < TOL64, "dx"
    assert close(g1[1], want[1]) < TOL64, "dh0"
    assert close(g1[2], want[2]) < TOL64, "dc0"
    for k in range(3, 12):
        assert close(g1[k] + g2[k], want[k]) < TOL64, GRADS[k]


@pytest.mark.parametrize("norm", ["ln", "none"])
def test_infer_equals_the_cpu_twin_and_the_forward(norm, monkeypatch):
    """lstm_infer's y, hT and cT equal the CPU twin's lstm_infer and the spec's forward (h0 and c0 never equal)."""
    use_loop(monkeypatch, "sequence")
    p, _ = problem(15330, 4)
    got = [host(a) for a in lstm_cuda.lstm_infer(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 1)]
    want = lstm.lstm_infer(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 1)
    ys, hs, cs, _ = reference.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)
    for k, (a, e, s) in enumerate(zip(got, want, (ys, hs, cs))):
        assert a.shape == np.shape(e) and close(a, e) < TOL64, f"output {k}"
        assert close(a, s) < 1e-10, f"output {k} against the spec"
