"""Cold start: the first update compiles a layer's backward time loop in a second process
while this one compiles the forward (lnrnn.training.prewarm). What is checked:
- kernels.cpu.threads.dry_run: run_chunks/run_synced compile their loop for the arguments' types without
  running it ("compile"), or neither ("skip"), and run as usual outside the block;
- the child (`python -m lnrnn.training.prewarm SPEC`) puts into an empty cache exactly the loop a real layer of
  that kind then calls: a later process at other sizes loads it and compiles no backward loop (a child
  that compiled another signature, for example in another dtype or with the runner's leading
  arguments wrong, fails this);
- the parent's rules: a child only while armed, on the CPU, with the cache on and LNRNN_PREWARM not 0,
  for a loop not cached yet, one per kind of loop; the backward waits for it, the wait counts as
  compile time, and a child past the limit is stopped;
- the layer and the trainer call it where they should (training forwards that keep, the first update).
"""
import json
import os
import subprocess
import sys
import time
import testpaths
import types

import numba
import numpy as np
import pytest

from lnrnn.model import cells

from lnrnn.training import prewarm
from lnrnn.compiling import CompileClock
from lnrnn.kernels.cpu import threads
from lnrnn.model.layers import RecurrentLayer

ROOT = testpaths.ROOT


@numba.njit(cache=False, nogil=True)
def _fill_rows(q, lo, hi, out, v):
    for b in range(lo, hi):
        out[b] = v + q


@numba.njit(cache=False, nogil=True)
def _fill_part(q, n, flags, out, v):
    lo, hi = threads.chunk_bounds(out.shape[0], n, q)
    for b in range(lo, hi):
        out[b] = v


@pytest.mark.parametrize("runner,fn", [("chunks", _fill_rows), ("synced", _fill_part)])
def test_dry_run_compiles_for_the_argument_types_and_runs_nothing(runner, fn):
    out = np.zeros(7, np.float32)
    call = ((lambda: threads.run_chunks(fn, 7, 3, out, np.float32(2.0))) if runner == "chunks" else
            (lambda: threads.run_synced(fn, 3, out, np.float32(2.0))))
    with threads.dry_run("skip"):
        call()
    assert fn.signatures == [] and not out.any()
    with threads.dry_run("compile"):
        call()
    assert not out.any(), "a dry run must not run the loop"
    head = (numba.int64,) * (3 if runner == "chunks" else 2)
    flags = () if runner == "chunks" else (numba.typeof(np.zeros(1, np.int64)),)
    assert fn.signatures == [head + flags + (numba.typeof(out), numba.float32)]
    call()  # outside the block: runs, with the signature the dry run compiled
    assert len(fn.signatures) == 1 and (out >= 2).all()
    with pytest.raises(ValueError):
        with threads.dry_run("run"):
            pass
    assert threads._dry["mode"] is None


CHILD_CHECK = r"""
import json, sys
import numpy as np
from lnrnn.model import cells
from lnrnn.training import prewarm
from lnrnn.model.layers import RecurrentLayer
spec = json.loads(sys.argv[1])
dt = np.dtype(spec["dtype"]).type
T, B = 5, 6
layer = RecurrentLayer(spec["cell"], spec["norm"], spec["I"], spec["H"], dtype=dt, max_steps=T, seed=3)
lengths = np.array([5, 1, 0, 4, 5, 2]) if sys.argv[2] == "masked" else None
rng = np.random.default_rng(0)
y, _ = layer.forward(rng.standard_normal((T, B, spec["I"])).astype(dt), lengths=lengths)
dx, _ = layer.backward(rng.standard_normal((T, B, spec["H"])).astype(dt))
loop = cells.lookup(spec["cell"], spec["norm"]).backward_loop
print(json.dumps({"hits": sum(loop.stats.cache_hits.values()), "misses": sum(loop.stats.cache_misses.values()),
                  "finite": bool(np.isfinite(dx).all() and np.isfinite(y).all())}))
"""


