"""lstm_cuda (the LSTM's CUDA twin) against the CPU twin (lstm) and the NumPy spec (lnrnn/reference.py), float64,
with LayerNorm, every gain and bias off its default (a forget bias of +1, bc of scale 0.5), h0 and c0 of their
own in every row, eps 0.3, Graves's clip at 0.05 with dy scaled so that it bites; B = 3 rows, H = 5 hidden units
over blocks of 4 threads (neither a multiple of the block), I = 4 input columns (config.FOLD_MAX_I: the backward
recomputes xhat_x from x and the centered Wx). Compared: a sequence cut in two chunks on the sequence loop (the
second from t0 = 1; its backward runs the sequence kernel, the earlier chunk's, seeded with the later chunk's
dL/dc0 and dL/dh0, the per-step loop) against one CPU call; the captured plans at T = 10 and then T = 9, which a
plan of 10 steps serves, against the CPU twin at each length. The kernels take no lengths, masks or state noise
(the layers above them do), so none are given here.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import GRADS, use_loop  # noqa: E402

B, I, H = 3, 4, 5
G = 4 * H
EPS = 0.3
CLIP = 0.05


def problem(seed, T):
    """x (T,B,I), h0, c0 (B,H) and the parameters: gains in [0.5, 1.5), biases of scale 0.3 (bc of 0.5) plus 1 on
    the forget gate's columns; dy (T,B,H) of scale 10, so that the clip at 0.05 bites."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    u = lambda *s: rng.uniform(0.5, 1.5, s)  # noqa: E731
    b = n(0.3, G)
    b[H:2 * H] += 1.0
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), c0=n(0.8, B, H) + 0.3, Wx=n(0.6, I, G), Wh=n(0.5, H, G), b=b,
             gx=u(G), bx=n(0.3, G), gh=u(G), bh=n(0.3, G), gc=u(H), bc=n(0.5, H))
    return p, n(10, T, B, H)


def forward(mod, p):
    return mod.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["ln"], EPS, 1)


def backward(mod, dy, saved, p, dcT=None):
    return [host(a) for a in mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"],
                                               p["gh"], p["gc"], NORM["ln"], 1, clip=CLIP, dcT=dcT)]


def test_two_chunks_on_the_sequence_loop_equal_one_cpu_call(monkeypatch):
    """Step 0, then steps 1-2 from that chunk's (hT, cT), on the sequence kernels; the later chunk's backward
    first (no seed: the sequence kernel), then the earlier one's with the later chunk's dL/dh0 added to its last
    dy and its dL/dc0 as the seed dL/dc_T (the per-step loop): y, the final states, dx, dL/dh0 and dL/dc0 equal
    one CPU call over the three steps, and each weight gradient is the two chunks' sum. The clip bites (the CPU
    twin's db without it differs) and the seed matters (dropping it changes the CPU's dL/dc0)."""
    use_loop(monkeypatch, "sequence")
    T = 3
    p, dy = problem(17400, T)
    assert lstm_cuda.lstm_path(H, np.float64, dcT=True, T=1) == "step"
    y_c, hT_c, cT_c, saved_c = forward(lstm, p)
    want = backward(lstm, dy, saved_c, p)
    unclipped = [host(a) for a in lstm.lstm_backward(dy, saved_c, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"],
                                                     p["gx"], p["gh"], p["gc"], NORM["ln"], 1)]
    assert close(unclipped[5], want[5]) > 1e-2, "the clip bites"
    ys, hs, cs, _ = reference.lstm_forward(*[p[k] for k in LSTM_FWD], "ln", EPS)
    assert close(y_c, ys) < 1e-10 and close(cT_c, cs) < 1e-10
    a = dict(p, x=p["x"][:1])
    y1, h1, c1, sv1 = forward(lstm_cuda, a)
    b = dict(p, x=p["x"][1:], h0=host(h1), c0=host(c1))
    y2, h2, c2, sv2 = forward(lstm_cuda, b)
    assert close(np.concatenate([host(y1), host(y2)]), y_c) < TOL64, "y"
    assert close(host(h2), hT_c) < TOL64 and close(host(c2), cT_c) < TOL64, "hT, cT"
    g2 = backward(lstm_cuda, dy[1:], sv2, b)
    dy1 = dy[:1].copy()
    dy1[0] += g2[1]
    g1 = backward(lstm_cuda, dy1, sv1, a, dcT=g2[2])
    unseeded = backward(lstm, dy1, forward(lstm, a)[3], a)
    assert close(unseeded[2], want[2]) > 1e-2, "the seed matters"
    assert close(np.concatenate([g1[0], g2[0]]), want[0]) < TOL64, "dx"
    assert close(g1[1], want[1]) < TOL64, "dh0"
    assert close(g1[2], want[2]) < TOL64, "dc0"
    for k in range(3, 12):
        assert close(g1[k] + g2[k], want[k]) < TOL64, f"{GRADS[k]}: {close(g1[k] + g2[k], want[k]):.2e}"


def test_graph_plan_of_ten_steps_serves_nine(monkeypatch):
    """The captured plans at T = 10, then at T = 9 (served by the plan of 10 steps: its extra step on zeros, the
    saved 1/std rows cut from a 10-step buffer): outputs, saved-state shapes and all twelve gradients equal the
    CPU twin's at each length, with the clip on."""
    use_loop(monkeypatch, "graph")
    p10, dy10 = problem(17410, 10)
    for T in (10, 9):
        p, dy = dict(p10, x=p10["x"][:T]), dy10[:T]
        y, hT, cT, saved = forward(lstm_cuda, p)
        y_c, hT_c, cT_c, saved_c = forward(lstm, p)
        for k, (o, e) in enumerate(zip((y, hT, cT), (y_c, hT_c, cT_c))):
            o = host(o)
            assert o.shape == e.shape and close(o, e) < TOL64, f"T = {T}, output {k}: {close(o, e):.2e}"
        assert tuple(saved[7].shape) == (3, T, B)
        got, want = backward(lstm_cuda, dy, saved, p), backward(lstm, dy, saved_c, p)
        for name, a, e in zip(GRADS, got, want):
            assert a.shape == e.shape and close(a, e) < TOL64, f"T = {T}, {name}: {close(a, e):.2e}"
    assert sorted(k[2] for k in graphs_cuda.PLANS if k[0] == "lstm forward") == [10], "one plan served both"
