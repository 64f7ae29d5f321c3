"""lnrnn/training/optim.py and lnrnn/kernels/optim.py, seventeenth pass: Adam, Graves's RMSProp with momentum
(centred and not) and SGD (plain and with momentum) over three updates of one flat buffer against their formulas
written out here (Adam's textbook bias-corrected moments, Graves's eqs. 38-41, PyTorch's SGD form), with the
gradient clipped under, at and past its bound by the global norm worked out by hand; float32 Adam against the
same operations done one by one in float32; a state saved after two updates and loaded into a fresh optimizer
equal to the uninterrupted run; the slots each kind keeps and the learning rate's refusal word for word."""
import math

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.flat import FlatArrays
from lnrnn.training import optim

LAYOUT = [("w", (2, 3), 0), ("b", (3,), 6)]
P0 = np.array([0.3, -0.7, 1.1, 0.05, -0.25, 2.0, -1.3, 0.45, 0.9])
GRADS = [np.array([0.5, -1.5, 2.0, 0.01, -0.3, 0.0, 4.0, -0.2, 0.7]),
         np.array([-0.6, 1.0, 2.5, 0.02, 0.6, 0.1, -4.0, 0.3, -0.1]),
         np.array([0.2, 0.2, -3.0, 0.5, -0.9, 0.4, 1.5, -0.8, 0.05])]
# the norms of the three gradients, summed by hand: sqrt(23.1201), sqrt(24.0804), sqrt(13.1925); the bound 4.0
# clips the first two (by max_norm / (norm + 1e-6)) and leaves the third, under it, as it is
MAX_NORM = 4.0


def _clipped(g):
    norm = math.sqrt(sum(x * x for x in g))
    return g * (MAX_NORM / (norm + 1e-6)) if norm > MAX_NORM else g.copy(), norm


def test_the_norms_straddle_the_bound():
    norms = [math.sqrt(sum(x * x for x in g)) for g in GRADS]
    assert norms[0] == pytest.approx(math.sqrt(0.25 + 2.25 + 4 + 1e-4 + 0.09 + 16 + 0.04 + 0.49), rel=1e-15)
    assert norms == pytest.approx([math.sqrt(23.1201), math.sqrt(24.0804), math.sqrt(13.1925)], rel=1e-14)
    assert norms[0] > MAX_NORM and norms[1] > MAX_NORM and norms[2] < MAX_NORM
    # at the bound exactly: untouched; under it: untouched
    for scale in (1.0, 0.5):
        g = GRADS[1] * (scale * MAX_NORM / norms[1])
        want = g.copy()
        norm = optim.clip_grad_norm(g, MAX_NORM)
        assert norm == pytest.approx(scale * MAX_NORM, rel=1e-14)
        np.testing.assert_array_equal(g, want)
    g = GRADS[1].copy()
    assert optim.clip_grad_norm(g, MAX_NORM) == pytest.approx(norms[1], rel=1e-14)
    np.testing.assert_allclose(g, GRADS[1] * MAX_NORM / (norms[1] + 1e-6), rtol=1e-14)


def _run(opt, p, steps, clip=True):
    for g in steps:
        g = g.copy()
        if clip:
            optim.clip_grad_norm(g, MAX_NORM)
        opt.step(p, g)


