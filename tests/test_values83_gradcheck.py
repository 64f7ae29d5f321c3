"""The gradient judge (lnrnn/gradcheck.py) judged itself: rel_error against its docstring's definition on
elements of opposite signs and below the 1% floor, numeric_grad of both orders against a polynomial's
derivative written by hand, and the verdict (rel_error of the analytic gradient against numeric_grad, below
TOLERANCE or not) on a function whose hand-written gradient is right (pass) and on the same with one
planted slip, a transposed matrix in a quadratic form (fail)."""
import numpy as np
import pytest

from lnrnn.gradcheck import SCALE_FLOOR, TINY, TOLERANCE, numeric_grad, rel_error


def definition(a, n):
    """max |a - n| / max(|a| + |n|, max(TINY, SCALE_FLOOR * max(|a| + |n|))), element by element."""
    mags = [abs(p) + abs(q) for p, q in zip(a, n)]
    floor = max(TINY, SCALE_FLOOR * max(mags))
    return max(abs(p - q) / max(m, floor) for p, q, m in zip(a, n, mags))


@pytest.mark.parametrize("a, n", [([1.0], [-1.0]),
                                  ([2.0, -0.5, 1e-5], [2.0, 0.5, -1e-5]),
                                  ([3.0, 1e-4, 0.0], [3.0 + 1e-8, -2e-4, 0.0]),
                                  ([0.25, -0.25], [0.2, -0.3])])
def test_rel_error_is_its_definition(a, n):
    assert rel_error(np.array(a), np.array(n)) == pytest.approx(definition(a, n), rel=1e-14)


def test_opposite_signs_are_a_relative_error_of_one():
    assert rel_error(np.array([0.3, -2.0]), np.array([-0.3, 2.0])) == pytest.approx(1.0, rel=1e-14)


@pytest.mark.parametrize("order, eps", [(4, 1e-3), (2, 1e-6)])
def test_numeric_grad_of_a_polynomial(order, eps):
    w = np.array([0.7, -1.3, 0.2])
    want = 3 * w ** 2 - 4 * w + 1.0  # d/dw of w^3 - 2 w^2 + w, element by element
    got = numeric_grad(lambda: float(np.sum(w ** 3 - 2 * w ** 2 + w)), w, eps=eps, order=order)
    np.testing.assert_allclose(got, want, rtol=1e-7)
    np.testing.assert_array_equal(w, [0.7, -1.3, 0.2])  # restored


def verdict(analytic, f, arr):
    return rel_error(analytic, numeric_grad(f, arr)) < TOLERANCE


def test_the_verdict_passes_a_right_gradient_and_fails_a_planted_slip():
    rng = np.random.default_rng(860)
    A = rng.standard_normal((4, 4))
    c = rng.standard_normal(4)
    w = rng.standard_normal(4)

    def f():  # 0.5 w^T A w + sum(c sin w)
        return float(0.5 * w @ A @ w + np.sum(c * np.sin(w)))

    right = 0.5 * (A + A.T) @ w + c * np.cos(w)
    slip = A @ w + c * np.cos(w)            # the gradient of a symmetric A used for a non-symmetric one
    assert verdict(right, f, w)
    assert not verdict(slip, f, w)
    small = right.copy()
    small[2] *= 1.0 + 1e-4                  # one element off by 1e-4: still far above the tolerance
    assert not verdict(small, f, w)
