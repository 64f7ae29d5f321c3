"""The synchronized BN-LSTM and BN-RNN (lnrnn/kernels/bn_sync.py) on ranks of unequal rows, float64, T = 4 past
Ts = 2 running rows, running means far from zero and different for x, h and c:

- one process (reduce the identity): every step's saved statistics of x Wx, h_{t-1} Wh and (LSTM) c_t are the
  mean and biased variance over the step's active rows computed here in NumPy from the saved slabs (whose
  products are checked against x Wx and y_{t-1} Wh), mean 0 and rstd 1/sqrt(eps) at the last step, where no row
  runs; the running rows move with momentum to the mean and unbiased variance of the steps t < Ts and the last
  row is left alone after; every gradient the backward returns matches central differences of the kernel's own
  forward on a loss that weights the active (step, row)s only;
- three ranks on threads (tests/thread_ranks.py): one holding a single row of length 0 (a rank without rows),
  one a single row, one three rows: each rank's outputs, running rows and input gradients are the one process's
  on its rows, and the ranks' parameter gradients add up to the one process's."""
import numpy as np
import pytest

from lnrnn.kernels import bn_sync
from thread_ranks import run_ranks
from gradcheck_util import numeric_grad

T, Ts, B, I, H = 4, 2, 5, 2, 2
LENGTHS = np.array([0, 3, 1, 2, 3], np.int64)   # row 0 never runs; step 2 runs rows 1 and 4; step 3 none
RANKS = [slice(0, 1), slice(1, 2), slice(2, 5)]
MOM, EPS = 0.3, 1e-3
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]   # (T,B)
assert not ACTIVE[T - 1].any() and ACTIVE[: T - 1].any(axis=1).all()


def identity(buf):
    pass


def problem(cell, seed):
    rng = np.random.default_rng(seed)
    G = 4 * H if cell == "lstm" else H
    p = dict(x=rng.standard_normal((T, B, I)) * np.array([1.0, 2.0]) + np.array([1.5, -1.0]),
             h0=0.5 * rng.standard_normal((B, H)))
    if cell == "lstm":
        p["c0"] = 0.5 * rng.standard_normal((B, H))
    p.update(Wx=0.6 * rng.standard_normal((I, G)), Wh=0.6 * rng.standard_normal((H, G)),
             b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.5, 1.5, G), gh=rng.uniform(0.5, 1.5, G))
    if cell == "lstm":
        p.update(gc=rng.uniform(0.5, 1.5, H), bc=0.3 * rng.standard_normal(H))
    sides = [G, G] + ([H] if cell == "lstm" else [])
    run = []
    for k, F in enumerate(sides):   # running means far from the batch means, different per side
        run += [rng.uniform(1.0, 3.0, (Ts, F)) * (-1) ** k, rng.uniform(0.5, 2.0, (Ts, F))]
    R = rng.standard_normal((T, B, H)) * ACTIVE[:, :, None]
    return p, run, R


def forward(cell, reduce, p, run, lengths, mom=MOM, eps=EPS):
    if cell == "lstm":
        y, _, _, saved = bn_sync.bn_lstm_forward(reduce, *p.values(), *run, True, mom, eps, lengths=lengths)
    else:
        y, _, saved = bn_sync.bn_rnn_forward(reduce, *p.values(), *run, True, mom, eps, lengths=lengths)
    return y, saved


def backward(cell, reduce, dy, saved, p):
    """-> dict of the gradients by the input's name."""
    if cell == "lstm":
        g = bn_sync.bn_lstm_backward(reduce, dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"],
                                     p["gh"], p["gc"])
        return dict(zip(["x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"], g))
    g = bn_sync.bn_rnn_backward(reduce, dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["gx"], p["gh"])
    return dict(zip(["x", "h0", "Wx", "Wh", "b", "gx", "gh"], g))


def check_central_differences(cell, p, run, R, grads, lengths=LENGTHS, mom=MOM, eps=EPS):
    """Every gradient in grads against central differences of sum(y R) through the kernel's own forward (one
    process), run from copies of the running rows run (also used by test_values195_bn_sync)."""
    def loss():
        yy, _ = forward(cell, identity, p, [r.copy() for r in run], lengths, mom, eps)
        return float((yy * R).sum())

    for name, g in grads.items():
        num = numeric_grad(loss, p[name], eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-3, name
        np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-7, err_msg=f"d{name}")


