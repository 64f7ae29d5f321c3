"""The optimizers and the gradient clipping of lnrnn/training/optim.py against updates worked out here:
the global norm of a (3, 4)-style dict is 5 and clipping fires only strictly above it (at 5 untouched, at
4.999 scaled to 4.999 / (5 + CLIP_EPS), at 5.001 untouched); SGD's momentum 0.5 over two steps by hand;
rmsprop-momentum (not centred) and Adam's bias correction at updates 1 and 2 from their published formulas
written out here; refusals of another optimizer's state and of an unknown optimizer word for word."""
import math

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.training.optim import SGD, Adam, MomentumRMSProp, clip_grad_norm, global_norm, make_optimizer


def _grads():
    # squares 9 + 0 + 0 + 16 = 25: the norm is 5
    return {"a": np.array([3.0, 0.0]), "b": np.array([[0.0, -4.0]])}


def test_global_norm_of_a_three_four_dict_is_five():
    assert global_norm(_grads()) == 5.0
    assert global_norm(np.array([1.0, 2.0, 2.0])) == 3.0   # 1 + 4 + 4 = 9
    assert global_norm({"z": np.zeros(3)}) == 0.0


@pytest.mark.parametrize("limit,scaled", [(5.0, False), (5.001, False), (4.999, True), (0.0, False)])
def test_clipping_fires_only_strictly_above_the_limit(limit, scaled):
    g = _grads()
    assert clip_grad_norm(g, limit) == 5.0                  # the norm before clipping, either way
    factor = limit / (5.0 + CLIP_EPS) if scaled else 1.0
    np.testing.assert_allclose(g["a"], [3.0 * factor, 0.0], rtol=1e-15)
    np.testing.assert_allclose(g["b"], [[0.0, -4.0 * factor]], rtol=1e-15)


def test_sgd_momentum_half_two_steps_by_hand():
    p = np.array([1.0, -2.0])
    opt = SGD(lr=0.1, momentum=0.5)
    opt.step(p, np.array([0.4, 0.2]))
    # v1 = g1 = (0.4, 0.2); p1 = p0 - 0.1 v1 = (0.96, -2.02)
    np.testing.assert_allclose(p, [0.96, -2.02], rtol=1e-14)
    opt.step(p, np.array([-0.2, 0.6]))
    # v2 = 0.5 v1 + g2 = (0.0, 0.7); p2 = p1 - 0.1 v2 = (0.96, -2.09)
    np.testing.assert_allclose(p, [0.96, -2.09], rtol=1e-14)
    assert opt.state_dict()["hyper"] == {"lr": 0.1, "momentum": 0.5}


def test_rmsprop_momentum_not_centred_two_steps_from_the_formula():
    lr, alpha, mom, eps = 0.01, 0.9, 0.9, 1e-8
    p = np.array([0.5, -1.0, 2.0])
    gs = [np.array([0.3, -0.1, 0.0]), np.array([-0.2, -0.4, 1.0])]
    opt = MomentumRMSProp(lr=lr, alpha=alpha, momentum=mom, eps=eps)
    sq, v, want = np.zeros(3), np.zeros(3), p.copy()
    for g in gs:
        opt.step(p, g.copy())
        # not centred: sq = alpha sq + (1 - alpha) g^2; v = mom v - lr g / sqrt(sq + eps); p += v
        sq = alpha * sq + (1 - alpha) * g * g
        v = mom * v - lr * g / np.sqrt(sq + eps)
        want = want + v
        np.testing.assert_allclose(p, want, rtol=1e-12)
    assert opt.slots_kept() == 2


def test_adam_bias_correction_at_updates_one_and_two():
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-8
    p = np.array([1.0, -1.0])
    g1, g2 = np.array([0.5, -2.0]), np.array([-1.5, 1.0])
    opt = Adam(lr=lr, beta1=b1, beta2=b2, eps=eps)
    opt.step(p, g1.copy())
    # update 1: m_hat = g1 and v_hat = g1^2, so each parameter moves by lr * sign(g1) (eps aside)
    step1 = lr * g1 / (np.abs(g1) + eps)
    np.testing.assert_allclose(p, [1.0, -1.0] - step1, rtol=1e-13)
    opt.step(p, g2.copy())
    m = b1 * (1 - b1) * g1 + (1 - b1) * g2
    v = b2 * (1 - b2) * g1 ** 2 + (1 - b2) * g2 ** 2
    m_hat, v_hat = m / (1 - b1 ** 2), v / (1 - b2 ** 2)
    want = [1.0, -1.0] - step1 - lr * m_hat / (np.sqrt(v_hat) + eps)
    np.testing.assert_allclose(p, want, rtol=1e-13)
    assert opt.state_dict()["step"] == 2


def test_another_optimizers_state_refused_word_for_word():
    state = SGD(lr=0.1).state_dict()
    with pytest.raises(UserError) as e:
        Adam(lr=1e-3).load_state_dict(state)
    assert str(e.value) == "the saved optimizer state is for sgd, not adam."


def test_unknown_optimizer_refused_word_for_word():
    with pytest.raises(UserError) as e:
        make_optimizer("adamw", 1e-3)
    assert str(e.value) == ("unknown optimizer 'adamw'; choose one of adam, rmsprop, rmsprop-momentum, "
                            "rmsprop-graves, sgd.")
    assert math.isclose(make_optimizer("sgd", 0.5).lr, 0.5)
