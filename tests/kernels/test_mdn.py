"""The mixture density kernel (lnrnn/kernels/mdn.py): forward against the plain NumPy spec, backward
against central differences, padding, float32 stability at extreme outputs, thread-safety, and the
sampler's distribution (and Graves's bias)."""
import numpy as np
import pytest

from lnrnn.gradcheck import numeric_grad, rel_error
from lnrnn.kernels.mdn import RHO, SMAX, mdn_backward, mdn_forward, mdn_sample, mdn_split
from lnrnn.reference import mdn_nll


def problem(rng, N=9, M=3, dtype=np.float64, spread=1.0):
    y = (spread * rng.standard_normal((N, 6 * M + 1))).astype(dtype)
    t = rng.standard_normal((N, 3)).astype(dtype)
    t[:, 2] = rng.integers(0, 2, N)
    v = np.ones(N, dtype)
    v[N // 3] = 0
    return y, t, v, M


def test_forward_matches_the_reference_and_padding_is_zero():
    rng = np.random.default_rng(0)
    for M in (1, 3, 20):
        y, t, v, _ = problem(rng, N=23, M=M)
        nll, saved = mdn_forward(y, t, v, M)
        np.testing.assert_allclose(nll, mdn_nll(y, t, v, M), rtol=1e-12, atol=1e-12)
        assert nll[23 // 3] == 0
        gamma = saved[0]
        np.testing.assert_allclose(gamma[v == 1].sum(axis=1), 1.0, rtol=1e-12)   # responsibilities


@pytest.mark.parametrize("M", [1, 4])
def test_backward_matches_central_differences(M):
    rng = np.random.default_rng(1)
    y, t, v, _ = problem(rng, N=8, M=M)
    g = rng.standard_normal(8)
    _, saved = mdn_forward(y, t, v, M)
    d = mdn_backward(g, saved, y, t, M)
    num = numeric_grad(lambda: float(np.dot(g, mdn_nll(y, t, v, M))), y)
    assert rel_error(d, num) < 1e-7
    assert not np.any(d[v == 0]), "a padded row has a gradient"


def test_clipped_log_sigma_has_zero_gradient_and_rho_stays_inside():
    rng = np.random.default_rng(2)
    y, t, v, M = problem(rng, N=4, M=2)
    y[:, 1 + 3 * M] = SMAX + 3       # log sigma1 of component 0 beyond the clip
    y[:, 1 + 5 * M] = 50.0           # tanh saturates: rho = RHO
    _, saved = mdn_forward(y, t, v, M)
    d = mdn_backward(np.ones(4), saved, y, t, M)
    assert np.all(d[:, 1 + 3 * M] == 0)
    e, pi, mu1, mu2, s1, s2, rho = mdn_split(y, M)
    assert np.all(np.abs(rho) <= RHO) and np.all(s1 <= np.exp(SMAX))


def test_float32_stays_finite_at_extreme_outputs():
    rng = np.random.default_rng(3)
    y, t, v, M = problem(rng, N=64, M=5, dtype=np.float32, spread=60.0)
    t[:, :2] *= 1e3
    nll, saved = mdn_forward(y, t, v, M)
    d = mdn_backward(np.ones(64, np.float32), saved, y, t, M)
    assert np.all(np.isfinite(nll)) and np.all(np.isfinite(d))
    assert nll.dtype == np.float32 and d.dtype == np.float32
    y64 = y.astype(np.float64)
    small = rng.standard_normal(y.shape).astype(np.float32)  # ordinary values: float32 ~ float64
    np.testing.assert_allclose(mdn_forward(small, t / 1e3, v, M)[0],
                               mdn_forward(small.astype(np.float64), (t / 1e3).astype(np.float64),
                                           v.astype(np.float64), M)[0], rtol=2e-5, atol=2e-5)
    del y64


def test_threads_write_only_their_rows():
    """Many rows on every thread, called repeatedly: bit-identical every time."""
    rng = np.random.default_rng(4)
    y, t, v, M = problem(rng, N=4099, M=20, dtype=np.float32)
    g = rng.standard_normal(4099).astype(np.float32)
    first_n, saved = mdn_forward(y, t, v, M)
    first_d = mdn_backward(g, saved, y, t, M)
    for _ in range(5):
        n, s = mdn_forward(y, t, v, M)
        np.testing.assert_array_equal(n, first_n)
        np.testing.assert_array_equal(mdn_backward(g, s, y, t, M), first_d)


def test_sampler_follows_the_mixture_and_the_bias():
    M, N = 2, 40000
    y = np.zeros((N, 6 * M + 1))
    y[:, 0] = np.log(0.3 / 0.7)                     # e = 0.3
    y[:, 1:3] = [0.0, -50.0]                        # component 0 only
    y[:, 3:5] = [1.5, 9.0]                          # mu1
    y[:, 5:7] = [-2.0, 9.0]                         # mu2
    y[:, 7:9] = np.log([0.5, 1.0])                  # sigma1
    y[:, 9:11] = np.log([2.0, 1.0])                 # sigma2
    y[:, 11:13] = np.arctanh(0.6 / RHO)             # rho = 0.6
    s = mdn_sample(y, M, np.random.default_rng(5))
    assert abs(s[:, 0].mean() - 1.5) < 0.02 and abs(s[:, 1].mean() + 2.0) < 0.05
    cov = np.cov(s[:, 0], s[:, 1])
    assert abs(np.sqrt(cov[0, 0]) - 0.5) < 0.02 and abs(np.sqrt(cov[1, 1]) - 2.0) < 0.05
    assert abs(cov[0, 1] / np.sqrt(cov[0, 0] * cov[1, 1]) - 0.6) < 0.02
    assert abs(s[:, 2].mean() - 0.3) < 0.01 and set(np.unique(s[:, 2])) == {0.0, 1.0}
    np.testing.assert_array_equal(s, mdn_sample(y, M, np.random.default_rng(5)))   # same seed, same draw
    tight = mdn_sample(y, M, np.random.default_rng(5), bias=2.0)                    # sigma * exp(-2)
    assert abs(tight[:, 0].std() - 0.5 * np.exp(-2)) < 0.005


def test_cuda_twin_equals_cpu_twin():
    """Under the simulator (or a GPU): the same NLL, saved responsibilities and gradient, float64 and
    float32, on a row count that is not a multiple of the block (37 rows, blocks of 6 threads, so
    several blocks and a grid-stride remainder)."""
    from lnrnn import backend, config
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    from lnrnn.kernels import mdn_cuda
    old = config.THREADS_PER_BLOCK
    config.THREADS_PER_BLOCK = 6
    try:
        rng = np.random.default_rng(7)
        for dtype, tol in ((np.float64, 1e-12), (np.float32, 2e-5)):
            y, t, v, M = problem(rng, N=37, M=3, dtype=dtype)
            g = rng.standard_normal(37).astype(dtype)
            n_cpu, s_cpu = mdn_forward(y, t, v, M)
            d_cpu = mdn_backward(g, s_cpu, y, t, M)
            n_gpu, s_gpu = mdn_cuda.mdn_forward(y, t, v, M)
            d_gpu = mdn_cuda.mdn_backward(g, s_gpu, y, t, M).copy_to_host()
            np.testing.assert_allclose(n_gpu.copy_to_host(), n_cpu, rtol=tol, atol=tol)
            np.testing.assert_allclose(s_gpu[0].copy_to_host(), s_cpu[0], rtol=tol, atol=tol)
            np.testing.assert_allclose(d_gpu, d_cpu, rtol=tol, atol=tol * np.abs(d_cpu).max())
            assert not np.any(d_gpu[v == 0])
    finally:
        config.THREADS_PER_BLOCK = old


def test_output_clipping_bounds_each_points_derivatives():
    """--clip-output: each point's dL/d(outputs) is clipped before the 1/count average; off, the head's
    gradient is the plain average (compared against a head with the clip set beyond every value)."""
    from lnrnn.model.heads import MDNHead
    rng = np.random.default_rng(8)
    head = MDNHead(4, components=2, dtype="float64")
    h = rng.standard_normal((5, 3, 4))
    tg = 30 * rng.standard_normal((3, 5, 3))                   # far targets: large derivatives
    tg[..., 2] = rng.integers(0, 2, (3, 5))
    valid = np.ones((5, 3), bool)
    _, count, cache = head.forward(h, tg, valid)
    head.zero_grad()
    head.backward(cache, 1.0 / count)
    plain = head.grads["W"].copy()
    head.clip_output = 1e12
    head.zero_grad()
    head.backward(cache, 1.0 / count)
    np.testing.assert_allclose(head.grads["W"], plain, rtol=1e-12)
    head.clip_output = 0.5
    head.zero_grad()
    head.backward(cache, 1.0 / count)
    d_out = np.clip(mdn_backward(np.ones(15), cache[3], cache[1], cache[2], 2), -0.5, 0.5) / count
    np.testing.assert_allclose(head.grads["W"], h.reshape(15, 4).T @ d_out, rtol=1e-12)
    assert not np.allclose(head.grads["W"], plain)
