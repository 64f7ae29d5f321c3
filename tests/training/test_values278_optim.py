"""Optimizers (lnrnn/training/optim.py over the rules of lnrnn/kernels/optim.py): every slot and the parameters
after updates 1, 2 and 3, read back through state_dict, against the update rules written out here element by
element in float64 Python arithmetic: SGD with momentum 0.5 (the velocity, not the raw gradient, moves the
parameters), RMSProp with eps 0.01 (its second moment kept in its slot), RMSProp with momentum centred with
alpha 0.95 and momentum 0.9 (two values that differ, so each is used in its own place) and not centred, Adam with
eps 0.1 and gradients of a hundredth (so that eps applied to the bias-corrected second moment shows); a flat state
whose names do not fit the layout refused naming exactly the names that differ (the first five, sorted)."""
import math

import numpy as np
import pytest

from lnrnn.model.flat import FlatArrays
from lnrnn.training import optim

P0 = {"a": np.array([1.0, -2.0]), "b": np.array([[0.5], [3.0]])}
# three gradients of non-monotonic, mixed-sign values
GRADS = [{"a": np.array([0.5, -1.0]), "b": np.array([[0.25], [2.0]])},
         {"a": np.array([-0.75, 1.5]), "b": np.array([[1.0], [-0.5]])},
         {"a": np.array([1.25, 0.5]), "b": np.array([[-2.0], [0.75]])}]


def _flat(d):
    """The named arrays' elements in one Python list, name by name (a then b)."""
    return [float(x) for k in sorted(d) for x in np.asarray(d[k]).reshape(-1)]


def _run(opt):
    """Copies of P0 stepped by GRADS -> [(params, state_dict), ...] after updates 1, 2, 3."""
    p = {k: v.copy() for k, v in P0.items()}
    out = []
    for g in GRADS:
        opt.step(p, {k: v.copy() for k, v in g.items()})
        out.append(({k: v.copy() for k, v in p.items()}, opt.state_dict()))
    return out


def _close(got, want, what):
    assert len(got) == len(want), what
    for i, (a, b) in enumerate(zip(got, want)):
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15), f"{what}[{i}]: {a} != {b}"


def test_sgd_momentum_half_velocity_moves_the_parameters_over_three_updates():
    lr, mu = 0.1, 0.5
    p, v = _flat(P0), [0.0] * 4
    for k, (params, state) in enumerate(_run(optim.SGD(lr=lr, momentum=mu)), start=1):
        g = _flat(GRADS[k - 1])
        for i in range(4):
            v[i] = mu * v[i] + g[i]
            p[i] = p[i] - lr * v[i]
        assert state["step"] == k
        _close(_flat(state["slots"]["momentum"]), v, f"velocity after update {k}")
        _close(_flat(params), p, f"parameters after update {k}")


def test_plain_sgd_keeps_no_slot_and_steps_along_the_gradient():
    p = _flat(P0)
    for k, (params, state) in enumerate(_run(optim.SGD(lr=0.2, momentum=0.0)), start=1):
        g = _flat(GRADS[k - 1])
        p = [p[i] - 0.2 * g[i] for i in range(4)]
        assert state["slots"] == {"momentum": {}}
        _close(_flat(params), p, f"parameters after update {k}")


def test_rmsprop_second_moment_kept_in_its_slot_over_three_updates():
    lr, alpha, eps = 0.05, 0.9, 0.01
    p, sq = _flat(P0), [0.0] * 4
    for k, (params, state) in enumerate(_run(optim.RMSProp(lr=lr, alpha=alpha, eps=eps)), start=1):
        g = _flat(GRADS[k - 1])
        for i in range(4):
            sq[i] = alpha * sq[i] + (1 - alpha) * g[i] ** 2
            p[i] = p[i] - lr * g[i] / (math.sqrt(sq[i]) + eps)
        _close(_flat(state["slots"]["sq"]), sq, f"sq after update {k}")
        _close(_flat(params), p, f"parameters after update {k}")


@pytest.mark.parametrize("centred", [True, False])
def test_rmsprop_momentum_slots_over_three_updates_from_graves_equations(centred):
    lr, alpha, mu, eps = 0.01, 0.95, 0.9, 1e-4
    opt = optim.GravesRMSProp(lr=lr, alpha=alpha, momentum=mu, eps=eps, centred=centred)
    p, sq, avg, v = _flat(P0), [0.0] * 4, [0.0] * 4, [0.0] * 4
    for k, (params, state) in enumerate(_run(opt), start=1):
        g = _flat(GRADS[k - 1])
        for i in range(4):
            sq[i] = alpha * sq[i] + (1 - alpha) * g[i] * g[i]                   # Graves eq. 38
            if centred:
                avg[i] = alpha * avg[i] + (1 - alpha) * g[i]                    # eq. 39
            v[i] = mu * v[i] - lr * g[i] / math.sqrt(sq[i] - avg[i] ** 2 + eps)  # eq. 40
            p[i] = p[i] + v[i]                                                  # eq. 41
        slots = state["slots"]
        _close(_flat(slots["sq"]), sq, f"sq after update {k}")
        _close(_flat(slots["v"]), v, f"v after update {k}")
        if centred:
            _close(_flat(slots["avg"]), avg, f"avg after update {k}")
        else:
            assert slots["avg"] == {}
        _close(_flat(params), p, f"parameters after update {k}")


def test_adam_bias_corrections_at_updates_1_2_3_with_a_large_eps():
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 0.1
    opt = optim.Adam(lr=lr, beta1=b1, beta2=b2, eps=eps)
    p = {k: v.copy() for k, v in P0.items()}
    want, m, v = _flat(P0), [0.0] * 4, [0.0] * 4
    for k, g in enumerate(GRADS, start=1):
        small = {name: a / 100 for name, a in g.items()}                       # gradients of a hundredth
        opt.step(p, {name: a.copy() for name, a in small.items()})
        gs = _flat(small)
        for i in range(4):
            m[i] = b1 * m[i] + (1 - b1) * gs[i]
            v[i] = b2 * v[i] + (1 - b2) * gs[i] ** 2
            m_hat, v_hat = m[i] / (1 - b1 ** k), v[i] / (1 - b2 ** k)        # Kingma & Ba, Algorithm 1
            want[i] = want[i] - lr * m_hat / (math.sqrt(v_hat) + eps)
        state = opt.state_dict()
        _close(_flat(state["slots"]["m"]), m, f"m after update {k}")
        _close(_flat(state["slots"]["v"]), v, f"v after update {k}")
        _close(_flat(p), want, f"parameters after update {k}")


def test_a_flat_state_whose_names_do_not_fit_is_refused_naming_the_odd_ones():
    layout = FlatArrays(np.zeros(5), [("a", (2,), 0), ("b", (1,), 2), ("c", (2,), 3)])
    names = ["a", "b", "x"]
    state = {"kind": "adam", "hyper": {"lr": 0.001, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8}, "step": 4,
             "slots": {"m": {n: np.zeros(2) for n in names}, "v": {n: np.zeros(2) for n in names}}}
    with pytest.raises(ValueError) as e:
        optim.Adam().load_state_dict(state, layout)
    assert str(e.value) == "optimizer slot m does not match the parameters: ['c', 'x']"
    # past five names that differ, the first five in sorted order
    many = {n: np.zeros(1) for n in ["a", "q", "r", "s", "t", "u", "w"]}
    state["slots"] = {"m": many, "v": many}
    with pytest.raises(ValueError) as e:
        optim.Adam().load_state_dict(state, layout)
    assert str(e.value) == "optimizer slot m does not match the parameters: ['b', 'c', 'q', 'r', 's']"
