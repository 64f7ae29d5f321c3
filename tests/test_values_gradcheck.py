"""lnrnn/gradcheck.py, the judge itself: numeric_grad against derivatives known in closed form (and the
array left as it was), rel_error by hand on arrays with tiny elements, sample_idx's distinct indices, and
check_stack on a padded batch passing (its loss scores running steps only, as a head does)."""
import numpy as np
import pytest

from lnrnn.gradcheck import SCALE_FLOOR, TINY, TOLERANCE, check_stack, numeric_grad, rel_error, sample_idx


@pytest.mark.parametrize("order,eps", [(2, 1e-3), (4, 1e-3)])
def test_numeric_grad_of_a_cubic(order, eps):
    """f = sum(c * x^3): central differences give 3c x^2 + c eps^2 (order 2) and 3c x^2 exactly (order 4:
    the eps^2 terms of the two quotients cancel, and a cubic has no eps^4 term)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4))
    c = rng.uniform(0.5, 2.0, (3, 4))
    before = x.copy()
    got = numeric_grad(lambda: np.sum(c * x ** 3), x, eps=eps, order=order)
    want = 3 * c * before ** 2 + (c * eps ** 2 if order == 2 else 0)
    np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-9)
    np.testing.assert_array_equal(x, before)                        # every element put back exactly
    idx = [7, 0, 3]
    part = numeric_grad(lambda: np.sum(c * x ** 3), x, eps=eps, order=order, idx=idx)
    np.testing.assert_allclose(part, want.reshape(-1)[idx], rtol=1e-8, atol=1e-9)   # in the order asked
    np.testing.assert_array_equal(x, before)


def test_numeric_grad_refuses_what_it_cannot_perturb():
    x = np.zeros((4, 4))
    with pytest.raises(ValueError, match="order must be 2 or 4"):
        numeric_grad(lambda: 0.0, x, order=3)
    with pytest.raises(ValueError, match="contiguous"):
        numeric_grad(lambda: 0.0, x.T)


def test_rel_error_by_hand():
    # elements: |a-n| / max(|a|+|n|, floor), floor = SCALE_FLOOR x the largest |a|+|n| (here 2): 0.02
    a = np.array([1.0, 1e-6, 0.5])
    n = np.array([1.0, 2e-6, 0.5 + 1e-4])
    assert SCALE_FLOOR == 1e-2
    assert rel_error(a, n) == pytest.approx(max(1e-6 / 0.02, 1e-4 / (1.0 + 1e-4)), rel=1e-12)
    assert rel_error(a, n) < TOLERANCE * 1e3
    big = np.array([1.0, 0.1])                                      # above the floor: the plain ratio
    assert rel_error(big, big * [1, 1.5]) == pytest.approx(0.05 / 0.25, rel=1e-12)
    assert rel_error(np.zeros(3), np.zeros(3)) == 0.0 and rel_error([], []) == 0.0
    assert rel_error([0.0, 1e-13], [0.0, -1e-13]) == pytest.approx(2e-13 / TINY)   # all below TINY: absolute


def test_sample_idx_draws_distinct_sorted_indices():
    rng = np.random.default_rng(1)
    arr = np.zeros((6, 5))
    for _ in range(20):
        idx = sample_idx(arr, 25, rng)
        assert len(idx) == 25 and len(set(idx.tolist())) == 25 and np.all(np.diff(idx) > 0) and idx.max() < 30
    np.testing.assert_array_equal(sample_idx(arr, 30, rng), np.arange(30))
    np.testing.assert_array_equal(sample_idx(arr, 100, rng), np.arange(30))


def test_check_stack_on_a_padded_batch_passes():
    """Rows of lengths 5, 2 and 4 of 5 steps: the layers drop dL/dy past each row's end, and the check's
    loss leaves those steps out too; a loss that counted one padded step more would fail the check."""
    results = check_stack("rnn", "none", T=5, B=3, I=2, H=3, num_layers=1, lengths=np.array([5, 2, 4]),
                          max_elems=12)
    assert {name for name, _ in results} == {"l0.Wx", "l0.Wh", "l0.b", "x", "l0.h0"}
    for name, err in results:
        assert err < TOLERANCE, (name, err)
