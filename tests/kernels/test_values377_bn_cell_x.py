"""A BN cell's x side (lnrnn/kernels/bn_cell_x.py) function by function, against definitions written here in
NumPy, at I = 3 (the fold path's widest inputs but one: every sum over i and j has several terms), F = 7 columns,
B = 6 rows of their own lengths (4, 2, 0, 3, 1, 3 over T = 5: 5, 4, 3, 1 and 0 active rows a step), inputs about a
mean far from zero:

- fold_stats: the active rows' mean and biased covariance of x_t (row-major) per step, into an xs filled with NaN
  beforehand; zeros at the step with no active row and everywhere in inference;
- fold_step_stats: mean and rstd of the column z = x_t W over the active rows, the running rows' momentum rule with
  the unbiased variance (only when asked to update and a row is active), inference's running rows; float64 and
  float32;
- fold_rows_forward: the rows of one part of BN_t(x_t W; gain, bias), training and inference, the other rows left
  alone;
- the fold backward of one step split as a cell's loop splits it (rows in two parts, columns in two chunks, the
  second starting past column 0: fold_v, fold_rows_sums, fold_step_backward, fold_rows_dx) against the BN backward
  of lnrnn.reference (_bn_step_backward of z) carried through z = x W: dx = dz W^T, dW = x^T dz, dgain, dbias,
  padded rows' dx zero;
- cell_x_forward and cell_x_backward on both paths: the fold path's xs, buffers and loop gradients handed back in
  the documented order, the wide path against x Wx, BatchNorm by its definition and reference's backward, dWh
  against (h0, y_0, ..., y_{T-2})^T dhw."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_cell_x

T, B, I, F, H = 5, 6, 3, 7, 4
LENGTHS = np.array([4, 2, 0, 3, 1, 3], np.int64)
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]
PARTS = [(0, 2), (2, 6)]
CHUNKS = [(0, 3), (3, 7)]
MOM, EPS = 0.3, 1e-3
assert 1 < I <= FOLD_MAX_I and ACTIVE.sum(1).tolist() == [5, 4, 3, 1, 0]


def problem(seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I)) * np.array([0.8, 1.5, 1.1]) + np.array([2.0, -1.5, 0.7])
    W = rng.standard_normal((I, F))
    gain, bias = rng.uniform(0.5, 1.5, F), 0.4 * rng.standard_normal(F)
    rm, rv = rng.uniform(-2.0, 2.0, (3, F)), rng.uniform(0.5, 2.0, (3, F))
    dy = rng.standard_normal((T, B, F))
    return [a.astype(dtype) for a in (x, W, gain, bias, rm, rv, dy)]


def moments(x_t, act):
    a = x_t[act].astype(np.float64)
    mu = a.mean(0)
    return mu, (a - mu).T @ (a - mu) / len(a)


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_fold_stats_mean_and_covariance(training):
    x = problem(37701)[0]
    xs = np.full((T, I + I * I), np.nan)
    bn_cell_x.fold_stats(x, LENGTHS, training, xs)
    for t in range(T):
        if training and ACTIVE[t].any():
            mu, C = moments(x[t], ACTIVE[t])
            np.testing.assert_allclose(xs[t, :I], mu, rtol=1e-13, atol=1e-14, err_msg=f"mean, step {t}")
            np.testing.assert_allclose(xs[t, I:].reshape(I, I), C, rtol=1e-12, atol=1e-13, err_msg=f"cov, step {t}")
        else:
            assert np.array_equal(xs[t], np.zeros(I + I * I)), f"step {t}"


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_fold_step_stats_against_the_projected_columns(dtype):
    x, W, _, _, rm, rv, _ = problem(37702, dtype)
    xs = np.zeros((T, I + I * I))
    bn_cell_x.fold_stats(x, LENGTHS, True, xs)
    rtol = 1e-11 if dtype == np.float64 else 2e-6
    for t in range(T - 1):  # the last step, with no active row, below
        n = int(ACTIVE[t].sum())
        z = x[t][ACTIVE[t]].astype(np.float64) @ W.astype(np.float64)
        for update in (True, False):
            rm_row, rv_row = rm[t % 3].copy(), rv[t % 3].copy()
            mean, rstd = np.full(F, np.nan, dtype), np.full(F, np.nan, dtype)
            bn_cell_x.fold_step_stats(xs[t], W, n, True, update, rm_row, rv_row, MOM, EPS, mean, rstd)
            np.testing.assert_allclose(mean, z.mean(0), rtol=rtol, atol=rtol, err_msg=f"mean, step {t}")
            np.testing.assert_allclose(rstd, 1 / np.sqrt(z.var(0) + EPS), rtol=rtol, err_msg=f"rstd, step {t}")
            if update:
                unbiased = z.var(0, ddof=1) if n > 1 else np.zeros(F)
                np.testing.assert_allclose(rm_row, (1 - MOM) * rm[t % 3] + MOM * z.mean(0), rtol=rtol, atol=rtol)
                np.testing.assert_allclose(rv_row, (1 - MOM) * rv[t % 3] + MOM * unbiased, rtol=rtol, atol=rtol)
            else:
                assert np.array_equal(rm_row, rm[t % 3]) and np.array_equal(rv_row, rv[t % 3])
    # no active row: mean 0, rstd 1/sqrt(eps), the running rows untouched even when asked to update
    rm_row, rv_row = rm[0].copy(), rv[0].copy()
    mean, rstd = np.full(F, np.nan, dtype), np.full(F, np.nan, dtype)
    bn_cell_x.fold_step_stats(np.zeros(I + I * I), W, 0, True, True, rm_row, rv_row, MOM, EPS, mean, rstd)
    assert np.array_equal(mean, np.zeros(F)) and np.array_equal(rm_row, rm[0]) and np.array_equal(rv_row, rv[0])
    np.testing.assert_allclose(rstd, np.full(F, 1 / np.sqrt(EPS)), rtol=rtol)
    # inference: the running row as it is
    mean, rstd = np.full(F, np.nan, dtype), np.full(F, np.nan, dtype)
    bn_cell_x.fold_step_stats(np.zeros(I + I * I), W, 3, False, True, rm_row, rv_row, MOM, EPS, mean, rstd)
    assert np.array_equal(mean, rm[0]) and np.array_equal(rm_row, rm[0]) and np.array_equal(rv_row, rv[0])
    np.testing.assert_allclose(rstd, 1 / np.sqrt(rv[0].astype(np.float64) + EPS), rtol=rtol)


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_fold_rows_forward_one_part(training):
    x, W, gain, bias, rm, rv, _ = problem(37703)
    t = 1
    xs = np.zeros((T, I + I * I))
    bn_cell_x.fold_stats(x, LENGTHS, training, xs)
    z = x[t] @ W
    if training:
        mean, var = z[ACTIVE[t]].mean(0), z[ACTIVE[t]].var(0)
    else:
        mean, var = rm[1], rv[1]
    rstd = 1 / np.sqrt(var + EPS)
    want = (z - mean) * rstd * gain + bias
    for r0, r1 in PARTS:
        out = np.full((B, F), np.nan)
        bn_cell_x.fold_rows_forward(x[t], xs[t], W, gain, bias, mean, rstd, training, r0, r1, out)
        np.testing.assert_allclose(out[r0:r1], want[r0:r1], rtol=1e-11, atol=1e-11, err_msg=f"rows {r0}..{r1}")
        assert np.isnan(out[:r0]).all() and np.isnan(out[r1:]).all(), "rows of another part written"


def fold_backward_step(x, W, gain, dy, xs_t, mean, rstd, t, training):
    """One step's fold backward split in PARTS (rows) and CHUNKS (columns) -> dx_t, dW, dgain, dbias."""
    n = int(ACTIVE[t].sum())
    V = np.full((I, F), np.nan)
    bn_cell_x.fold_v(W, gain, rstd, V)
    dx_t = np.full((B, I), np.nan)
    P = np.zeros((I, F))
    for r0, r1 in PARTS:
        Pq = np.full((I, F), np.nan)
        bn_cell_x.fold_rows_sums(dy, x[t], xs_t, LENGTHS, t, r0, r1, V, Pq, dx_t)
        P += Pq
    s1 = dy[ACTIVE[t]].sum(0)
    dW, dgain, dbias = np.zeros((I, F)), np.zeros(F), np.zeros(F)
    M, cv = np.full((I, I), np.nan), np.full(I, np.nan)
    for k0, k1 in CHUNKS:
        bn_cell_x.fold_step_backward(s1, P, xs_t, W, V, mean, rstd, gain, k0, k1, training, dW, dgain, dbias, M, cv)
    if training:
        for r0, r1 in PARTS:
            bn_cell_x.fold_rows_dx(x[t], xs_t, LENGTHS, t, r0, r1, M, cv, n, dx_t)
    return dx_t, dW, dgain, dbias


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("t", [0, 2, 3], ids=["step0", "step2", "step3"])
def test_fold_backward_step_against_the_reference_bn_backward(t, training):
    x, W, gain, _, rm, rv, dy = problem(37704 + t)
    xs = np.zeros((T, I + I * I))
    bn_cell_x.fold_stats(x, LENGTHS, training, xs)
    z = x[t] @ W
    act = ACTIVE[t]
    if training:
        mean, var = z[act].mean(0), z[act].var(0)
    else:
        mean, var = rm[2], rv[2]
    rstd = 1 / np.sqrt(var + EPS)
    dz, dg_r, db_r = ref._bn_step_backward(dy[t], z, mean, rstd, gain, training, act)
    dx_t, dW, dgain, dbias = fold_backward_step(x, W, gain, dy[t], xs[t], mean, rstd, t, training)
    np.testing.assert_allclose(dx_t, dz @ W.T, rtol=1e-10, atol=1e-11, err_msg="dx")
    assert np.array_equal(dx_t[~act], np.zeros((int((~act).sum()), I))), "padded rows' dx"
    np.testing.assert_allclose(dW, x[t][act].T @ dz[act], rtol=1e-10, atol=1e-11, err_msg="dW")
    np.testing.assert_allclose(dgain, dg_r, rtol=1e-10, atol=1e-11, err_msg="dgain")
    np.testing.assert_allclose(dbias, db_r, rtol=1e-12, atol=1e-12, err_msg="dbias")


