"""BatchNorm per step (lnrnn/kernels/batchnorm.py) off its defaults, against the NumPy reference in float64: an
eps far from the default (training, inference and the backward), masked steps whose statistics count only their
active rows (written out by hand), and T = 1 (ordinary BatchNorm of one batch) up to more steps than
config.BN_TIME_CHUNKS."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.config import BN_TIME_CHUNKS
from lnrnn.kernels.batchnorm import batchnorm_backward, batchnorm_forward_infer, batchnorm_forward_train

MOM = 0.1


def problem(rng, T, B, F, Ts):
    x = rng.standard_normal((T, B, F)) * 0.7 + 0.3
    gain, bias = rng.uniform(0.5, 2.0, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((Ts, F)) * 0.1, rng.uniform(0.2, 1.5, (Ts, F))
    return x, gain, bias, rm, rv


@pytest.mark.parametrize("eps", [1e-5, 0.3])
def test_an_eps_far_from_the_default_against_the_reference(eps):
    """eps = 0.3 against batch variances near 0.5: y, mean, rstd, the running rows, the inference output and
    dx, dgain, dbias the reference's with the same eps; rstd is 1/sqrt(var + eps) of each step's batch."""
    T, B, F, Ts = 3, 5, 4, 3
    rng = np.random.default_rng(4560)
    x, gain, bias, rm, rv = problem(rng, T, B, F, Ts)
    dy = rng.standard_normal((T, B, F))
    rm_k, rv_k, rm_r, rv_r = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    y, mean, rstd = batchnorm_forward_train(x, gain, bias, rm_k, rv_k, MOM, eps)
    yr, meanr, rstdr = R.batchnorm_forward_train(x, gain, bias, rm_r, rv_r, MOM, eps)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(x.var(axis=1) + eps), rtol=1e-12)
    for got, want in [(y, yr), (mean, meanr), (rstd, rstdr), (rm_k, rm_r), (rv_k, rv_r)]:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    yi = batchnorm_forward_infer(x, gain, bias, rm, rv, eps)
    np.testing.assert_allclose(yi, R.batchnorm_forward_infer(x, gain, bias, rm, rv, eps), rtol=1e-12, atol=1e-14)
    got = batchnorm_backward(dy, x, mean, rstd, gain)
    want = R.batchnorm_backward(dy, x, mean, rstd, gain)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-13)


def test_masked_statistics_by_hand():
    """lengths (4, 1, 3, 2, 4): step t's mean and rstd are those of the rows with t < lengths only (5, 4, 3
    and 2 rows at steps 0 to 3), written out, y normalizes every row with them, and the running rows take
    n/(n-1) of their variance."""
    T, B, F, Ts, eps = 4, 5, 3, 4, 1e-5
    rng = np.random.default_rng(4561)
    x, gain, bias, rm, rv = problem(rng, T, B, F, Ts)
    lengths = np.array([4, 1, 3, 2, 4], np.int64)
    rm_k, rv_k = rm.copy(), rv.copy()
    y, mean, rstd = batchnorm_forward_train(x, gain, bias, rm_k, rv_k, MOM, eps, lengths=lengths)
    for t in range(T):
        rows = x[t][t < lengths]  # (n,F)
        n = rows.shape[0]
        m = rows.sum(axis=0) / n
        v = ((rows - m) ** 2).sum(axis=0) / n
        np.testing.assert_allclose(mean[t], m, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(rstd[t], 1 / np.sqrt(v + eps), rtol=1e-12)
        np.testing.assert_allclose(rm_k[t], (1 - MOM) * rm[t] + MOM * m, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(rv_k[t], (1 - MOM) * rv[t] + MOM * v * n / (n - 1), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(y[t], (x[t] - m) / np.sqrt(v + eps) * gain + bias, rtol=1e-11, atol=1e-13)


@pytest.mark.parametrize("T", [1, 2, BN_TIME_CHUNKS - 1, BN_TIME_CHUNKS + 1])
def test_one_step_and_more_steps_than_chunks(T):
    """T = 1 (ordinary BatchNorm, one chunk on the calling thread) to more steps than time chunks: y, mean, rstd
    and the backward the reference's at every step."""
    B, F = 4, 3
    rng = np.random.default_rng(4562 + T)
    x, gain, bias, rm, rv = problem(rng, T, B, F, T)
    dy = rng.standard_normal((T, B, F))
    y, mean, rstd = batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, 1e-5)
    yr, meanr, rstdr = R.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, 1e-5)
    for got, want in [(y, yr), (mean, meanr), (rstd, rstdr)]:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    for g, w in zip(batchnorm_backward(dy, x, mean, rstd, gain), R.batchnorm_backward(dy, x, mean, rstd, gain)):
        np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-13)
