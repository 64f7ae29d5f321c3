"""The BN cells' CUDA twins (bn_lstm_cuda, bn_rnn_cuda) under the simulator against their CPU twins (bn_lstm, bn_rnn)
in float64 with the same options, on tiny shapes that are not multiples of the block: H = 5 hidden units over tiles
of 4 (a second tile holding one unit), B = 6 rows over 4 lanes (two lanes own a second row), rows of their own
lengths, each side with its own number of running rows fewer than T, eps and momentum off their defaults;
training and inference, and for the LSTM Graves's clip at the median |dL/da| (binding on some entries of every
gate, from both sides) and 0 (off). Inference's first step is also recomputed here from the definition.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference as ref  # noqa: E402
from lnrnn.kernels import bn_lstm, bn_lstm_cuda, bn_rnn, bn_rnn_cuda  # noqa: E402
from test_cuda_kernels import TOL64, close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from bn_problems import bn_problem  # noqa: E402

T, B, I, H = 4, 6, 6, 5
LENGTHS = np.array([4, 1, 3, 4, 2, 1], np.int64)  # active rows per step: 6, 4, 3, 2
EPS, MOM = 0.05, 0.4
ROWS = dict(lstm=(2, 3, 1), rnn=(3, 1))  # running rows: x, h (and the LSTM's cell), fewer than T
KEYS = dict(lstm=("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"), rnn=("x", "h0", "Wx", "Wh", "gx", "gh"))
TWINS = dict(lstm=(bn_lstm_cuda, bn_lstm), rnn=(bn_rnn_cuda, bn_rnn))


def sig(z):
    return 1.0 / (1.0 + np.exp(-z))


def problem(cell, seed):
    """(forward arguments up to the running rows, a dict in order; running rows; dy (T,B,H))."""
    return bn_problem(np.random.default_rng(seed), cell, T, B, I, H, ROWS[cell], var_lo=0.3, var_hi=3.0,
                      mean_sc=0.5)


def run_twin(cell, mod, a, run, dy, training, clip):
    """(outputs, saved arrays but x Wx, gradients) of one forward and backward; run folded in place."""
    out = getattr(mod, f"bn_{cell}_forward")(*a.values(), *run, training, MOM, EPS, lengths=LENGTHS)
    kw = dict(clip=clip) if cell == "lstm" else {}
    grads = getattr(mod, f"bn_{cell}_backward")(dy, out[-1], *[a[k] for k in KEYS[cell]], **kw)
    return list(out[:-1]), list(out[-1][1:-2]), list(grads)  # saved[0]: the CPU may keep x's moments


def same(cell, a, run, dy, training, clip=0.0):
    """The CUDA twin against the CPU twin: every output, saved array, gradient and running row."""
    cuda_mod, cpu_mod = TWINS[cell]
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    got = run_twin(cell, cuda_mod, a, run_g, dy, training, clip)
    want = run_twin(cell, cpu_mod, a, run_c, dy, training, clip)
    for part, (gs, ws) in enumerate(zip(got, want)):
        assert len(gs) == len(ws)
        for k, (g, w) in enumerate(zip(host(gs), ws)):
            name = f"{('output', 'saved', 'gradient')[part]} {k}"
            assert g.shape == w.shape and close(g, w) < TOL64, f"{name}: {close(g, w):.2e}"
    for k, (g, w) in enumerate(zip(run_g, run_c)):
        assert close(host(g), w) < TOL64, f"running row {k}"
    return want, run_c


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_twins_agree_on_partial_tiles(cell, training):
    """Clip 0: the CUDA twin equals the CPU twin, the last tile's unit included; every gradient flows there."""
    a, run, dy = problem(cell, 7940 + training)
    (_, _, grads), _ = same(cell, a, run, dy, training)
    for k, g in enumerate(grads):
        assert np.abs(g).max() > 1e-5, f"gradient {k}"
    assert np.abs(grads[1][:, H - 1]).max() > 1e-5, "dh0 of the last tile's unit"


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_inference_first_step_by_definition(cell):
    """Inference, step 0 from the running rows (row 0 of each side), in NumPy: the twins' y[0] (the CUDA twin's
    against the CPU twin's in same)."""
    a, run, dy = problem(cell, 7950)
    (outs, _, _), _ = same(cell, a, run, dy, False)
    rmx, rvx, rmh, rvh = run[:4]
    z = (a["gx"] * (a["x"][0] @ a["Wx"] - rmx[0]) / np.sqrt(rvx[0] + EPS) + a["b"]
         + a["gh"] * (a["h0"] @ a["Wh"] - rmh[0]) / np.sqrt(rvh[0] + EPS))
    if cell == "rnn":
        y0 = np.tanh(z)
    else:
        i, f, g, o = sig(z[:, :H]), sig(z[:, H:2 * H]), np.tanh(z[:, 2 * H:3 * H]), sig(z[:, 3 * H:])
        c = f * a["c0"] + i * g
        y0 = o * np.tanh(a["gc"] * (c - run[4][0]) / np.sqrt(run[5][0] + EPS) + a["bc"])
    assert close(outs[0][0], y0) < 1e-12  # the CPU twin's y, which the CUDA twin's equals (same)


