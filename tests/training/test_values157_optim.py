"""lnrnn/training/optim.py's optimizers on one flat parameter array against their update rules written here in
float64 NumPy from the papers' forms (SGD with momentum v = mu v + g, p -= lr v; RMSProp; Graves's centred RMSProp
with momentum, eps under the root, at its defaults alpha 0.95, momentum 0.9, eps 1e-4; the uncentred form with alpha
and momentum told apart; Adam with bias-corrected m and v, eps on the corrected v) over seven updates in three epochs:
each gradient clipped by clip_grad_norm (scaled by max_norm / (norm + CLIP_EPS) when its norm is over max_norm,
left alone below) and the learning rate decayed per epoch (lr decay^epoch). A state taken after three updates,
copied as a checkpoint would hold it and loaded into a fresh optimizer of another learning rate, makes the same
remaining updates as the run never stopped; the same saved state loads twice and is left as it was."""
import copy
import math

import numpy as np
import pytest

from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.model.flat import FlatArrays
from lnrnn.training import optim

SHAPES = {"w": (2, 3), "b": (5,), "g/x": (1, 4)}
P = sum(int(np.prod(s)) for s in SHAPES.values())
LR, DECAY, MAX_NORM = 0.03, 0.7, 1.1
STEPS, PER_EPOCH, CUT = 7, 3, 3


def layout():
    out, off = [], 0
    for name, shape in SHAPES.items():
        out.append((name, shape, off))
        off += int(np.prod(shape))
    return FlatArrays(np.zeros(P), out)


def grads(i):
    # scales 0.2 .. 2.6 around a norm of about 4: the early gradients stay under the limit, the later ones are clipped
    return np.random.default_rng(100 + i).normal(size=P) * (0.2 + 0.4 * i) / 4.0


