"""The CUDA LSTM and RNN (lnrnn/kernels/lstm_cuda.py, rnn_cuda.py) with every option on, on both kernel paths
(the sequence kernels, one block per row running every step; and one launch pair per step), against the CPU twins
(same names and arguments) and the NumPy spec (lnrnn/reference.py) in float64: T = 4 steps, B = 3 rows, I = 2,
H = 5 hidden units over blocks of 4 threads (a thread owns two units, the second tile one unit; G = 20 gate
columns over five strides), initial states that differ in every row, LN on and off with eps 0.3 (the LayerNorms
visibly off their unit variance), a seed dL/dc_T from outside, and Graves's gate clip with a bound that bites.
Forward outputs, the saved tuple and every gradient.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda, rnn, rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, RNN_FWD, TOL64, close, set_geometry, small_blocks  # noqa: E402,F401

T, B, I, H = 4, 3, 2, 5
G = 4 * H
EPS = 0.3
TPB = 4
LSTM_GRADS = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dbx", "dgh", "dbh", "dgc", "dbc")
RNN_GRADS = ("dx", "dh0", "dWx", "dWh", "db", "dg")
host = arrays_cuda.to_host


def lstm_problem(seed):
    """Parameters with gains and biases off 1 and 0 in every column, h0 and c0 of their own in every row."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    u = lambda *s: rng.uniform(0.5, 1.5, s)  # noqa: E731
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), c0=n(0.8, B, H), Wx=n(0.6, I, G), Wh=n(0.5, H, G), b=n(0.3, G),
             gx=u(G), bx=n(0.3, G), gh=u(G), bh=n(0.3, G), gc=u(H), bc=n(0.3, H))
    return p, n(1, T, B, H), n(1, B, H)


def rnn_problem(seed):
    rng = np.random.default_rng(seed)
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    p = dict(x=n(1, T, B, I), h0=n(0.8, B, H), Wx=n(0.6, I, H), Wh=n(0.5, H, H), b=n(0.3, H),
             g=rng.uniform(0.5, 1.5, H))
    return p, n(1, T, B, H)


def lstm_run(mod, p, dy, norm, **kw):
    y, hT, cT, saved = mod.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 2)
    grads = mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                              NORM[norm], 2, **kw)
    return (y, hT, cT), saved, grads


def rnn_run(mod, p, dy, norm):
    y, hT, saved = mod.rnn_forward(*[p[k] for k in RNN_FWD], NORM[norm], EPS, 2)
    grads = mod.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM[norm], 2)
    return (y, hT), saved, grads


def same(got, want, names):
    """Outputs, saved tuple and gradients of the CUDA twin equal the CPU twin's (float64, rounding level)."""
    (outs, saved, grads), (outs_c, saved_c, grads_c) = got, want
    for k, (a, e) in enumerate(zip(host(outs), outs_c)):
        assert close(a, e) < TOL64, f"output {k}: {close(a, e):.2e}"
    assert len(saved) == len(saved_c)
    for k, (a, e) in enumerate(zip(host(saved), saved_c)):
        assert a.shape == e.shape and close(a, e) < TOL64, f"saved[{k}]"
    assert len(grads) == len(grads_c) == len(names)
    for name, a, e in zip(names, host(grads), grads_c):
        assert close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"


def spec_lstm(p, dy, norm, clip=0.0):
    """The NumPy spec's forward outputs and gradients."""
    y, hT, cT, cache = reference.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)
    grads = reference.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, clip=clip)
    return (y, hT, cT), grads


@pytest.mark.parametrize("path", ["sequence", "per-step"])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_lstm_equals_the_cpu_twin_and_the_spec(norm, path, monkeypatch):
    """Plain and LN, no clip, no seed: the CUDA twin equals the CPU twin (outputs, saved tuple, gradients) and
    the NumPy spec (outputs, gradients); cT is the cell state c_T, not tanh(c_T); with LN dgc and dbc are
    different sums (the cell's gain and bias gradients, in that order)."""
    set_geometry(monkeypatch, TPB, path)
    assert lstm_cuda.lstm_path(H, np.float64, T=T) == {"sequence": "seq", "per-step": "step"}[path]
    p, dy, _ = lstm_problem(6601)
    got = lstm_run(lstm_cuda, p, dy, norm)
    same(got, lstm_run(lstm, p, dy, norm), LSTM_GRADS)
    outs, grads = spec_lstm(p, dy, norm)
    for k, (a, e) in enumerate(zip(host(got[0]), outs)):
        assert close(a, e) < 1e-10, f"output {k} against the spec"
    for name, a, e in zip(LSTM_GRADS, host(got[2]), grads):
        if norm == "ln" or name not in ("dgx", "dbx", "dgh", "dbh", "dgc", "dbc"):
            assert close(a, e) < 1e-10, f"{name} against the spec"
    assert not np.allclose(host(got[0][2]), np.tanh(outs[2]))
    if norm == "ln":
        dgc, dbc = host(got[2][10]), host(got[2][11])
        assert close(dgc, dbc) > 1e-2


