"""lnrnn/training/optim.py's optimizers against their rules written here in NumPy (float64, textbook forms:
SGD with momentum, RMSProp, Graves's centred RMSProp with momentum and the uncentred one, Adam with bias-corrected
m and v) over six updates in two epochs, with the gradient clipped by its global norm over every array
(g max_norm / (norm + CLIP_EPS) where norm = sqrt of the sum of every element's square exceeds max_norm) and the
learning rate decayed per epoch (lr decay^epoch); the flat form and the dict form of three arrays; float32
parameters keep float32 slots. The state: state_dict's slots named as the rules name them ('m' the first moment,
'v' the second), a state taken is not changed by later steps, plain SGD and an uncentred RMSProp keep no slot
they never use, and a state saved through a checkpoint (npz and JSON) and loaded into a fresh optimizer makes the
same next updates as the one never interrupted."""
import math

import numpy as np
import pytest

from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.model.flat import FlatArrays
from lnrnn.training import optim
from lnrnn.training.checkpoint import load_checkpoint, save_checkpoint
from lnrnn.training.evaluation import split_arrays

SHAPES = {"a": (3, 2), "layer0/b": (4,), "c": (2, 2)}
LR, DECAY, CLIP = 0.05, 0.5, 0.7
STEPS_PER_EPOCH, EPOCHS = 3, 2


def layout():
    out, off = [], 0
    for name, shape in SHAPES.items():
        out.append((name, shape, off))
        off += int(np.prod(shape))
    return FlatArrays(np.zeros(off), out)


class Rule:
    """One optimizer's update in float64 NumPy; state in self.s."""

    def __init__(self, kind, **h):
        self.kind, self.h, self.k, self.s = kind, h, 0, {}

    def step(self, p, g, lr):
        h, s = self.h, self.s
        self.k += 1
        z = np.zeros_like(p)
        if self.kind == "sgd":
            if not h["momentum"]:
                return p - lr * g
            s["momentum"] = h["momentum"] * s.get("momentum", z) + g
            return p - lr * s["momentum"]
        if self.kind == "rmsprop":
            s["sq"] = h["alpha"] * s.get("sq", z) + (1 - h["alpha"]) * g * g
            return p - lr * g / (np.sqrt(s["sq"]) + h["eps"])
        if self.kind in ("rmsprop-graves", "rmsprop-momentum"):
            s["sq"] = h["alpha"] * s.get("sq", z) + (1 - h["alpha"]) * g * g
            var = s["sq"] + h["eps"]
            if h["centred"]:
                s["avg"] = h["alpha"] * s.get("avg", z) + (1 - h["alpha"]) * g
                var = var - s["avg"] ** 2
            s["v"] = h["momentum"] * s.get("v", z) - lr * g / np.sqrt(var)
            return p + s["v"]
        b1, b2 = h["beta1"], h["beta2"]
        s["m"] = b1 * s.get("m", z) + (1 - b1) * g
        s["v"] = b2 * s.get("v", z) + (1 - b2) * g * g
        m_hat, v_hat = s["m"] / (1 - b1 ** self.k), s["v"] / (1 - b2 ** self.k)
        return p - lr * m_hat / (np.sqrt(v_hat) + h["eps"])


CASES = {
    "sgd": (lambda: optim.SGD(lr=LR, momentum=0.8), dict(momentum=0.8)),
    "sgd0": (lambda: optim.SGD(lr=LR, momentum=0.0), dict(momentum=0.0)),
    "rmsprop": (lambda: optim.RMSProp(lr=LR, alpha=0.9, eps=1e-6), dict(alpha=0.9, eps=1e-6)),
    "rmsprop-graves": (lambda: optim.make_optimizer("rmsprop-graves", LR),
                       dict(alpha=0.95, momentum=0.9, eps=1e-4, centred=True)),
    "rmsprop-momentum": (lambda: optim.make_optimizer("rmsprop-momentum", LR),
                         dict(alpha=0.9, momentum=0.9, eps=1e-8, centred=False)),
    "adam": (lambda: optim.Adam(lr=LR, beta1=0.8, beta2=0.9, eps=1e-7), dict(beta1=0.8, beta2=0.9, eps=1e-7)),
}


def rule_of(case):
    make, h = CASES[case]
    opt = make()
    return opt, Rule(opt.kind, **h)


def clipped(g, max_norm):
    norm = math.sqrt(sum(float(np.sum(a.astype(np.float64) ** 2)) for a in g))
    scale = max_norm / (norm + CLIP_EPS) if norm > max_norm else 1.0
    return [a * scale for a in g], norm


