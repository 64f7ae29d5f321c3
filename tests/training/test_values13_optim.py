"""lnrnn/training/optim.py by value: the global norm of float32 gradients summed in float64 (no overflow at
1e20), a loaded state's hyper-parameters used by the next step, a saved slot with a name the parameters lack
refused, and rmsprop-momentum's update not centred, each against the rule written out here in float64."""
import math

import numpy as np
import pytest

from lnrnn.model.flat import repack
from lnrnn.training.optim import Adam, MomentumRMSProp, RMSProp, clip_grad_norm, global_norm


def test_global_norm_of_large_float32_gradients_does_not_overflow():
    g = {"a": np.full(3, 1e20, np.float32), "b": np.array([-2e20], np.float32)}
    want = math.sqrt(3 * float(np.float32(1e20)) ** 2 + float(np.float32(-2e20)) ** 2)
    assert global_norm(g) == pytest.approx(want, rel=1e-12)
    norm = clip_grad_norm(g, 1.0)  # scaled down to norm 1, not left alone as "not finite"
    assert norm == pytest.approx(want, rel=1e-12)
    assert global_norm(g) == pytest.approx(1.0, rel=1e-6)


def test_loaded_hyper_parameters_drive_the_next_step():
    saved = RMSProp(lr=0.1, alpha=0.5, eps=1e-2)
    p0, g = np.array([1.0, -1.0]), np.array([0.5, 2.0])
    saved.step(p0.copy(), g.copy())
    state = saved.state_dict()
    opt = RMSProp()  # the defaults (lr 1e-3, alpha 0.99, eps 1e-8) until the state is loaded
    opt.load_state_dict(state)
    assert opt.hyper == {"alpha": 0.5, "eps": 1e-2}
    p = np.array([3.0, 4.0])
    opt.step(p, g.copy())
    sq = 0.5 * (0.5 * g * g) + 0.5 * g * g  # the saved slot after its step, then this step's
    np.testing.assert_allclose(p, np.array([3.0, 4.0]) - 0.1 * g / (np.sqrt(sq) + 1e-2), rtol=1e-12)


def test_a_saved_slot_with_a_name_the_parameters_lack_is_refused():
    params = repack([("", {"w": np.ones(3), "b": np.zeros(2)})])
    opt = Adam()
    opt.step(params.data, np.ones(5))
    state = opt.state_dict(params)
    assert set(state["slots"]["m"]) == {"w", "b"}
    state["slots"]["m"]["old"] = np.zeros(1)
    with pytest.raises(ValueError, match="does not match"):
        Adam().load_state_dict(state, params)
    del state["slots"]["m"]["old"], state["slots"]["m"]["b"]
    with pytest.raises(ValueError, match="does not match"):
        Adam().load_state_dict(state, params)


def test_momentum_rmsprop_is_not_centred():
    opt = MomentumRMSProp(lr=0.1)
    assert opt.hyper["centred"] == 0.0
    p = np.array([1.0, -2.0])
    want, sq, v = p.copy(), np.zeros(2), np.zeros(2)
    for g in (np.array([0.5, 1.0]), np.array([0.25, -3.0])):
        opt.step(p, g.copy())
        sq = 0.9 * sq + 0.1 * g * g
        v = 0.9 * v - 0.1 * g / np.sqrt(sq + 1e-8)   # eps under the root, no avg^2 (not centred)
        want = want + v
    np.testing.assert_allclose(p, want, rtol=1e-12)
