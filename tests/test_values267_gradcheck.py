"""lnrnn/gradcheck.py, twelfth pass: numeric_grad on polynomials whose central differences are exact (the
fourth-order rule on a cubic, the second-order rule on a quadratic: the derivative written out, 3 c a^2 and
2 c a), shaped like the array for idx None and in the order asked for a list of indices, the array restored
after; rel_error against its definition, max |a - n| / max(|a| + |n|, max(1e-12, 1% of the largest |a| + |n|)),
and the checker's verdict (rel_error <= TOLERANCE) at a planted error just below and just above the tolerance:
an error d on a gradient of 1 is judged d / (2 + d), so d = 1.9e-6 passes and d = 2.1e-6 fails."""
import numpy as np
import pytest

from lnrnn.gradcheck import TOLERANCE, numeric_grad, rel_error

C = np.array([[0.5, -1.25, 2.0], [3.0, -0.75, 1.5]])
A0 = np.array([[0.3, -1.7, 0.9], [2.2, 0.05, -0.6]])


def test_the_fourth_order_rule_is_exact_on_a_cubic_and_shaped_like_the_array():
    a = A0.copy()
    num = numeric_grad(lambda: np.sum(C * a ** 3), a)
    assert num.shape == (2, 3)
    np.testing.assert_allclose(num, 3 * C * A0 ** 2, rtol=1e-9, atol=1e-10)
    np.testing.assert_array_equal(a, A0)                                  # restored exactly


def test_the_second_order_rule_is_exact_on_a_quadratic():
    a = A0.copy()
    num = numeric_grad(lambda: np.sum(C * a ** 2), a, eps=1e-3, order=2)
    np.testing.assert_allclose(num, 2 * C * A0, rtol=1e-9, atol=1e-10)
    # on a cubic the second-order rule carries c eps^2 exactly: (f(a+e) - f(a-e)) / 2e = 3 c a^2 + c e^2
    num3 = numeric_grad(lambda: np.sum(C * a ** 3), a, eps=1e-2, order=2)
    np.testing.assert_allclose(num3, 3 * C * A0 ** 2 + C * 1e-4, rtol=1e-9, atol=1e-10)


def test_listed_indices_come_back_flat_in_the_order_asked():
    a = A0.copy()
    num = numeric_grad(lambda: np.sum(C * a ** 3), a, idx=[5, 0, 3])
    assert num.shape == (3,)
    np.testing.assert_allclose(num, (3 * C * A0 ** 2).reshape(-1)[[5, 0, 3]], rtol=1e-9, atol=1e-10)


def _by_definition(a, n):
    a, n = np.asarray(a, float), np.asarray(n, float)
    mag = np.abs(a) + np.abs(n)
    floor = max(1e-12, 0.01 * mag.max())
    return max(abs(x - y) / max(m, floor) for x, y, m in zip(a, n, mag))


@pytest.mark.parametrize("a, n", [
    ([1.0 + 1.9e-6, 0.5], [1.0, 0.5]),
    ([2.0, -3.0, 1e-5 + 1e-9], [2.0, -3.0 + 3e-6, 1e-5]),                  # a small element against 1% of 6
    ([1e-13, 0.0], [0.0, 0.0]),                                             # both ~0: the 1e-12 floor
    ([-4.0], [4.0]),                                                        # opposite signs: 1
])
def test_rel_error_by_its_definition(a, n):
    assert rel_error(a, n) == pytest.approx(_by_definition(a, n), rel=1e-12)


@pytest.mark.parametrize("d, passes", [(1.9e-6, True), (2.1e-6, False), (-1.9e-6, True), (-2.1e-6, False)])
def test_the_verdict_at_a_planted_error_either_side_of_the_tolerance(d, passes):
    n = np.array([1.0, -0.4, 0.2])
    a = n.copy()
    a[0] += d
    err = rel_error(a, n)
    assert err == pytest.approx(abs(d) / (2 + d), rel=1e-9)
    assert (err <= TOLERANCE) is passes
    assert rel_error(n, a) == err                                           # symmetric in a and n