def step_stats(z_t, active):
    """NumPy mean, biased and unbiased variance, rstd of one step's slab over its active rows (n = 0: mean 0,
    variance 0)."""
    a = z_t[active]
    n = len(a)
    mean = a.mean(0) if n else np.zeros(z_t.shape[1])
    var = a.var(0) if n else np.zeros(z_t.shape[1])
    return mean, var, var * n / max(n - 1, 1), 1 / np.sqrt(var + EPS), n


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_one_process_statistics_running_rows_and_central_differences(cell):
    p, run, R = problem(cell, 1720 + (cell == "rnn"))
    run_k = [r.copy() for r in run]
    y, saved = forward(cell, identity, p, run_k, LENGTHS)
    xw, mean_x, rstd_x, hw, mean_h, rstd_h = saved[:6]
    np.testing.assert_allclose(xw, p["x"] @ p["Wx"], rtol=1e-12, atol=1e-12)
    slabs = [(xw, mean_x, rstd_x), (hw, mean_h, rstd_h)]
    if cell == "lstm":
        slabs.append((saved[7], saved[8], saved[9]))   # c, mean_c, rstd_c
    run_d = [r.copy() for r in run]
    for t in range(T):
        np.testing.assert_allclose(hw[t], (p["h0"] if t == 0 else y[t - 1]) @ p["Wh"], rtol=1e-12, atol=1e-12)
        for s, (z, mean, rstd) in enumerate(slabs):
            m, var, var_u, rs, n = step_stats(z[t], ACTIVE[t])
            np.testing.assert_allclose(mean[t], m, rtol=1e-11, atol=1e-12, err_msg=f"side {s} step {t}: mean")
            np.testing.assert_allclose(rstd[t], rs, rtol=1e-9, err_msg=f"side {s} step {t}: rstd")
            if t < Ts and n:
                run_d[2 * s][t] = (1 - MOM) * run_d[2 * s][t] + MOM * m
                run_d[2 * s + 1][t] = (1 - MOM) * run_d[2 * s + 1][t] + MOM * var_u
    for k, (g, w) in enumerate(zip(run_k, run_d)):
        np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-12, err_msg=f"running array {k}")
    assert int(saved[-1][T - 1]) == 0 and list(saved[-1]) == list(ACTIVE.sum(1))
    check_central_differences(cell, p, run, R, backward(cell, identity, R, saved, p))


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_ranks_of_unequal_rows_are_the_one_process(cell):
    p, run, R = problem(cell, 1722 + (cell == "rnn"))
    run_1 = [r.copy() for r in run]
    y_1, saved_1 = forward(cell, identity, p, run_1, LENGTHS)
    g_1 = backward(cell, identity, R, saved_1, p)
    runs = [[r.copy() for r in run] for _ in RANKS]

    def job(reduce, r):
        sl = RANKS[r]
        pr = {k: np.ascontiguousarray(v[:, sl] if k == "x" else v[sl] if k in ("h0", "c0") else v)
              for k, v in p.items()}
        y, saved = forward(cell, reduce, pr, runs[r], LENGTHS[sl].copy())
        return y, backward(cell, reduce, np.ascontiguousarray(R[:, sl]), saved, pr)

    out = run_ranks(len(RANKS), job)
    for r, sl in enumerate(RANKS):
        y, g = out[r]
        np.testing.assert_allclose(y, y_1[:, sl], rtol=1e-10, atol=1e-12, err_msg=f"rank {r}: y")
        for k, (a, w) in enumerate(zip(runs[r], run_1)):
            np.testing.assert_allclose(a, w, rtol=1e-11, atol=1e-12, err_msg=f"rank {r}: running array {k}")
        np.testing.assert_allclose(g["x"], g_1["x"][:, sl], rtol=1e-9, atol=1e-12, err_msg=f"rank {r}: dx")
        for name in ("h0", "c0"):
            if name in g:
                np.testing.assert_allclose(g[name], g_1[name][sl], rtol=1e-9, atol=1e-12,
                                           err_msg=f"rank {r}: d{name}")
    for name, w in g_1.items():
        if name in ("x", "h0", "c0"):
            continue
        assert np.abs(w).max() > 1e-3, name
        np.testing.assert_allclose(sum(o[1][name] for o in out), w, rtol=1e-9, atol=1e-12,
                                   err_msg=f"d{name} over the ranks")
