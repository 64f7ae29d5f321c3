"""lnrnn/training/update.py's whole host update (forward and backward, the ranks' sums, clipping by the global norm,
the optimizer step) with a stand-in trainer around real models, against the same two updates made here: the
gradient of one process's plain call on the whole batch, clipped in NumPy (g * clip / (norm + CLIP_EPS) where the
norm sqrt(sum g^2) exceeds the clip) and stepped by Adam or SGD with momentum written here in NumPy (Adam in its
textbook form, bias-corrected m and v). A group of one (the plain path) and 2 or 3 coroutine ranks
(test_values43_distributed_shards.Coroutines), truncated BPTT, masks, state noise, BatchNorm, the synthesis
window's text, float64 and float32. The clip binds on the first update (a fraction of its norm).

The checks on the host path with a stand-in model: a finite gradient whose norm overflows (sum of squares past
float64's range) is a diverged run, no step taken; a NaN error from a layer is named by where it came from (the
head's dy, or the recurrent layers' own arrays: the window's dw, a state)."""
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.kernels.optim import CLIP_EPS
from lnrnn.model.models import build_model
from lnrnn.training import distributed, optim
from lnrnn.training.update import HostUpdate
from test_values43_distributed_shards import LENGTHS, MDN, PER_STEP, Coroutines, batch, config

STEP = 11
LR = 0.01


class Stop(Exception):
    pass


def stand_in(model, group, opt, clip, tbptt):
    """What HostUpdate reads of a trainer (its first update made: nothing to prewarm); records the blow-up calls."""
    seen = {"diverged": [], "blown": []}

    def diverged(what, value):
        seen["diverged"].append((what, value))
        raise Stop(what)

    t = NS(cfg=NS(task="npz", reproducible=False, tbptt=tbptt, clip=clip), group=group, first_update_s=1.0,
           stopping=NS(cast_votes=lambda: None), step=STEP, batch_in_epoch=0, epoch=0, votes=np.zeros(3),
           model=model, opt=opt, _diverged=diverged, _blown_up=seen["blown"].append)
    return t, seen


class NumpyAdam:
    def __init__(self, lr, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps, self.k, self.m, self.v = lr, beta1, beta2, eps, 0, 0.0, 0.0

    def step(self, p, g):
        self.k += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.v = self.b2 * self.v + (1 - self.b2) * g * g
        m_hat, v_hat = self.m / (1 - self.b1 ** self.k), self.v / (1 - self.b2 ** self.k)
        return p - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


class NumpySGD:
    def __init__(self, lr, momentum=0.9):
        self.lr, self.mu, self.buf = lr, momentum, 0.0

    def step(self, p, g):
        self.buf = self.mu * self.buf + g
        return p - self.lr * self.buf


OPTIMIZERS = {"adam": (lambda: optim.Adam(lr=LR, beta1=0.9, beta2=0.999, eps=1e-8), lambda: NumpyAdam(LR)),
              "sgd": (lambda: optim.SGD(lr=LR, momentum=0.9), lambda: NumpySGD(LR, 0.9))}


def batches(head, text, dtype):
    return [batch(head, text, seed=s, dtype=dtype) for s in (21, 22)]


def by_hand(cfg, data, lengths, tbptt, kind, clip_fraction):
    """Two updates made here -> (parameters after each, mean losses, norms, clip, count): one process's gradient
    of the whole batch at the parameters of the moment, clipped and stepped in NumPy (float64)."""
    ref = build_model(cfg, seed=3)
    p = ref.flat[0].data.astype(np.float64)
    opt, params, losses, norms, clip = OPTIMIZERS[kind][1](), [], [], [], None
    for u, (x, y, tx) in enumerate(data):
        ref.flat[0].data[...] = p
        means = ref.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=STEP + u, text=tx)
        g = ref.flat[1].data.astype(np.float64)
        norm = float(np.sqrt(np.sum(g * g)))
        if clip is None:
            clip = clip_fraction * norm
        if norm > clip:
            g = g * (clip / (norm + CLIP_EPS))
        p = opt.step(p, g)
        params.append(p.copy())
        losses.append(means["loss"])
        norms.append(norm)
    return params, losses, norms, clip, ref.last_count


def updates_on_ranks(n, cfg, data, lengths, tbptt, kind, clip):
    """HostUpdate twice on n ranks (n = 1: distributed.SINGLE, the plain path) -> [(model, seen, params after
    each update)] a rank."""
    models = [build_model(cfg, seed=3) for _ in range(n)]

    def work(group):
        m = models[group.rank]
        if cfg["norm"] == "bn" and n > 1:
            m.stack.set_batch_reduce(group.allreduce)
        t, seen = stand_in(m, group, OPTIMIZERS[kind][0](), clip, tbptt)
        up, after = HostUpdate(t), []
        for u, (x, y, tx) in enumerate(data):
            t.step = STEP + u
            up(x, y, lengths, tx)
            after.append(m.flat[0].data.copy())
        return m, seen, after

    if n == 1:
        return [work(distributed.SINGLE)]
    return Coroutines(n).run(work)


