"""The row passes the cells share (lnrnn/kernels/cpu/rows.py) and the LayerNorm op (lnrnn/kernels/layernorm.py):
sigmoid_row's float32 exp reduced to |r| <= ln2/2 (its error near 1/2, where the exp's relative error counts
in full), and layernorm_backward with a gain far from 1 against the reference and sums by hand, on row
chunks."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.kernels.cpu.rows import sigmoid_row
from lnrnn.kernels.layernorm import layernorm_backward, layernorm_forward


def test_float32_sigmoid_near_one_half():
    """Arguments k/256 for |k| <= 512 (exact in float32): every result within 1e-7 of the float64 sigmoid (the
    reduction to the nearest multiple of ln 2 stays below 7.5e-8; one to the multiple below, leaving r up to
    ln 2 for the degree-7 polynomial, reaches 1.6e-7 just above 0)."""
    a = (np.arange(-512, 513) / 256.0).astype(np.float32)
    y = np.empty_like(a)
    kb = np.empty(2 * a.size, np.int32)
    sigmoid_row(y, a, kb)
    err = np.abs(y.astype(np.float64) - 1.0 / (1.0 + np.exp(-a.astype(np.float64)))).max()
    assert err < 1e-7, err


@pytest.mark.parametrize("nchunks", [1, 2, 3])
def test_layernorm_backward_with_a_gain_far_from_one(nchunks):
    """dx the reference's and dgain, dbias the sums over rows of dy * xhat and dy, written out, for gains in
    [-2, 3] and 7 rows of 6 features on 1 to 3 row chunks."""
    rng = np.random.default_rng(4550)
    N, F = 7, 6
    x = rng.standard_normal((N, F)) * 2 + 1
    gain, bias = rng.uniform(-2, 3, F), rng.standard_normal(F)
    dy = rng.standard_normal((N, F))
    y, mean, rstd = layernorm_forward(x, gain, bias, 1e-5, nchunks)
    dx, dg, db = layernorm_backward(dy, x, mean, rstd, gain, nchunks)
    want = R.layernorm_backward(dy, x, mean, rstd, gain)
    np.testing.assert_allclose(dx, want[0], rtol=0, atol=1e-12)
    xhat = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5)
    sg = np.zeros(F)
    sb = np.zeros(F)
    for r in range(N):
        sg += dy[r] * xhat[r]
        sb += dy[r]
    np.testing.assert_allclose(dg, sg, rtol=0, atol=1e-12)
    np.testing.assert_allclose(db, sb, rtol=0, atol=1e-12)
