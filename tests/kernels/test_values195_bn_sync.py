"""The synchronized BN-LSTM and BN-RNN (lnrnn/kernels/bn_sync.py), float64, B = 3 rows of lengths 3, 2 and 0
(active rows per step 2, 2, 1, 0: a row at its last step, a step of one row, an empty last step), H = 5, T = 4
past Ts = 2 running rows:

- one process (reduce the identity): every step's saved mean and rstd of x Wx, h_{t-1} Wh and (LSTM) c_t
  against NumPy over the step's active rows (mean 0, rstd 1/sqrt(eps) at the empty step), the running rows
  against the momentum rule with the unbiased variance, written here; every gradient against central
  differences (numeric_grad) of the kernel's own forward on a loss that weights the active (step, row)s only;
- three ranks on threads of one row each (B = 1 per rank, one of them a row that never runs): each rank's
  outputs, running rows and input gradients are the one process's on its row, the parameter gradients add up
  to the one process's."""
import numpy as np
import pytest

from thread_ranks import run_ranks
from test_values172_bn_sync import backward, check_central_differences, forward, identity

T, Ts, B, I, H = 4, 2, 3, 2, 5
LENGTHS = np.array([3, 2, 0], np.int64)
MOM, EPS = 0.2, 0.5   # eps near the variances: a BN over one or two rows still passes a gradient
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]   # (T,B)
assert list(ACTIVE.sum(1)) == [2, 2, 1, 0]


def problem(cell, seed):
    rng = np.random.default_rng(seed)
    G = 4 * H if cell == "lstm" else H
    p = dict(x=rng.standard_normal((T, B, I)) * np.array([1.5, 0.7]) + np.array([-1.0, 2.0]),
             h0=0.6 * rng.standard_normal((B, H)))
    if cell == "lstm":
        p["c0"] = 0.6 * rng.standard_normal((B, H))
    p.update(Wx=0.7 * rng.standard_normal((I, G)), Wh=0.5 * rng.standard_normal((H, G)),
             b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.6, 1.4, G), gh=rng.uniform(0.6, 1.4, G))
    if cell == "lstm":
        p.update(gc=rng.uniform(0.6, 1.4, H), bc=0.3 * rng.standard_normal(H))
    run = []
    for F in [G, G] + ([H] if cell == "lstm" else []):
        run += [rng.uniform(-2.0, 2.0, (Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))]
    R = rng.standard_normal((T, B, H)) * ACTIVE[:, :, None]
    return p, run, R


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_statistics_running_rows_and_central_differences(cell):
    p, run, R = problem(cell, 1950 + (cell == "rnn"))
    run_k = [r.copy() for r in run]
    y, saved = forward(cell, identity, p, run_k, LENGTHS, MOM, EPS)
    slabs = [(p["x"] @ p["Wx"], saved[1], saved[2]), (saved[3], saved[4], saved[5])]
    if cell == "lstm":
        slabs.append((saved[7], saved[8], saved[9]))
    run_d = [r.copy() for r in run]
    for t in range(T):
        hprev = p["h0"] if t == 0 else y[t - 1]
        np.testing.assert_allclose(saved[3][t], hprev @ p["Wh"], rtol=1e-12, atol=1e-12)
        for s, (z, mean, rstd) in enumerate(slabs):
            a = z[t][ACTIVE[t]]
            n = len(a)
            m = a.mean(0) if n else np.zeros(z.shape[2])
            var = ((a - m) ** 2).sum(0) / n if n else np.zeros(z.shape[2])
            np.testing.assert_allclose(mean[t], m, rtol=1e-11, atol=1e-12, err_msg=f"side {s} step {t}: mean")
            np.testing.assert_allclose(rstd[t], 1 / np.sqrt(var + EPS), rtol=1e-9, err_msg=f"side {s} step {t}")
            if t < Ts and n:
                run_d[2 * s][t] = (1 - MOM) * run_d[2 * s][t] + MOM * m
                run_d[2 * s + 1][t] = (1 - MOM) * run_d[2 * s + 1][t] + MOM * var * n / (n - 1 if n > 1 else 1)
    for k, (g, w) in enumerate(zip(run_k, run_d)):
        np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-12, err_msg=f"running array {k}")
    check_central_differences(cell, p, run, R, backward(cell, identity, R, saved, p), LENGTHS, MOM, EPS)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_three_ranks_of_one_row_are_the_one_process(cell):
    p, run, R = problem(cell, 1952 + (cell == "rnn"))
    run_1 = [r.copy() for r in run]
    y_1, saved_1 = forward(cell, identity, p, run_1, LENGTHS, MOM, EPS)
    g_1 = backward(cell, identity, R, saved_1, p)
    runs = [[r.copy() for r in run] for _ in range(B)]

    def job(reduce, r):
        sl = slice(r, r + 1)
        pr = {k: np.ascontiguousarray(v[:, sl] if k == "x" else v[sl] if k in ("h0", "c0") else v)
              for k, v in p.items()}
        y, saved = forward(cell, reduce, pr, runs[r], LENGTHS[sl].copy(), MOM, EPS)
        return y, backward(cell, reduce, np.ascontiguousarray(R[:, sl]), saved, pr)

    out = run_ranks(B, job)
    for r in range(B):
        y, g = out[r]
        np.testing.assert_allclose(y, y_1[:, r:r + 1], rtol=1e-10, atol=1e-12, err_msg=f"rank {r}: y")
        for k, (a, w) in enumerate(zip(runs[r], run_1)):
            np.testing.assert_allclose(a, w, rtol=1e-11, atol=1e-12, err_msg=f"rank {r}: running array {k}")
        for name in ("x", "h0", "c0"):
            if name in g:
                w = g_1[name][:, r:r + 1] if name == "x" else g_1[name][r:r + 1]
                np.testing.assert_allclose(g[name], w, rtol=1e-9, atol=1e-12, err_msg=f"rank {r}: d{name}")
    for name, w in g_1.items():
        if name not in ("x", "h0", "c0"):
            np.testing.assert_allclose(sum(o[1][name] for o in out), w, rtol=1e-9, atol=1e-12,
                                       err_msg=f"d{name} over the ranks")