def test_cell_x_forward_and_backward_on_the_fold_path():
    x, W, gain, bias, rm, rv, dy = problem(37706)
    rm_k, rv_k = rm.copy(), rv.copy()
    xs, xn, mean_x, rstd_x, saved0 = bn_cell_x.cell_x_forward(x, W, gain, bias, rm_k, rv_k, True, MOM, EPS,
                                                              LENGTHS, True)
    assert saved0 is xs and xs.dtype == np.float64 and xs.shape == (T, I + I * I)
    for t in range(T):
        want = np.concatenate([a.ravel() for a in moments(x[t], ACTIVE[t])]) if ACTIVE[t].any() else np.zeros(I + I * I)
        np.testing.assert_allclose(xs[t], want, rtol=1e-12, atol=1e-13, err_msg=f"xs, step {t}")
    assert xn.shape == (1, B, F) and mean_x.shape == rstd_x.shape == (T, F)
    assert np.array_equal(rm_k, rm) and np.array_equal(rv_k, rv)  # the loop updates them, not this
    rng = np.random.default_rng(37707)
    h0, y, dhw = rng.standard_normal((B, H)), rng.standard_normal((T, B, H)), rng.standard_normal((T, B, F))
    loop = (rng.standard_normal((T, B, I)), rng.standard_normal((I, F)), rng.standard_normal(F),
            rng.standard_normal(F))  # dx, dWx, dgain, db as the loop leaves them
    dx, dWx, dWh, db, dgain = bn_cell_x.cell_x_backward(True, loop, None, xs, mean_x, rstd_x, gain, True, LENGTHS,
                                                        dhw, x, h0, y, W)
    assert dx is loop[0] and dWx is loop[1] and dgain is loop[2] and db is loop[3]
    hprev = np.concatenate([h0[None], y[:-1]])
    np.testing.assert_allclose(dWh, np.einsum("tbh,tbf->hf", hprev, dhw), rtol=1e-12, atol=1e-12, err_msg="dWh")


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_cell_x_forward_and_backward_on_the_wide_path(training):
    x, W, gain, bias, rm, rv, dy = problem(37708 + training)
    rm_k, rv_k = rm.copy(), rv.copy()
    xs, xn, mean_x, rstd_x, xw = bn_cell_x.cell_x_forward(x, W, gain, bias, rm_k, rv_k, training, MOM, EPS,
                                                          LENGTHS, False)
    assert xs.shape == (T, 0)
    np.testing.assert_allclose(xw, x @ W, rtol=1e-12, atol=1e-12, err_msg="xw")
    rm_d, rv_d = rm.copy(), rv.copy()
    for t in range(T):
        z = x[t] @ W
        mean, rstd = ref._bn_stats(z, rm_d, rv_d, t, training, MOM, EPS, ACTIVE[t])
        np.testing.assert_allclose(mean_x[t], mean, rtol=1e-12, atol=1e-12, err_msg=f"mean, step {t}")
        np.testing.assert_allclose(rstd_x[t], rstd, rtol=1e-11, err_msg=f"rstd, step {t}")
        np.testing.assert_allclose(xn[t], (z - mean) * rstd * gain + bias, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(rm_k, rm_d, rtol=1e-12, atol=1e-12, err_msg="running mean")
    np.testing.assert_allclose(rv_k, rv_d, rtol=1e-12, atol=1e-12, err_msg="running variance")
    rng = np.random.default_rng(37710)
    h0, y, dhw = rng.standard_normal((B, H)), rng.standard_normal((T, B, H)), rng.standard_normal((T, B, F))
    dx, dWx, dWh, db, dgain = bn_cell_x.cell_x_backward(False, None, dy, xw, mean_x, rstd_x, gain, training,
                                                        LENGTHS, dhw, x, h0, y, W)
    dz, dg_r, db_r = ref.batchnorm_backward(dy, x @ W, mean_x, rstd_x, gain, training, LENGTHS)
    np.testing.assert_allclose(dx, dz @ W.T, rtol=1e-10, atol=1e-11, err_msg="dx")
    np.testing.assert_allclose(dWx, np.einsum("tbi,tbf->if", x, dz), rtol=1e-10, atol=1e-11, err_msg="dWx")
    np.testing.assert_allclose(db, db_r, rtol=1e-12, atol=1e-12, err_msg="db")
    np.testing.assert_allclose(dgain, dg_r, rtol=1e-10, atol=1e-11, err_msg="dgain")
    hprev = np.concatenate([h0[None], y[:-1]])
    np.testing.assert_allclose(dWh, np.einsum("tbh,tbf->hf", hprev, dhw), rtol=1e-12, atol=1e-12, err_msg="dWh")
