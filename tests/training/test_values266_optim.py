"""Optimizers (lnrnn/training/optim.py) at updates 1 and 2 against their formulas written out here in float64:
gradient clipping below, at and above its bound (a norm at the bound leaves the gradients alone, one past it
scales them to the bound); RMSProp with momentum built with its own defaults (Graves's form: alpha 0.95,
momentum 0.9, eps 1e-4 under the root, centred) keeping its second moment and its velocity apart; Adam's bias
corrections at updates 1 and 2 across a state saved with a flat layout and loaded into a fresh optimizer."""
import math

import numpy as np
import pytest

from lnrnn.model.flat import FlatArrays
from lnrnn.training import optim


@pytest.mark.parametrize("max_norm,factor", [(6.0, 1.0), (5.0, 1.0), (2.0, 2.0 / (5.0 + 1e-6))])
def test_clipping_below_at_and_above_its_bound(max_norm, factor):
    g = {"a": np.array([3.0, 0.0]), "b": np.array([[4.0]])}          # global norm sqrt(9 + 16) = 5
    norm = optim.clip_grad_norm(g, max_norm)
    assert norm == 5.0
    np.testing.assert_allclose(g["a"], [3.0 * factor, 0.0], rtol=1e-15, atol=0)
    np.testing.assert_allclose(g["b"], [[4.0 * factor]], rtol=1e-15, atol=0)


def test_rmsprop_momentum_with_its_defaults_at_updates_1_and_2():
    p = np.array([0.5, -1.0, 2.0])
    gs = [np.array([0.3, -0.7, 1.1]), np.array([-0.2, 0.4, 0.9])]
    opt = optim.RMSPropMomentum(lr=0.1)
    alpha, mu, eps, lr = 0.95, 0.9, 1e-4, 0.1
    want = p.copy()
    sq, avg, v = np.zeros(3), np.zeros(3), np.zeros(3)
    for g in gs:
        opt.step(p, g.copy())
        for i in range(3):
            sq[i] = alpha * sq[i] + (1 - alpha) * g[i] ** 2
            avg[i] = alpha * avg[i] + (1 - alpha) * g[i]
            v[i] = mu * v[i] - lr * g[i] / math.sqrt(sq[i] - avg[i] ** 2 + eps)
            want[i] += v[i]
        np.testing.assert_allclose(p, want, rtol=1e-12, atol=0)


def test_adam_at_updates_1_and_2_across_a_saved_flat_state():
    layout = [("w", (2, 2), 0), ("b", (3,), 4)]
    p = np.array([0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7])
    flat = FlatArrays(p, layout)
    gs = [np.array([0.5, -1.5, 2.0, 0.01, -0.3, 0.0, 4.0]), np.array([-0.5, 1.0, 2.5, 0.02, 0.6, 0.1, -4.0])]
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-8
    want = p.copy()
    m, v = np.zeros(7), np.zeros(7)
    for k, g in enumerate(gs, start=1):     # the textbook form: bias-corrected moments
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mhat, vhat = m / (1 - b1 ** k), v / (1 - b2 ** k)
        want = want - lr * mhat / (np.sqrt(vhat) + eps)
        if k == 1:
            want1 = want.copy()
    first = optim.Adam(lr=lr)
    first.step(p, gs[0].copy())
    np.testing.assert_allclose(p, want1, rtol=1e-12, atol=1e-15)
    state = first.state_dict(layout=flat)
    assert sorted(state["slots"]["m"]) == ["b", "w"] and state["step"] == 1
    second = optim.Adam(lr=lr)
    second.load_state_dict(state, layout=flat)
    second.step(p, gs[1].copy())
    np.testing.assert_allclose(p, want, rtol=1e-12, atol=1e-15)
