"""lnrnn/training/optim.py and lnrnn/kernels/optim.py over several successive steps, against each rule written
here in NumPy from its definition in the docstrings (float64, one update after another, every step compared):

- Adam in the paper's form, m_hat = m / (1 - beta1^k), v_hat = v / (1 - beta2^k), p -= lr m_hat / (sqrt(v_hat)
  + eps), at steps 1, 2 and 3, with betas far apart and an eps large enough to matter; the paper's defaults;
- RMSProp, sq = alpha sq + (1 - alpha) g^2, p -= lr g / (sqrt(sq) + eps);
- Graves's form (centred, eps under the root, momentum) with its defaults, and 'rmsprop-momentum' as
  make_optimizer builds it (alpha 0.9, momentum 0.9, eps 1e-8, not centred);
- SGD with momentum (PyTorch's form), each parameter of a dict on its own trajectory even when two share a shape;
- clipping by the global norm just below, at and above the limit: the norm returned is the one before clipping,
  a clipped gradient's norm is the limit (to within the 1e-6 guard), an unclipped one is untouched;
- a saved state does not move with later steps; the step decayed per epoch."""
import math

import numpy as np
import pytest

from lnrnn.kernels import optim as rules
from lnrnn.training import optim

P = 5


def grads(n=4, seed=0):
    """n successive gradients (P,), of mixed signs and sizes, one entry 0 throughout (a silent parameter)."""
    g = np.random.default_rng(seed).standard_normal((n, P)) * np.array([1.0, 0.1, 3.0, 0.01, 0.0])
    return list(g)


def start():
    return np.linspace(-1.0, 1.0, P)


def adam_by_hand(p, gs, lr, b1, b2, eps):
    m = v = np.zeros(P)
    out = []
    for k, g in enumerate(gs, start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        p = p - lr * (m / (1 - b1 ** k)) / (np.sqrt(v / (1 - b2 ** k)) + eps)
        out.append(p)
    return out


def rmsprop_by_hand(p, gs, lr, alpha, eps):
    sq = np.zeros(P)
    out = []
    for g in gs:
        sq = alpha * sq + (1 - alpha) * g * g
        p = p - lr * g / (np.sqrt(sq) + eps)
        out.append(p)
    return out


def rmsprop_momentum_by_hand(p, gs, lr, alpha, momentum, eps, centred):
    sq, avg, v = np.zeros(P), np.zeros(P), np.zeros(P)
    out = []
    for g in gs:
        sq = alpha * sq + (1 - alpha) * g * g
        if centred:
            avg = alpha * avg + (1 - alpha) * g
        v = momentum * v - lr * g / np.sqrt(sq - avg ** 2 + eps)
        p = p + v
        out.append(p)
    return out


def sgd_by_hand(p, gs, lr, mu):
    buf = np.zeros(P)
    out = []
    for g in gs:
        buf = mu * buf + g
        p = p - lr * buf
        out.append(p)
    return out


def run(opt, gs, p=None):
    p = start() if p is None else p
    out = []
    for g in gs:
        opt.step(p, g.copy())
        out.append(p.copy())
    return out


def assert_steps(got, want, rtol=1e-12):
    for k, (a, b) in enumerate(zip(got, want), start=1):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-15, err_msg=f"after step {k}")


@pytest.mark.parametrize("b1, b2, eps", [(0.8, 0.95, 0.05), (0.9, 0.999, 1e-8), (0.5, 0.6, 1.0)])
def test_adam_three_steps_are_the_papers_rule(b1, b2, eps):
    gs = grads()
    assert_steps(run(optim.Adam(lr=0.1, beta1=b1, beta2=b2, eps=eps), gs), adam_by_hand(start(), gs, 0.1, b1, b2, eps))


def test_adam_defaults_are_the_papers_and_make_optimizer_uses_them():
    opt = optim.make_optimizer("adam", 0.01)
    assert isinstance(opt, optim.Adam)
    assert opt.hyper == {"beta1": 0.9, "beta2": 0.999, "eps": 1e-8}    # Kingma & Ba's suggested values
    gs = grads(seed=1)
    assert_steps(run(opt, gs), adam_by_hand(start(), gs, 0.01, 0.9, 0.999, 1e-8))
    assert opt.state_dict()["step"] == len(gs)


