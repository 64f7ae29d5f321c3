"""LayerNorm's CPU kernel (lnrnn/kernels/layernorm.py), the length masks (lnrnn/kernels/masks.py) and the gate
clip's rule (lnrnn/kernels/codes.py), thirteenth pass, float64 at awkward sizes (N 5, F 7): the forward against
gain * (x - mean) / sqrt(var + eps) + bias written out (biased variance), every column included, over one, two
and three row chunks; the backward against central differences of that written-out forward and dgain, dbias by
their definition over two and three chunks; step_mask by its definition (row b runs at step t iff t < lengths[b])
with lengths 0, 1 and T in one batch; the refusal of lengths of the wrong shape word for word."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn.kernels.codes import clip_bound
from lnrnn.kernels.layernorm import layernorm_backward, layernorm_forward
from lnrnn.kernels.masks import as_lengths, step_mask

N, F, EPS = 5, 7, 0.03


def data():
    rng = np.random.default_rng(282)
    x = rng.normal(0.4, 1.3, (N, F))
    gain, bias = rng.normal(1.0, 0.5, F), rng.normal(0.0, 0.5, F)
    return rng, x, gain, bias


def ln_by_hand(x, gain, bias):
    m = x.sum(axis=1, keepdims=True) / F
    v = ((x - m) ** 2).sum(axis=1, keepdims=True) / F
    return gain * (x - m) / np.sqrt(v + EPS) + bias, m[:, 0], 1.0 / np.sqrt(v[:, 0] + EPS)


@pytest.mark.parametrize("nchunks", [1, 2, 3])
def test_forward_against_the_definition_every_column(nchunks):
    _, x, gain, bias = data()
    y, mean, rstd = layernorm_forward(x, gain, bias, EPS, nchunks)
    want, m, r = ln_by_hand(x, gain, bias)
    np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(mean, m, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(rstd, r, rtol=1e-12)


@pytest.mark.parametrize("nchunks", [2, 3])
def test_backward_against_central_differences_and_the_definition(nchunks):
    rng, x, gain, bias = data()
    dy = rng.standard_normal((N, F))
    _, mean, rstd = layernorm_forward(x, gain, bias, EPS, nchunks)
    dx, dgain, dbias = layernorm_backward(dy.copy(), x, mean, rstd, gain, nchunks)
    loss = lambda: float((dy * ln_by_hand(x, gain, bias)[0]).sum())
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-7, atol=1e-9)
    xhat = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + EPS)
    np.testing.assert_allclose(dgain, (dy * xhat).sum(axis=0), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(dbias, dy.sum(axis=0), rtol=1e-12, atol=1e-13)


def test_step_mask_by_its_definition_lengths_zero_one_and_t():
    T, lengths = 4, [0, 1, 4, 2]
    got = step_mask(np.array(lengths), T, 4)
    want = [[t < L for L in lengths] for t in range(T)]
    np.testing.assert_array_equal(got, np.array(want))
    np.testing.assert_array_equal(step_mask(None, 3, 2), np.ones((3, 2), bool))
    a = as_lengths(np.array([0, 1, 4], np.int32), 4, 3)
    assert a.dtype == np.int64 and a.tolist() == [0, 1, 4]


def test_lengths_of_the_wrong_shape_refused_naming_b():
    with pytest.raises(ValueError) as e:
        as_lengths(np.array([1, 2]), 5, 3)
    assert str(e.value) == "lengths must be (B,) = (3,) integers, got shape (2,) of int64"
    with pytest.raises(ValueError) as e:
        as_lengths(np.array([1, 6, 0]), 5, 3)
    assert str(e.value) == "lengths must lie in [0, T] = [0, 5], got 0..6"


def test_gate_clip_bound_off_for_zero_inf_and_nan():
    assert clip_bound(2.5) == 2.5 and clip_bound(1e-3) == 1e-3
    assert [clip_bound(v) for v in (0.0, float("inf"), float("nan"))] == [0.0, 0.0, 0.0]
