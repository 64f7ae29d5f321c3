"""The optimizers' rules written again here in NumPy over several steps, on a flat array and on a dict of
arrays: Adam with betas of its own (Algorithm 1 of Kingma and Ba, m-hat and v-hat), Graves's centred RMSProp
(eps under the root, the running mean's square taken off) and plain RMSProp at its default eps; the state
saved after two steps and loaded into a fresh optimizer carries on as if nothing had happened."""
import numpy as np
import pytest

from lnrnn.training.optim import Adam, GravesRMSProp, RMSProp

STEPS = 4


def _grads(shape, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for _ in range(STEPS)]


def adam_by_hand(p, grads, lr, b1, b2, eps):
    m, v = np.zeros_like(p), np.zeros_like(p)
    for k, g in enumerate(grads, 1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        p = p - lr * (m / (1 - b1 ** k)) / (np.sqrt(v / (1 - b2 ** k)) + eps)
    return p


def graves_by_hand(p, grads, lr, alpha, mom, eps):
    n, a, d = np.zeros_like(p), np.zeros_like(p), np.zeros_like(p)
    for g in grads:
        n = alpha * n + (1 - alpha) * g * g
        a = alpha * a + (1 - alpha) * g
        d = mom * d - lr * g / np.sqrt(n - a * a + eps)
        p = p + d
    return p


def rmsprop_by_hand(p, grads, lr, alpha, eps):
    sq = np.zeros_like(p)
    for g in grads:
        sq = alpha * sq + (1 - alpha) * g * g
        p = p - lr * g / (np.sqrt(sq) + eps)
    return p


@pytest.mark.parametrize("b1,b2", [(0.5, 0.75), (0.9, 0.999), (0.8, 0.6)])
def test_adam_with_its_own_betas_over_several_steps(b1, b2):
    p0 = np.linspace(-1.0, 1.0, 7)
    grads = _grads(7, 1)
    opt = Adam(lr=0.05, beta1=b1, beta2=b2, eps=1e-3)
    p = p0.copy()
    for g in grads:
        opt.step(p, g.copy())
    np.testing.assert_allclose(p, adam_by_hand(p0, grads, 0.05, b1, b2, 1e-3), rtol=1e-12, atol=1e-14)


def test_adam_defaults_are_the_papers():
    p0 = np.array([0.3, -0.2, 1.0, 0.0])
    grads = [np.array([1.0, -3.0, 0.25, 2.0]), np.array([-0.5, 1.0, 4.0, 0.1]), np.array([2.0, 0.0, -1.0, 0.5])]
    opt = Adam(lr=0.01)
    p = p0.copy()
    for g in grads:
        opt.step({"w": p}, {"w": g.copy()})
    np.testing.assert_allclose(p, adam_by_hand(p0, grads, 0.01, 0.9, 0.999, 1e-8), rtol=1e-12)


@pytest.mark.parametrize("flat", [True, False])
def test_graves_rmsprop_is_centred(flat):
    p0 = np.linspace(-0.5, 0.5, 6)
    grads = [g + 0.7 for g in _grads(6, 2)]  # a mean away from 0, so centring shows
    opt = GravesRMSProp(lr=0.01)
    p = p0.copy()
    for g in grads:
        if flat:
            opt.step(p, g.copy())
        else:
            opt.step({"w": p}, {"w": g.copy()})
    np.testing.assert_allclose(p, graves_by_hand(p0, grads, 0.01, 0.95, 0.9, 1e-4), rtol=1e-11)
    assert opt.slots_kept() == 3


def test_rmsprop_default_eps_is_tiny():
    # gradients of 1e-3: with eps 1e-8 the first step is lr / sqrt(1 - alpha) in size, whatever the scale
    p0 = np.zeros(3)
    g = np.array([1e-3, -2e-3, 5e-4])
    opt = RMSProp(lr=0.1)
    p = p0.copy()
    opt.step(p, g.copy())
    np.testing.assert_allclose(p, rmsprop_by_hand(p0, [g], 0.1, 0.99, 1e-8), rtol=1e-12)
    np.testing.assert_allclose(np.abs(p), 0.1 / np.sqrt(0.01), rtol=1e-3)


@pytest.mark.parametrize("make,by_hand", [
    (lambda: Adam(lr=0.05, beta1=0.6, beta2=0.7), lambda p, gs: adam_by_hand(p, gs, 0.05, 0.6, 0.7, 1e-8)),
    (lambda: GravesRMSProp(lr=0.01), lambda p, gs: graves_by_hand(p, gs, 0.01, 0.95, 0.9, 1e-4)),
    (lambda: RMSProp(lr=0.01, alpha=0.9), lambda p, gs: rmsprop_by_hand(p, gs, 0.01, 0.9, 1e-8)),
])
def test_state_saved_after_two_steps_carries_on_in_a_fresh_optimizer(make, by_hand):
    p0 = np.linspace(-1.0, 0.5, 5)
    grads = _grads(5, 3)
    first = make()
    p = p0.copy()
    for g in grads[:2]:
        first.step({"w": p}, {"w": g.copy()})
    state = first.state_dict()
    second = make()
    second.load_state_dict(state)
    for g in grads[2:]:
        second.step({"w": p}, {"w": g.copy()})
    np.testing.assert_allclose(p, by_hand(p0, grads), rtol=1e-11)
