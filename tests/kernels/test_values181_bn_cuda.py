"""bn_lstm_cuda and bn_rnn_cuda (the recurrent-BN cells' CUDA twins) with every option on, float64, under the
simulator, against their CPU twins (bn_lstm, bn_rnn) and, for the BN-RNN, a NumPy forward written from the
definitions here (BN_t by bn_problems.bn_step) and central differences of it. T = 4 steps, B = 6 rows (not a
multiple of the 4-row lanes) of lengths (3, 0, 1, 2, 3, 1): an empty row, one-step rows and a last step where no
row runs; I = 2, H = 5 hidden units over tiles of 4 (the second tile's units are not its first); initial states
h0 and c0 given and different; the x- and h-side gains drawn apart; running rows of three different counts, x 3,
h 2 (steps 2 and 3 past max_steps) and cell 4 (the empty step 3 has a row of its own, left alone); eps 0.2 and
momentum 0.6; training with Graves's clip 0.05 and evaluation. The kernels have no chunk offset (a call always
starts at step 0), so no chunk is run here.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from bn_problems import bn_problem, bn_step  # noqa: E402
from lnrnn.kernels import bn_lstm, bn_lstm_cuda, bn_rnn, bn_rnn_cuda  # noqa: E402
from test_cuda_kernels import TOL64, close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from gradcheck_util import numeric_grad  # noqa: E402

T, B, I, H = 4, 6, 2, 5
LENGTHS = np.array([3, 0, 1, 2, 3, 1], np.int64)
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]  # (T,B)
EPS, MOM = 0.2, 0.6
ROWS = (3, 2, 4)  # running rows of the x side, the h side, the LSTM's cell: all different
LSTM_BWD = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
RNN_BWD = ("x", "h0", "Wx", "Wh", "gx", "gh")
LSTM_GRADS = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dgh", "dgc", "dbc")
RNN_GRADS = ("dx", "dh0", "dWx", "dWh", "db", "dgx", "dgh")


def problem(cell, seed):
    return bn_problem(np.random.default_rng(seed), cell, T, B, I, H, ROWS if cell == "lstm" else ROWS[:2],
                      var_lo=0.4, var_hi=2.5, mean_sc=0.6)


def twins(cell, a, run, dy, training, **kw):
    """(outputs, saved arrays, gradients, running rows) of the CUDA twin and of the CPU twin, host arrays."""
    keys = LSTM_BWD if cell == "lstm" else RNN_BWD
    res = []
    for mod in ((bn_lstm_cuda, bn_lstm) if cell == "lstm" else (bn_rnn_cuda, bn_rnn)):
        fwd, bwd = getattr(mod, f"bn_{cell}_forward"), getattr(mod, f"bn_{cell}_backward")
        rows = [r.copy() for r in run]
        out = fwd(*a.values(), *rows, training, MOM, EPS, lengths=LENGTHS)
        saved = out[-1]
        grads = bwd(dy, saved, *[a[k] for k in keys], **kw)
        arrays = [host(v) for v in saved[1:-2]]  # saved[0]: each twin's own record of x @ Wx
        res.append(([host(v) for v in out[:-1]], arrays, [host(v) for v in grads], [host(r) for r in rows]))
    return res


def assert_twins(cell, got, want):
    names = LSTM_GRADS if cell == "lstm" else RNN_GRADS
    for part, label in enumerate(("output", "saved", "grad", "running row")):
        assert len(got[part]) == len(want[part]), label
        for k, (g, w) in enumerate(zip(got[part], want[part])):
            name = f"{cell} {names[k] if part == 2 else f'{label} {k}'}"
            assert g.shape == w.shape, name
            assert np.all(np.isfinite(g)), f"{name}: not finite"
            assert close(g, w, floor=1e-3) < TOL64, f"{name}: {close(g, w, floor=1e-3):.2e}"


@pytest.mark.parametrize("training, clip", [(True, 0.05), (False, 0.0)])
def test_bn_lstm_equals_the_cpu_twin(training, clip):
    a, run, dy = problem("lstm", 18101)
    got, want = twins("lstm", a, run, dy, training, clip=clip)
    assert_twins("lstm", got, want)
    assert all(np.abs(g).max() > 1e-6 for g in want[2])
    if training:  # the cell's row 3 (the empty step) and the h side past max_steps: by the definition
        assert np.array_equal(got[3][4][3], run[4][3]) and np.array_equal(got[3][5][3], run[5][3])
        hw = got[1][2]
        for t in range(2):
            rows = hw[t][ACTIVE[t]]
            n = rows.shape[0]
            v = rows.var(0) * n / max(n - 1, 1)
            assert close(got[3][3][t], (1 - MOM) * run[3][t] + MOM * v) < 1e-12, f"running h variance, step {t}"
    else:
        assert all(np.array_equal(g, r) for g, r in zip(got[3], run))


def rnn_numpy(a, run, training, Wh=None, h0=None):
    """y (T,B,H) of the BN-RNN by its definition: h_t = tanh(gh BN_t(h_{t-1} Wh) + gx BN_t(x_t Wx) + b), the rows
    past a row's length carrying nothing that counts (BN_t takes the active rows only)."""
    Wh = a["Wh"] if Wh is None else Wh
    h = a["h0"] if h0 is None else h0
    rmx, rvx, rmh, rvh = [r.copy() for r in run]
    y = np.zeros((T, B, H))
    for t in range(T):
        xn = bn_step(a["x"][t] @ a["Wx"], ACTIVE[t], rmx, rvx, t, training, MOM, EPS)
        hn = bn_step(h @ Wh, ACTIVE[t], rmh, rvh, t, training, MOM, EPS)
        h = np.tanh(a["gh"] * hn + a["gx"] * xn + a["b"])
        y[t] = h
    return y


@pytest.mark.parametrize("training", [True, False])
def test_bn_rnn_equals_the_cpu_twin_and_the_definition(training):
    a, run, dy = problem("rnn", 18102)
    got, want = twins("rnn", a, run, dy, training)
    assert_twins("rnn", got, want)
    y = got[0][0]
    ref = rnn_numpy(a, run, training)
    assert close(y[ACTIVE], ref[ACTIVE]) < 1e-12, "y against the definition"
    # dL/dWh and dL/dh0 of L = sum over active rows of dy * y, by central differences of the definition
    mask = ACTIVE[:, :, None]
    loss = lambda **kw: float(np.sum(dy * rnn_numpy(a, run, training, **kw) * mask))  # noqa: E731
    for name, k, base in (("dh0", 1, a["h0"]), ("dWh", 3, a["Wh"])):
        arr = base.copy()
        num = numeric_grad(lambda: loss(**{name[1:]: arr}), arr, eps=1e-6, order=2)
        assert close(got[2][k], num, floor=1e-3) < 1e-6, f"{name} against central differences"
