"""lnrnn/gradcheck.py against hand computations: numeric_grad on polynomials whose truncation error is known
exactly (order 2 on x^3: 3x^2 + eps^2; order 4 on x^5: 5x^4 - 4 eps^4), an idx subset answered in the order
given, orders other than 2 and 4 refused; rel_error's zero floor and scale floor worked out by hand and a
disagreement of 1e-9 at 1 seen in float64; sample_idx of a small array; check_stack and check_model reporting
a gradient planted 1.001 times too large as 0.001 / 2.001 on its own line and nothing on the others."""
import numpy as np
import pytest

from lnrnn.gradcheck import check_model, check_stack, numeric_grad, rel_error, sample_idx
from lnrnn.model import models
from lnrnn.model.layers import RecurrentStack

X = np.array([[0.5, -1.25, 2.0], [1.5, -0.75, 0.25]])    # (2,3)
PLANTED = 0.001 / 2.001                                    # |1.001 g - g| / (|1.001 g| + |g|)


def test_order_2_on_a_cubic_and_order_4_on_a_quintic_have_their_known_truncation_error():
    eps = 0.1                                       # large, so the truncation error is far above rounding
    x = X.copy()
    got2 = numeric_grad(lambda: np.sum(x ** 3), x, eps=eps, order=2)
    np.testing.assert_allclose(got2, 3 * X ** 2 + eps ** 2, rtol=1e-12, atol=1e-12)
    got4 = numeric_grad(lambda: np.sum(x ** 5), x, eps=eps, order=4)
    np.testing.assert_allclose(got4, 5 * X ** 4 - 4 * eps ** 4, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(x, X)


def test_an_idx_subset_is_answered_in_the_order_given():
    w = np.arange(1.0, 7.0).reshape(2, 3)
    x = X.copy()
    idx = [5, 1, 3, 0]
    got = numeric_grad(lambda: np.sum(w * x ** 2), x, eps=1e-3, order=2, idx=idx)
    want = [2 * w.reshape(-1)[k] * X.reshape(-1)[k] for k in idx]
    np.testing.assert_allclose(got, want, rtol=1e-10)
    np.testing.assert_array_equal(x, X)


@pytest.mark.parametrize("order", [1, 3])
def test_orders_other_than_2_and_4_are_refused(order):
    x = X.copy()
    with pytest.raises(ValueError, match="order must be 2 or 4"):
        numeric_grad(lambda: np.sum(x), x, order=order)


def test_rel_error_floors_by_hand():
    # both ~0: |1e-13 - 0| / max(1e-13, TINY = 1e-12) = 0.1
    assert rel_error([1e-13], [0.0]) == pytest.approx(0.1, rel=1e-12)
    # 1e-9 apart at 1: 1e-9 / (2 + 1e-9), seen only in float64
    assert rel_error([1.0], [1.0 + 1e-9]) == pytest.approx(1e-9 / 2, rel=1e-6)
    # a tiny element against the array's scale: floor 0.01 * (1 + 1) = 0.02, |1e-6 - 2e-6| / 0.02
    assert rel_error([1.0, 1e-6], [1.0, 2e-6]) == pytest.approx(5e-5, rel=1e-9)


def test_sample_idx_of_a_small_array_is_every_index():
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(sample_idx(np.zeros((2, 2)), 10, rng), np.arange(4))
    np.testing.assert_array_equal(sample_idx(np.zeros(4), 4, rng), np.arange(4))
    got = sample_idx(np.zeros(50), 7, rng)
    assert len(set(got)) == 7 and list(got) == sorted(got) and got.max() < 50


def test_check_stack_reports_a_planted_gradient_and_a_planted_dx(monkeypatch):
    backward = RecurrentStack.backward

    def planted(self, dy, *a, **k):
        dx = backward(self, dy, *a, **k)
        self.grads["l1.Wh"] *= 1.001
        return dx * 1.001

    monkeypatch.setattr(RecurrentStack, "backward", planted)
    res = dict(check_stack("rnn", "ln", T=3, B=2, I=2, H=3, num_layers=2))
    assert set(res) == {"l0.Wx", "l0.Wh", "l0.b", "l0.g", "l1.Wx", "l1.Wh", "l1.b", "l1.g", "x", "l0.h0", "l1.h0"}
    assert res["l1.Wh"] == pytest.approx(PLANTED, rel=1e-4)
    assert res["x"] == pytest.approx(PLANTED, rel=1e-4)
    assert all(e < 1e-7 for n, e in res.items() if n not in ("l1.Wh", "x"))


def test_check_model_reports_a_planted_gradient_on_its_own_line(monkeypatch):
    real = models.build_model                      # check_model imports it from there when called

    def planted_build(*a, **k):
        m = real(*a, **k)
        inner = m.loss_and_grad
        names = {n: (shape, off) for n, shape, off in m.flat[0].layout}
        shape, off = names["rnn.l0.Wh"]

        def loss_and_grad(*a2, **k2):
            out = inner(*a2, **k2)
            m.flat[1].data[off:off + int(np.prod(shape))] *= 1.001
            return out

        m.loss_and_grad = loss_and_grad
        return m

    monkeypatch.setattr(models, "build_model", planted_build)
    res = dict(check_model("rnn", "none", T=3, B=2, I=2, H=3, num_layers=2))
    assert res["rnn.l0.Wh"] == pytest.approx(PLANTED, rel=1e-4)
    assert all(e < 1e-7 for n, e in res.items() if n != "rnn.l0.Wh")
    assert {"rnn.l0.Wx", "rnn.l1.Wh", "head.W", "head.b"} <= set(res)
