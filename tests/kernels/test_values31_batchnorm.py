"""BatchNorm with per-step statistics (lnrnn/kernels/batchnorm.py) on a masked batch whose last steps have no
active row (every length below T, one of them 0), as the synthesis network's x side meets at the end of a batch of
short lines: such a step has mean 0 and variance 0 (y = x / sqrt(eps) gain + bias, written out here), leaves its
running row alone, and in the backward gives dx = 0 and adds nothing to dgain, dbias. The other steps against the
NumPy reference; float64 and float32, T longer than the kernel's chunks of steps."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels import batchnorm as bn

MOM, EPS = 0.1, 1e-5
T, B, F, TS = 11, 4, 5, 12
LENGTHS = np.array([7, 0, 3, 5])  # steps 7..10 have no active row


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 2e-5)])
def test_steps_without_an_active_row(dtype, tol):
    rng = np.random.default_rng(3131)
    x = (rng.standard_normal((T, B, F)) * 0.01 + rng.uniform(-2, 2, F)).astype(dtype)
    gain = rng.uniform(0.5, 1.5, F).astype(dtype)
    bias = rng.uniform(-0.5, 0.5, F).astype(dtype)
    rm0 = (rng.standard_normal((TS, F)) + 3.0).astype(dtype)  # far from 0: a step that used it would show
    rv0 = rng.uniform(0.5, 2.0, (TS, F)).astype(dtype)
    dy = rng.standard_normal((T, B, F)).astype(dtype)
    rm, rv = rm0.copy(), rv0.copy()
    y, mean, rstd = bn.batchnorm_forward_train(x, gain, bias, rm, rv, MOM, EPS, LENGTHS)
    empty = slice(int(LENGTHS.max()), T)
    x64 = x.astype(np.float64)
    want = x64[empty] / np.sqrt(EPS) * gain.astype(np.float64) + bias.astype(np.float64)
    scale = np.abs(want).max()
    assert np.abs(y[empty] - want).max() <= tol * scale, "an empty step is not x / sqrt(eps) gain + bias"
    assert np.all(mean[empty] == 0)
    np.testing.assert_array_equal(rm[empty], rm0[empty])
    np.testing.assert_array_equal(rv[empty], rv0[empty])
    rm_r, rv_r = rm0.astype(np.float64), rv0.astype(np.float64)
    y_r, mean_r, rstd_r = ref.batchnorm_forward_train(x64, gain.astype(np.float64), bias.astype(np.float64), rm_r,
                                                      rv_r, MOM, EPS, LENGTHS)
    for name, got, w in (("y", y, y_r), ("mean", mean, mean_r), ("rstd", rstd, rstd_r), ("running mean", rm, rm_r),
                         ("running var", rv, rv_r)):
        err = np.abs(got - w).max() / max(np.abs(w).max(), 1e-300)
        assert err <= tol, f"{name}: {err:.3g}"
    dx, dg, db = bn.batchnorm_backward(dy, x, mean, rstd, gain, LENGTHS)
    assert np.all(dx[empty] == 0)
    dx_r, dg_r, db_r = ref.batchnorm_backward(dy.astype(np.float64), x64, mean_r, rstd_r, gain.astype(np.float64),
                                              True, LENGTHS)
    for name, got, w in (("dx", dx, dx_r), ("dgain", dg, dg_r), ("dbias", db, db_r)):
        err = np.abs(got - w).max() / max(np.abs(w).max(), 1e-300)
        assert err <= 10 * tol, f"{name}: {err:.3g}"