def test_adam_first_step_moves_each_parameter_by_lr_against_its_sign():
    """At step 1 the corrected m / sqrt(v) is g / |g|: each parameter with a gradient moves by lr (less eps's share)."""
    g = np.array([2.0, -0.5, 1e-3, -7.0, 0.0])
    p = start()
    optim.Adam(lr=0.1, beta1=0.7, beta2=0.9, eps=1e-12).step(p, g.copy())
    np.testing.assert_allclose(p - start(), -0.1 * np.sign(g), rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("alpha, eps", [(0.8, 0.05), (0.5, 0.3)])
def test_rmsprop_three_steps(alpha, eps):
    gs = grads(seed=2)
    want = rmsprop_by_hand(start(), gs, 0.05, alpha, eps)
    assert_steps(run(optim.RMSProp(lr=0.05, alpha=alpha, eps=eps), gs), want)


def test_rmsprop_flat_kernel_three_steps():
    gs = grads(seed=3)
    p, sq, out = start(), np.zeros(P), []
    for g in gs:
        rules.rmsprop_update(p, sq, g, 0.05, 0.7, 0.2)
        out.append(p.copy())
    assert_steps(out, rmsprop_by_hand(start(), gs, 0.05, 0.7, 0.2))


def test_graves_rmsprop_defaults_over_four_steps():
    opt = optim.make_optimizer("rmsprop-graves", 1e-2)
    assert opt.hyper == {"alpha": 0.95, "momentum": 0.9, "eps": 1e-4, "centred": 1.0}
    gs = grads(seed=4)
    assert_steps(run(opt, gs), rmsprop_momentum_by_hand(start(), gs, 1e-2, 0.95, 0.9, 1e-4, True))


@pytest.mark.parametrize("alpha, momentum, eps, centred", [(0.8, 0.5, 0.01, True), (0.6, 0.3, 0.1, False)])
def test_rmsprop_momentum_forms_over_four_steps(alpha, momentum, eps, centred):
    gs = grads(seed=5)
    opt = optim.RMSPropMomentum(lr=0.02, alpha=alpha, momentum=momentum, eps=eps, centred=centred)
    assert_steps(run(opt, gs), rmsprop_momentum_by_hand(start(), gs, 0.02, alpha, momentum, eps, centred))


def test_make_optimizer_rmsprop_momentum_is_the_uncentred_form():
    opt = optim.make_optimizer("rmsprop-momentum", 1e-3)
    assert opt.kind == "rmsprop-momentum"
    assert opt.hyper == {"alpha": 0.9, "momentum": 0.9, "eps": 1e-8, "centred": 0.0}
    gs = grads(seed=6)
    assert_steps(run(opt, gs), rmsprop_momentum_by_hand(start(), gs, 1e-3, 0.9, 0.9, 1e-8, False), rtol=1e-10)


@pytest.mark.parametrize("mu", [0.0, 0.9, 0.5])
def test_sgd_three_steps(mu):
    gs = grads(n=3, seed=7)
    assert_steps(run(optim.SGD(lr=0.1, momentum=mu), gs), sgd_by_hand(start(), gs, 0.1, mu))


@pytest.mark.parametrize("make, by_hand", [
    (lambda: optim.SGD(lr=0.1, momentum=0.9), lambda p, gs: sgd_by_hand(p, gs, 0.1, 0.9)),
    (lambda: optim.Adam(lr=0.1, beta1=0.8, beta2=0.95, eps=0.05),
     lambda p, gs: adam_by_hand(p, gs, 0.1, 0.8, 0.95, 0.05)),
    (lambda: optim.GravesRMSProp(lr=0.01), lambda p, gs: rmsprop_momentum_by_hand(p, gs, 0.01, 0.95, 0.9, 1e-4, True)),
])
def test_each_parameter_of_a_dict_keeps_its_own_slots(make, by_hand):
    """Two parameters of one shape (and a third of another), stepped as a dict: each follows its own rule."""
    ga, gb = grads(n=3, seed=8), grads(n=3, seed=9)
    gc = [g[:3] for g in grads(n=3, seed=10)]
    params = {"a": start(), "b": -start(), "c": np.ones(3)}
    opt, got = make(), {"a": [], "b": [], "c": []}
    for k in range(3):
        opt.step(params, {"a": ga[k].copy(), "b": gb[k].copy(), "c": gc[k].copy()})
        for name in got:
            got[name].append(params[name].copy())
    assert_steps(got["a"], by_hand(start(), ga))
    assert_steps(got["b"], by_hand(-start(), gb))
    want_c = by_hand(np.r_[np.ones(3), np.zeros(P - 3)], [np.r_[g, np.zeros(P - 3)] for g in gc])
    assert_steps(got["c"], [w[:3] for w in want_c])


@pytest.mark.parametrize("flat", [True, False])
def test_a_saved_state_does_not_follow_later_steps(flat):
    gs = grads(n=3, seed=11)
    opt = optim.Adam(lr=0.1)
    p = start() if flat else {"w": start()}
    opt.step(p, gs[0].copy() if flat else {"w": gs[0].copy()})
    saved = opt.state_dict()
    before = {s: {k: np.array(v, copy=True) for k, v in d.items()} for s, d in saved["slots"].items()}
    for g in gs[1:]:
        opt.step(p, g.copy() if flat else {"w": g.copy()})
    assert saved["step"] == 1
    for s, d in before.items():
        for k, v in d.items():
            np.testing.assert_array_equal(saved["slots"][s][k], v, err_msg=f"{s}/{k}")
    m1 = (1 - 0.9) * gs[0]                                              # the first moment after step 1
    key = optim.FLAT if flat else "w"
    np.testing.assert_allclose(saved["slots"]["m"][key], m1, rtol=1e-12)


LIMIT = 5.0


@pytest.mark.parametrize("factor", [1 - 1e-9, 1.0, 1 + 1e-9, 1 + 1e-3, 2.0, 1e3])
def test_clipping_just_below_at_and_above_the_limit(factor):
    base = np.array([3.0, 0.0, -4.0, 0.0])                             # norm 5 exactly
    g = base * factor
    norm = math.sqrt(float(np.sum(g * g)))
    want = g * (LIMIT / (norm + 1e-6)) if norm > LIMIT else g          # documented scale: limit / (norm + 1e-6)
    for clip in ("host", "kernel"):
        got = g.copy()
        if clip == "host":
            returned = optim.clip_grad_norm(got, LIMIT)
        else:
            out = np.zeros(1)
            rules.clip_grad_norm(got, LIMIT, out)
            returned = out[0]
        assert returned == pytest.approx(norm, rel=1e-14), clip       # the norm before clipping
        if norm <= LIMIT:
            np.testing.assert_array_equal(got, g)                      # untouched at or below the limit
        else:
            np.testing.assert_allclose(got, want, rtol=1e-12)
            after = math.sqrt(float(np.sum(got * got)))
            assert after <= LIMIT and after == pytest.approx(LIMIT, rel=1e-6), clip


def test_clipping_a_dict_by_the_norm_of_all_its_arrays():
    g = {"a": np.array([[1.0, 2.0], [2.0, 0.0]]), "b": np.array([4.0])}         # norm sqrt(1+4+4+16) = 5
    before = {k: v.copy() for k, v in g.items()}
    assert optim.clip_grad_norm(g, 2.5) == pytest.approx(5.0, rel=1e-15)
    for k in g:
        np.testing.assert_allclose(g[k], before[k] * 2.5 / (5.0 + 1e-6), rtol=1e-13)
    assert optim.clip_grad_norm(g, 0) == pytest.approx(2.5, rel=1e-6)          # 0: no clipping


def test_the_step_decays_at_each_epoch_boundary():
    assert [optim.decayed_lr(0.1, 0.5, e) for e in range(4)] == pytest.approx([0.1, 0.05, 0.025, 0.0125], rel=1e-15)
    assert optim.decayed_lr(0.3, 1.0, 7) == 0.3
