"""The CPU LSTM (lnrnn/kernels/lstm.py) in float64 on its plumbing: fetch_table's rows and plan_steps' regions
against the arrays' own addresses worked out here (a region starts at or before row lo of its step, on a
64-byte line, and ends exactly at the end of row hi - 1); the LN-LSTM with a cell whose row mean is far from 0
against lnrnn/reference.py; every gradient, of every input and parameter, narrow and wide inputs, with dWh
blocks of 2 steps over T = 5 (the blocks do not divide T) on the BLAS and on rgemm's transposed product and
x blocks of one step, against the reference's backward and central differences of the reference's forward;
and the forward and backward over 1, 2 and 3 chunks of B = 5 rows the same to rounding."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import FOLD_MAX_I
import lnrnn.kernels.lstm as L
from lnrnn.kernels.lstm import fetch_table, lstm_backward, lstm_forward, plan_steps
from gradcheck_util import numeric_grad
from test_values11_lstm import EPS, FWD, NORM, close
from test_values72_lstm import NAMES

WIDTHS = [2, FOLD_MAX_I + 2]  # narrow (x Wx in the row loop) and wide (x blocks, gathered)


def problem(seed, T, B, I, H, cell_shift=0.0):
    """Gains away from 1, biases away from 0; cell_shift moves c0 and the g gate's bias so that the cell's row
    mean is far from 0 (about 1 here)."""
    rng = np.random.default_rng(seed)
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return np.ascontiguousarray(shift + scale * rng.standard_normal(s))
    p = dict(x=P(T, B, I), h0=P(B, H, scale=0.7, shift=0.2), c0=P(B, H, scale=0.5, shift=cell_shift),
             Wx=P(I, G, scale=0.6), Wh=P(H, G, scale=0.6), b=P(G, scale=0.3, shift=0.1),
             gx=P(G, scale=0.2, shift=1.4), bx=P(G, scale=0.3, shift=-0.2), gh=P(G, scale=0.2, shift=0.7),
             bh=P(G, scale=0.3, shift=0.2), gc=P(H, scale=0.2, shift=1.3), bc=P(H, scale=0.3, shift=0.3))
    return p


def ref_forward(p, norm):
    return R.lstm_forward(*[p[k] for k in FWD], norm, EPS)


def kernel_forward(p, norm, nch):
    return lstm_forward(*[p[k] for k in FWD], NORM[norm], EPS, nch)


def kernel_backward(p, saved, dy, norm, nch):
    return lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], NORM[norm],
                         nch)


def test_fetch_table_and_plan_steps_against_the_addresses():
    """Arrays (steps, B, W) of 1 to 4 steps, float32 and float64, W not a multiple of a line: fetch_table's row
    is (address, steps, bytes of a step, bytes of a row, offset), and an empty array's row is zeros; each
    region of plan_steps starts on a 64-byte line no later than row lo of step (t + offset) mod steps, at most
    63 bytes before it, and ends exactly where row hi - 1 of that step ends."""
    rng = np.random.default_rng(10601)
    for dtype in (np.float32, np.float64):
        item = np.dtype(dtype).itemsize
        for _ in range(12):
            B = int(rng.integers(2, 7))
            shapes = [(int(rng.integers(1, 5)), B, int(rng.integers(3, 29))) for _ in range(3)]
            arrays = tuple(np.zeros(s, dtype) for s in shapes) + (np.empty((0, 0, 0), dtype),)
            offsets = (0, -1, -2, 0)
            tab = fetch_table(arrays, offsets)
            assert tab.shape == (4, 5)
            for a, off, row in zip(arrays[:3], offsets, tab[:3]):
                steps, _, W = a.shape
                assert tuple(row) == (a.ctypes.data, steps, B * W * item, W * item, off)
            assert not tab[3].any()
            lo = int(rng.integers(0, B - 1))
            hi = int(rng.integers(lo + 1, B + 1))
            t = int(rng.integers(0, 4))
            plan = np.full((4, 2), -1, np.int64)
            n = plan_steps(plan, tab, t, lo, hi)
            want = [(a, t + off) for a, off in zip(arrays[:3], offsets) if t + off >= 0]
            assert n == len(want), (t, offsets)
            for (a, s), (start, length) in zip(want, plan[:n]):
                W = a.shape[2]
                first = a[s % a.shape[0], lo].ctypes.data          # row lo of step s
                end = a[s % a.shape[0], hi - 1].ctypes.data + W * item  # the end of row hi - 1
                assert start % 64 == 0 and 0 <= first - start < 64, (start, first)
                assert start + length == end, (start, length, end)


@pytest.mark.parametrize("I", WIDTHS)
def test_ln_cell_with_a_mean_far_from_zero_is_the_references(I):
    """c0 and the g gate's share moved so that c_t's mean is about 1: y, hT, cT and the saved c the
    reference's on 1, 2 and 3 chunks."""
    T, B, H = 3, 5, 3
    p = problem(10610 + I, T, B, I, H, cell_shift=3.0)
    p["b"][2 * H:3 * H] += 2.0
    y_r, h_r, c_r, cache = ref_forward(p, "ln")
    c_all = np.stack([s["c_new"] for s in cache])  # (T,B,H) c_t
    assert abs(float(np.mean(c_r))) > 0.5  # the case this test is for
    for nch in (1, 2, 3):
        y, hT, cT, saved = kernel_forward(p, "ln", nch)
        assert close(y, y_r) < 1e-12 and close(hT, h_r) < 1e-12 and close(cT, c_r) < 1e-12, nch
        assert close(saved[1], c_all) < 1e-12, nch


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
@pytest.mark.parametrize("tw", [False, True], ids=["blas", "transposed"])
def test_every_gradient_with_blocks_that_do_not_divide_t(norm, I, tw, monkeypatch):
    """T = 5 steps, dWh blocks of 2 steps (blas.dwh_blocks replaced here: blocks 2, 2, 1) on the BLAS or on
    grad_t_add, x blocks of one step (config.DWX_BLOCK_ROWS // m = 1): all twelve gradients (six for the plain
    LSTM) the reference's on 2 and 3 chunks, and on 2 chunks each against central differences of
    L = sum(dy * y) over the reference's forward."""
    T, B, H = 5, 5, 3
    monkeypatch.setattr(L, "dwh_blocks", lambda *a: (2, tw))
    monkeypatch.setattr(L, "DWX_BLOCK_ROWS", 3)
    p = problem(10620 + I + 10 * tw, T, B, I, H, cell_shift=1.0)
    dy = np.random.default_rng(10630 + I).standard_normal((T, B, H))
    _, _, _, cache = ref_forward(p, norm)
    want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    used = 12 if norm == "ln" else 6
    got = {}
    for nch in (2, 3):
        got[nch] = kernel_backward(p, kernel_forward(p, norm, nch)[3], dy, norm, nch)
        for k in range(used):
            assert close(got[nch][k], want[k]) < 1e-10, (nch, NAMES[k])

    def loss():
        return float(np.sum(dy * ref_forward(p, norm)[0]))
    for k, name in enumerate(FWD[:used]):
        num = numeric_grad(loss, p[name], eps=1e-4, order=4)
        assert close(got[2][k], num) < 1e-7, name


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", WIDTHS)
def test_chunkings_agree(norm, I):
    """The forward's y and every gradient on 1, 2 and 3 chunks of B = 5 rows agree to rounding (each row's
    arithmetic is its own; only the order of the partial sums differs)."""
    T, B, H = 4, 5, 3
    p = problem(10640 + I, T, B, I, H)
    dy = np.random.default_rng(10650 + I).standard_normal((T, B, H))
    y1, _, _, s1 = kernel_forward(p, norm, 1)
    g1 = kernel_backward(p, s1, dy, norm, 1)
    for nch in (2, 3):
        y, _, _, s = kernel_forward(p, norm, nch)
        assert close(y, y1) < 1e-13, nch
        g = kernel_backward(p, s, dy, norm, nch)
        for k in range(12 if norm == "ln" else 6):
            assert close(g[k], g1[k]) < 1e-12, (nch, NAMES[k])
