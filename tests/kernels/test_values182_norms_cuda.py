"""batchnorm_cuda and layernorm_cuda through their public wrappers against lnrnn/reference.py (the NumPy spec), in
float64 under Numba's simulator (or on a GPU): BatchNorm's statistics over the rows that run at each step only
(lengths 3, 0, 2, 1, 3: a row without steps, a step with one running row), eps 0.5 (far from 0, so that where it is
added shows), gains away from 1, its backward's dx, dgain and dbias; load_lengths clamping a plan's lengths to T and
refusing an array of another shape in one sentence; LayerNorm on rows of 11 features over blocks of 8 threads (a
width not a multiple of the block), forward and backward.

T = 3, B = 5, F = 5 over tiles of 4 x 4 (neither a multiple), small_blocks' geometry."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference as ref  # noqa: E402
from lnrnn.kernels import batchnorm_cuda, layernorm_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
from test_cuda_kernels import close, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)

T, B, F = 3, 5, 5
LENGTHS = np.array([3, 0, 2, 1, 3], np.int64)
EPS, MOM = 0.5, 0.3
TOL = 1e-12


def bn_problem():
    rng = np.random.default_rng(182)
    x = rng.standard_normal((T, B, F)) * 1.5 + 0.8
    x[:, 1] += 40.0  # the row without steps: far off, so that counting it moves every statistic
    return (x, rng.uniform(0.5, 2.0, F), rng.standard_normal(F), rng.standard_normal((2, F)),
            rng.uniform(0.5, 1.5, (2, F)), rng.standard_normal((T, B, F)))


def test_bn_train_over_the_running_rows_and_its_backward():
    x, gain, bias, rm, rv, dy = bn_problem()
    rm_d, rv_d, rm_r, rv_r = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    y, mean, rstd = to_host(batchnorm_cuda.batchnorm_forward_train(x, gain, bias, rm_d, rv_d, MOM, EPS, LENGTHS))
    y_r, mean_r, rstd_r = ref.batchnorm_forward_train(x, gain, bias, rm_r, rv_r, MOM, EPS, lengths=LENGTHS)
    active = np.arange(T)[:, None] < LENGTHS[None, :]
    for name, got, want in (("mean", mean, mean_r), ("rstd", rstd, rstd_r), ("running mean", rm_d, rm_r),
                            ("running var", rv_d, rv_r)):
        assert close(got, want) < TOL, name
    assert close(y[active], y_r[active]) < TOL
    # by hand for step 1: rows 0, 2 and 4 run
    rows = x[1][[0, 2, 4]]
    assert close(mean[1], rows.mean(0)) < TOL
    assert close(rstd[1], 1 / np.sqrt(rows.var(0) + EPS)) < TOL
    dx, dgain, dbias = to_host(batchnorm_cuda.batchnorm_backward(dy, x, mean, rstd, gain, LENGTHS))
    dx_r, dgain_r, dbias_r = ref.batchnorm_backward(dy, x, mean_r, rstd_r, gain, True, LENGTHS)
    assert close(dx, dx_r) < TOL
    assert close(dgain, dgain_r) < TOL
    assert close(dbias, dbias_r) < TOL
    assert not dx[~active].any()


def test_load_lengths_clamps_to_t_and_refuses_another_shape():
    dst = arrays_cuda.empty((B,), np.int64)
    lengths = np.array([7, 0, 2, 3, 1], np.int64)
    batchnorm_cuda.load_lengths(dst, to_device(lengths), 3)
    np.testing.assert_array_equal(to_host(dst), np.minimum(lengths, 3))
    with pytest.raises(ValueError, match=r"^load_lengths: lengths \(4,\) into a plan's \(5,\)$"):
        batchnorm_cuda.load_lengths(dst, to_device(lengths[:4]), 3)


def test_layernorm_rows_wider_than_the_block():
    rng = np.random.default_rng(1820)
    N, Fl, eps = 3, 11, 0.1
    x = rng.standard_normal((N, Fl)) * np.array([0.5, 1.0, 2.5])[:, None] - 0.4
    g, b, dy = rng.uniform(0.5, 1.5, Fl), rng.standard_normal(Fl), rng.standard_normal((N, Fl))
    y, m, r = to_host(layernorm_cuda.layernorm_forward(x, g, b, eps))
    y_r, m_r, r_r = ref.layernorm_forward(x, g, b, eps)
    for got, want in ((y, y_r), (m, m_r), (r, r_r)):
        assert close(got, np.reshape(want, got.shape)) < TOL
    assert close(r, 1 / np.sqrt(x.var(1) + eps)) < TOL
    dx, dg, db = to_host(layernorm_cuda.layernorm_backward(dy, x, m, r, g))
    dx_r, dg_r, db_r = ref.layernorm_backward(dy, x, np.reshape(m_r, m.shape), np.reshape(r_r, r.shape), g)
    for got, want in ((dx, dx_r), (dg, dg_r), (db, db_r)):
        assert close(got, want) < TOL
