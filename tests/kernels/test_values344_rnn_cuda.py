"""Round 344 on rnn_cuda (the RNN's CUDA twin) in float64 under Numba's simulator (tests/conftest.py) or on a
GPU, against the CPU twin (lnrnn/kernels/rnn.py) to 1e-12: T = 3 steps, B = 3 rows, H = 5 units over blocks of
4 threads (neither B nor H a multiple of the block: two units a thread), inputs 1, 3 and 6 columns wide, gain and
bias off their defaults and far apart, h0 of its own in every row, eps 0.3, LayerNorm on and off, on each time
loop (sequence kernels, one launch pair a step, the captured loop on the simulator's stand-in library):

- y, hT, the saved ahat and rstd and all six gradients, dy zero past rows of lengths T, 0 and 1 (as a layer
  scores them);
- the graph loop without LN, with LN, and without again at one shape in one plan cache;
- the sequence in two calls of 2 and 1 steps, h carried over, against one call of the CPU twin."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import rnn, rnn_cuda  # noqa: E402
from test_cuda_kernels import NORM, RNN_FWD, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import LOOPS, use_loop  # noqa: E402
from test_values153_rnn_cuda import B, EPS, GRADS, H, T  # noqa: E402

TOL = 1e-12
LENGTHS = (T, 0, 1)
assert (B, H) == (3, 5)


def problem(seed, I):
    """As test_values153_rnn_cuda's problem at an input width of I; dy zero past each row's length."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), Wx=n(0.6, I, H), Wh=n(0.5, H, H), b=n(0.3, H) - 0.4,
             g=rng.uniform(1.5, 2.5, H))
    dy = n(1, T, B, H)
    for row, L in enumerate(LENGTHS):
        dy[L:, row] = 0.0
    return p, dy


def run(mod, p, dy, norm):
    """(y, hT, saved ahat, saved rstd), the six gradients: host arrays."""
    y, hT, saved = mod.rnn_forward(*[p[k] for k in RNN_FWD], NORM[norm], EPS, 1)
    grads = mod.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], 1)
    return [host(a) for a in (y, hT, saved[1], saved[2])], [host(a) for a in grads]


def check(got, want):
    names = ("y", "hT", "ahat", "rstd") + GRADS
    for name, a, e in zip(names, got[0] + got[1], want[0] + want[1]):
        assert a.shape == e.shape, name
        assert close(a, e, floor=1e-3) < TOL, f"{name}: {close(a, e, floor=1e-3):.2e}"


@pytest.mark.parametrize("I", [1, 3, 6])
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("loop", list(LOOPS))
def test_every_output_saved_row_and_gradient_equal_the_cpu_twin(loop, norm, I, monkeypatch):
    use_loop(monkeypatch, loop)
    p, dy = problem(34410 + I + 10 * (norm == "ln"), I)
    got, want = run(rnn_cuda, p, dy, norm), run(rnn, p, dy, norm)
    check(got, want)
    assert np.all(got[1][0][:, 1] == 0.0) and np.all(got[1][1][1] == 0.0), "a row of length 0 feels no gradient"


def test_graph_loop_none_ln_none_at_one_shape_in_one_plan_cache(monkeypatch):
    use_loop(monkeypatch, "graph")
    for k, norm in enumerate(["none", "ln", "none"]):
        p, dy = problem(34430 + k, 3)
        check(run(rnn_cuda, p, dy, norm), run(rnn, p, dy, norm))


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("loop", list(LOOPS))
def test_two_calls_with_the_state_carried_equal_one_call_of_the_cpu_twin(loop, norm, monkeypatch):
    use_loop(monkeypatch, loop)
    p, dy = problem(34440 + (norm == "ln"), 6)
    (y, hT, _, _), want = run(rnn, p, dy, norm)
    cut = 2
    first = dict(p, x=p["x"][:cut])
    y1, h1, s1 = rnn_cuda.rnn_forward(*[first[k] for k in RNN_FWD], NORM[norm], EPS, 1)
    second = dict(p, x=p["x"][cut:], h0=host(h1))
    y2, h2, s2 = rnn_cuda.rnn_forward(*[second[k] for k in RNN_FWD], NORM[norm], EPS, 1)
    assert close(np.concatenate([host(y1), host(y2)]), y) < TOL and close(host(h2), hT) < TOL
    g2 = [host(g) for g in rnn_cuda.rnn_backward(dy[cut:], s2, second["x"], second["h0"], p["Wx"], p["Wh"],
                                                 p["g"], NORM[norm], 1)]
    dy1 = dy[:cut].copy()
    dy1[-1] += g2[1]  # dL/dh at the first call's last step: its output's and the second call's dh0
    g1 = [host(g) for g in rnn_cuda.rnn_backward(dy1, s1, first["x"], p["h0"], p["Wx"], p["Wh"], p["g"],
                                                 NORM[norm], 1)]
    got = [np.concatenate([g1[0], g2[0]]), g1[1]] + [a + b for a, b in zip(g1[2:], g2[2:])]
    for name, g, w in zip(GRADS, got, want):
        assert g.shape == w.shape and close(g, w, floor=1e-3) < TOL, name
