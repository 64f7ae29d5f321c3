"""lnrnn/training/optim.py and lnrnn/kernels/optim.py, eighteenth pass: Adam, Graves's RMSProp with momentum and
SGD over three updates of one float64 flat buffer whose gradients sit past, exactly at and under the clipping
bound, against the formulas written out here (Adam's textbook moments with m / (1 - beta1^k) and
v / (1 - beta2^k), Graves's eqs. 38-41, PyTorch's SGD form) in float64 to the last few bits; a state saved with
a layout of awkward sizes after two updates, its named slots checked against the moments by hand, and loaded
into a fresh optimizer equal to the uninterrupted run; the slots each kind keeps at its defaults and settings."""
import numpy as np
import pytest

from lnrnn.model.flat import FlatArrays
from lnrnn.training import memory, optim
from test_values323_optim import MAX_NORM, P0, _clipped, _run

# past the bound (norm sqrt(23.1201)), exactly at it (norm 4: left as it is), under it (norm sqrt(2.625))
G353 = [np.array([0.5, -1.5, 2.0, 0.01, -0.3, 0.0, 4.0, -0.2, 0.7]),
        np.array([0.0, 0.0, -4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        np.array([0.25, -1.0, 0.5, 1.0, 0.0, 0.25, -0.5, 0.0, 0.0])]
LAYOUT = [("a", (4,), 0), ("z", (1, 5), 4)]


def test_the_gradients_are_past_at_and_under_the_bound():
    g, norm = _clipped(G353[1])
    assert norm == MAX_NORM and np.array_equal(g, G353[1])
    g = G353[1].copy()
    assert optim.clip_grad_norm(g, MAX_NORM) == 4.0 and np.array_equal(g, G353[1])
    assert _clipped(G353[0])[1] > MAX_NORM > _clipped(G353[2])[1] == pytest.approx(2.625 ** 0.5)


def _adam_by_hand(lr, b1, b2, eps, grads):
    want, m, v = P0.copy(), np.zeros(9), np.zeros(9)
    for k, g in enumerate(grads, start=1):
        g, _ = _clipped(g)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        want = want - lr * (m / (1 - b1 ** k)) / (np.sqrt(v / (1 - b2 ** k)) + eps)
    return want, m, v


def test_adam_three_updates_bias_corrected_by_their_own_numbers():
    lr, b1, b2, eps = 0.05, 0.7, 0.9, 1e-2
    want, m, v = _adam_by_hand(lr, b1, b2, eps, G353)
    p = P0.copy()
    opt = optim.Adam(lr=lr, beta1=b1, beta2=b2, eps=eps)
    _run(opt, p, G353)
    assert opt.step_count == 3 and opt.state_dict()["step"] == 3
    np.testing.assert_allclose(p, want, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(opt.slots["m"][""], m, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(opt.slots["v"][""], v, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("centred", [True, False])
def test_graves_rmsprop_three_updates_in_float64(centred):
    lr, alpha, mu, eps = 0.05, 0.95, 0.9, 1e-4     # Graves's alpha, momentum and eps; lr not a float32 number
    want, sq, avg, vel = P0.copy(), np.zeros(9), np.zeros(9), np.zeros(9)
    for g in G353:
        g, _ = _clipped(g)
        sq = alpha * sq + (1 - alpha) * g * g                        # eq. 38
        if centred:
            avg = alpha * avg + (1 - alpha) * g                      # eq. 39
        vel = mu * vel - lr * g / np.sqrt(sq - avg * avg + eps)      # eq. 40
        want = want + vel                                            # eq. 41
    p = P0.copy()
    opt = optim.GravesRMSProp(lr=lr, centred=centred)
    _run(opt, p, G353)
    np.testing.assert_allclose(p, want, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(opt.slots["v"][""], vel, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("mu", [0.0, 0.5])
def test_sgd_three_updates_in_float64(mu):
    lr = 0.1
    want, vel = P0.copy(), np.zeros(9)
    for g in G353:
        g, _ = _clipped(g)
        vel = mu * vel + g
        want = want - lr * vel
    p = P0.copy()
    _run(optim.SGD(lr=lr, momentum=mu), p, G353)
    np.testing.assert_allclose(p, want, rtol=1e-14, atol=1e-15)


def test_resumed_with_a_layout_equals_three_in_a_row():
    lr, b1, b2, eps = 0.05, 0.7, 0.9, 1e-2
    want, _, _ = _adam_by_hand(lr, b1, b2, eps, G353)
    _, m2, v2 = _adam_by_hand(lr, b1, b2, eps, G353[:2])
    p = P0.copy()
    flat = FlatArrays(p, LAYOUT)
    first = optim.Adam(lr=lr, beta1=b1, beta2=b2, eps=eps)
    _run(first, p, G353[:2])
    state = first.state_dict(layout=flat)
    # the slots by parameter name, in the layout's shapes: a = elements 0..3, z = elements 4..8 as (1, 5)
    np.testing.assert_allclose(state["slots"]["m"]["a"], m2[:4], rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(state["slots"]["v"]["z"], v2[4:].reshape(1, 5), rtol=1e-13, atol=1e-15)
    second = optim.Adam(lr=1.0)
    second.load_state_dict(state, layout=flat)
    assert second.lr == lr and second.step_count == 2
    _run(second, p, G353[2:])
    np.testing.assert_allclose(p, want, rtol=1e-13, atol=1e-15)


def test_slots_kept_at_defaults_and_settings():
    assert optim.Adam().slots_kept() == 2                      # m, v
    assert optim.RMSProp().slots_kept() == 1                   # sq
    assert optim.SGD().slots_kept() == 1                       # velocity
    assert optim.SGD(momentum=0.0).slots_kept() == 0
    assert optim.MomentumRMSProp().slots_kept() == 2           # sq, v: not centred
    assert optim.GravesRMSProp().slots_kept() == 3             # sq, avg, v
    assert {k: memory.slots(k) for k in optim.OPTIMIZERS} == \
        {"adam": 2, "rmsprop": 1, "rmsprop-momentum": 2, "rmsprop-graves": 3, "sgd": 1}
