"""lnrnn/training/optim.py's Adam, SGD with momentum and RMSProp on one flat array, each gradient clipped by
clip_grad_norm, against the update rules written here in float64 NumPy from their definitions (Adam's bias-corrected
m and v, eps on the corrected v; v = mu v + g, p -= lr v; sq = a sq + (1 - a) g^2, p -= lr g / (sqrt(sq) + eps)), and
clipping by the global norm: scaled by max_norm / (norm + CLIP_EPS) above max_norm, left alone at exactly max_norm
and below. The state a flat optimizer saves without a layout keeps its one flat slot array and its learning rate, and
a fresh optimizer of another learning rate loaded from a copy of it makes the remaining updates of the run that
never stopped."""
import copy
import math

import numpy as np
import pytest

from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.training import optim

MAX_NORM = 5.0
LR = 0.02


def grads(k):
    """The gradient of update k: the first one of norm exactly MAX_NORM (3-4-5), the others over and under it."""
    if k == 0:
        return np.array([3.0, 0.0, -4.0, 0.0, 0.0])
    rng = np.random.default_rng(100 + k)
    return rng.standard_normal(5) * (9.0 if k % 2 else 0.5)


def clipped(g):
    norm = math.sqrt(sum(float(v) * float(v) for v in g))
    return g * (MAX_NORM / (norm + CLIP_EPS)) if norm > MAX_NORM else g.copy(), norm


class Adam:
    slots = ("m", "v")

    def __init__(self):
        self.m, self.v, self.k = np.zeros(5), np.zeros(5), 0

    def step(self, p, g, lr):
        b1, b2, eps = 0.9, 0.999, 1e-8
        self.k += 1
        self.m = b1 * self.m + (1 - b1) * g
        self.v = b2 * self.v + (1 - b2) * g * g
        m_hat, v_hat = self.m / (1 - b1 ** self.k), self.v / (1 - b2 ** self.k)
        return p - lr * m_hat / (np.sqrt(v_hat) + eps)


class SGD:
    slots = ("momentum",)

    def __init__(self):
        self.momentum = np.zeros(5)

    def step(self, p, g, lr):
        self.momentum = 0.9 * self.momentum + g
        return p - lr * self.momentum


class RMSProp:
    slots = ("sq",)

    def __init__(self):
        self.sq = np.zeros(5)

    def step(self, p, g, lr):
        self.sq = 0.99 * self.sq + 0.01 * g * g
        return p - lr * g / (np.sqrt(self.sq) + 1e-8)


CASES = [("adam", optim.Adam, Adam), ("sgd", optim.SGD, SGD), ("rmsprop", optim.RMSProp, RMSProp)]


@pytest.mark.parametrize("kind,make,ref", CASES, ids=[c[0] for c in CASES])
def test_clipped_steps_a_flat_state_saved_without_layout_and_resumed(kind, make, ref):
    p0 = np.linspace(-1.0, 1.0, 5)
    expect, r = p0.copy(), ref()
    for k in range(6):
        g, norm = clipped(grads(k))
        expect = r.step(expect, g, LR)

    p, opt = p0.copy(), make(lr=LR)
    for k in range(3):
        g = grads(k)
        norm = optim.clip_grad_norm(g, MAX_NORM)
        assert norm == pytest.approx(math.sqrt(float(np.sum(grads(k) ** 2))), rel=1e-12)
        if k == 0:
            np.testing.assert_array_equal(g, grads(0))  # exactly at max_norm: left as it is
        opt.step(p, g)

    state = opt.state_dict()  # no layout: the flat slot array as it is
    assert state["kind"] == kind and state["step"] == 3
    assert state["hyper"]["lr"] == LR
    r2 = ref()
    for k in range(3):
        r2.step(p0, clipped(grads(k))[0], LR)
    for s in ref.slots:
        assert list(state["slots"][s]) == [""]
        np.testing.assert_allclose(state["slots"][s][""], getattr(r2, s), rtol=1e-12, atol=1e-15)

    fresh = make(lr=7.0)
    fresh.load_state_dict(copy.deepcopy(state))
    assert fresh.lr == LR
    for k in range(3, 6):
        g = grads(k)
        optim.clip_grad_norm(g, MAX_NORM)
        fresh.step(p, g)
    np.testing.assert_allclose(p, expect, rtol=1e-11, atol=1e-14)