def run_dict(opt, params, dtype, steps, epoch0=0, seed=3):
    """steps updates of the dict form; the gradients clipped by clip_grad_norm; params updated in place -> the norms."""
    rng = np.random.default_rng(seed)
    norms = []
    for i in range(steps):
        opt.lr = optim.decayed_lr(LR, DECAY, epoch0 + i // STEPS_PER_EPOCH)
        g = {k: (rng.normal(size=s) * (1 + i)).astype(dtype) for k, s in SHAPES.items()}
        norms.append(optim.clip_grad_norm(g, CLIP))
        opt.step(params, g)
    return norms


def reference(rule, params, steps, epoch0=0, seed=3):
    rng = np.random.default_rng(seed)
    names = list(SHAPES)
    flat = np.concatenate([params[k].reshape(-1) for k in names]).astype(np.float64)
    norms = []
    for i in range(steps):
        lr = LR * DECAY ** (epoch0 + i // STEPS_PER_EPOCH)
        g = [rng.normal(size=SHAPES[k]) * (1 + i) for k in names]
        g, norm = clipped(g, CLIP)
        norms.append(norm)
        flat = rule.step(flat, np.concatenate([a.reshape(-1) for a in g]), lr)
    return flat, norms


def start(dtype):
    rng = np.random.default_rng(1)
    return {k: rng.normal(size=s).astype(dtype) for k, s in SHAPES.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_dict_form_against_the_rule_with_clipping_and_decay(case):
    opt, rule = rule_of(case)
    params = start(np.float64)
    want, want_norms = reference(rule, params, STEPS_PER_EPOCH * EPOCHS)
    norms = run_dict(opt, params, np.float64, STEPS_PER_EPOCH * EPOCHS)
    assert norms == pytest.approx(want_norms, rel=1e-12)
    assert max(want_norms) > CLIP                                           # the clip binds
    got = np.concatenate([params[k].reshape(-1) for k in SHAPES])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    assert opt.step_count == STEPS_PER_EPOCH * EPOCHS
    # the saved slots are the rule's own quantities, under the rule's names
    slots = opt.state_dict()["slots"]
    assert {s for s, d in slots.items() if d} == set(rule.s)
    for s, v in rule.s.items():
        np.testing.assert_allclose(np.concatenate([slots[s][k].reshape(-1) for k in SHAPES]), v, rtol=1e-10,
                                   atol=1e-12, err_msg=s)


@pytest.mark.parametrize("case", ["adam", "sgd", "rmsprop-graves"])
def test_flat_form_against_the_rule_and_float32_keeps_float32_slots(case):
    lay = layout()
    for dtype, rtol in ((np.float64, 1e-10), (np.float32, 2e-4)):
        opt, rule = rule_of(case)
        params = start(dtype)
        want, _ = reference(rule, params, STEPS_PER_EPOCH * EPOCHS)
        p = lay.join(params, dtype)
        rng = np.random.default_rng(3)
        for i in range(STEPS_PER_EPOCH * EPOCHS):
            opt.lr = optim.decayed_lr(LR, DECAY, i // STEPS_PER_EPOCH)
            g = lay.join({k: rng.normal(size=s) * (1 + i) for k, s in SHAPES.items()}, dtype)
            optim.clip_grad_norm(g, CLIP)
            opt.step(p, g)
        np.testing.assert_allclose(p, want, rtol=rtol, atol=rtol * 1e-2)
        for s, d in opt.slots.items():
            assert all(a.dtype == dtype for a in d.values()), (s, dtype)
        state = opt.state_dict(lay)
        for s, d in state["slots"].items():
            assert all(a.dtype == dtype for a in d.values()), (s, dtype)
            if d:
                np.testing.assert_allclose(np.concatenate([d[k].reshape(-1) for k in SHAPES]), rule.s[s],
                                           rtol=rtol, atol=rtol * 1e-2, err_msg=s)


def test_clip_grad_norm_scales_every_array_of_a_dict():
    rng = np.random.default_rng(5)
    g = {k: rng.normal(size=s) for k, s in SHAPES.items()}
    before = {k: v.copy() for k, v in g.items()}
    norm = math.sqrt(sum(float(np.sum(v ** 2)) for v in before.values()))
    assert norm > 1.0
    assert optim.clip_grad_norm(g, 1.0) == pytest.approx(norm, rel=1e-12)
    for k in g:
        np.testing.assert_allclose(g[k], before[k] / (norm + CLIP_EPS), rtol=1e-12)
    assert optim.global_norm(g) == pytest.approx(1.0, rel=1e-5)
    # under the limit nothing changes
    small = {k: v * 0.01 for k, v in before.items()}
    keep = {k: v.copy() for k, v in small.items()}
    optim.clip_grad_norm(small, 1.0)
    assert all(np.array_equal(small[k], keep[k]) for k in small)


def test_make_optimizer_builds_each_named_kind_with_its_defaults():
    want = {"rmsprop-graves": (optim.GravesRMSProp, dict(alpha=0.95, momentum=0.9, eps=1e-4, centred=1.0)),
            "rmsprop-momentum": (optim.MomentumRMSProp, dict(alpha=0.9, momentum=0.9, eps=1e-8, centred=0.0)),
            "adam": (optim.Adam, dict(beta1=0.9, beta2=0.999, eps=1e-8)),
            "rmsprop": (optim.RMSProp, dict(alpha=0.99, eps=1e-8)), "sgd": (optim.SGD, dict(momentum=0.9))}
    for kind, (cls, hyper) in want.items():
        opt = optim.make_optimizer(kind, 0.02)
        assert type(opt) is cls and opt.kind == kind and opt.lr == 0.02
        assert opt.hyper == hyper, kind


def test_a_state_taken_is_not_changed_by_later_steps():
    for case in ("adam", "sgd", "rmsprop-graves"):
        opt, _ = rule_of(case)
        params = start(np.float64)
        run_dict(opt, params, np.float64, 2)
        state = opt.state_dict()
        copy = {s: {k: v.copy() for k, v in d.items()} for s, d in state["slots"].items()}
        run_dict(opt, params, np.float64, 2, seed=8)
        for s, d in state["slots"].items():
            for k, v in d.items():
                assert np.array_equal(v, copy[s][k]), (case, s, k)
        assert state["step"] == 2


def test_plain_sgd_and_an_uncentred_rmsprop_keep_no_unused_slot():
    for case, empty in (("sgd0", {"momentum"}), ("rmsprop-momentum", {"avg"})):
        opt, _ = rule_of(case)
        params = start(np.float64)
        run_dict(opt, params, np.float64, 2)
        assert {s for s, d in opt.slots.items() if not d} == empty, case
        assert {s for s, d in opt.state_dict()["slots"].items() if not d} == empty, case
        assert opt.slots_kept() == len(opt.slot_names) - len(empty)


def _to_checkpoint(tmp_path, state, name):
    arrays = {f"optim/{s}/{k}": v for s, d in state["slots"].items() for k, v in d.items()}
    meta = {"model": {"cell": "none"}, "step": state["step"],
            "optimizer": {k: state[k] for k in ("kind", "hyper", "step")}}
    save_checkpoint(str(tmp_path / name), arrays, meta)
    meta, arrays = load_checkpoint(str(tmp_path / name))
    slots = split_arrays(arrays)[1]
    return {**meta["optimizer"], "slots": slots}


@pytest.mark.parametrize("case", list(CASES))
def test_flat_state_through_a_checkpoint_resumes_as_the_uninterrupted_run(tmp_path, case):
    lay = layout()
    rng = np.random.default_rng(11)
    gs = [lay.join({k: rng.normal(size=s) * (1 + i) for k, s in SHAPES.items()}) for i in range(5)]
    p0 = lay.join(start(np.float64))
    whole, _ = rule_of(case)
    p_whole = p0.copy()
    for i, g in enumerate(gs):
        whole.lr = optim.decayed_lr(LR, DECAY, i // STEPS_PER_EPOCH)
        gg = g.copy()
        optim.clip_grad_norm(gg, CLIP)
        whole.step(p_whole, gg)
    first, _ = rule_of(case)
    p = p0.copy()
    for i, g in enumerate(gs[:3]):
        first.lr = optim.decayed_lr(LR, DECAY, i // STEPS_PER_EPOCH)
        gg = g.copy()
        optim.clip_grad_norm(gg, CLIP)
        first.step(p, gg)
    state = _to_checkpoint(tmp_path, first.state_dict(lay), case)
    resumed, _ = rule_of(case)
    resumed.load_state_dict(state, lay)
    assert resumed.step_count == 3
    for i, g in enumerate(gs[3:], start=3):
        resumed.lr = optim.decayed_lr(LR, DECAY, i // STEPS_PER_EPOCH)
        gg = g.copy()
        optim.clip_grad_norm(gg, CLIP)
        resumed.step(p, gg)
    np.testing.assert_allclose(p, p_whole, rtol=1e-12, atol=1e-14)
