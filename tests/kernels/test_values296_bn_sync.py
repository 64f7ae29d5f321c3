"""The synchronised BatchNorm cells (lnrnn/kernels/bn_sync.py, reduce: the identity, one process), BN-RNN and
BN-LSTM, against lnrnn.reference: B = 5, H = 3, T = 4, I = 2 and I = FOLD_MAX_I + 1, two batches of lengths
([4, 0, 1, 4, 2]: lengths 0, 1 and T; [3, 0, 1, 2, 1]: a step with one active row and a last step with none),
running rows for every x step, fewer h (2) and c (3) rows than steps, running means far from the batch means,
momentum 0.3, eps 0.05. The active rows per step are counted by hand; the step chunks 1, 2 and 3 of the x side
give the same bits; the running rows after one and two calls are checked against the momentum formula written
out (biased variance in rstd, n/(n - 1) in the running variance, rows past the running rows untouched); every
gradient in float64 against central differences of the reference's loss over the active (row, step)s."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_sync
from gradcheck_util import numeric_grad

T, B, H = 4, 5, 3
MOM, EPS = 0.3, 0.05
LENGTHS = {"full": np.array([4, 0, 1, 4, 2], np.int64), "empty-step": np.array([3, 0, 1, 2, 1], np.int64)}
COUNTS = {"full": [4, 3, 2, 2], "empty-step": [4, 2, 1, 0]}   # active rows per step, by hand
KEYS = {"rnn": ("x", "h0", "Wx", "Wh", "b", "gx", "gh"),
        "lstm": ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")}
SIZES = (2, FOLD_MAX_I + 1)


def identity(buf):
    pass


def problem(cell, I, seed, ts=(T, 2, 3)):
    """Parameters (dict), running rows [rmx, rvx, rmh, rvh(, rmc, rvc)] with ts rows per side, and dy."""
    rng = np.random.default_rng(seed)
    G = 4 * H if cell == "lstm" else H
    p = dict(x=rng.standard_normal((T, B, I)) + np.linspace(-1.0, 2.0, I), h0=0.6 * rng.standard_normal((B, H)),
             Wx=0.7 * rng.standard_normal((I, G)), Wh=0.6 * rng.standard_normal((H, G)),
             b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.5, 0.9, G), gh=rng.uniform(1.3, 1.8, G))
    run = [rng.uniform(3.0, 5.0, (ts[0], G)), rng.uniform(0.5, 2.0, (ts[0], G)),
           -rng.uniform(3.0, 5.0, (ts[1], G)), rng.uniform(0.5, 2.0, (ts[1], G))]
    if cell == "lstm":
        p.update(c0=0.8 * rng.standard_normal((B, H)), gc=rng.uniform(0.6, 1.4, H), bc=0.2 * rng.standard_normal(H))
        run += [rng.uniform(2.0, 3.0, (ts[2], H)), rng.uniform(0.3, 0.9, (ts[2], H))]
    return p, run, rng.standard_normal((T, B, H))


def sync_forward(cell, p, run, training, lengths):
    f = bn_sync.bn_lstm_forward if cell == "lstm" else bn_sync.bn_rnn_forward
    return f(identity, *[p[k] for k in KEYS[cell]], *run, training, MOM, EPS, lengths=lengths)


def ref_forward(cell, p, run, training, lengths):
    f = ref.bn_lstm_forward if cell == "lstm" else ref.bn_rnn_forward
    return f(*[p[k] for k in KEYS[cell]], *run, training, MOM, EPS, lengths=lengths)


@pytest.mark.parametrize("I", SIZES)
@pytest.mark.parametrize("which", sorted(LENGTHS))
@pytest.mark.parametrize("cell", sorted(KEYS))
def test_forward_running_rows_and_counts_against_the_reference(cell, which, I):
    lengths = LENGTHS[which]
    p, run, _ = problem(cell, I, 3 + I)
    run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
    out = sync_forward(cell, p, run_k, True, lengths)
    want = ref_forward(cell, p, run_r, True, lengths)
    nout = 3 if cell == "lstm" else 2   # y, hT (, cT)
    for name, a, b_ in zip(("y", "hT", "cT"), out[:nout], want[:nout]):
        np.testing.assert_allclose(a, b_, rtol=1e-10, atol=1e-11, err_msg=name)
    for k, (a, b_) in enumerate(zip(run_k, run_r)):
        np.testing.assert_allclose(a, b_, rtol=1e-10, atol=1e-11, err_msg=f"running row set {k}")
    np.testing.assert_array_equal(out[-1][-1], COUNTS[which])
    if which == "empty-step":   # the x side's row of the step with no active row stays as it was
        np.testing.assert_array_equal(run_k[0][3], run[0][3])
        np.testing.assert_array_equal(run_k[1][3], run[1][3])


@pytest.mark.parametrize("cell", sorted(KEYS))
def test_step_chunks_one_two_three_give_the_same_bits(cell, monkeypatch):
    lengths = LENGTHS["empty-step"]
    p, run, dy = problem(cell, 2, 11)
    res = []
    for nch in (1, 2, 3):
        monkeypatch.setattr(bn_sync, "_step_chunks", lambda T_, n=nch: n)
        r = [a.copy() for a in run]
        out = sync_forward(cell, p, r, True, lengths)
        back = bn_sync.bn_lstm_backward if cell == "lstm" else bn_sync.bn_rnn_backward
        g = back(identity, dy, out[-1], *[p[k] for k in KEYS[cell] if k not in ("b", "bc")])
        res.append([out[0]] + r + list(g))
    for other in res[1:]:
        for a, b_ in zip(res[0], other):
            np.testing.assert_array_equal(a, b_)


def momentum_update(m_old, v_old, rows):
    """A running row after one update from the active rows (R,F): (1 - m) r + m s, the variance unbiased
    n/(n - 1)."""
    n = rows.shape[0]
    mu = rows.sum(0) / n
    var = ((rows - mu) ** 2).sum(0) / n
    return (1 - MOM) * m_old + MOM * mu, (1 - MOM) * v_old + MOM * var * n / (n - 1)


def test_running_rows_after_one_and_two_updates_are_the_momentum_formula():
    """BN-RNN, T = 2, lengths [2, 0, 1, 2, 1]: step 0 has rows 0, 2, 3, 4 active, step 1 rows 0 and 3. x rows
    for both steps; one h row, so only step 0 moves it (step 1 reads it and leaves it)."""
    lengths = np.array([2, 0, 1, 2, 1], np.int64)
    rng = np.random.default_rng(5)
    p, run, _ = problem("rnn", 2, 5, ts=(2, 1, 1))
    p["x"] = p["x"][:2]
    rmx, rvx, rmh, rvh = [r.copy() for r in run]
    act = [np.array([0, 2, 3, 4]), np.array([0, 3])]

    for call in range(2):
        if call == 1:
            p["x"] = rng.standard_normal((2, B, 2)) - 1.5
            p["h0"] = rng.standard_normal((B, H))
        want = [r.copy() for r in (rmx, rvx, rmh, rvh)]
        for t in range(2):
            want[0][t], want[1][t] = momentum_update(want[0][t], want[1][t], (p["x"][t] @ p["Wx"])[act[t]])
        want[2][0], want[3][0] = momentum_update(want[2][0], want[3][0], (p["h0"] @ p["Wh"])[act[0]])
        bn_sync.bn_rnn_forward(identity, *[p[k] for k in KEYS["rnn"]], rmx, rvx, rmh, rvh, True, MOM, EPS,
                               lengths=lengths)
        for name, a, w in zip(("rmx", "rvx", "rmh", "rvh"), (rmx, rvx, rmh, rvh), want):
            np.testing.assert_allclose(a, w, rtol=1e-12, atol=1e-13, err_msg=f"{name} after {call + 1}")


@pytest.mark.parametrize("I", SIZES)
@pytest.mark.parametrize("which", sorted(LENGTHS))
@pytest.mark.parametrize("cell", sorted(KEYS))
def test_backward_against_central_differences_of_the_reference(cell, which, I):
    lengths = LENGTHS[which]
    p, run, dy = problem(cell, I, 20 + I)
    q = {k: v.copy() for k, v in p.items()}
    out = sync_forward(cell, q, [r.copy() for r in run], True, lengths)
    back = bn_sync.bn_lstm_backward if cell == "lstm" else bn_sync.bn_rnn_backward
    grads = back(identity, dy, out[-1], *[q[k] for k in KEYS[cell] if k not in ("b", "bc")])
    order = KEYS[cell] if cell == "rnn" else ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")
    active = np.arange(T)[:, None] < lengths[None, :]

    def loss():
        y = ref_forward(cell, q, [r.copy() for r in run], True, lengths)[0]
        return float((dy * y)[active].sum())

    for name, g in zip(order, grads):
        num = numeric_grad(loss, q[name], eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-3, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-8, err_msg=f"d{name}")