def test_training_statistics_by_definition():
    """BN-RNN training: the twin's saved mean and rstd of h_{t-1} Wh at each step are the active rows' mean and
    1/sqrt(biased variance + eps), from the saved hw."""
    a, run, dy = problem("rnn", 7960)
    out = bn_rnn_cuda.bn_rnn_forward(*a.values(), *[r.copy() for r in run], True, MOM, EPS, lengths=LENGTHS)
    saved = host(list(out[-1][:-2]))
    hw, mean_h, rstd_h = saved[3], saved[4], saved[5]
    for t in range(T):
        v = hw[t][LENGTHS > t]
        assert close(mean_h[t], v.mean(0)) < 1e-12, f"mean, step {t}"
        assert close(rstd_h[t], 1 / np.sqrt(v.var(0) + EPS)) < 1e-12, f"rstd, step {t}"


def test_lstm_clip_binding_on_some_entries(monkeypatch):
    """Training, Graves's clip at the median |dL/da| of the active rows (from the spec's clip_gate_grads): in every
    gate's block some entries run past +clip, some past -clip, others stay inside; the CUDA twin's clipped
    gradients equal the CPU twin's and the spec's, and differ from the unclipped ones."""
    a, run, dy = problem("lstm", 7970)
    seen = []
    clip_spec = ref.clip_gate_grads
    monkeypatch.setattr(ref, "clip_gate_grads", lambda da, c: (seen.append(da.copy()), clip_spec(da, c))[1])
    out = ref.bn_lstm_forward(*a.values(), *[r.copy() for r in run], True, MOM, EPS, LENGTHS)
    free = ref.bn_lstm_backward(dy, out[3], *[a[k] for k in KEYS["lstm"]])
    monkeypatch.setattr(ref, "clip_gate_grads", clip_spec)
    active = np.arange(T)[::-1, None] < LENGTHS[None, :]  # seen runs backward in time
    da = np.stack(seen)[active]
    clip = float(np.median(np.abs(da)))
    for q in range(4):
        block = da[:, q * H:(q + 1) * H]
        assert block.max() > clip and block.min() < -clip and (np.abs(block) < clip).any(), f"gate {q}"
    clipped = ref.bn_lstm_backward(dy, out[3], *[a[k] for k in KEYS["lstm"]], clip=clip)
    (_, _, grads), _ = same("lstm", a, run, dy, True, clip)
    for k, (g, w) in enumerate(zip(grads, clipped)):
        assert close(g, w) < 1e-10, f"gradient {k} against the spec"
    assert close(clipped[5], free[5]) > 1e-3, "db: the clip binds"
