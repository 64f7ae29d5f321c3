"""lnrnn/training/optim.py's state as a snapshot, both ways, against the update rules written out: a state_dict
is the optimizer's state when it was taken (later steps do not change it), and a state loaded (named slots, no
layout) is the optimizer's own copy: two optimizers loaded from one state and given the same gradients make
the same steps, each equal to the rule applied by hand from the saved slots, and the state they were loaded
from stays as it was."""
import numpy as np
import pytest

from lnrnn.training.optim import Adam, GravesRMSProp, SGD


def grads(k):
    rng = np.random.default_rng(k)
    return {"w": rng.standard_normal(5), "b": rng.standard_normal(2)}


def params():
    return {"w": np.linspace(-1.0, 1.0, 5), "b": np.array([0.5, -0.5])}


@pytest.mark.parametrize("make", [lambda: Adam(lr=0.01), lambda: GravesRMSProp(lr=0.01), lambda: SGD(lr=0.1)])
def test_a_loaded_state_is_the_optimizers_own_copy(make):
    first = make()
    p = params()
    for k in range(3):
        first.step(p, grads(k))
    state = first.state_dict()
    kept = {s: {k: v.copy() for k, v in d.items()} for s, d in state["slots"].items()}
    first.step(p, grads(3))                      # a step after the snapshot does not reach it
    for s in kept:
        for k in kept[s]:
            assert np.array_equal(state["slots"][s][k], kept[s][k])
    a, b = make(), make()
    a.load_state_dict(state)
    b.load_state_dict(state)
    pa, pb = params(), params()
    for k in range(4, 7):
        a.step(pa, grads(k))
    for k in range(4, 7):
        b.step(pb, grads(k))
    for s in kept:                               # the state loaded from stays as it was
        for k in kept[s]:
            assert np.array_equal(state["slots"][s][k], kept[s][k]), (s, k)
    for k in pa:                                 # b started from the saved slots, not from a's later ones
        assert np.array_equal(pa[k], pb[k])
    assert a.step_count == b.step_count == 6


def test_a_loaded_adam_step_is_the_rule_from_the_saved_moments():
    """Adam after two steps, saved; the optimizer it came from takes a third step first (which would move
    slots the loaded one shared), then the loaded one (built with another lr: the saved one is restored)
    takes the same third step from the saved parameters: Adam's rule by hand from the saved m and v,
    step 3, the bias corrections of the paper (eps on the corrected v)."""
    opt = Adam(lr=0.01)
    p = params()
    for k in range(2):
        opt.step(p, grads(k))
    state = opt.state_dict()
    m, v = ({k: a.copy() for k, a in state["slots"][s].items()} for s in ("m", "v"))
    saved = {k: a.copy() for k, a in p.items()}
    other = Adam(lr=0.5)
    other.load_state_dict(state)
    opt.step(p, grads(2))
    q = {k: a.copy() for k, a in saved.items()}
    other.step(q, grads(2))
    b1, b2, eps, lr, n = 0.9, 0.999, 1e-8, 0.01, 3
    assert other.lr == lr and other.step_count == n
    for k in q:
        g = grads(2)[k]
        mk, vk = b1 * m[k] + (1 - b1) * g, b2 * v[k] + (1 - b2) * g * g
        want = saved[k] - lr * (mk / (1 - b1 ** n)) / (np.sqrt(vk / (1 - b2 ** n)) + eps)
        assert np.allclose(q[k], want, rtol=1e-12, atol=1e-15)
        assert np.array_equal(q[k], p[k])
