"""lnrnn/gradcheck.py's numeric_grad by its documented defaults: fourth-order central differences at eps 1e-4,
judged on sin(30 x), whose high derivatives make a larger step or a second-order quotient miss by far more than
the check allows (truncation eps^4 f^(5) / 30: 8e-11 at 1e-4, 8e-7 at 1e-3; second order eps^2 f''' / 6: 5e-5)."""
import numpy as np

from lnrnn.gradcheck import numeric_grad


def problem():
    x = np.linspace(-0.7, 0.9, 6)
    return x, (lambda: float(np.sum(np.sin(30 * x)))), 30 * np.cos(30 * x)


def test_the_default_quotient_is_fourth_order_at_eps_1e_4():
    x, f, exact = problem()
    num = numeric_grad(f, x)
    np.testing.assert_allclose(num, exact, rtol=0, atol=1e-9)
    assert np.array_equal(num, numeric_grad(f, x, eps=1e-4, order=4)), "the defaults are order 4, eps 1e-4"


def test_a_larger_step_or_second_order_would_miss():
    """The problem tells the defaults apart: the alternatives are off by far more than the tolerance above."""
    x, f, exact = problem()
    assert np.abs(numeric_grad(f, x, eps=1e-3) - exact).max() > 1e-8
    assert np.abs(numeric_grad(f, x, order=2, eps=1e-4) - exact).max() > 1e-6
