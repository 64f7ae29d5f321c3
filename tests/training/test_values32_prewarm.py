"""lnrnn/training/prewarm.py's children at the edges: a child that cannot be started (Popen's OSError: no memory
to fork, a process limit) leaves the loop to this process, once per kind, and the update goes on; an armed block
left normally reaps its children itself, though no backward waited for them (an update that ran forwards only),
and the wait counts as compiling."""
import errno
import time
import types

import numpy as np
import pytest

from lnrnn.compiling import CompileClock
from lnrnn.model import cells
from lnrnn.training import prewarm


class Child:
    def __init__(self, wait_s=0.0):
        self.wait_s, self.waited, self.killed = wait_s, 0, False

    def wait(self, timeout=None):
        self.waited += 1
        time.sleep(self.wait_s)
        return 0

    def poll(self):
        return 0 if self.waited else None

    def kill(self):
        self.killed = True


def layer(norm="ln", dtype=np.float64):
    return types.SimpleNamespace(cell="lstm", norm=norm, dtype=dtype, device="cpu", I=1, H=4, clip_gates=0.0,
                                 spec=cells.lookup("lstm", norm))


@pytest.fixture
def cold(monkeypatch):
    monkeypatch.setattr(prewarm, "_state", {"armed": False, "children": {}})
    monkeypatch.setattr(prewarm, "_in_cache", lambda fn: False)
    monkeypatch.delenv("LNRNN_PREWARM", raising=False)
    monkeypatch.setattr("lnrnn.config.CACHE", True)


def test_a_child_that_cannot_start_leaves_the_loop_to_this_process_once(cold, monkeypatch):
    tries = []

    def popen(cmd, **kw):
        tries.append(cmd)
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
    monkeypatch.setattr(prewarm.subprocess, "Popen", popen)
    with prewarm.armed():
        prewarm.layer_forward(layer())                  # no exception: the update goes on
        prewarm.layer_forward(layer())                  # the same kind: not tried again
        prewarm.wait()                                  # nothing to wait for
    assert len(tries) == 1
    assert prewarm._state["children"] == {("lstm", "ln", "float64"): None}


def test_leaving_the_armed_block_reaps_children_no_backward_waited_for(cold, monkeypatch):
    kids = []
    monkeypatch.setattr(prewarm.subprocess, "Popen", lambda cmd, **kw: kids.append(Child(wait_s=0.2)) or kids[-1])
    with CompileClock() as clock:
        with prewarm.armed():
            prewarm.layer_forward(layer("ln"))
            prewarm.layer_forward(layer("bn"))
            assert [k.waited for k in kids] == [0, 0]  # forwards only: no backward waited
        assert [k.waited for k in kids] == [1, 1] and not any(k.killed for k in kids)
    assert clock.seconds() >= 0.4                       # the two waits count as compiling
    assert prewarm._state["children"] == {("lstm", "ln", "float64"): None, ("lstm", "bn", "float64"): None}