def test_adam_three_clipped_updates_against_the_bias_corrected_moments():
    lr, b1, b2, eps = 0.02, 0.8, 0.95, 1e-3   # eps large enough to matter, betas far from the defaults
    want = P0.copy()
    m, v = np.zeros(9), np.zeros(9)
    for k, g in enumerate(GRADS, start=1):
        g, _ = _clipped(g)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mhat, vhat = m / (1 - b1 ** k), v / (1 - b2 ** k)
        want = want - lr * mhat / (np.sqrt(vhat) + eps)
    p = P0.copy()
    opt = optim.Adam(lr=lr, beta1=b1, beta2=b2, eps=eps)
    _run(opt, p, GRADS)
    assert opt.step_count == 3
    np.testing.assert_allclose(p, want, rtol=1e-12, atol=1e-15)
    # the moments kept are the raw (uncorrected) ones, each its own array
    np.testing.assert_allclose(opt.slots["m"][""], m, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(opt.slots["v"][""], v, rtol=1e-12, atol=1e-15)


def test_adam_in_float32_is_float32_arithmetic_step_by_step():
    f = np.float32
    lr, b1, b2, eps = 0.003, 0.9, 0.999, 1e-8
    p32 = P0.astype(f)
    want = p32.copy()
    m, v = np.zeros(9, f), np.zeros(9, f)
    for k, g in enumerate(GRADS, start=1):
        g = g.astype(f)
        m = m * f(b1)
        m = m + f(1 - b1) * g
        v = v * f(b2)
        v = v + f(1 - b2) * g * g
        step = lr * math.sqrt(1 - b2 ** k) / (1 - b1 ** k)      # Adam's section 2 form of the corrections
        eps_hat = eps * math.sqrt(1 - b2 ** k)
        want = want - f(step) * m / (np.sqrt(v) + f(eps_hat))
        assert want.dtype == f
    opt = optim.Adam(lr=lr)
    _run(opt, p32, [g.astype(f) for g in GRADS], clip=False)
    assert p32.dtype == f and opt.slots["m"][""].dtype == f
    np.testing.assert_array_equal(p32, want)
    np.testing.assert_array_equal(opt.slots["v"][""], v)


@pytest.mark.parametrize("centred", [True, False])
def test_graves_rmsprop_three_clipped_updates_against_eqs_38_to_41(centred):
    lr, alpha, mu, eps = 0.05, 0.7, 0.6, 1e-2
    want = P0.copy()
    sq, avg, vel = np.zeros(9), np.zeros(9), np.zeros(9)
    for g in GRADS:
        g, _ = _clipped(g)
        sq = alpha * sq + (1 - alpha) * g * g
        if centred:
            avg = alpha * avg + (1 - alpha) * g
        vel = mu * vel - lr * g / np.sqrt(sq - avg * avg + eps)
        want = want + vel
    p = P0.copy()
    opt = optim.RMSPropMomentum(lr=lr, alpha=alpha, momentum=mu, eps=eps, centred=centred)
    _run(opt, p, GRADS)
    np.testing.assert_allclose(p, want, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(opt.slots["sq"][""], sq, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(opt.slots["v"][""], vel, rtol=1e-12, atol=1e-15)
    assert ("" in opt.slots["avg"]) == centred


@pytest.mark.parametrize("mu", [0.0, 0.5])
def test_sgd_three_clipped_updates_plain_and_with_momentum(mu):
    lr = 0.1
    want = P0.copy()
    vel = np.zeros(9)
    for g in GRADS:
        g, _ = _clipped(g)
        vel = mu * vel + g
        want = want - lr * vel
    p = P0.copy()
    opt = optim.SGD(lr=lr, momentum=mu)
    _run(opt, p, GRADS)
    np.testing.assert_allclose(p, want, rtol=1e-12, atol=1e-15)
    assert ("" in opt.slots["momentum"]) == bool(mu)   # plain SGD keeps no velocity


@pytest.mark.parametrize("make", [lambda: optim.Adam(lr=0.02, beta1=0.8, beta2=0.95, eps=1e-3),
                                  lambda: optim.GravesRMSProp(lr=0.05),
                                  lambda: optim.MomentumRMSProp(lr=0.05),
                                  lambda: optim.SGD(lr=0.1, momentum=0.5)])
def test_saved_after_two_updates_and_resumed_equals_three_in_a_row(make):
    whole = P0.copy()
    _run(make(), whole, GRADS)
    p = P0.copy()
    flat = FlatArrays(p, LAYOUT)
    first = make()
    _run(first, p, GRADS[:2])
    state = first.state_dict(layout=flat)
    assert state["step"] == 2
    assert all(sorted(d) == ["b", "w"] for d in state["slots"].values() if d)
    second = make()
    second.load_state_dict(state, layout=flat)
    _run(second, p, GRADS[2:])
    assert second.step_count == 3
    np.testing.assert_array_equal(p, whole)


def test_slots_each_kind_keeps():
    assert optim.Adam().slots_kept() == 2            # m and v
    assert optim.RMSProp().slots_kept() == 1         # sq
    assert optim.GravesRMSProp().slots_kept() == 3   # sq, avg, v
    assert optim.MomentumRMSProp().slots_kept() == 2  # not centred: sq and v
    assert optim.SGD(momentum=0.0).slots_kept() == 0 and optim.SGD().slots_kept() == 1


@pytest.mark.parametrize("lr, shown", [(0, "0"), (-0.5, "-0.5"), (float("nan"), "nan"), (float("inf"), "inf")])
def test_a_learning_rate_that_is_not_positive_is_refused_naming_it(lr, shown):
    with pytest.raises(UserError) as e:
        optim.Adam(lr=lr)
    assert str(e.value) == f"the learning rate must be a positive number, not {shown}."
