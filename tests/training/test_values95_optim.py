"""The optimizers over several steps against their rules written here in NumPy from the docstrings (Adam's
bias-corrected moments as in Kingma & Ba's Algorithm 1, Graves's RMSProp with eps under the root, SGD with
PyTorch's momentum), make_optimizer's rate and defaults, the saved kinds, and clipping by the global norm
(below, at and above the limit, a NaN) on dicts and on the flat kernel."""
import math

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels import optim as kernel
from lnrnn.training import optim

P = 7
STEPS = 4


def _grads(seed=95):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=P) * (k + 1) for k in range(STEPS)]  # growing gradients: the moments matter


def _p0():
    return np.linspace(-1.0, 1.0, P)


def adam_spec(p, gs, lr, b1=0.9, b2=0.999, eps=1e-8):
    p, m, v, out = p.copy(), np.zeros_like(p), np.zeros_like(p), []
    for t, g in enumerate(gs, start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mhat, vhat = m / (1 - b1 ** t), v / (1 - b2 ** t)
        p = p - lr * mhat / (np.sqrt(vhat) + eps)
        out.append(p.copy())
    return out


def graves_spec(p, gs, lr, alpha, mu, eps, centred):
    p, sq, avg, v, out = p.copy(), np.zeros_like(p), np.zeros_like(p), np.zeros_like(p), []
    for g in gs:
        sq = alpha * sq + (1 - alpha) * g * g
        if centred:
            avg = alpha * avg + (1 - alpha) * g
        v = mu * v - lr * g / np.sqrt(sq - avg * avg + eps)
        p = p + v
        out.append(p.copy())
    return out


def sgd_spec(p, gs, lr, mu):
    p, v, out = p.copy(), np.zeros_like(p), []
    for g in gs:
        v = mu * v + g
        p = p - lr * v
        out.append(p.copy())
    return out


def _run(opt, gs, flat=True):
    p, out = _p0(), []
    for g in gs:
        if flat:
            opt.step(p, g.copy())
            out.append(p.copy())
        else:
            d = {"a": p[:3].copy(), "b": p[3:].copy()}
            opt.step(d, {"a": g[:3].copy(), "b": g[3:].copy()})
            p = np.concatenate([d["a"], d["b"]])
            out.append(p.copy())
    return out


def _close(got, want, rtol=1e-10):
    for k, (a, b) in enumerate(zip(got, want)):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-13, err_msg=f"step {k + 1}")


@pytest.mark.parametrize("flat", [True, False])
def test_make_optimizer_adam_four_steps_follow_the_bias_corrected_moments(flat):
    gs = _grads()
    _close(_run(optim.make_optimizer("adam", 0.003), gs, flat), adam_spec(_p0(), gs, 0.003))


def test_adam_first_step_moves_by_lr_and_later_steps_need_both_betas():
    gs = _grads(1)
    got = _run(optim.Adam(lr=0.01, beta1=0.5, beta2=0.8, eps=0.0), gs)
    # step 1: mhat = g, vhat = g^2, so each parameter moves by exactly lr against its gradient's sign
    np.testing.assert_allclose(got[0], _p0() - 0.01 * np.sign(gs[0]), rtol=1e-12)
    _close(got, adam_spec(_p0(), gs, 0.01, 0.5, 0.8, 0.0))


def test_make_optimizer_uses_the_given_rate_for_every_kind():
    for kind in optim.OPTIMIZERS:
        assert optim.make_optimizer(kind, 0.0375).lr == 0.0375
    with pytest.raises(UserError, match="unknown optimizer"):
        optim.make_optimizer("adagrad", 0.1)


def test_sgd_default_has_the_documented_momentum_0_9():
    gs = _grads(2)
    _close(_run(optim.make_optimizer("sgd", 0.05), gs), sgd_spec(_p0(), gs, 0.05, 0.9))
    _close(_run(optim.SGD(lr=0.05, momentum=0.0), gs), sgd_spec(_p0(), gs, 0.05, 0.0))


@pytest.mark.parametrize("kind,alpha,mu,eps,centred", [("rmsprop-graves", 0.95, 0.9, 1e-4, True),
                                                        ("rmsprop-momentum", 0.9, 0.9, 1e-8, False)])
def test_rmsprop_momentum_forms_have_eps_under_the_root(kind, alpha, mu, eps, centred):
    gs = [g * 1e-2 for g in _grads(3)]  # small gradients: eps 1e-4 is a large part of sq
    _close(_run(optim.make_optimizer(kind, 0.02), gs), graves_spec(_p0(), gs, 0.02, alpha, mu, eps, centred))


def test_graves_kernel_with_a_zero_gradient_stays_finite():
    p, sq, avg, v = np.ones(3), np.zeros(3), np.zeros(3), np.zeros(3)
    kernel.rmsprop_momentum_update(p, sq, avg, v, np.zeros(3), 0.1, 0.95, 0.9, 1e-4)
    assert np.all(np.isfinite(p)) and np.array_equal(p, np.ones(3))


def test_each_kind_saves_its_own_name_and_refuses_another_kinds_state():
    for kind, cls in optim.OPTIMIZERS.items():
        assert cls.kind == kind
    plain = optim.RMSProp(lr=0.01)
    plain.step(_p0(), _grads()[0])
    with pytest.raises(UserError, match="rmsprop"):
        optim.MomentumRMSProp(lr=0.01).load_state_dict(plain.state_dict())


@pytest.mark.parametrize("factor", [0.5, 1.0, 3.0])
def test_clip_by_global_norm_of_a_dict(factor):
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(2, 3)), rng.normal(size=5)
    norm = math.sqrt(float((a * a).sum() + (b * b).sum()))
    limit = norm / factor
    grads = {"a": a.copy(), "b": b.copy()}
    assert optim.clip_grad_norm(grads, limit) == pytest.approx(norm, rel=1e-12)
    s = limit / (norm + kernel.CLIP_EPS) if norm > limit else 1.0
    np.testing.assert_allclose(grads["a"], a * s, rtol=1e-12)
    np.testing.assert_allclose(grads["b"], b * s, rtol=1e-12)
    assert optim.global_norm({"a": a, "b": b}) == pytest.approx(norm, rel=1e-12)


@pytest.mark.parametrize("factor", [0.25, 1.0, 4.0])
def test_flat_kernel_clip_below_at_and_above_the_limit(factor):
    g0 = np.array([3.0, -4.0, 0.0, 12.0], dtype=np.float32)  # ||g|| = 13
    limit = 13.0 / factor
    g, norm = g0.copy(), np.zeros(1)
    kernel.clip_grad_norm(g, limit, norm)
    assert norm[0] == pytest.approx(13.0, rel=1e-12)
    want = g0 * np.float32(limit / (13.0 + kernel.CLIP_EPS)) if 13.0 > limit else g0
    np.testing.assert_allclose(g, want, rtol=1e-6)
    if factor <= 1.0:
        assert np.array_equal(g, g0)
    else:
        assert np.linalg.norm(g.astype(np.float64)) == pytest.approx(limit, rel=1e-6)


def test_flat_kernel_clip_leaves_a_nan_gradient_and_reports_nan():
    g0 = np.array([1.0, np.nan, 2.0])
    g, norm = g0.copy(), np.zeros(1)
    kernel.clip_grad_norm(g, 0.5, norm)
    assert math.isnan(norm[0])
    np.testing.assert_array_equal(g, g0)
