"""Gradient clipping's CUDA twin (lnrnn/kernels/optim_cuda.py) at the edges of its rule, against the CPU twin
(lnrnn/kernels/optim.py) and the rule itself: a gradient whose norm is exactly the limit is left as it is (only a
larger norm is clipped), one just above is scaled by max_norm / (norm + CLIP_EPS); and a float32 gradient's norm
is the float64 norm of its values (their squares and sum in float64), equal to the CPU twin's to rounding of
float64, where float32 squares would lose bits. Blocks of 6 threads over 203 parameters, the grid capped at 4
blocks (test_device_update's geometry), under Numba's CUDA simulator."""
import math

import numpy as np
import pytest

from lnrnn.kernels import optim
from test_device_update import P, small_blocks  # noqa: F401  (a fixture)


def _clip(optim_cuda, g, max_norm):
    from lnrnn.kernels.cuda import arrays_cuda
    d, norm = arrays_cuda.to_device(g.copy()), arrays_cuda.to_device(np.zeros(1))
    optim_cuda.clip_grad_norm(d, max_norm, norm)
    return d.copy_to_host(), float(norm.copy_to_host()[0])


def test_a_norm_at_the_limit_is_not_clipped(small_blocks):
    g = np.zeros(P)
    g[[5, 150]] = 3.0, 4.0                                     # norm 5 exactly
    for max_norm, scaled in ((5.0, False), (4.999, True), (5.001, False)):
        got, norm = _clip(small_blocks, g, max_norm)
        want, want_norm = g.copy(), np.zeros(1)
        optim.clip_grad_norm(want, max_norm, want_norm)
        assert norm == 5.0 == want_norm[0]
        np.testing.assert_array_equal(got, want)
        if scaled:
            np.testing.assert_array_equal(got, g * (max_norm / (5.0 + optim.CLIP_EPS)))
        else:
            np.testing.assert_array_equal(got, g)


@pytest.mark.parametrize("max_norm", [0.0, 1.0])
def test_a_float32_gradients_norm_is_summed_in_float64(small_blocks, max_norm):
    """Values 1 + k 2^-12 (exact in float32): their squares need more than float32's 24 bits."""
    g = (np.float32(1) + np.float32(2.0 ** -12) * np.arange(P, dtype=np.float32)).astype(np.float32)
    got, norm = _clip(small_blocks, g, max_norm)
    exact = math.sqrt(math.fsum(float(v) ** 2 for v in g))
    assert norm == pytest.approx(exact, rel=1e-14)
    want, want_norm = g.copy(), np.zeros(1)
    optim.clip_grad_norm(want, max_norm, want_norm)
    assert norm == pytest.approx(want_norm[0], rel=1e-14)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=2e-7, atol=0)
