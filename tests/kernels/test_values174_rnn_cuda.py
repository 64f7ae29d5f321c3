"""rnn_cuda (the RNN's CUDA twin) against the CPU twin (rnn) and the NumPy spec (lnrnn/reference.py), float64,
with LayerNorm (gain and bias off their defaults and far apart, eps 0.3), h0 of its own in every row; B = 3 rows,
I = 4, H = 5 hidden units over blocks of 4 threads (neither a multiple of the block). Compared: a sequence cut in
two chunks on the sequence loop (the second from t0 = 1, dL/dh0 of the later chunk carried back into the earlier
one's last dy) against one CPU call; the captured plans at T = 10 and then T = 9, which a plan of 10 steps serves,
against the CPU twin at each length. The kernels take no lengths, masks or state noise (the layers above them do).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import rnn, rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402
from test_cuda_kernels import NORM, RNN_FWD, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import use_loop  # noqa: E402
from test_values153_rnn_cuda import EPS, GRADS, H, problem  # noqa: E402  (B = 3, I = 4, H = 5; problem(seed, T))


def forward(mod, p):
    return mod.rnn_forward(*[p[k] for k in RNN_FWD], NORM["ln"], EPS, 1)


def backward(mod, dy, saved, p):
    return [host(a) for a in mod.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM["ln"], 1)]


def test_two_chunks_on_the_sequence_loop_equal_one_cpu_call_and_the_spec(monkeypatch):
    """Step 0, then steps 1-2 from that chunk's hT, on the sequence kernels; the later chunk's backward first, then
    the earlier one's with the later chunk's dL/dh0 added to its last dy: y, hT, dx and dL/dh0 equal one CPU call
    over the three steps (and the spec's), and each weight gradient is the two chunks' sum."""
    use_loop(monkeypatch, "sequence")
    T = 3
    assert rnn_cuda.rnn_path(H, np.float64, T=T) == "seq"
    p, dy = problem(17420, T)
    y_c, hT_c, saved_c = forward(rnn, p)
    want = backward(rnn, dy, saved_c, p)
    ys, hs, cache = reference.rnn_forward(*[p[k] for k in RNN_FWD], "ln", EPS)
    spec = reference.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], "ln")
    assert close(y_c, ys) < 1e-10 and close(hT_c, hs) < 1e-10
    for name, a, e in zip(GRADS, want, spec):
        assert close(a, e) < 1e-10, f"{name}: the CPU twin against the spec"
    a = dict(p, x=p["x"][:1])
    y1, h1, sv1 = forward(rnn_cuda, a)
    b = dict(p, x=p["x"][1:], h0=host(h1))
    y2, h2, sv2 = forward(rnn_cuda, b)
    assert close(np.concatenate([host(y1), host(y2)]), y_c) < TOL64, "y"
    assert close(host(h2), hT_c) < TOL64, "hT"
    g2 = backward(rnn_cuda, dy[1:], sv2, b)
    dy1 = dy[:1].copy()
    dy1[0] += g2[1]
    g1 = backward(rnn_cuda, dy1, sv1, a)
    assert close(np.concatenate([g1[0], g2[0]]), want[0]) < TOL64, "dx"
    assert close(g1[1], want[1]) < TOL64, "dh0"
    for k in range(2, 6):
        assert close(g1[k] + g2[k], want[k]) < TOL64, f"{GRADS[k]}: {close(g1[k] + g2[k], want[k]):.2e}"


def test_graph_plan_of_ten_steps_serves_nine(monkeypatch):
    """The captured plans at T = 10, then at T = 9 (served by the plan of 10 steps): y (of T steps), hT and all
    six gradients equal the CPU twin's at each length."""
    use_loop(monkeypatch, "graph")
    p10, dy10 = problem(17430, 10)
    for T in (10, 9):
        p, dy = dict(p10, x=p10["x"][:T]), dy10[:T]
        y, hT, saved = forward(rnn_cuda, p)
        y_c, hT_c, saved_c = forward(rnn, p)
        for k, (o, e) in enumerate(zip((y, hT), (y_c, hT_c))):
            o = host(o)
            assert o.shape == e.shape and close(o, e) < TOL64, f"T = {T}, output {k}: {close(o, e):.2e}"
        got, want = backward(rnn_cuda, dy, saved, p), backward(rnn, dy, saved_c, p)
        for name, a, e in zip(GRADS, got, want):
            assert a.shape == e.shape and close(a, e) < TOL64, f"T = {T}, {name}: {close(a, e):.2e}"
    assert sorted(k[2] for k in graphs_cuda.PLANS if k[0] == "rnn forward") == [10], "one plan served both"
