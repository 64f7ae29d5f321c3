"""rnn_cuda and bn_lstm_cuda (the RNN's and the recurrent-BN LSTM's CUDA twins) in float64 under Numba's simulator,
on captured plans of 3 steps that serve a later call of 2 (config.CUDA_GRAPH_SLACK at 1, so that a plan up to
twice as long serves; the plan's third step still holds the first call's rows), B = 3 rows, H = 5 units:

- the RNN with LayerNorm (test_values153_rnn_cuda's problem, I = 4, eps 0.3): y, hT, the saved ahat and rstd
  rows and all six gradients of both calls against lnrnn/reference.py's spec, shapes included;
- the BN-LSTM, training and evaluation, lengths (3, 0, 1) then (2, 0, 1) (rows of T, 0 and 1 steps in one batch),
  running rows of three counts, eps 0.15, momentum 0.3, Graves's clip at 0.05 with dy of scale 10: y, every saved
  array (but x Wx, laid out by each twin its own way), the running rows and all ten gradients of both calls
  against the CPU twin (lnrnn/kernels/bn_lstm.py), shapes included.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from bn_problems import bn_problem  # noqa: E402
from lnrnn import config, reference  # noqa: E402
from lnrnn.kernels import bn_lstm, bn_lstm_cuda, rnn_cuda  # noqa: E402
from test_cuda_kernels import NORM, RNN_FWD, TOL64, close, host  # noqa: E402
from test_values85_lstm_cuda import use_loop  # noqa: E402
from test_values153_rnn_cuda import EPS, GRADS, problem  # noqa: E402

B, I, H = 3, 2, 5
BN_EPS, MOM, CLIP = 0.15, 0.3, 0.05
ROWS = (2, 3, 1)
NAMES = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")


def shorter_plans(monkeypatch):
    use_loop(monkeypatch, "graph")
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 1)


def rnn_call(p, dy):
    y, hT, saved = rnn_cuda.rnn_forward(*[p[k] for k in RNN_FWD], NORM["ln"], EPS, 1)
    grads = rnn_cuda.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM["ln"], 1)
    ys, hs, cache = reference.rnn_forward(*[p[k] for k in RNN_FWD], "ln", EPS)
    want = reference.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], "ln")
    T = p["x"].shape[0]
    assert host(y).shape == ys.shape and close(host(y), ys) < 1e-12, "y"
    assert close(host(hT), hs) < 1e-12, "hT"
    ahat = np.stack([(c["a"] - c["m"][:, None]) * c["r"][:, None] for c in cache])
    rstd = np.stack([c["r"] for c in cache])
    assert host(saved[1]).shape == (T, B, H) and close(host(saved[1]), ahat) < 1e-12, "saved ahat"
    assert host(saved[2]).shape == (T, B) and close(host(saved[2]), rstd) < 1e-12, "saved rstd"
    for name, g, w in zip(GRADS, grads, want):
        g = host(g)
        assert g.shape == w.shape and close(g, w, floor=1e-3) < 1e-12, name


def test_rnn_plan_of_3_steps_serves_a_call_of_2(monkeypatch):
    shorter_plans(monkeypatch)
    p, dy = problem(30611)
    rnn_call(p, dy)
    q, dq = problem(30612)
    rnn_call(dict(q, x=q["x"][:2]), dq[:2])


def bn_call(seed, lengths, training):
    T = int(lengths.max())
    a, run, dy = bn_problem(np.random.default_rng(seed), "lstm", T, B, I, H, ROWS, var_lo=0.4, var_hi=2.5,
                            mean_sc=0.6)
    active = np.arange(T)[:, None] < lengths[None, :]
    dy = 10 * dy * active[:, :, None]
    rows, rows_cpu = [r.copy() for r in run], [r.copy() for r in run]
    y, hT, cT, saved = bn_lstm_cuda.bn_lstm_forward(*a.values(), *rows, training, MOM, BN_EPS, lengths=lengths)
    out = bn_lstm.bn_lstm_forward(*a.values(), *rows_cpu, training, MOM, BN_EPS, lengths=lengths)
    assert host(y).shape == (T, B, H) and close(host(y)[active], host(out[0])[active]) < 1e-12, "y"
    for k, (g, w) in enumerate(zip(saved[1:-2], out[-1][1:-2])):
        g, w = host(g), host(w)
        assert g.shape == w.shape and close(g, w, floor=1e-3) < 1e-12, f"saved {k + 1}"
    for k, (g, w) in enumerate(zip(rows, rows_cpu)):
        assert close(host(g), host(w)) < 1e-12, f"running row {k}"
    grads = [host(g) for g in bn_lstm_cuda.bn_lstm_backward(dy, saved, *[a[k] for k in NAMES], clip=CLIP)]
    want = [host(w) for w in bn_lstm.bn_lstm_backward(dy, out[-1], *[a[k] for k in NAMES], clip=CLIP)]
    assert grads[0].shape == (T, B, I), "dx of the call's steps"
    for k, (g, w) in enumerate(zip(grads, want)):
        assert g.shape == w.shape and close(g, w, floor=1e-3) < TOL64, f"gradient {k}"


@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
def test_bn_lstm_plan_of_3_steps_serves_a_call_of_2_lengths_0_1_and_t(training, monkeypatch):
    shorter_plans(monkeypatch)
    bn_call(30613, np.array([3, 0, 1], np.int64), training)
    bn_call(30614, np.array([2, 0, 1], np.int64), training)
