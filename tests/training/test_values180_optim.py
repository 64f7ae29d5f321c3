"""Optimizers over one flat float64 buffer (lnrnn/training/optim.py) against Adam, SGD with momentum and
RMSProp written here in NumPy from their definitions, over several steps with the gradient clipped to a global
norm computed here and the learning rate decayed per epoch; and step's refusals: a 2-D array is no flat buffer,
and keys that differ are named from both sides."""
import math

import numpy as np
import pytest

from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.training.optim import SGD, Adam, RMSProp, clip_grad_norm, decayed_lr

LR, DECAY, CLIP = 0.05, 0.5, 1.0


def _grads(n=4, size=7):
    rng = np.random.default_rng(180)
    return [rng.normal(0.0, 2.0, size) for _ in range(n)]


def _reference(kind, p0, grads):
    """The rule's textbook form; step k (from 1) in epoch k // 2 (two updates an epoch)."""
    p = p0.copy()
    a, b = np.zeros_like(p), np.zeros_like(p)
    for k, g in enumerate(grads, start=1):
        norm = math.sqrt(sum(float(x) * float(x) for x in g))
        if norm > CLIP:
            g = g * (CLIP / (norm + CLIP_EPS))
        lr = LR * DECAY ** ((k - 1) // 2)
        if kind == "adam":
            a = 0.9 * a + 0.1 * g
            b = 0.999 * b + 0.001 * g * g
            p = p - lr * (a / (1 - 0.9 ** k)) / (np.sqrt(b / (1 - 0.999 ** k)) + 1e-8)
        elif kind == "sgd":
            a = 0.9 * a + g
            p = p - lr * a
        else:
            a = 0.99 * a + 0.01 * g * g
            p = p - lr * g / (np.sqrt(a) + 1e-8)
    return p


@pytest.mark.parametrize("kind,make", [("adam", Adam), ("sgd", SGD), ("rmsprop", RMSProp)])
def test_several_clipped_steps_with_a_decayed_rate(kind, make):
    grads = _grads()
    p0 = np.linspace(-1.0, 1.0, 7)
    params = p0.copy()
    opt = make(lr=LR)
    for k, g in enumerate(grads, start=1):
        buf = g.copy()
        norm = clip_grad_norm(buf, CLIP)
        assert norm == pytest.approx(np.linalg.norm(g), rel=1e-14)
        opt.lr = decayed_lr(LR, DECAY, (k - 1) // 2)
        opt.step(params, buf)
    assert opt.step_count == len(grads)
    np.testing.assert_allclose(params, _reference(kind, p0, grads), rtol=1e-12, atol=1e-14)


def test_a_2d_array_is_no_flat_buffer():
    p, g = np.zeros((2, 3)), np.ones((2, 3))
    with pytest.raises(ValueError) as e:
        Adam(lr=0.1).step(p, g)
    assert str(e.value) == "a flat parameter array needs a flat gradient array of the same shape"
    assert not p.any()  # nothing was updated


@pytest.mark.parametrize("pkeys,gkeys,named", [
    (("a", "b"), ("a", "c"), ["b", "c"]),   # one missing each side
    (("a",), ("a", "z"), ["z"]),           # a gradient without a parameter
    (("a", "y"), ("a",), ["y"]),           # a parameter without a gradient
])
def test_keys_that_differ_are_named_from_both_sides(pkeys, gkeys, named):
    params = {k: np.zeros(2) for k in pkeys}
    grads = {k: np.ones(2) for k in gkeys}
    with pytest.raises(ValueError) as e:
        SGD(lr=0.1).step(params, grads)
    assert str(e.value) == f"params and grads keys differ: {named}"
