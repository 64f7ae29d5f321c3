"""BatchNorm's CUDA twin (lnrnn/kernels/batchnorm_cuda.py) per step over padded rows, against the definition
written out here in NumPy: each step's mean and biased variance over the rows still running at that step (t <
lengths[b]), y = (x - mean) / sqrt(var + eps) gain + bias for every row; the running rows (one per step up to
Ts, the last reused past it) folding in the step's mean and its unbiased variance var n / (n - 1) with the
momentum; inference through the running rows; and the backward, dx, dgain and dbias, against central
differences of sum(dy y) over the running rows only (padded rows' dy count for nothing).

T = 3, B = 4, F = 5: lengths 3, 1, 2, 0 (a row without steps, a step with one running row), Ts = 2 running rows,
tiles of 3 x 3 threads (F not a multiple, 4 rows over 3 lanes); eps 0.3 and momentum 0.35 off their defaults.
Under Numba's CUDA simulator. float64: forward to 1e-12, gradients to 1e-7 (central differences)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import batchnorm_cuda  # noqa: E402
from lnrnn.kernels.cuda import gemm_cuda  # noqa: E402
from gradcheck_util import numeric_grad  # noqa: E402

T, B, F, TS = 3, 4, 5, 2
LENGTHS = np.array([3, 1, 2, 0], np.int64)
EPS, MOM = 0.3, 0.35
TOL, TOL_GRAD = 1e-12, 1e-7


@pytest.fixture(autouse=True)
def small_tiles(monkeypatch):
    monkeypatch.setattr(gemm_cuda, "TILE", 3)


def problem():
    rng = np.random.default_rng(75)
    return (rng.standard_normal((T, B, F)) * 2 + 1, rng.standard_normal(F) + 1, rng.standard_normal(F),
            rng.standard_normal((TS, F)), rng.uniform(0.5, 1.5, (TS, F)), rng.standard_normal((T, B, F)))


def train_by_definition(x, gain, bias, rm, rv):
    """y (T,B,F), mean (T,F), rstd (T,F); rm, rv updated in place."""
    y, mean, rstd = np.empty_like(x), np.empty((T, F)), np.empty((T, F))
    for t in range(T):
        act = x[t][LENGTHS > t]
        n = len(act)
        mu = act.mean(axis=0)
        var = ((act - mu) ** 2).mean(axis=0)
        mean[t], rstd[t] = mu, 1 / np.sqrt(var + EPS)
        y[t] = (x[t] - mu) * rstd[t] * gain + bias
        if t < TS:
            rm[t] = (1 - MOM) * rm[t] + MOM * mu
            rv[t] = (1 - MOM) * rv[t] + MOM * var * n / max(n - 1, 1)
    return y, mean, rstd


def test_training_forward_and_running_rows():
    x, gain, bias, rm, rv, _ = problem()
    rm_d, rv_d, rm_w, rv_w = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    got = batchnorm_cuda.bn_forward(x, gain, bias, rm_d, rv_d, True, MOM, EPS, LENGTHS)
    want = train_by_definition(x, gain, bias, rm_w, rv_w)
    for name, g, w in zip(("y", "mean", "rstd"), got, want):
        np.testing.assert_allclose(g.copy_to_host(), w, rtol=TOL, atol=TOL, err_msg=name)
    np.testing.assert_allclose(rm_d, rm_w, rtol=TOL, atol=TOL, err_msg="running mean")
    np.testing.assert_allclose(rv_d, rv_w, rtol=TOL, atol=TOL, err_msg="running var")


def test_inference_through_the_running_rows():
    x, gain, bias, rm, rv, _ = problem()
    rm0, rv0 = rm.copy(), rv.copy()
    y = batchnorm_cuda.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS).copy_to_host()
    rows = np.minimum(np.arange(T), TS - 1)  # steps past Ts use the last running row
    want = (x - rm0[rows][:, None]) / np.sqrt(rv0[rows][:, None] + EPS) * gain + bias
    np.testing.assert_allclose(y, want, rtol=TOL, atol=TOL)
    np.testing.assert_array_equal(rm, rm0)
    np.testing.assert_array_equal(rv, rv0)


def test_backward_equals_central_differences_over_running_rows():
    x, gain, bias, rm, rv, dy = problem()
    mask = (np.arange(T)[:, None] < LENGTHS[None, :])[:, :, None]  # (T,B,1) rows still running

    def loss(x_, gain_, bias_):
        y, _, _ = train_by_definition(x_, gain_, bias_, rm.copy(), rv.copy())
        return float(np.sum(dy * y * mask))

    _, mean, rstd = batchnorm_cuda.bn_forward(x, gain, bias, rm.copy(), rv.copy(), True, MOM, EPS, LENGTHS)
    dx, dgain, dbias = batchnorm_cuda.batchnorm_backward(dy, x, mean, rstd, gain, LENGTHS)
    f = lambda: loss(x, gain, bias)  # noqa: E731
    for name, got, a in (("dx", dx, x), ("dgain", dgain, gain), ("dbias", dbias, bias)):
        got = got.copy_to_host() if hasattr(got, "copy_to_host") else np.asarray(got)
        np.testing.assert_allclose(got, numeric_grad(f, a, eps=1e-6, order=2), rtol=0, atol=TOL_GRAD, err_msg=name)
