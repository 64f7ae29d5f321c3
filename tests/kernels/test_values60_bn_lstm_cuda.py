"""bn_lstm_cuda (the recurrent-BN LSTM's CUDA twin) with every option on, under the simulator, against the CPU twin
(bn_lstm) and against the definitions where they are short: B = 3 rows of their own lengths (one ending after a
step, a step where no row is active), T = 4 steps, H = 5 hidden units over tiles of 4 (two tiles, the second
holding one unit), eps 0.3 and momentum 0.35 off their defaults, each side with its own number of running rows
(x 2, h 5, cell 3), training and inference (the running rows read, and distinct in every column), Graves's clip
tight enough that it binds and clip 0 (off). Outputs, the saved tuple, every gradient and the running rows, float64.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import bn_lstm, bn_lstm_cuda  # noqa: E402
from test_cuda_kernels import TOL64, close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from bn_problems import bn_problem  # noqa: E402

T, B, I, H = 4, 3, 2, 5
G = 4 * H
ROWS = (2, 5, 3)  # running rows of the x side, the h side, the cell: fewer and more than T
LENGTHS = np.array([3, 1, 2], np.int64)  # step 3: no row active; row 1 padded from step 1
EPS, MOM = 0.3, 0.35
BWD_KEYS = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
GRADS = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dgh", "dgc", "dbc")


def problem(seed):
    """(arguments up to the running rows, as a dict in order; the six running rows; dy (T,B,H)). The running
    means and variances differ in every column, so a column reading another's row is seen."""
    return bn_problem(np.random.default_rng(seed), "lstm", T, B, I, H, ROWS, var_lo=0.3, var_hi=3.0, mean_sc=0.5)


def run_twin(mod, a, run, dy, training, clip, momentum=MOM, eps=EPS):
    """(outputs y, hT, cT; saved statistics, gates, c, tc, y; gradients) of one forward and backward; the
    running rows in run folded in place."""
    out = mod.bn_lstm_forward(*a.values(), *run, training, momentum, eps, lengths=LENGTHS)
    grads = mod.bn_lstm_backward(dy, out[-1], *[a[k] for k in BWD_KEYS], clip=clip)
    return list(out[:3]), list(out[3][1:-2]), list(grads)  # saved[0] differs: the CPU keeps x, the twin x Wx


def same(a, run, dy, training, clip):
    """The CUDA twin against the CPU twin; returns the CPU twin's results and its running rows after."""
    run_g, run_c = [r.copy() for r in run], [r.copy() for r in run]
    got = run_twin(bn_lstm_cuda, a, run_g, dy, training, clip)
    want = run_twin(bn_lstm, a, run_c, dy, training, clip)
    for part, (gs, ws) in enumerate(zip(got, want)):
        assert len(gs) == len(ws)
        for k, (g, w) in enumerate(zip(host(gs), ws)):
            name = GRADS[k] if part == 2 else f"{('output', 'saved')[part]} {k}"
            assert g.shape == w.shape and close(g, w) < TOL64, f"{name}: {close(g, w):.2e}"
    for k, (g, w) in enumerate(zip(run_g, run_c)):
        assert close(host(g), w) < TOL64, f"running row {k}: {close(host(g), w):.2e}"
    return want, run_c


def test_training_ragged_off_defaults():
    """Training, clip 0 (off): outputs, saved statistics, gradients and folded running rows equal the CPU twin's.
    By the definitions: a step where no row is active folds nothing (step 3's h row is the old one), step 0's x-side
    row is the momentum-weighted fold of the mean and unbiased variance over the three active rows; every
    gradient flows, and dgc and dbc are different sums."""
    a, run, dy = problem(6001)
    (outs, saved, grads), run_c = same(a, run, dy, True, 0.0)
    g = dict(zip(GRADS, grads))
    rmx, rvx, rmh, rvh, rmc, rvc = run_c
    assert np.array_equal(rmh[3], run[2][3]) and np.array_equal(rvh[3], run[3][3]), "step 3 has no active row"
    assert np.array_equal(rmh[4], run[2][4]), "no step 4: row 4 untouched"
    xw0 = a["x"][0] @ a["Wx"]  # step 0: every row active
    assert np.allclose(rmx[0], (1 - MOM) * run[0][0] + MOM * xw0.mean(0), atol=1e-12)
    assert np.allclose(rvx[0], (1 - MOM) * run[1][0] + MOM * xw0.var(0, ddof=1), atol=1e-12)
    assert all(np.abs(g[k]).max() > 1e-6 for k in ("dWh", "dWx", "db", "dgh", "dgc", "dbc"))
    assert close(g["dgc"], g["dbc"]) > 1e-3, "dgc and dbc are different sums"


def test_clip_binds_on_every_gate_from_both_sides(monkeypatch):
    """Training with a clip of 0.01 and dy 20 times larger: the gate derivatives before the clip (recorded from the
    NumPy reference's clip_gate_grads) run past both bounds in each gate's block, so a bound dropped on any one
    gate changes the gradients; the CUDA twin equals the CPU twin."""
    from lnrnn import reference as ref
    a, run, dy = problem(6002)
    dy = 20.0 * dy
    seen = []
    spec = ref.clip_gate_grads
    monkeypatch.setattr(ref, "clip_gate_grads", lambda da, c: (seen.append(da.copy()), spec(da, c))[1])
    out = ref.bn_lstm_forward(*a.values(), *[r.copy() for r in run], True, MOM, EPS, LENGTHS)
    clipped = ref.bn_lstm_backward(dy, out[-1], *[a[k] for k in BWD_KEYS], clip=0.01)
    da = np.concatenate(seen)
    for q in range(4):
        block = da[..., q * H:(q + 1) * H]
        assert block.min() < -0.01 and block.max() > 0.01, f"gate {q} does not meet both bounds"
    (_, _, grads), _ = same(a, run, dy, True, 0.01)
    for k, (g, w) in enumerate(zip(grads, clipped)):
        assert close(g, w) < 1e-10, f"{GRADS[k]} against the reference"


def test_inference_reads_each_columns_running_row():
    """Inference: no fold (the running rows come back as they went in), every output and gradient the CPU twin's;
    by the definition, step 0's y is o * tanh(gc (c - rmc) / sqrt(rvc + eps) + bc) with each column's own rows,
    recomputed here in NumPy from the running rows (steps past a side's count read its last row)."""
    a, run, dy = problem(6003)
    (outs, saved, grads), run_c = same(a, run, dy, False, 0.0)
    for r, r0 in zip(run_c, run):
        assert np.array_equal(r, r0)
    rmx, rvx, rmh, rvh, rmc, rvc = run
    sig = lambda z: 1.0 / (1.0 + np.exp(-z))  # noqa: E731
    xn = (a["x"][0] @ a["Wx"] - rmx[0]) / np.sqrt(rvx[0] + EPS) * a["gx"] + a["b"]
    hn = (a["h0"] @ a["Wh"] - rmh[0]) / np.sqrt(rvh[0] + EPS) * a["gh"]
    z = xn + hn
    i, f, gg, o = sig(z[:, :H]), sig(z[:, H:2 * H]), np.tanh(z[:, 2 * H:3 * H]), sig(z[:, 3 * H:])
    c = f * a["c0"] + i * gg
    y0 = o * np.tanh(a["gc"] * (c - rmc[0]) / np.sqrt(rvc[0] + EPS) + a["bc"])
    assert close(host(outs[0])[0], y0) < 1e-12