@pytest.mark.parametrize("path", ["sequence", "per-step"])
def test_ln_lstm_forward_by_hand_at_step_0(path, monkeypatch):
    """Step 0 of the LN-LSTM recomputed here from its definition (Ba et al.: LN of x Wx and of h0 Wh over the G
    columns, of c_1 over the H units, eps 0.3 inside the square root), gates [i|f|g|o]."""
    set_geometry(monkeypatch, TPB, path)
    p, _, _ = lstm_problem(6602)
    y, _, _, saved = lstm_cuda.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["ln"], EPS, 2)

    def ln(v, g, b):
        m = v.mean(axis=1, keepdims=True)
        return g * (v - m) / np.sqrt(((v - m) ** 2).mean(axis=1, keepdims=True) + EPS) + b

    a = ln(p["x"][0] @ p["Wx"], p["gx"], p["bx"]) + ln(p["h0"] @ p["Wh"], p["gh"], p["bh"]) + p["b"]
    sg = lambda z: 1.0 / (1.0 + np.exp(-z))  # noqa: E731
    i, f, g, o = sg(a[:, :H]), sg(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sg(a[:, 3 * H:])
    c = f * p["c0"] + i * g
    h = o * np.tanh(ln(c, p["gc"], p["bc"]))
    assert np.abs(host(saved[1])[0] - c).max() < 1e-12
    assert np.abs(host(y)[0] - h).max() < 1e-12


@pytest.mark.parametrize("path", ["sequence", "per-step"])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_lstm_clip_binding_equals_the_cpu_twin_and_the_spec(norm, path, monkeypatch):
    """Graves's clip at 0.02 with dy scaled by 20: the bound bites (the spec's db differs from the unclipped
    one); the CUDA twin equals the CPU twin and the NumPy spec's clipped backward (reference.clip_gate_grads)."""
    set_geometry(monkeypatch, TPB, path)
    p, dy, _ = lstm_problem(6603)
    dy = 20.0 * dy
    clip = 0.02
    got = lstm_run(lstm_cuda, p, dy, norm, clip=clip)
    same(got, lstm_run(lstm, p, dy, norm, clip=clip), LSTM_GRADS)
    _, grads = spec_lstm(p, dy, norm, clip=clip)
    _, free = spec_lstm(p, dy, norm)
    assert close(grads[5], free[5]) > 1e-2, "the clip bites"
    for name, a, e in zip(LSTM_GRADS, host(got[2]), grads):
        if norm == "ln" or name not in ("dgx", "dbx", "dgh", "dbh", "dgc", "dbc"):
            assert close(a, e) < 1e-10, f"{name} against the spec"


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_lstm_dc_seed_and_clip_equal_the_cpu_twin(norm, monkeypatch):
    """A seed dL/dc_T from outside together with a binding clip (the per-step launches serve a seed): the CUDA
    twin equals the CPU twin; the seed is felt in dc0 and dh0, and is read, not written."""
    set_geometry(monkeypatch, TPB, "sequence")
    assert lstm_cuda.lstm_path(H, np.float64, dcT=True, T=T) == "step"
    p, dy, dcT = lstm_problem(6604)
    dy, dcT = 10.0 * dy, 5.0 * dcT
    seed = dcT.copy()
    got = lstm_run(lstm_cuda, p, dy, norm, clip=0.05, dcT=dcT)
    want = lstm_run(lstm, p, dy, norm, clip=0.05, dcT=dcT)
    same(got, want, LSTM_GRADS)
    assert np.array_equal(dcT, seed)
    without = lstm_run(lstm, p, dy, norm, clip=0.05)[2]
    assert close(want[2][2], without[2]) > 1e-2 and close(want[2][1], without[1]) > 1e-3


@pytest.mark.parametrize("path", ["sequence", "per-step"])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_rnn_equals_the_cpu_twin_and_the_spec(norm, path, monkeypatch):
    """Plain and LN RNN: the CUDA twin equals the CPU twin (outputs, saved tuple, gradients) and the NumPy spec;
    every row starts from its own h0 (step 0 recomputed here by the definition)."""
    set_geometry(monkeypatch, TPB, path)
    assert rnn_cuda.rnn_path(H, np.float64, T=T) == {"sequence": "seq", "per-step": "step"}[path]
    p, dy = rnn_problem(6605 + (norm == "ln"))
    got = rnn_run(rnn_cuda, p, dy, norm)
    same(got, rnn_run(rnn, p, dy, norm), RNN_GRADS)
    y, hT, cache = reference.rnn_forward(*[p[k] for k in RNN_FWD], norm, EPS)
    grads = reference.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    assert close(host(got[0][0]), y) < 1e-10 and close(host(got[0][1]), hT) < 1e-10
    for name, a, e in zip(RNN_GRADS, host(got[2]), grads):
        assert close(a, e) < 1e-10, f"{name} against the spec"
    a0 = p["x"][0] @ p["Wx"] + p["h0"] @ p["Wh"]
    if norm == "ln":
        m = a0.mean(axis=1, keepdims=True)
        z0 = p["g"] * (a0 - m) / np.sqrt(((a0 - m) ** 2).mean(axis=1, keepdims=True) + EPS) + p["b"]
    else:
        z0 = a0 + p["b"]
    assert np.abs(host(got[0][0])[0] - np.tanh(z0)).max() < 1e-12