CASES = [  # cell, head, dtype, tbptt, lengths, text, optimizer, ranks
    ("ln-lstm", PER_STEP, "float64", 2, LENGTHS, False, "adam", 1),
    ("ln-lstm", PER_STEP, "float64", 2, LENGTHS, False, "adam", 3),
    ("ln-lstm", MDN, "float64", 4, LENGTHS, True, "sgd", 1),
    ("ln-lstm", MDN, "float64", 4, LENGTHS, True, "sgd", 2),
    ("bn-lstm", PER_STEP, "float64", None, LENGTHS, False, "adam", 2),
    ("none-rnn", PER_STEP, "float64", 3, None, False, "sgd", 3),
    ("ln-rnn", PER_STEP, "float32", 3, LENGTHS, False, "adam", 1),
]
IDS = [f"{c}-{h['kind']}-{d}-tbptt{t}{'-mask' if ln is not None else ''}{'-text' if tx else ''}-{o}-{n}ranks"
       for c, h, d, t, ln, tx, o, n in CASES]


@pytest.mark.parametrize("cell,head,dtype,tbptt,lengths,text,kind,n", CASES, ids=IDS)
def test_two_host_updates_are_the_clipped_optimizer_steps_made_by_hand(cell, head, dtype, tbptt, lengths, text, kind,
                                                                       n):
    cfg = config(cell, head, dtype, text)
    data = batches(head, text, dtype)
    want, losses, norms, clip, count = by_hand(cfg, data, lengths, tbptt, kind, 0.4)
    assert norms[0] > clip                                       # the clip binds on the first update
    p0 = build_model(cfg, seed=3).flat[0].data.astype(np.float64)
    tol = 1e-4 if dtype == "float32" else 1e-8
    for r, (m, seen, after) in enumerate(updates_on_ranks(n, cfg, data, lengths, tbptt, kind, clip)):
        assert seen["diverged"] == []
        assert seen["blown"] == pytest.approx(losses, rel=10 * tol), f"rank {r}: the losses checked for a blow-up"
        assert m.last_count == count
        for u in range(2):
            step, got = want[u] - p0, after[u].astype(np.float64) - p0
            err = np.abs(got - step).max() / np.abs(step).max()
            assert err <= tol, f"rank {r}, update {u + 1}: parameters {err:.3g} relative to the steps"


# ---- the checks, with a stand-in model ----

def fake_model(grads, error=None):
    """A model whose loss_and_grad leaves ``grads`` as its gradient (or raises ``error``) with a loss of 0.5."""
    m = NS(flat=(NS(data=np.ones(len(grads))), NS(data=np.zeros(len(grads)))), last_sums={}, last_count=1)

    def loss_and_grad(x, y, lengths, tbptt=None, noise_key=None, text=None):
        if error is not None:
            raise error
        m.flat[1].data[...] = grads
        return {"loss": 0.5}

    m.loss_and_grad = loss_and_grad
    return m


@pytest.mark.parametrize("clip", [0.0, 1.0])
def test_a_gradient_whose_norm_overflows_is_a_diverged_run(clip):
    g = np.array([1e200, -1e200, 3.0])                           # finite, but sum g^2 is past float64's range
    m = fake_model(g)
    t, seen = stand_in(m, distributed.SINGLE, optim.SGD(lr=LR, momentum=0.0), clip, None)
    with np.errstate(over="ignore"):
        assert np.all(np.isfinite(g)) and not np.isfinite(np.sum(g * g))
        with pytest.raises(Stop):
            HostUpdate(t)(np.zeros((2, 1, 1)), None, None)
    assert [w for w, _ in seen["diverged"]] == ["gradient norm"] and seen["diverged"][0][1] == np.inf
    assert seen["blown"] == []
    np.testing.assert_array_equal(m.flat[0].data, np.ones(3))   # no step taken


@pytest.mark.parametrize("name,where", [("dy", "gradient from the head"), ("dw", "recurrent activations"),
                                        ("dh", "recurrent activations"), ("h0", "recurrent activations")])
def test_a_nan_from_a_layer_is_named_by_where_it_came_from(name, where):
    m = fake_model(np.zeros(2), ValueError(f"{name} contains NaN or infinite values"))
    t, seen = stand_in(m, distributed.SINGLE, optim.SGD(lr=LR), 1.0, None)
    with pytest.raises(Stop):
        HostUpdate(t)(np.zeros((2, 1, 1)), None, None)
    assert seen["diverged"] == [(where, "NaN or infinite")]
    np.testing.assert_array_equal(m.flat[0].data, np.ones(2))
