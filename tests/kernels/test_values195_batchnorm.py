"""BatchNorm over time steps (lnrnn/kernels/batchnorm.py), float64, F = 5, against BatchNorm written here in NumPy
(each step's mean and biased variance over its active rows, the running rows by the momentum rule with the
unbiased variance, rows t < Ts only) and the gradients against central differences (numeric_grad) of that NumPy
forward on a loss that weights the active (step, row)s only; the kernel gets dy on the padded rows too and must
ignore it (dx = 0 there):

- T = 1, B = 3, no masks (the one-chunk path and the unmasked loops);
- T = 4 past Ts = 2, B = 3 of lengths 3, 1, 2 (a step whose active rows are 0 and 2, a step of row 0 alone, an
  empty last step: mean 0, rstd 1/sqrt(eps), running rows untouched);
- T = 3, B = 1 of length 2 (a step of one row: xhat 0, y the bias, dx 0; an empty step)."""
import numpy as np
import pytest

from lnrnn.kernels import batchnorm
from gradcheck_util import numeric_grad

F, MOM, EPS = 5, 0.3, 1e-3
CASES = {"T1-B3": (1, 1, None, 3), "T4-B3-masked": (4, 2, [3, 1, 2], 3), "T3-B1-masked": (3, 2, [2], 1)}


def numpy_bn(x, active, gain, bias, rm, rv, Ts):
    """-> y (T,B,F), mean, rstd (T,F), running rows after the call."""
    T = x.shape[0]
    rm, rv = rm.copy(), rv.copy()
    y, mean, rstd = np.zeros_like(x), np.zeros((T, F)), np.zeros((T, F))
    for t in range(T):
        a = x[t][active[t]]
        n = len(a)
        m = a.sum(0) / n if n else np.zeros(F)
        var = ((a - m) ** 2).sum(0) / n if n else np.zeros(F)
        if n and t < Ts:
            rm[t] = (1 - MOM) * rm[t] + MOM * m
            rv[t] = (1 - MOM) * rv[t] + MOM * var * n / (n - 1 if n > 1 else 1)
        mean[t], rstd[t] = m, 1 / np.sqrt(var + EPS)
        y[t] = (x[t] - m) * rstd[t] * gain + bias
    return y, mean, rstd, rm, rv


@pytest.mark.parametrize("case", list(CASES))
def test_forward_backward_against_numpy_and_central_differences(case):
    T, Ts, lens, B = CASES[case]
    rng = np.random.default_rng(1950 + len(case))
    lengths = None if lens is None else np.array(lens, np.int64)
    active = np.ones((T, B), bool) if lens is None else np.arange(T)[:, None] < lengths[None, :]
    x = rng.standard_normal((T, B, F)) * rng.uniform(0.5, 2.0, F) + rng.uniform(-2.0, 2.0, F)
    gain, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm, rv = rng.uniform(-1.0, 1.0, (Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    dy = rng.standard_normal((T, B, F))   # padded rows too: ignored
    y_d, mean_d, rstd_d, rm_d, rv_d = numpy_bn(x, active, gain, bias, rm, rv, Ts)
    rm_k, rv_k = rm.copy(), rv.copy()
    y, mean, rstd = batchnorm.bn_forward(x, gain, bias, rm_k, rv_k, True, MOM, EPS, lengths)
    np.testing.assert_allclose(y[active], y_d[active], rtol=1e-10, atol=1e-12, err_msg="y")
    np.testing.assert_allclose(mean, mean_d, rtol=1e-11, atol=1e-12, err_msg="mean")
    np.testing.assert_allclose(rstd, rstd_d, rtol=1e-10, err_msg="rstd")
    np.testing.assert_allclose(rm_k, rm_d, rtol=1e-11, atol=1e-12, err_msg="running mean")
    np.testing.assert_allclose(rv_k, rv_d, rtol=1e-11, atol=1e-12, err_msg="running variance")
    dx, dgain, dbias = batchnorm.bn_backward(dy, x, mean, rstd, gain, True, lengths)
    R = dy * active[:, :, None]
    np.testing.assert_allclose(dbias, R.sum((0, 1)), rtol=1e-12, atol=1e-12, err_msg="dbias")
    p = dict(x=x, gain=gain)

    def loss():
        return float((numpy_bn(p["x"], active, p["gain"], bias, rm, rv, Ts)[0] * R).sum())

    for name, g in (("x", dx), ("gain", dgain)):
        num = numeric_grad(loss, p[name], eps=1e-6, order=2)
        if B > 1:
            assert np.abs(num).max() > 1e-2, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-7, err_msg=f"d{name}")
    assert not dx[~active].any()