def by_hand(kind, h, steps):
    """(p, norms) after ``steps`` updates of the rule in float64, starting from p0."""
    p = p0().copy()
    s = {k: np.zeros(P) for k in ("v", "m", "sq", "avg")}
    norms = []
    for i in range(steps):
        k = i + 1
        lr = LR * DECAY ** (i // PER_EPOCH)
        g = grads(i)
        norm = math.sqrt(float(np.sum(g * g)))
        norms.append(norm)
        if norm > MAX_NORM:
            g = g * (MAX_NORM / (norm + CLIP_EPS))
        if kind == "sgd":
            s["v"] = h["momentum"] * s["v"] + g
            p = p - lr * s["v"]
        elif kind == "rmsprop":
            s["sq"] = h["alpha"] * s["sq"] + (1 - h["alpha"]) * g ** 2
            p = p - lr * g / (np.sqrt(s["sq"]) + h["eps"])
        elif kind == "rmsprop-momentum":
            s["sq"] = h["alpha"] * s["sq"] + (1 - h["alpha"]) * g ** 2
            var = s["sq"] + h["eps"]
            if h["centred"]:
                s["avg"] = h["alpha"] * s["avg"] + (1 - h["alpha"]) * g
                var = var - s["avg"] ** 2
            s["v"] = h["momentum"] * s["v"] - lr * g / np.sqrt(var)
            p = p + s["v"]
        else:
            s["m"] = h["beta1"] * s["m"] + (1 - h["beta1"]) * g
            s["v"] = h["beta2"] * s["v"] + (1 - h["beta2"]) * g ** 2
            m_hat = s["m"] / (1 - h["beta1"] ** k)
            v_hat = s["v"] / (1 - h["beta2"] ** k)
            p = p - lr * m_hat / (np.sqrt(v_hat) + h["eps"])
    return p, norms


def p0():
    return np.random.default_rng(7).normal(size=P)


CASES = {
    "sgd": (lambda lr: optim.SGD(lr=lr, momentum=0.6), "sgd", dict(momentum=0.6)),
    "rmsprop": (lambda lr: optim.RMSProp(lr=lr, alpha=0.8, eps=1e-5), "rmsprop", dict(alpha=0.8, eps=1e-5)),
    "graves": (lambda lr: optim.GravesRMSProp(lr=lr), "rmsprop-momentum",
               dict(alpha=0.95, momentum=0.9, eps=1e-4, centred=True)),
    "momentum-uncentred": (lambda lr: optim.MomentumRMSProp(lr=lr, alpha=0.7, momentum=0.4, eps=1e-6),
                           "rmsprop-momentum", dict(alpha=0.7, momentum=0.4, eps=1e-6, centred=False)),
    "centred-apart": (lambda lr: optim.RMSPropMomentum(lr=lr, alpha=0.6, momentum=0.85, eps=1e-3, centred=True),
                      "rmsprop-momentum", dict(alpha=0.6, momentum=0.85, eps=1e-3, centred=True)),
    "adam": (lambda lr: optim.Adam(lr=lr, beta1=0.7, beta2=0.95, eps=1e-6), "adam",
             dict(beta1=0.7, beta2=0.95, eps=1e-6)),
}


def run(opt, p, first, last):
    """Updates first..last-1 of the flat form, in place -> the norms clip_grad_norm reported."""
    norms = []
    for i in range(first, last):
        opt.lr = optim.decayed_lr(LR, DECAY, i // PER_EPOCH)
        g = grads(i)
        norms.append(optim.clip_grad_norm(g, MAX_NORM))
        opt.step(p, g)
    return norms


@pytest.mark.parametrize("case", list(CASES))
def test_flat_form_against_the_rule_with_clipping_and_decay(case):
    make, kind, h = CASES[case]
    want, want_norms = by_hand(kind, h, STEPS)
    assert min(want_norms) < MAX_NORM < max(want_norms)                  # both sides of the limit are seen
    opt = make(LR)
    p = p0()
    norms = run(opt, p, 0, STEPS)
    assert norms == pytest.approx(want_norms, rel=1e-12)
    np.testing.assert_allclose(p, want, rtol=1e-10, atol=1e-13)
    assert opt.step_count == STEPS


@pytest.mark.parametrize("case", list(CASES))
def test_resumed_mid_way_twice_equals_the_run_never_stopped(case):
    make, kind, h = CASES[case]
    want, _ = by_hand(kind, h, STEPS)
    lay = layout()
    opt = make(LR)
    p = p0()
    run(opt, p, 0, CUT)
    saved = copy.deepcopy(opt.state_dict(lay))
    kept = copy.deepcopy(saved)
    assert saved["step"] == CUT and saved["hyper"]["lr"] == pytest.approx(LR * DECAY ** ((CUT - 1) // PER_EPOCH))
    p_cut = p.copy()
    for _ in range(2):                                                    # the same saved state, loaded twice
        fresh = make(0.5)
        fresh.load_state_dict(saved, lay)
        assert fresh.step_count == CUT
        q = p_cut.copy()
        run(fresh, q, CUT, STEPS)
        np.testing.assert_allclose(q, want, rtol=1e-10, atol=1e-13)
    # loading reads the saved state and leaves it as it was
    assert saved["hyper"] == kept["hyper"] and saved["step"] == kept["step"]
    for s, d in kept["slots"].items():
        assert set(saved["slots"][s]) == set(d)
        for k, v in d.items():
            np.testing.assert_array_equal(saved["slots"][s][k], v)


def test_clip_leaves_a_gradient_under_the_limit_and_scales_one_over_it():
    g = np.array([0.3, -0.4])                                             # norm 0.5
    assert optim.clip_grad_norm(g, 0.6) == pytest.approx(0.5)
    np.testing.assert_array_equal(g, [0.3, -0.4])
    g = {"a": np.array([3.0]), "b": np.array([[0.0, -4.0]])}              # norm 5 over two arrays
    assert optim.clip_grad_norm(g, 2.0) == pytest.approx(5.0)
    scale = 2.0 / (5.0 + CLIP_EPS)
    np.testing.assert_allclose(g["a"], [3.0 * scale], rtol=1e-14)
    np.testing.assert_allclose(g["b"], [[0.0, -4.0 * scale]], rtol=1e-14)
