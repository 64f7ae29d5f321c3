"""The synchronized BatchNorm's pieces (lnrnn/kernels/bn_sync.py): the column sums, the statistics from the
group's sums, the backward sums and dx of one step against the definition written out in NumPy
(test_values93_batchnorm), with rows of their own lengths (a step with one active row, a step with none) and
output buffers filled with NaN beforehand; and the x side's BN_t over every step (_x_forward, _x_backward) with
running means far from the batch means (the shift of the single-pass variance is felt) and T > Ts: in one process
(reduce the identity), and on two ranks holding 2 and 4 of the 6 rows, run on two threads whose reduce adds their
buffers, each rank's rows equal to one process over the whole batch: y, statistics and running rows against the
definition, dL/dx against its central differences, and the ranks' dgain, dbias adding up to them."""
import numpy as np

from lnrnn.kernels import bn_sync
from test_values93_batchnorm import EPS, LENGTHS, MOM, active_loss, bn_definition, central, problem
from thread_ranks import run_ranks

SHIFT = 2.5


def identity(buf):
    pass


def shifted_problem(seed):
    x, gain, bias, rm, rv, dy = problem(seed)
    return x + SHIFT, gain, bias, rm + SHIFT, rv, dy


def test_column_sums_and_statistics_of_one_step():
    x, gain, bias, rm, rv, _ = shifted_problem(940)
    F = x.shape[2]
    shift = rm[0].copy()
    for t in range(4):  # steps with every row, masked steps, one active row
        act = x[t, t < LENGTHS]
        n = len(act)
        out = np.full(2 * F, np.nan)
        bn_sync.col_sums(x[t], LENGTHS, t, shift, out)
        np.testing.assert_allclose(out[:F], (act - shift).sum(0), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(out[F:], ((act - shift) ** 2).sum(0), rtol=1e-12)
        mean, rstd = np.full(F, np.nan), np.full(F, np.nan)
        rmr, rvr = rm[1].copy(), rv[1].copy()
        bn_sync.stats_from_sums(out, n, shift, True, rmr, rvr, MOM, EPS, mean, rstd)
        var = act.var(axis=0)
        np.testing.assert_allclose(mean, act.mean(0), rtol=1e-12)
        np.testing.assert_allclose(rstd, 1 / np.sqrt(var + EPS), rtol=1e-9)
        np.testing.assert_allclose(rmr, (1 - MOM) * rm[1] + MOM * act.mean(0), rtol=1e-12)
        unb = act.var(axis=0, ddof=1) if n > 1 else var
        np.testing.assert_allclose(rvr, (1 - MOM) * rv[1] + MOM * unb, rtol=1e-9)
    out = np.full(2 * F, np.nan)
    bn_sync.col_sums(x[4], LENGTHS, 4, shift, out)  # step 4: no active row
    np.testing.assert_array_equal(out, np.zeros(2 * F))
    mean, rstd = np.full(F, np.nan), np.full(F, np.nan)
    rmr, rvr = rm[1].copy(), rv[1].copy()
    bn_sync.stats_from_sums(out, 0, shift, True, rmr, rvr, MOM, EPS, mean, rstd)
    np.testing.assert_array_equal(mean, np.zeros(F))
    np.testing.assert_allclose(rstd, np.full(F, 1 / np.sqrt(EPS)), rtol=1e-14)
    np.testing.assert_array_equal(rmr, rm[1])
    np.testing.assert_array_equal(rvr, rv[1])


def test_backward_pieces_of_one_step_against_central_differences():
    x, gain, bias, rm, rv, dy = shifted_problem(941)
    T, B, F = x.shape
    _, mean, rstd = bn_definition(x, LENGTHS, gain, bias, rm.copy(), rv.copy(), True)
    dx = np.full_like(x, np.nan)
    dgain, dbias = np.zeros(F), np.zeros(F)
    for t in range(T):
        sums = np.full(2 * F, np.nan)
        bn_sync.bwd_sums(dy[t], x[t], LENGTHS, t, mean[t], rstd[t], sums)
        bn_sync.bwd_dx(dy[t], x[t], LENGTHS, t, mean[t], rstd[t], gain, sums, int((t < LENGTHS).sum()), dx[t])
        dbias += sums[:F]
        dgain += sums[F:]

    def loss():
        return active_loss(bn_definition(x, LENGTHS, gain, bias, rm.copy(), rv.copy(), True)[0], dy, LENGTHS)

    for name, g, a in (("x", dx, x), ("gain", dgain, gain), ("bias", dbias, bias)):
        num = central(loss, a)
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-7, err_msg=f"d{name}")
    mask = np.arange(T)[:, None] < LENGTHS[None, :]
    assert np.all(dx[~mask] == 0.0)
    counts = bn_sync.local_counts(LENGTHS, T, x)
    np.testing.assert_array_equal(counts, mask.sum(axis=1))


