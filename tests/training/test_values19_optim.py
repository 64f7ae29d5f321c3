"""lnrnn/training/optim.py's argument and state checks, and its two momentum RMSProps by hand: a flat gradient
of another length or a gradient dict with an extra name is refused before any update (the parameters stay
as they were), another optimizer's saved state is refused by name, and two steps of Graves's centred
RMSProp and of the uncentred momentum one are recomputed in NumPy from their equations."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.training.optim import SGD, Adam, GravesRMSProp, MomentumRMSProp, RMSProp


def test_flat_gradient_of_another_length_is_refused_and_nothing_moves():
    p = np.arange(6.0)
    with pytest.raises(ValueError, match="same shape"):
        SGD(lr=0.1).step(p, np.ones(5))
    np.testing.assert_array_equal(p, np.arange(6.0))


def test_gradient_dict_with_an_extra_name_is_refused_and_nothing_moves():
    p = {"a": np.array([1.0, 2.0])}
    with pytest.raises(ValueError, match=r"keys differ: \['b'\]"):
        SGD(lr=0.1).step(p, {"a": np.ones(2), "b": np.ones(2)})
    np.testing.assert_array_equal(p["a"], [1.0, 2.0])


def test_another_optimizers_state_is_refused_by_name():
    p, g = {"a": np.array([1.0, -2.0])}, {"a": np.array([0.5, 0.25])}
    adam = Adam(lr=0.1)
    adam.step(p, g)
    with pytest.raises(UserError, match="is for adam, not rmsprop"):
        RMSProp(lr=0.1).load_state_dict(adam.state_dict())


@pytest.mark.parametrize("cls,alpha,mom,eps,centred", [(GravesRMSProp, 0.95, 0.9, 1e-4, True),
                                                      (MomentumRMSProp, 0.9, 0.9, 1e-8, False)])
def test_two_steps_of_momentum_rmsprop_by_hand(cls, alpha, mom, eps, centred):
    lr = 0.01
    p = np.array([1.0, -2.0, 0.5])
    grads = [np.array([0.3, -0.1, 2.0]), np.array([-0.2, 0.4, 1.0])]
    opt = cls(lr=lr)
    want, sq, avg, v = p.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for g in grads:
        opt.step(p, g.copy())
        sq = alpha * sq + (1 - alpha) * g ** 2
        avg = alpha * avg + (1 - alpha) * g if centred else avg
        v = mom * v - lr * g / np.sqrt(sq - avg ** 2 + eps)
        want = want + v
    np.testing.assert_allclose(p, want, rtol=1e-12, atol=1e-15)