@pytest.mark.parametrize("cell,norm,masked", [("lstm", "ln", False), ("rnn", "bn", True)])
def test_the_child_caches_the_loop_a_real_layer_then_loads(tmp_path, cell, norm, masked):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=ROOT + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    env.pop("LNRNN_NO_CACHE", None)
    child = {"cell": cell, "norm": norm, "I": 3, "H": 9, "dtype": "float32", "clip_gates": 0.0}  # unmasked
    r = subprocess.run([sys.executable, "-m", "lnrnn.training.prewarm", json.dumps(child)], env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    real = dict(child, I=2, H=5)  # other sizes, and a mask: the same loop types
    r = subprocess.run([sys.executable, "-c", CHILD_CHECK, json.dumps(real), "masked" if masked else "full"], env=env,
                       capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["finite"]
    assert got["misses"] == 0 and got["hits"] >= 1, f"the backward loop was compiled again: {got}"


class FakeProc:
    def __init__(self, wait_s=0.0, hang=False):
        self.wait_s, self.hang, self.killed, self.waited = wait_s, hang, False, 0

    def wait(self, timeout=None):
        self.waited += 1
        if self.hang and not self.killed:
            raise subprocess.TimeoutExpired("child", timeout)
        time.sleep(self.wait_s)
        return 0

    def kill(self):
        self.killed = True

    def poll(self):
        return 0 if self.killed or not self.hang else None


@pytest.fixture
def spawns(monkeypatch):
    """prewarm with a fresh state, a cold cache by default, and Popen recorded instead of run."""
    monkeypatch.setattr(prewarm, "_state", {"armed": False, "children": {}})
    monkeypatch.setattr(prewarm, "_in_cache", lambda fn: False)
    monkeypatch.delenv("LNRNN_PREWARM", raising=False)
    monkeypatch.setattr("lnrnn.config.CACHE", True)
    seen = []

    def popen(cmd, env=None, **kw):
        seen.append(json.loads(cmd[-1]))
        assert cmd[1:3] == ["-m", "lnrnn.training.prewarm"]
        assert env["PYTHONPATH"].split(os.pathsep)[0] == ROOT, "the child must import this lnrnn"
        return FakeProc()
    monkeypatch.setattr(prewarm.subprocess, "Popen", popen)
    return seen


def fake_layer(cell="lstm", norm="bn", dtype=np.float32, device="cpu", I=1, H=8):
    return types.SimpleNamespace(cell=cell, norm=norm, dtype=dtype, device=device, I=I, H=H, clip_gates=0.0,
                                 spec=cells.lookup(cell, norm))


def test_a_child_per_kind_of_loop_only_while_armed_and_cold(spawns, monkeypatch):
    prewarm.layer_forward(fake_layer())
    assert spawns == [], "not armed: no child"
    with prewarm.armed():
        prewarm.layer_forward(fake_layer())
        prewarm.layer_forward(fake_layer(I=8))          # a second layer of the same kind
        prewarm.layer_forward(fake_layer(dtype=np.float64))
        prewarm.layer_forward(fake_layer(norm="ln"))
        prewarm.layer_forward(fake_layer(device="cuda"))
    assert [(s["norm"], s["dtype"]) for s in spawns] == [("bn", "float32"), ("bn", "float64"), ("ln", "float32")]
    assert spawns[0] == {"cell": "lstm", "norm": "bn", "I": 1, "H": 8, "dtype": "float32", "clip_gates": 0.0}
    with prewarm.armed():  # waited for on leaving: the same kinds are not started again in this process
        prewarm.layer_forward(fake_layer())
    assert len(spawns) == 3
    with prewarm.armed(False):
        prewarm.layer_forward(fake_layer(cell="rnn"))
    assert len(spawns) == 3


def test_no_child_when_cached_or_switched_off(spawns, monkeypatch):
    monkeypatch.setattr(prewarm, "_in_cache", lambda fn: True)
    with prewarm.armed():
        prewarm.layer_forward(fake_layer())
    monkeypatch.setattr(prewarm, "_in_cache", lambda fn: False)
    monkeypatch.setenv("LNRNN_PREWARM", "0")
    with prewarm.armed():
        prewarm.layer_forward(fake_layer())
    monkeypatch.delenv("LNRNN_PREWARM")
    monkeypatch.setattr("lnrnn.config.CACHE", False)  # LNRNN_NO_CACHE: nothing would reach the parent
    with prewarm.armed():
        prewarm.layer_forward(fake_layer())
    assert spawns == []


def test_in_cache_reads_the_loops_index():
    for row in cells.CELLS.values():
        loop = row.backward_loop
        assert isinstance(loop, numba.core.registry.CPUDispatcher)
        assert prewarm._in_cache(loop) == os.path.exists(loop._cache._cache_file._index_path)
    assert prewarm._in_cache(object()), "unknown internals: treated as cached (no child)"


def test_the_wait_counts_as_compiling_and_a_hung_child_is_stopped(monkeypatch):
    slow, hung = FakeProc(wait_s=0.2), FakeProc(hang=True)
    monkeypatch.setattr(prewarm, "_state", {"armed": False, "children": {"a": slow, "b": hung}})
    with CompileClock() as clock:
        prewarm.wait()
    assert clock.seconds() >= 0.2
    assert slow.waited == 1 and hung.killed and hung.waited == 2
    assert prewarm._state["children"] == {"a": None, "b": None}
    prewarm.wait()  # nothing left to wait for
    assert slow.waited == 1


def test_an_error_in_the_armed_update_stops_the_children_at_once(spawns, monkeypatch):
    procs = []
    monkeypatch.setattr(prewarm.subprocess, "Popen", lambda cmd, **kw: procs.append(FakeProc(hang=True)) or procs[-1])
    with pytest.raises(ValueError, match="bad batch"):
        with prewarm.armed():
            prewarm.layer_forward(fake_layer())
            raise ValueError("bad batch")
    assert len(procs) == 1 and procs[0].killed and procs[0].waited == 1, "killed, then reaped, never waited on"
    assert prewarm._state == {"armed": False, "children": {("lstm", "bn", "float32"): None}}


def test_the_layer_asks_on_training_forwards_that_keep_and_waits_before_backward(monkeypatch):
    from lnrnn.model import layers
    calls = []
    monkeypatch.setattr(prewarm, "layer_forward", lambda layer: calls.append(("forward", layer)))
    monkeypatch.setattr(prewarm, "wait", lambda: calls.append(("wait",)))
    monkeypatch.setattr(prewarm, "enabled", lambda: True)
    layer = RecurrentLayer("rnn", "ln", 2, 3, dtype=np.float64, max_steps=4)
    x = np.ones((4, 2, 2))
    layer.forward(x)
    layer.backward(np.ones((4, 2, 3)))
    assert calls == [], "not armed: the layers have no hooks"
    with prewarm.armed():
        layer.forward(x, keep=False)
        layer.forward(x, training=False)
        assert calls == []
        layer.forward(x, lengths=np.array([4, 2]))
        assert calls == [("forward", layer)]
        layer.backward(np.ones((4, 2, 3)))
        assert calls[-1] == ("wait",)
    assert layers.HOOKS == {"training_forward": None, "before_backward": None}, "taken out again on leaving"


def test_the_trainer_arms_the_first_update_only(tmp_path, monkeypatch):
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import train
    armed_at = []
    monkeypatch.setattr(prewarm, "layer_forward", lambda layer: armed_at.append(prewarm._state["armed"]))
    monkeypatch.setattr(prewarm, "enabled", lambda: True)
    cfg = TrainConfig(task="digits", split="60/30", hidden=4, batch_size=20, epochs=1, max_steps=3,
                      out=str(tmp_path / "run"))
    train(cfg, quiet=True, log=lambda msg: None)
    assert armed_at == [True], "one training forward per update; only the first one armed"