def x_side(reduce, xw, lengths, gain, bias, rm, rv, dy):
    xn, mean, rstd, counts = bn_sync._x_forward(reduce, xw, lengths, gain, bias, rm, rv, MOM, EPS)
    dxw, dgain, dbias = bn_sync._x_backward(reduce, dy, xw, lengths, mean, rstd, gain, counts)
    return xn, mean, rstd, counts, dxw, dgain, dbias


def definition_and_grads(x, gain, bias, rm, rv, dy):
    rm_d, rv_d = rm.copy(), rv.copy()
    y_d, mean_d, rstd_d = bn_definition(x, LENGTHS, gain, bias, rm_d, rv_d, True)

    def loss():
        return active_loss(bn_definition(x, LENGTHS, gain, bias, rm.copy(), rv.copy(), True)[0], dy, LENGTHS)

    return (y_d, mean_d, rstd_d, rm_d, rv_d), {k: central(loss, a) for k, a in (("x", x), ("gain", gain),
                                                                                ("bias", bias))}


def test_x_side_in_one_process_against_the_definition():
    x, gain, bias, rm, rv, dy = shifted_problem(942)
    (y_d, mean_d, rstd_d, rm_d, rv_d), num = definition_and_grads(x, gain, bias, rm, rv, dy)
    rm_s, rv_s = rm.copy(), rv.copy()
    xn, mean, rstd, counts, dxw, dgain, dbias = x_side(identity, x, LENGTHS, gain, bias, rm_s, rv_s, dy)
    np.testing.assert_array_equal(counts, (np.arange(5)[:, None] < LENGTHS[None, :]).sum(axis=1))
    np.testing.assert_allclose(xn, y_d, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(mean, mean_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rstd, rstd_d, rtol=1e-9)
    np.testing.assert_allclose(rm_s, rm_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rv_s, rv_d, rtol=1e-9)
    for name, g in (("x", dxw), ("gain", dgain), ("bias", dbias)):
        np.testing.assert_allclose(g, num[name], rtol=1e-6, atol=1e-7, err_msg=f"d{name}")


def test_x_side_on_two_ranks_equals_one_process():
    x, gain, bias, rm, rv, dy = shifted_problem(943)
    (y_d, mean_d, rstd_d, rm_d, rv_d), num = definition_and_grads(x, gain, bias, rm, rv, dy)
    rows = [slice(0, 2), slice(2, 6)]
    runs = [(rm.copy(), rv.copy()) for _ in rows]

    def rank(reduce, r):
        sl = rows[r]
        return x_side(reduce, x[:, sl].copy(), LENGTHS[sl].copy(), gain, bias, *runs[r], dy[:, sl].copy())

    results = run_ranks(2, rank)
    for r, sl in enumerate(rows):
        xn, mean, rstd, counts, dxw, dgain, dbias = results[r]
        np.testing.assert_allclose(xn, y_d[:, sl], rtol=1e-9, atol=1e-10, err_msg=f"rank {r}: y")
        np.testing.assert_allclose(mean, mean_d, rtol=1e-12, atol=1e-12, err_msg=f"rank {r}: mean")
        np.testing.assert_allclose(rstd, rstd_d, rtol=1e-9, err_msg=f"rank {r}: rstd")
        np.testing.assert_allclose(runs[r][0], rm_d, rtol=1e-12, atol=1e-12, err_msg=f"rank {r}: running mean")
        np.testing.assert_allclose(runs[r][1], rv_d, rtol=1e-9, err_msg=f"rank {r}: running var")
        np.testing.assert_allclose(dxw, num["x"][:, sl], rtol=1e-6, atol=1e-7, err_msg=f"rank {r}: dx")
    for k, name in ((5, "gain"), (6, "bias")):
        assert np.abs(results[0][k]).max() > 1e-3 and np.abs(results[1][k]).max() > 1e-3, name
        np.testing.assert_allclose(results[0][k] + results[1][k], num[name], rtol=1e-6, atol=1e-7,
                                   err_msg=f"d{name} summed over the ranks")
