"""gradcheck's numbers against their definitions: numeric_grad's fourth-order difference is exact for a
quartic (its error term is the fifth derivative) and the second-order one for a quadratic, even with a wide
step; rel_error judges an element under 1% of the largest against 1% of that largest magnitude, so a
rounding-sized slip in a tiny element passes and a planted wrong gradient of the same size does not."""
import numpy as np
import pytest

from lnrnn.gradcheck import TOLERANCE, numeric_grad, rel_error


def test_fourth_order_difference_is_exact_for_a_quartic():
    x = np.array([0.3, -1.2, 2.0, 0.7])
    a, c = np.array([1.0, 0.5, -0.25, 2.0]), np.array([0.2, -1.0, 0.3, 0.1])
    f = lambda: float(np.sum(a * x ** 4 + c * x ** 3 + x))  # noqa: E731
    want = 4 * a * x ** 3 + 3 * c * x ** 2 + 1
    for eps in (0.1, 0.25):
        np.testing.assert_allclose(numeric_grad(f, x, eps=eps, order=4), want, rtol=1e-9, atol=1e-9)
    assert np.array_equal(x, [0.3, -1.2, 2.0, 0.7])                   # every element put back


def test_second_order_difference_is_exact_for_a_quadratic_and_not_for_a_cubic():
    x = np.array([0.5, -2.0, 1.5])
    f = lambda: float(np.sum(3 * x ** 2 - x))  # noqa: E731
    np.testing.assert_allclose(numeric_grad(f, x, eps=0.5, order=2), 6 * x - 1, rtol=1e-12)
    g = lambda: float(np.sum(x ** 3))  # noqa: E731
    # central difference of x^3: 3x^2 + eps^2, by hand
    np.testing.assert_allclose(numeric_grad(g, x, eps=0.5, order=2, idx=[1]), [3 * 4.0 + 0.25], rtol=1e-12)


def _by_definition(a, n):
    a, n = np.asarray(a, float), np.asarray(n, float)
    mag = np.abs(a) + np.abs(n)
    floor = max(1e-12, 0.01 * mag.max())
    return float(np.max(np.abs(a - n) / np.maximum(mag, floor)))


def test_tiny_elements_are_judged_against_one_percent_of_the_largest():
    a = np.array([1.0, 1e-3, -0.5])
    n = np.array([1.0, 1e-3 + 1e-9, -0.5])
    got = rel_error(a, n)
    assert got == pytest.approx(_by_definition(a, n), rel=1e-12)
    assert got == pytest.approx(1e-9 / 0.02, rel=1e-9)                # not 1e-9 / 2e-3
    assert got < TOLERANCE


def test_a_planted_wrong_gradient_fails_the_check():
    x = np.array([0.4, -0.9, 1.3, 0.2])
    f = lambda: float(np.sum(np.sin(x) * x))  # noqa: E731
    right = np.sin(x) + x * np.cos(x)
    num = numeric_grad(f, x)
    assert rel_error(right, num) < TOLERANCE
    wrong = right.copy()
    wrong[2] *= 1.01                                                  # a 1% slip in one element
    err = rel_error(wrong, num)
    assert err == pytest.approx(_by_definition(wrong, num), rel=1e-9)
    assert err > 1e3 * TOLERANCE
