"""bn_lstm_cuda and bn_rnn_cuda (the recurrent-BN cells' CUDA twins) in float64 under the simulator, with every
option on, against NumPy forwards written here from the definitions (BN_t by bn_problems.bn_step), central
differences of them, and the CPU twins (bn_lstm, bn_rnn). T = 4 steps, B = 6 rows (not a multiple of the 4-row
lanes) of lengths (2, 4, 0, 1, 3, 2): an empty row, a one-step row, and a last step where one row runs alone (its
batch variance is 0); I = 2, H = 5 hidden units over tiles of 4 (the second tile's unit is not its first); initial
states h0 and c0 given and different; the x- and h-side gains drawn apart; running rows of three different counts,
x 2 (steps 2 and 3 past max_steps), h 3 and cell 1 (every step after the first past max_steps); eps 0.15 and
momentum 0.3; training and evaluation. The kernels take no chunk offset (a call starts at step 0) and no state
noise, so neither is run here.

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
LENGTHS = np.array([2, 4, 0, 1, 3, 2], np.int64)
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]  # (T,B)
MASK = ACTIVE[:, :, None]
EPS, MOM = 0.15, 0.3
ROWS = (2, 3, 1)  # running rows of the x side, the h side, the LSTM's cell


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def lstm_numpy(a, run, training):
    """(y, c, mean_h, rstd_h) of the BN-LSTM by its definition, gates i, f, g, o:
    a_t = gx BN_t(x_t Wx) + gh BN_t(h_{t-1} Wh) + b, c_t = f c_{t-1} + i g, h_t = o tanh(gc BN_t(c_t) + bc);
    BN_t over the active rows only. run: copied, not changed."""
    rmx, rvx, rmh, rvh, rmc, rvc = [r.copy() for r in run]
    h, c = a["h0"], a["c0"]
    y, cs = np.zeros((T, B, H)), np.zeros((T, B, H))
    mean_h, rstd_h = np.zeros((T, 4 * H)), np.zeros((T, 4 * H))
    for t in range(T):
        xn = bn_step(a["x"][t] @ a["Wx"], ACTIVE[t], rmx, rvx, t, training, MOM, EPS)
        hw = h @ a["Wh"]
        if training:
            rows = hw[ACTIVE[t]]
            mean_h[t] = rows.mean(0) if len(rows) else 0.0
            rstd_h[t] = 1 / np.sqrt((((rows - mean_h[t]) ** 2).mean(0) if len(rows) else 0.0) + EPS)
        else:
            r = min(t, rmh.shape[0] - 1)
            mean_h[t], rstd_h[t] = rmh[r], 1 / np.sqrt(rvh[r] + EPS)
        hn = bn_step(hw, ACTIVE[t], rmh, rvh, t, training, MOM, EPS)
        z = a["gx"] * xn + a["gh"] * hn + a["b"]
        i, f, g, o = sigmoid(z[:, :H]), sigmoid(z[:, H:2 * H]), np.tanh(z[:, 2 * H:3 * H]), sigmoid(z[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(a["gc"] * bn_step(c, ACTIVE[t], rmc, rvc, t, training, MOM, EPS) + a["bc"])
        y[t], cs[t] = h, c
    return y, cs, mean_h, rstd_h


def rnn_numpy(a, run, training):
    """y (T,B,H) of the BN-RNN by its definition: h_t = tanh(gh BN_t(h_{t-1} Wh) + gx BN_t(x_t Wx) + b)."""
    rmx, rvx, rmh, rvh = [r.copy() for r in run]
    h = a["h0"]
    y = np.zeros((T, B, H))
    for t in range(T):
        xn = bn_step(a["x"][t] @ a["Wx"], ACTIVE[t], rmx, rvx, t, training, MOM, EPS)
        hn = bn_step(h @ a["Wh"], ACTIVE[t], rmh, rvh, t, training, MOM, EPS)
        h = np.tanh(a["gh"] * hn + a["gx"] * xn + a["b"])
        y[t] = h
    return y


def central(fwd, a, run, training, dy, names):
    """dL/d a[name] for L = sum over active rows of dy * y, by central differences of the NumPy forward."""
    q = {k: v.copy() for k, v in a.items()}
    loss = lambda: float(np.sum(dy * fwd(q, run, training) * MASK))  # noqa: E731
    return {k: numeric_grad(loss, q[k], eps=1e-6, order=2) for k in names}


def same_as_cpu_twin(forward, backward, a, run, training, dy, names, saved, grads, rows):
    """The CUDA twin's saved arrays, gradients and running rows against the CPU twin's (forward, backward) on
    the same problem, from copies of the same running rows."""
    rows_cpu = [r.copy() for r in run]
    out_cpu = forward(*a.values(), *rows_cpu, training, MOM, EPS, lengths=LENGTHS)
    for k, (g, w) in enumerate(zip(saved[1:-2], out_cpu[-1][1:-2])):
        assert close(host(g), host(w), floor=1e-3) < TOL64, f"saved {k + 1}"
    want = backward(dy * MASK, out_cpu[-1], *[a[k] for k in names])
    for k, (g, w) in enumerate(zip(grads, want)):
        assert close(g, host(w), floor=1e-3) < TOL64, f"gradient {k}"
    for k, (g, w) in enumerate(zip(rows, rows_cpu)):
        assert close(host(g), host(w)) < TOL64, f"running row {k}"


@pytest.mark.parametrize("training", [True, False])
def test_bn_lstm_against_the_definition_and_the_cpu_twin(training):
    a, run, dy = bn_problem(np.random.default_rng(19401), "lstm", T, B, I, H, ROWS, var_lo=0.4, var_hi=2.5,
                            mean_sc=0.6)
    rows = [r.copy() for r in run]
    y, hT, cT, saved = bn_lstm_cuda.bn_lstm_forward(*a.values(), *rows, training, MOM, EPS, lengths=LENGTHS)
    y, hT, cT = host(y), host(hT), host(cT)
    y_ref, c_ref, mh_ref, rh_ref = lstm_numpy(a, run, training)
    assert close(y[ACTIVE], y_ref[ACTIVE]) < 1e-12, "y against the definition"
    assert close(host(saved[7])[ACTIVE], c_ref[ACTIVE]) < 1e-12, "c against the definition"
    last = LENGTHS == T  # rows that run every step: hT and cT are their last outputs
    assert close(hT[last], y_ref[-1][last]) < 1e-12 and close(cT[last], c_ref[-1][last]) < 1e-12
    assert close(host(saved[4]), mh_ref) < 1e-12, "saved h-side means"
    assert close(host(saved[5]), rh_ref) < 1e-12, "saved h-side 1/std"
    names = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
    grads = [host(g) for g in bn_lstm_cuda.bn_lstm_backward(dy * MASK, saved, *[a[k] for k in names])]
    num = central(lambda q, r, tr: lstm_numpy(q, r, tr)[0], a, run, training, dy,
                  ("h0", "c0", "Wx", "b", "gx", "gh", "gc", "bc"))
    for k, name in ((1, "h0"), (2, "c0"), (3, "Wx"), (5, "b"), (6, "gx"), (7, "gh"), (8, "gc"), (9, "bc")):
        assert close(grads[k], num[name], floor=1e-3) < 1e-6, f"d{name} against central differences"
    # every output, saved array, gradient and running row against the CPU twin
    same_as_cpu_twin(bn_lstm.bn_lstm_forward, bn_lstm.bn_lstm_backward, a, run, training, dy, names, saved, grads,
                     rows)


@pytest.mark.parametrize("training", [True, False])
def test_bn_rnn_against_the_definition_and_the_cpu_twin(training):
    a, run, dy = bn_problem(np.random.default_rng(19402), "rnn", T, B, I, H, ROWS[:2], var_lo=0.4, var_hi=2.5,
                            mean_sc=0.6)
    rows = [r.copy() for r in run]
    y, hT, saved = bn_rnn_cuda.bn_rnn_forward(*a.values(), *rows, training, MOM, EPS, lengths=LENGTHS)
    assert close(host(y)[ACTIVE], rnn_numpy(a, run, training)[ACTIVE]) < 1e-12, "y against the definition"
    names = ("x", "h0", "Wx", "Wh", "gx", "gh")
    grads = [host(g) for g in bn_rnn_cuda.bn_rnn_backward(dy * MASK, saved, *[a[k] for k in names])]
    num = central(rnn_numpy, a, run, training, dy, ("h0", "Wh", "b", "gx", "gh"))
    for k, name in ((1, "h0"), (3, "Wh"), (4, "b"), (5, "gx"), (6, "gh")):
        assert close(grads[k], num[name], floor=1e-3) < 1e-6, f"d{name} against central differences"
    same_as_cpu_twin(bn_rnn.bn_rnn_forward, bn_rnn.bn_rnn_backward, a, run, training, dy, names, saved, grads, rows)
    if training:  # the h side's running rows by their definition (steps 0..2 fold, step 3 is past max_steps)
        hw = host(saved[3])
        for t in range(ROWS[1]):
            act = hw[t][ACTIVE[t]]
            n = act.shape[0]
            v = act.var(0) * n / max(n - 1, 1)
            assert close(host(rows[2][t]), (1 - MOM) * run[2][t] + MOM * act.mean(0)) < 1e-12, f"rm_h, step {t}"
            assert close(host(rows[3][t]), (1 - MOM) * run[3][t] + MOM * v) < 1e-12, f"rv_h, step {t}"
