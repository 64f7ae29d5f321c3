"""The update rules' kernels (lnrnn/kernels/optim.py) called directly: clip_grad_norm of a 3-4-12 gradient (norm 13
by hand) exactly at its bound (left alone) and just past it (scaled in place, in the caller's array, by
bound / (13 + CLIP_EPS)), in float64 and float32; Adam's folded step size and eps at updates 1 and 2 against
lr sqrt(1 - beta2^k) / (1 - beta1^k) and eps sqrt(1 - beta2^k) written out here."""
import math

import numpy as np
import pytest

from lnrnn.kernels import optim as rules


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("bound,scaled", [(13.0, False), (12.999, True), (14.0, False), (1.0, True)])
def test_clip_kernel_at_and_just_past_its_bound(dtype, bound, scaled):
    g = np.array([3.0, -4.0, 12.0], dtype)                      # sqrt(9 + 16 + 144) = 13
    norm = np.full(1, -1.0)
    rules.clip_grad_norm(g, bound, norm)
    assert norm[0] == 13.0
    factor = bound / (13.0 + 1e-6) if scaled else 1.0
    want = np.array([3.0 * factor, -4.0 * factor, 12.0 * factor], dtype)
    assert g.dtype == dtype
    np.testing.assert_allclose(g, want, rtol=1e-6 if dtype == np.float32 else 1e-14, atol=0)
    if scaled:
        assert abs(float(np.linalg.norm(g.astype(np.float64))) - bound) < 1e-4


@pytest.mark.parametrize("k", [1, 2, 3])
def test_adam_step_size_and_eps_of_update_k(k):
    lr, b1, b2, eps = 0.003, 0.9, 0.999, 0.25
    step, eps_hat = rules.adam_step_size(lr, b1, b2, eps, k)
    assert math.isclose(step, lr * math.sqrt(1 - b2 ** k) / (1 - b1 ** k), rel_tol=1e-14)
    assert math.isclose(eps_hat, eps * math.sqrt(1 - b2 ** k), rel_tol=1e-14)
    # update 1 by hand: sqrt(0.001) = 0.0316227766..., 1 - 0.9 = 0.1
    if k == 1:
        assert math.isclose(step, 0.003 * 0.31622776601683794, rel_tol=1e-12)
        assert math.isclose(eps_hat, 0.25 * 0.031622776601683794, rel_tol=1e-12)
