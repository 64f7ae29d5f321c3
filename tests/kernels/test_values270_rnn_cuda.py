"""rnn_cuda (the RNN's CUDA twin) in float64 under Numba's simulator against the NumPy spec (lnrnn/reference.py):
T = 3 steps, B = 3 rows, I = 4, H = 5 hidden units over blocks of 8 threads (test_values153_rnn_cuda's problem:
gain and bias off their defaults, h0 of its own in every row, eps 0.3), with LayerNorm and without, on each time
loop (sequence kernels, one launch pair a step, the captured loop on the simulator's stand-in library):

- y, hT, the saved ahat and rstd rows (ahat = (a - mean) * rstd of a = x_t Wx + h_{t-1} Wh, from the spec's
  cache) and all six gradients against the spec to 1e-12;
- the same sequence run as two chunks of 2 and 1 steps, the state carried across (h0 of the second chunk the
  first's hT; backward: the second chunk's dh0 added to the first chunk's dy at its last step): the outputs and
  the summed gradients equal the spec's over the whole sequence.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402
from lnrnn.kernels import rnn_cuda  # noqa: E402
from test_cuda_kernels import NORM, RNN_FWD, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import LOOPS, use_loop  # noqa: E402
from test_values153_rnn_cuda import EPS, GRADS, T, problem  # noqa: E402

TOL = 1e-12


def cuda_run(p, dy, norm):
    y, hT, saved = rnn_cuda.rnn_forward(*[p[k] for k in RNN_FWD], NORM[norm], EPS, 1)
    grads = rnn_cuda.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], 1)
    return host(y), host(hT), [host(a) for a in saved], [host(g) for g in grads]


def spec(p, dy, norm):
    y, hT, cache = reference.rnn_forward(*[p[k] for k in RNN_FWD], norm, EPS)
    grads = reference.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    return y, hT, cache, grads


@pytest.mark.parametrize("norm", ["ln", "none"])
@pytest.mark.parametrize("loop", list(LOOPS))
def test_outputs_saved_rows_and_gradients_equal_the_spec(loop, norm, monkeypatch):
    use_loop(monkeypatch, loop)
    p, dy = problem(27010 + (norm == "ln"))
    y, hT, saved, grads = cuda_run(p, dy, norm)
    ys, hs, cache, want = spec(p, dy, norm)
    assert close(y, ys) < TOL, "y"
    assert close(hT, hs) < TOL, "hT"
    if norm == "ln":
        ahat = np.stack([(c["a"] - c["m"][:, None]) * c["r"][:, None] for c in cache])
        rstd = np.stack([c["r"] for c in cache])
        assert close(saved[1], ahat) < TOL, "saved ahat"
        assert close(saved[2], rstd) < TOL, "saved rstd"
    for name, g, w in zip(GRADS, grads, want):
        assert g.shape == w.shape and close(g, w, floor=1e-3) < TOL, name


@pytest.mark.parametrize("loop", list(LOOPS))
def test_two_chunks_with_the_state_carried_equal_the_whole_sequence(loop, monkeypatch):
    use_loop(monkeypatch, loop)
    p, dy = problem(27020)
    cut = 2
    first = dict(p, x=p["x"][:cut])
    y1, h1, s1 = rnn_cuda.rnn_forward(*[first[k] for k in RNN_FWD], NORM["ln"], EPS, 1)
    second = dict(p, x=p["x"][cut:], h0=host(h1))
    y2, h2, s2 = rnn_cuda.rnn_forward(*[second[k] for k in RNN_FWD], NORM["ln"], EPS, 1)
    ys, hs, _, want = spec(p, dy, "ln")
    assert close(np.concatenate([host(y1), host(y2)]), ys) < TOL, "y over both chunks"
    assert close(host(h2), hs) < TOL, "hT after the second chunk"
    g2 = [host(g) for g in rnn_cuda.rnn_backward(dy[cut:], s2, second["x"], second["h0"], p["Wx"], p["Wh"], p["g"],
                                                 NORM["ln"], 1)]
    dy1 = dy[:cut].copy()
    dy1[-1] += g2[1]  # dL/dh at the first chunk's last step: its output's and the second chunk's dh0
    g1 = [host(g) for g in rnn_cuda.rnn_backward(dy1, s1, first["x"], p["h0"], p["Wx"], p["Wh"], p["g"],
                                                 NORM["ln"], 1)]
    got = [np.concatenate([g1[0], g2[0]]), g1[1]] + [a + b for a, b in zip(g1[2:], g2[2:])]
    assert T == 3
    for name, g, w in zip(GRADS, got, want):
        assert g.shape == w.shape and close(g, w, floor=1e-3) < TOL, name
