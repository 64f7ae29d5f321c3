"""lstm_cuda (the LSTM's CUDA twin) on each of its three time loops (the sequence kernels, one launch pair a step,
and the captured plans replayed on the simulator's stand-in library) against the CPU twin (lstm) and the NumPy spec
(lnrnn/reference.py), float64: T = 3 steps, B = 3 rows, I = 4 input columns (config.FOLD_MAX_I: the narrow input
whose xhat_x the backward recomputes), H = 5 hidden units over blocks of 4 threads; every gain and bias off its
default, initial states of their own in every row, eps 0.3; a sequence run as two chunks, the second starting from
the first's final states; a seed dL/dc_T with a clip that binds.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config, reference  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host, set_geometry, small_blocks  # noqa: E402,F401

T, B, I, H = 3, 3, 4, 5
G = 4 * H
EPS = 0.3
TPB = 4
GRADS = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dbx", "dgh", "dbh", "dgc", "dbc")
LOOPS = {"sequence": "seq", "per-step": "step", "graph": "graph"}


def use_loop(monkeypatch, loop):
    """Blocks of TPB threads and the time loop asked for; the graph loop on the simulator's stand-in library
    ("eager"), with an empty plan cache."""
    set_geometry(monkeypatch, TPB, "sequence" if loop == "sequence" else "per-step")
    if loop == "graph":
        monkeypatch.delenv("LNRNN_CUDA_BLAS", raising=False)
        monkeypatch.setattr(config, "CUDA_BLAS", "eager")
        monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
        monkeypatch.setattr(graphs_cuda, "PLANS", type(graphs_cuda.PLANS)())
    assert lstm_cuda.lstm_path(H, np.float64, T=T) == LOOPS[loop]


def problem(seed):
    """Gains in [0.5, 1.5) and biases of scale 0.3 in every column; h0, c0 and dy of their own in every row."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    u = lambda *s: rng.uniform(0.5, 1.5, s)  # noqa: E731
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), c0=n(0.8, B, H), Wx=n(0.6, I, G), Wh=n(0.5, H, G), b=n(0.3, G),
             gx=u(G), bx=n(0.3, G), gh=u(G), bh=n(0.3, G), gc=u(H), bc=n(0.3, H))
    return p, n(1, T, B, H), n(1, B, H)


def run(mod, p, dy, norm, **kw):
    y, hT, cT, saved = mod.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 1)
    grads = mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                              NORM[norm], 1, **kw)
    return [host(a) for a in (y, hT, cT)], [host(a) for a in grads]


def check(got, want, tol=TOL64):
    (outs, grads), (outs_c, grads_c) = got, want
    for k, (a, e) in enumerate(zip(outs, outs_c)):
        assert a.shape == e.shape and close(a, e) < tol, f"output {k}: {close(a, e):.2e}"
    assert len(grads) == len(grads_c) == len(GRADS)
    for name, a, e in zip(GRADS, grads, grads_c):
        assert a.shape == e.shape and close(a, e) < tol, f"{name}: {close(a, e):.2e}"


@pytest.mark.parametrize("loop", list(LOOPS))
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_every_loop_equals_the_cpu_twin_and_the_spec(norm, loop, monkeypatch):
    """Outputs and all twelve gradients equal the CPU twin's on each loop, and the spec's (which knows no gains
    without LN); dh0 and dc0 are felt through every step (T = 3)."""
    use_loop(monkeypatch, loop)
    p, dy, _ = problem(8501)
    got = run(lstm_cuda, p, dy, norm)
    check(got, run(lstm, p, dy, norm))
    y, hT, cT, cache = reference.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)
    grads = reference.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for k, (a, e) in enumerate(zip(got[0], (y, hT, cT))):
        assert close(a, e) < 1e-10, f"output {k} against the spec"
    for name, a, e in zip(GRADS, got[1], grads):
        if norm == "ln" or name in GRADS[:6]:
            assert close(a, e) < 1e-10, f"{name} against the spec"


@pytest.mark.parametrize("loop", list(LOOPS))
def test_chunks_carried_over_equal_one_call(loop, monkeypatch):
    """LN-LSTM over steps 0-1, then step 2 from that call's (hT, cT): the second chunk's y, hT and cT equal one
    CPU call over the three steps (cT is c_T itself, recomputed here by the definition from the CPU's saved
    gates: f c_{T-1} + i g)."""
    use_loop(monkeypatch, loop)
    p, _, _ = problem(8502)
    y_all, hT_all, cT_all, saved = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["ln"], EPS, 1)
    a = dict(p, x=p["x"][:2])
    _, h1, c1, _ = lstm_cuda.lstm_forward(*[a[k] for k in LSTM_FWD], NORM["ln"], EPS, 1)
    b = dict(p, x=p["x"][2:], h0=host(h1), c0=host(c1))
    y2, h2, c2, _ = lstm_cuda.lstm_forward(*[b[k] for k in LSTM_FWD], NORM["ln"], EPS, 1)
    gates, c = saved[0], saved[1]
    i, f, g = gates[2, :, :H], gates[2, :, H:2 * H], gates[2, :, 2 * H:3 * H]
    assert np.abs(cT_all - (f * c[1] + i * g)).max() < 1e-12
    assert close(host(y2)[0], y_all[2]) < 1e-12
    assert close(host(h2), hT_all) < 1e-12
    assert close(host(c2), cT_all) < 1e-12


@pytest.mark.parametrize("loop", ["per-step", "graph"])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_seed_and_clip_equal_the_cpu_twin(norm, loop, monkeypatch):
    """A seed dL/dc_T from outside and Graves's clip at 0.05 with dy scaled by 10 (the bound bites: the CPU
    twin's db differs from its unclipped one): every gradient equals the CPU twin's."""
    set_geometry(monkeypatch, TPB, "per-step")
    if loop == "graph":
        use_loop(monkeypatch, "graph")
    p, dy, dcT = problem(8503)
    dy, dcT = 10.0 * dy, 5.0 * dcT
    want = run(lstm, p, dy, norm, clip=0.05, dcT=dcT)
    check(run(lstm_cuda, p, dy, norm, clip=0.05, dcT=dcT), want)
    assert close(want[1][5], run(lstm, p, dy, norm, dcT=dcT)[1][5]) > 1e-2, "the clip bites"
