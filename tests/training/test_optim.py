"""Optimizers against textbook formulas, clipping, LR decay, and state save/restore."""
import math

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.training.optim import SGD, Adam, RMSProp, clip_grad_norm, decayed_lr, global_norm, make_optimizer


def problem(dtype=np.float64):
    rng = np.random.default_rng(0)
    params = {"a": rng.normal(size=(3, 4)).astype(dtype), "b": rng.normal(size=5).astype(dtype)}
    return params


def grads_of(params, k):
    """Gradient of a fixed quadratic plus a step-dependent wiggle."""
    return {n: (2 * p + np.sin(k + np.arange(p.size)).reshape(p.shape)).astype(p.dtype) for n, p in params.items()}


def reference(kind, params, steps, lr):
    p = {k: v.copy() for k, v in params.items()}
    s1 = {k: np.zeros_like(v) for k, v in p.items()}
    s2 = {k: np.zeros_like(v) for k, v in p.items()}
    s3 = {k: np.zeros_like(v) for k, v in p.items()}
    for t in range(1, steps + 1):
        g = grads_of(p, t)
        for k in p:
            if kind == "sgd":
                s1[k] = 0.9 * s1[k] + g[k]
                p[k] = p[k] - lr * s1[k]
            elif kind == "rmsprop":
                s1[k] = 0.99 * s1[k] + 0.01 * g[k] ** 2
                p[k] = p[k] - lr * g[k] / (np.sqrt(s1[k]) + 1e-8)
            elif kind == "rmsprop-graves":  # Graves 2013, eqs. 38-41
                s1[k] = 0.95 * s1[k] + 0.05 * g[k] ** 2
                s2[k] = 0.95 * s2[k] + 0.05 * g[k]
                s3[k] = 0.9 * s3[k] - lr * g[k] / np.sqrt(s1[k] - s2[k] ** 2 + 1e-4)
                p[k] = p[k] + s3[k]
            elif kind == "rmsprop-momentum":
                s1[k] = 0.9 * s1[k] + 0.1 * g[k] ** 2
                s3[k] = 0.9 * s3[k] - lr * g[k] / np.sqrt(s1[k] + 1e-8)
                p[k] = p[k] + s3[k]
            else:
                s1[k] = 0.9 * s1[k] + 0.1 * g[k]
                s2[k] = 0.999 * s2[k] + 0.001 * g[k] ** 2
                mhat, vhat = s1[k] / (1 - 0.9 ** t), s2[k] / (1 - 0.999 ** t)
                p[k] = p[k] - lr * mhat / (np.sqrt(vhat) + 1e-8)
    return p


@pytest.mark.parametrize("kind", ["sgd", "rmsprop", "adam", "rmsprop-graves", "rmsprop-momentum"])
def test_matches_textbook_and_updates_in_place(kind):
    params = problem()
    want = reference(kind, params, 6, 0.01)
    opt = make_optimizer(kind, 0.01)
    arrays_before = {k: id(v) for k, v in params.items()}
    for t in range(1, 7):
        opt.step(params, grads_of(params, t))
    for k in params:
        assert id(params[k]) == arrays_before[k]
        np.testing.assert_allclose(params[k], want[k], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("cls", [SGD, RMSProp, Adam])
def test_minimizes_quadratic_in_float32(cls):
    params = problem(np.float32)
    start = global_norm(params)
    opt = cls(lr=0.05)
    for _ in range(400):
        opt.step(params, {k: 2 * v for k, v in params.items()})
    assert all(p.dtype == np.float32 for p in params.values())
    assert global_norm(params) < 0.05 * start  # RMSProp hovers at about lr


@pytest.mark.parametrize("kind", ["sgd", "rmsprop", "adam", "rmsprop-graves", "rmsprop-momentum"])
def test_state_dict_roundtrip_continues_exactly(kind):
    params = problem()
    opt = make_optimizer(kind, 0.02)
    for t in range(1, 4):
        opt.step(params, grads_of(params, t))
    state = opt.state_dict()
    saved = {k: v.copy() for k, v in params.items()}
    for t in range(4, 6):
        opt.step(params, grads_of(params, t))
    fresh = make_optimizer(kind, 0.5)  # lr is restored from the state
    fresh.load_state_dict(state)
    for t in range(4, 6):
        fresh.step(saved, grads_of(saved, t))
    for k in params:
        assert (saved[k] == params[k]).all()
    assert isinstance(state["step"], int) and all(isinstance(v, float) for v in state["hyper"].values())
    with pytest.raises(UserError, match="optimizer state"):
        make_optimizer("sgd" if kind != "sgd" else "adam", 0.1).load_state_dict(state)


def test_clip_grad_norm():
    g = {"a": np.array([3.0, 0.0]), "b": np.array([[4.0]])}
    assert clip_grad_norm(g, 10.0) == 5.0 and g["a"][0] == 3.0          # below the limit: untouched
    assert clip_grad_norm(g, 1.0) == 5.0
    assert math.isclose(global_norm(g), 1.0, rel_tol=1e-5)
    assert clip_grad_norm(g, 0) == pytest.approx(1.0, rel=1e-5)         # 0: no clipping
    bad = {"a": np.array([np.nan, 1.0])}
    assert math.isnan(clip_grad_norm(bad, 1.0)) and bad["a"][1] == 1.0


def test_lr_validation_decay_and_key_check():
    for lr in (-1.0, 0.0, float("nan"), float("inf")):
        with pytest.raises(UserError, match="learning rate"):
            Adam(lr=lr)
    with pytest.raises(UserError, match="unknown optimizer"):
        make_optimizer("lbfgs", 0.1)
    assert decayed_lr(0.1, 0.5, 0) == 0.1 and decayed_lr(0.1, 0.5, 3) == 0.0125
    with pytest.raises(ValueError, match="keys differ"):
        SGD().step({"a": np.zeros(2)}, {"b": np.zeros(2)})
