"""rnn_cuda (the RNN's CUDA twin) against the CPU twin (rnn) and the NumPy spec (lnrnn/reference.py), float64:
T = 3 steps, B = 3 rows, I = 4, H = 5 hidden units over blocks of 4 threads (B != H, neither a multiple of the
block); the LN gain and the bias off their defaults and far apart, h0 of its own in every row, eps 0.3. Compared:
y, hT and all six gradients on each time loop; the graph loop called with LN, without, and with LN again at one
shape (one plan cache); rnn_infer against the CPU twin's.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import rnn, rnn_cuda  # noqa: E402
from test_cuda_kernels import NORM, RNN_FWD, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import LOOPS, use_loop  # noqa: E402

T, B, I, H = 3, 3, 4, 5
EPS = 0.3
GRADS = ("dx", "dh0", "dWx", "dWh", "db", "dg")


def problem(seed, T=T):
    """x (T,B,I) and the parameters: gain in [1.5, 2.5), bias of scale 0.3 around -0.4; h0 of its own in every
    row; dy (T,B,H)."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), Wx=n(0.6, I, H), Wh=n(0.5, H, H), b=n(0.3, H) - 0.4,
             g=rng.uniform(1.5, 2.5, H))
    return p, n(1, T, B, H)


def run(mod, p, dy, norm):
    y, hT, saved = mod.rnn_forward(*[p[k] for k in RNN_FWD], NORM[norm], EPS, 1)
    grads = mod.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], 1)
    return [host(a) for a in (y, hT)], [host(a) for a in grads]


def check(got, want):
    (outs, grads), (outs_c, grads_c) = got, want
    for k, (a, e) in enumerate(zip(outs, outs_c)):
        assert a.shape == e.shape and close(a, e) < TOL64, f"output {k}: {close(a, e):.2e}"
    for name, a, e in zip(GRADS, grads, grads_c):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"


@pytest.mark.parametrize("loop", list(LOOPS))
@pytest.mark.parametrize("norm", ["ln", "none"])
def test_every_output_and_gradient_equal_the_cpu_twin_and_the_spec(norm, loop, monkeypatch):
    """y, hT and the six gradients equal the CPU twin's and the spec's (dg only with LN); hT is y at the last
    step."""
    use_loop(monkeypatch, loop)
    p, dy = problem(15340 + (norm == "ln"))
    got = run(rnn_cuda, p, dy, norm)
    check(got, run(rnn, p, dy, norm))
    assert close(got[0][1], got[0][0][T - 1]) < 1e-15
    y, hT, cache = reference.rnn_forward(*[p[k] for k in RNN_FWD], norm, EPS)
    spec = reference.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    for k, (a, e) in enumerate(zip(got[0], (y, hT))):
        assert close(a, e) < 1e-10, f"output {k} against the spec"
    for name, a, e in zip(GRADS, got[1], spec):
        if norm == "ln" or name != "dg":
            assert close(a, e) < 1e-10, f"{name} against the spec"


def test_graph_loop_alternating_norms_at_one_shape(monkeypatch):
    """With LN, without, then with LN again, one plan cache and one shape: each call equals the CPU twin's."""
    use_loop(monkeypatch, "graph")
    for k, norm in enumerate(["ln", "none", "ln"]):
        p, dy = problem(15350 + k)
        check(run(rnn_cuda, p, dy, norm), run(rnn, p, dy, norm))


@pytest.mark.parametrize("norm", ["ln", "none"])
def test_infer_equals_the_cpu_twin_and_the_spec(norm, monkeypatch):
    """rnn_infer's y and hT equal the CPU twin's rnn_infer and the spec's forward (gain and bias far apart)."""
    use_loop(monkeypatch, "sequence")
    p, _ = problem(15360)
    got = [host(a) for a in rnn_cuda.rnn_infer(*[p[k] for k in RNN_FWD], NORM[norm], EPS, 1)]
    want = rnn.rnn_infer(*[p[k] for k in RNN_FWD], NORM[norm], EPS, 1)
    y, hT, _ = reference.rnn_forward(*[p[k] for k in RNN_FWD], norm, EPS)
    for k, (a, e, s) in enumerate(zip(got, want, (y, hT))):
        assert a.shape == np.shape(e) and close(a, e) < TOL64, f"output {k}"
        assert close(a, s) < 1e-10, f"output {k} against the spec"
