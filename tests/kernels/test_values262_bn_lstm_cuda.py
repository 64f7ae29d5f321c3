"""bn_lstm_cuda (the recurrent-BN LSTM's CUDA twin) in float64 under Numba's simulator against its CPU twin
(lnrnn/kernels/bn_lstm.py) and the BN-LSTM by its definition (test_values194_bn_cuda's bn_step composed here over
this file's rows): B = 3 rows (not a multiple of the 4-row lanes) of lengths (3, 0, 2) over T = 3 steps, a row
that never runs next to one that runs all T steps, and a last step where one row runs alone (its batch variance is
0: BN_t is then 1/sqrt(eps) times a zero); I = 2, H = 5 hidden units over tiles of 4 (the second tile holds one
unit); running rows of three counts (x 2, h 3, cell 1); eps 0.15, momentum 0.3; Graves's clip at 0.05 with dy of
scale 10 (it bites: the CPU twin's gradients without it differ); training and evaluation (the running rows, not
the batch, in evaluation, and nothing folded).

Outputs on the active rows against the definition to 1e-12; every saved array, gradient and running row against
the CPU twin given the same clip. Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from bn_problems import bn_problem, bn_step  # noqa: E402
from lnrnn.kernels import bn_lstm, bn_lstm_cuda  # noqa: E402
from test_cuda_kernels import TOL64, close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from test_values194_bn_cuda import sigmoid  # noqa: E402

T, B, I, H = 3, 3, 2, 5
LENGTHS = np.array([3, 0, 2], np.int64)
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]  # (T,B)
MASK = ACTIVE[:, :, None]
EPS, MOM, CLIP = 0.15, 0.3, 0.05
ROWS = (2, 3, 1)
NAMES = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")


def by_definition(a, run, training):
    """y (T,B,H) and c (T,B,H) of a_t = gx BN_t(x_t Wx) + gh BN_t(h_{t-1} Wh) + b, c_t = f c_{t-1} + i g,
    h_t = o tanh(gc BN_t(c_t) + bc), BN_t over the active rows; run copied, not changed."""
    rmx, rvx, rmh, rvh, rmc, rvc = [r.copy() for r in run]
    h, c = a["h0"], a["c0"]
    y, cs = np.zeros((T, B, H)), np.zeros((T, B, H))
    for t in range(T):
        xn = bn_step(a["x"][t] @ a["Wx"], ACTIVE[t], rmx, rvx, t, training, MOM, EPS)
        hn = bn_step(h @ a["Wh"], ACTIVE[t], rmh, rvh, t, training, MOM, EPS)
        z = a["gx"] * xn + a["gh"] * hn + a["b"]
        i, f, g, o = sigmoid(z[:, :H]), sigmoid(z[:, H:2 * H]), np.tanh(z[:, 2 * H:3 * H]), sigmoid(z[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(a["gc"] * bn_step(c, ACTIVE[t], rmc, rvc, t, training, MOM, EPS) + a["bc"])
        y[t], cs[t] = h, c
    return y, cs


@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
def test_lengths_0_and_t_with_clip_equal_the_definition_and_the_cpu_twin(training):
    a, run, dy = bn_problem(np.random.default_rng(26210), "lstm", T, B, I, H, ROWS, var_lo=0.4, var_hi=2.5,
                            mean_sc=0.6)
    dy = 10 * dy * MASK
    rows = [r.copy() for r in run]
    y, hT, cT, saved = bn_lstm_cuda.bn_lstm_forward(*a.values(), *rows, training, MOM, EPS, lengths=LENGTHS)
    y_def, c_def = by_definition(a, run, training)
    assert close(host(y)[ACTIVE], y_def[ACTIVE]) < 1e-12, "y against the definition"
    assert close(host(saved[7])[ACTIVE], c_def[ACTIVE]) < 1e-12, "c against the definition"
    assert close(host(hT)[0], y_def[T - 1, 0]) < 1e-12 and close(host(cT)[0], c_def[T - 1, 0]) < 1e-12, \
        "the row of T steps ends at step T-1"
    rows_cpu = [r.copy() for r in run]
    out_cpu = bn_lstm.bn_lstm_forward(*a.values(), *rows_cpu, training, MOM, EPS, lengths=LENGTHS)
    for k, (g, w) in enumerate(zip(saved[1:-2], out_cpu[-1][1:-2])):  # x Wx is laid out by each twin its own way
        assert close(host(g), host(w), floor=1e-3) < 1e-12, f"saved {k + 1}"
    for k, (g, w, r0) in enumerate(zip(rows, rows_cpu, run)):
        assert close(host(g), host(w)) < 1e-12, f"running row {k}"
        if not training:
            assert np.array_equal(host(g), r0), f"running row {k} unchanged in evaluation"
    grads = [host(g) for g in bn_lstm_cuda.bn_lstm_backward(dy, saved, *[a[k] for k in NAMES], clip=CLIP)]
    want = bn_lstm.bn_lstm_backward(dy, out_cpu[-1], *[a[k] for k in NAMES], clip=CLIP)
    free = bn_lstm.bn_lstm_backward(dy, out_cpu[-1], *[a[k] for k in NAMES])
    assert max(close(host(f), host(w)) for f, w in zip(free, want)) > 1e-2, "the clip bites"
    for k, (g, w) in enumerate(zip(grads, want)):
        assert g.shape == host(w).shape and close(g, host(w), floor=1e-3) < TOL64, f"gradient {k}"
    assert not grads[0][:, 1].any(), "the row of 0 steps sends nothing back to x"
    assert not grads[0][T - 1, 1:].any(), "step T-1: the rows of 0 and 2 steps send nothing back"
    if training:  # row 0 runs alone at step T-1: BN_t's mean is the row itself, x_{T-1} moves nothing
        assert np.abs(grads[0][T - 1, 0]).max() < 1e-12
    else:  # the running rows are fixed: x_{T-1} moves y_{T-1}
        assert np.abs(grads[0][T - 1, 0]).max() > 1e-3
