"""lnrnn/training/update.py on stand-ins (no accelerator needed): the device update's bookkeeping with its two
kernels replaced by functions that write the metrics the test chooses, and the host update's choice of
prewarming on a group of ranks.

A fresh DeviceUpdate has nothing to bring back; after an update sync_host pulls the parameters once, and a
second sync_host with no update between pulls nothing. The checks read the copied metrics: a NaN loss sum is a
diverged run named "training loss"; an infinite gradient norm beside a finite loss is "gradient norm" with the norm
itself; the loss handed on is the first sum over the update's count, worked out here. A group of two ranks on
its first update arms no prewarm (only a lone process compiles in a second one); a lone --reproducible process
does."""
import contextlib
import math
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.kernels import optim_cuda
from lnrnn.kernels.cuda import arrays_cuda
from lnrnn.training import distributed, prewarm
from lnrnn.training.update import DeviceUpdate, HostUpdate


class Diverged(Exception):
    pass


class Metrics:
    """The device's (3,) metrics: slices are views the stand-in kernels write through."""

    def __init__(self):
        self.a = np.zeros(3)

    def __getitem__(self, s):
        return NS(a=self.a, s=s)

    def copy_to_host(self):
        return self.a.copy()


def device_trainer(monkeypatch, sums, norm, count=4):
    """A trainer whose update on the device leaves the head's sums `sums` and the gradient norm `norm`."""
    calls = NS(pulls=0, steps=0, blown=[], kw=None)
    monkeypatch.setattr(arrays_cuda, "zeros", lambda shape, dtype: Metrics())

    def clip(g, clip_value, out):
        out.a[out.s] = norm
    monkeypatch.setattr(optim_cuda, "clip_grad_norm", clip)

    def loss_and_grad_on_device(x, y, out, **kw):
        calls.kw = kw
        out.a[out.s] = sums
        model.last_count = count

    def pull_params():
        calls.pulls += 1

    def mean(s, n):
        return {"loss": s["loss"] / n, "acc": s["acc"] / n}

    def diverged(what, value):
        raise Diverged(what, value)

    def step(p, g):
        calls.steps += 1

    model = NS(device_buffers=lambda: (NS(data="p"), NS(data="g")), loss_and_grad_on_device=loss_and_grad_on_device,
               head=NS(metrics=("loss", "acc"), mean=mean), last_host_sums={}, last_count=None,
               pull_params=pull_params)
    t = NS(model=model, cfg=NS(tbptt=None, clip=1.0, task="npz"), step=5, epoch=0, batch_in_epoch=0,
           opt=NS(step=step), _diverged=diverged, _blown_up=calls.blown.append)
    return t, calls


X = np.zeros((3, 2, 1))


def test_sync_host_pulls_once_per_update_and_never_before_one(monkeypatch):
    t, calls = device_trainer(monkeypatch, [1.2, 3.0], 0.5)
    u = DeviceUpdate(t)
    u.sync_host()
    assert calls.pulls == 0                       # nothing was updated on the device yet
    u(X, None, None)
    assert calls.steps == 1 and calls.pulls == 0
    u.sync_host()
    u.sync_host()
    assert calls.pulls == 1                       # the second one finds the host up to date
    u(X, None, None)
    u.sync_host()
    assert calls.pulls == 2


def test_the_loss_handed_on_is_the_first_sum_over_the_count(monkeypatch):
    t, calls = device_trainer(monkeypatch, [1.2, 3.0], 0.5, count=4)
    DeviceUpdate(t)(X, None, None)
    assert calls.blown == [pytest.approx(0.3, rel=1e-12)]      # 1.2 / 4
    assert t.model.last_sums == {"loss": 1.2, "acc": 3.0, "seqs": 2.0}   # B = 2 rows, none empty
    assert calls.kw["noise_key"] == 5


def test_a_nan_loss_sum_is_a_diverged_training_loss(monkeypatch):
    t, calls = device_trainer(monkeypatch, [np.nan, 3.0], 0.5)
    with pytest.raises(Diverged) as e:
        DeviceUpdate(t)(X, None, None)
    assert e.value.args[0] == "training loss" and math.isnan(e.value.args[1])
    assert calls.blown == []


def test_an_infinite_norm_beside_a_finite_loss_is_named_with_the_norm(monkeypatch):
    t, calls = device_trainer(monkeypatch, [1.2, 3.0], np.inf)
    with pytest.raises(Diverged) as e:
        DeviceUpdate(t)(X, None, None)
    assert e.value.args == ("gradient norm", np.inf)
    assert calls.blown == []


def _host_trainer(monkeypatch, size, reproducible, first):
    armed = []

    @contextlib.contextmanager
    def arm(on):
        armed.append(on)
        yield
    monkeypatch.setattr(prewarm, "armed", arm)
    for name in ("loss_and_grad", "loss_and_grad_blocks"):
        monkeypatch.setattr(distributed, name, lambda *a: {"loss": 0.5})
    t = NS(cfg=NS(reproducible=reproducible, tbptt=None), group=NS(size=size), first_update_s=None if first else 2.0,
           stopping=NS(cast_votes=lambda: None), model=None, step=1, votes=None)
    return t, armed


@pytest.mark.parametrize("size, reproducible, first, want", [
    (2, False, True, False), (2, True, True, False), (1, True, True, True), (1, True, False, False),
    (3, False, False, False)])
def test_only_a_lone_process_prewarms_on_its_first_update(monkeypatch, size, reproducible, first, want):
    t, armed = _host_trainer(monkeypatch, size, reproducible, first)
    assert HostUpdate(t).loss_and_grad(X, None, None) == {"loss": 0.5}
    assert armed == [want]
