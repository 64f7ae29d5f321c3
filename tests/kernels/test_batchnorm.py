"""BatchNorm with per-step statistics: kernel == NumPy reference, both == finite differences."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad, rel_error
from lnrnn import reference as ref
from lnrnn.kernels import batchnorm as bn

EPS = 1e-5
MOM = 0.1
# float64 kernel vs reference: same math, different summation order.
TOL64 = 1e-12
# float32 kernel vs float64 reference: ~1e-7 rounding amplified by 1/std and the B-reductions.
TOL32 = 2e-4
GRAD_TOL = 1e-6  # finite-difference judge, float64
FD_EPS = 3e-5    # 4th-order central stencil (see test_bn_cells.py)


def make(T, B, F, Ts, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((T, B, F)) * rng.uniform(0.5, 3, F) + rng.uniform(-2, 2, F)).astype(dtype)
    gain = rng.uniform(0.5, 1.5, F).astype(dtype)
    bias = rng.uniform(-0.5, 0.5, F).astype(dtype)
    rm = rng.standard_normal((Ts, F)).astype(dtype)
    rv = rng.uniform(0.5, 2.0, (Ts, F)).astype(dtype)
    dy = rng.standard_normal((T, B, F)).astype(dtype)
    return x, gain, bias, rm, rv, dy


def assert_close(a, b, tol):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape
    err = np.max(np.abs(a - b) / (1.0 + np.abs(b)), initial=0.0)
    assert err <= tol, f"max error {err:.3g} > {tol:.3g}"


@pytest.mark.parametrize("dtype,tol", [(np.float64, TOL64), (np.float32, TOL32)])
# T = 11: more steps than config.BN_TIME_CHUNKS (8), so chunks of 1 and 2 steps
@pytest.mark.parametrize("T,B,F,Ts", [(6, 5, 7, 4), (3, 4, 1, 5), (1, 8, 33, 1), (11, 3, 9, 13)])
def test_forward_train_matches_reference(dtype, tol, T, B, F, Ts):
    x, gain, bias, rm, rv, _ = make(T, B, F, Ts, dtype)
    rm_k, rv_k = rm.copy(), rv.copy()
    y, mean, rstd = bn.batchnorm_forward_train(x, gain, bias, rm_k, rv_k, MOM, EPS)
    x64 = [a.astype(np.float64) for a in (x, gain, bias, rm, rv)]
    rm_r, rv_r = x64[3], x64[4]
    y_r, mean_r, rstd_r = ref.batchnorm_forward_train(x64[0], x64[1], x64[2], rm_r, rv_r, MOM, EPS)
    assert y.dtype == mean.dtype == rstd.dtype == dtype
    for a, b in [(y, y_r), (mean, mean_r), (rstd, rstd_r), (rm_k, rm_r), (rv_k, rv_r)]:
        assert_close(a, b, tol)
    # rows t >= T were not touched (Ts > T case), and some rows did change
    n = min(T, Ts)
    np.testing.assert_array_equal(rm_k[n:], rm[n:])
    np.testing.assert_array_equal(rv_k[n:], rv[n:])
    assert np.all(rm_k[:n] != rm[:n])


def test_forward_train_formula_and_unbiased_running_var():
    """T=1 is ordinary BatchNorm; the running variance uses var * B/(B-1)."""
    x, gain, bias, rm, rv, _ = make(1, 6, 5, 1, np.float64)
    rm0, rv0 = rm.copy(), rv.copy()
    y, mean, rstd = bn.batchnorm_forward_train(x, gain, bias, rm, rv, MOM, EPS)
    x2 = x[0]
    expect = (x2 - x2.mean(0)) / np.sqrt(x2.var(0) + EPS) * gain + bias
    np.testing.assert_allclose(y[0], expect, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rm, (1 - MOM) * rm0 + MOM * x2.mean(0), rtol=1e-12)
    np.testing.assert_allclose(rv, (1 - MOM) * rv0 + MOM * x2.var(0, ddof=1), rtol=1e-12)


@pytest.mark.parametrize("dtype,tol", [(np.float64, TOL64), (np.float32, TOL32)])
def test_forward_infer_reuses_last_row(dtype, tol):
    T, B, F, Ts = 7, 3, 5, 3
    x, gain, bias, rm, rv, _ = make(T, B, F, Ts, dtype)
    rm0, rv0 = rm.copy(), rv.copy()
    y = bn.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS)
    np.testing.assert_array_equal(rm, rm0)  # untouched
    np.testing.assert_array_equal(rv, rv0)
    assert y.dtype == dtype
    y_r = ref.batchnorm_forward_infer(x.astype(np.float64), gain.astype(np.float64),
                                      bias.astype(np.float64), rm.astype(np.float64),
                                      rv.astype(np.float64), EPS)
    assert_close(y, y_r, tol)
    r64 = [a.astype(np.float64) for a in (x, rm, rv, gain, bias)]
    for t in range(T):
        row = min(t, Ts - 1)
        expect = (r64[0][t] - r64[1][row]) / np.sqrt(r64[2][row] + EPS) * r64[3] + r64[4]
        assert_close(y[t], expect, tol)


@pytest.mark.parametrize("dtype,tol", [(np.float64, TOL64), (np.float32, TOL32)])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("T", [6, 11])  # 11 > config.BN_TIME_CHUNKS: chunks of several steps, partial sums
def test_backward_matches_reference(dtype, tol, training, T):
    B, F, Ts = 5, 7, 6
    x, gain, bias, rm, rv, dy = make(T, B, F, Ts, dtype)
    y, mean, rstd = bn.bn_forward(x, gain, bias, rm.copy(), rv.copy(), training, MOM, EPS)
    if training:
        dx, dg, db = bn.batchnorm_backward(dy, x, mean, rstd, gain)
    else:
        dx, dg, db = bn.bn_backward(dy, x, mean, rstd, gain, False)
    assert dx.dtype == dg.dtype == db.dtype == dtype
    c = lambda a: a.astype(np.float64)  # noqa: E731
    _, mean_r, rstd_r = (ref.batchnorm_forward_train(c(x), c(gain), c(bias), c(rm), c(rv), MOM, EPS)
                         if training else (None, c(mean), c(rstd)))
    dx_r, dg_r, db_r = ref.batchnorm_backward(c(dy), c(x), mean_r, rstd_r, c(gain), training)
    assert_close(dx, dx_r, tol)
    assert_close(dg, dg_r, tol * B * T)  # sums over T*B terms
    assert_close(db, db_r, tol * B * T)


@pytest.mark.parametrize("impl", ["reference", "kernel"])
@pytest.mark.parametrize("training", [True, False])
def test_gradcheck(impl, training):
    T, B, F, Ts = 5, 4, 3, 3  # T > Ts: inference reuses the last row
    x, gain, bias, rm, rv, R = make(T, B, F, Ts, np.float64, seed=1)

    def loss():
        if impl == "reference":
            y = (ref.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS)[0]
                 if training else ref.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS))
        else:
            y = (bn.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS)[0]
                 if training else bn.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS))
        return np.sum(y * R)

    if impl == "reference":
        if training:
            _, mean, rstd = ref.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS)
        else:
            rows = np.minimum(np.arange(T), Ts - 1)
            mean, rstd = rm[rows], 1.0 / np.sqrt(rv[rows] + EPS)
        grads = ref.batchnorm_backward(R, x, mean, rstd, gain, training)
    else:
        _, mean, rstd = bn.bn_forward(x, gain, bias, rm.copy(), rv.copy(), training, MOM, EPS)
        grads = bn.bn_backward(R, x, mean, rstd, gain, training)
    for name, arr, g in zip(["x", "gain", "bias"], [x, gain, bias], grads):
        err = rel_error(g, numeric_grad(loss, arr, FD_EPS, order=4))
        assert err <= GRAD_TOL, f"{impl} d{name}: rel error {err:.3g}"


# ---------------------------------------------------------------------------------------------
# Masks: lengths (B,), row b active at step t iff t < lengths[b]
# ---------------------------------------------------------------------------------------------
# T=11 > BN_TIME_CHUNKS; each set has rows of length 0 and T; "gap" leaves the last steps without a row
# the last case has no empty row: steps 0-2 run every row (batchnorm.bn_col_stats' unmasked loops), later ones not
MASKED = [(6, 5, 7, 4, [6, 0, 3, 6, 1]), (6, 5, 7, 8, [4, 2, 0, 4, 1]), (11, 3, 9, 13, [11, 5, 0]),
          (7, 4, 6, 9, [7, 3, 7, 5])]


@pytest.mark.parametrize("dtype,tol", [(np.float64, TOL64), (np.float32, TOL32)])
@pytest.mark.parametrize("T,B,F,Ts,lengths", MASKED)
def test_masked_matches_reference(dtype, tol, T, B, F, Ts, lengths):
    x, gain, bias, rm, rv, dy = make(T, B, F, Ts, dtype)
    lengths = np.array(lengths, np.int64)
    rm_k, rv_k = rm.copy(), rv.copy()
    y, mean, rstd = bn.batchnorm_forward_train(x, gain, bias, rm_k, rv_k, MOM, EPS, lengths)
    c = lambda a: a.astype(np.float64)  # noqa: E731
    rm_r, rv_r = c(rm), c(rv)
    y_r, mean_r, rstd_r = ref.batchnorm_forward_train(c(x), c(gain), c(bias), rm_r, rv_r, MOM, EPS, lengths)
    assert np.all(np.isfinite(y))
    for a, b in [(y, y_r), (mean, mean_r), (rstd, rstd_r), (rm_k, rm_r), (rv_k, rv_r)]:
        assert_close(a, b, tol)
    empty = [t for t in range(min(T, Ts)) if not np.any(t < lengths)]  # no active row: running row untouched
    np.testing.assert_array_equal(rm_k[empty], rm[empty])
    np.testing.assert_array_equal(rv_k[empty], rv[empty])
    dx, dg, db = bn.batchnorm_backward(dy, x, mean, rstd, gain, lengths)
    dx_r, dg_r, db_r = ref.batchnorm_backward(c(dy), c(x), mean_r, rstd_r, c(gain), True, lengths)
    assert_close(dx, dx_r, tol)
    assert_close(dg, dg_r, tol * B * T)
    assert_close(db, db_r, tol * B * T)
    act = np.arange(T)[:, None] < lengths[None, :]
    assert np.all(dx[~act] == 0)
    # inference: the forward ignores lengths, the backward still leaves padded rows out
    _, m_i, r_i = bn.bn_forward(x, gain, bias, rm, rv, False, MOM, EPS, lengths)
    np.testing.assert_array_equal(bn.bn_forward(x, gain, bias, rm, rv, False, MOM, EPS)[0],
                                  bn.bn_forward(x, gain, bias, rm, rv, False, MOM, EPS, lengths)[0])
    got = bn.bn_backward(dy, x, m_i, r_i, gain, False, lengths)
    for a, b in zip(got, ref.batchnorm_backward(c(dy), c(x), c(m_i), c(r_i), c(gain), False, lengths)):
        assert_close(a, b, tol * B * T)


def test_masked_statistics_are_those_of_the_active_rows():
    """Step by step, the masked statistics are plain BatchNorm of the active rows, and the running
    variance uses n/(n-1) with n the active count."""
    T, B, F, Ts = 4, 6, 5, 4
    x, gain, bias, rm, rv, _ = make(T, B, F, Ts, np.float64)
    lengths = np.array([4, 1, 3, 0, 2, 4])
    rm0, rv0 = rm.copy(), rv.copy()
    y, mean, rstd = bn.batchnorm_forward_train(x, gain, bias, rm, rv, MOM, EPS, lengths)
    for t in range(T):
        xa = x[t][t < lengths]
        n = xa.shape[0]
        np.testing.assert_allclose(y[t][t < lengths], (xa - xa.mean(0)) / np.sqrt(xa.var(0) + EPS) * gain + bias,
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(rm[t], (1 - MOM) * rm0[t] + MOM * xa.mean(0), rtol=1e-12)
        np.testing.assert_allclose(rv[t], (1 - MOM) * rv0[t] + MOM * xa.var(0, ddof=1 if n > 1 else 0), rtol=1e-12)


@pytest.mark.parametrize("impl", ["reference", "kernel"])
def test_masked_gradcheck(impl):
    """Loss over active entries only; backward is given the unmasked R and must ignore padded entries."""
    T, B, F, Ts = 5, 4, 3, 6
    lengths = np.array([5, 0, 2, 4])
    x, gain, bias, rm, rv, R = make(T, B, F, Ts, np.float64, seed=1)
    Rm = R * (np.arange(T)[:, None] < lengths[None, :])[:, :, None]
    mod = ref if impl == "reference" else bn

    def loss():
        return np.sum(mod.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS, lengths=lengths)[0]
                      * Rm)

    _, mean, rstd = mod.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS, lengths=lengths)
    grads = mod.batchnorm_backward(R, x, mean, rstd, gain, lengths=lengths)
    for name, arr, g in zip(["x", "gain", "bias"], [x, gain, bias], grads):
        err = rel_error(g, numeric_grad(loss, arr, FD_EPS, order=4))
        assert err <= GRAD_TOL, f"{impl} d{name}: rel error {err:.3g}"


def test_all_full_lengths_are_no_mask():
    """lengths all T is bit for bit the unmasked op (the kernels run one code path for both)."""
    T, B, F, Ts = 11, 5, 9, 13
    x, gain, bias, rm, rv, dy = make(T, B, F, Ts, np.float32)
    full = np.full(B, T)
    a = bn.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS)
    b = bn.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS, full)
    for u, v in zip(a + bn.batchnorm_backward(dy, x, a[1], a[2], gain),
                    b + bn.batchnorm_backward(dy, x, b[1], b[2], gain, full)):
        assert u.tobytes() == v.tobytes()
