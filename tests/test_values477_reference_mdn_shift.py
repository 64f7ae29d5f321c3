"""The NumPy spec's mixture density (lnrnn/reference.py, mdn_nll) at mixture logits far from zero: the weights are a
softmax, so adding one constant to a row's logits changes nothing, and the spec stays finite where exp of a logit
alone would overflow or underflow (rows at +700, -800 and 0 in one batch, at M 1 and 3 components): it equals the
same rows at logits near zero, torch.distributions' mixture written independently, and the kernel (kernels/mdn.py),
float64."""
import numpy as np

from lnrnn import reference as ref
from lnrnn.kernels.mdn import mdn_forward
from test_values330_reference_heads import mixture_by_torch

SHIFTS = np.array([700.0, -800.0, 0.0, 350.0])       # one per row: exp(logit) overflows at +710, is 0 below -745


def case(M, seed):
    rng = np.random.default_rng(seed)
    N = len(SHIFTS)
    y = rng.standard_normal((N, 6 * M + 1)) * 0.5
    y[:, 1:1 + M] = rng.uniform(-2.0, 2.0, (N, M))  # logits near zero, distinct within a row
    target = np.column_stack([rng.standard_normal(N) * 0.5, rng.standard_normal(N) * 0.5, [1.0, 0.0, 1.0, 0.0]])
    far = y.copy()
    far[:, 1:1 + M] += SHIFTS[:, None]
    return y, far, target, np.ones(N, np.int64)


def test_mixture_logits_far_from_zero_give_the_loss_of_the_same_logits_near_it():
    for M in (1, 3):
        y, far, target, valid = case(M, 4770 + M)
        near = ref.mdn_nll(y, target, valid, M)
        got = ref.mdn_nll(far, target, valid, M)
        assert np.isfinite(got).all(), f"M={M}: {got}"
        np.testing.assert_allclose(got, near, rtol=1e-12, atol=1e-12, err_msg=f"M={M}")
        np.testing.assert_allclose(got, mixture_by_torch(far, target, M), rtol=1e-9, err_msg=f"M={M} torch")
        kernel, _ = mdn_forward(far, target, valid, M)
        np.testing.assert_allclose(got, kernel, rtol=1e-10, err_msg=f"M={M} kernel")


def test_the_weights_follow_each_rows_largest_logit_not_the_batchs():
    """Rows 700 apart in one batch: a shift shared by the batch would leave the lower rows' weights 0 / 0."""
    M = 3
    y, far, target, valid = case(M, 4779)
    together = ref.mdn_nll(far, target, valid, M)
    for r in range(len(SHIFTS)):
        alone = ref.mdn_nll(far[r:r + 1], target[r:r + 1], valid[r:r + 1], M)
        np.testing.assert_allclose(together[r], alone[0], rtol=1e-12, err_msg=f"row {r}")
