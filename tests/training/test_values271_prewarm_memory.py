"""Prewarming and the memory plan by hand. Prewarm: the spec a child is started with (a layer of I=3, H=5,
float64 and clip 2, so swapped sizes or types show); the hook an armed block installs before a backward waits for
the children with the documented 600 s bound (stopping them would kill a compile in flight); wait() goes on past a
key whose child never started. Memory: MemAvailable read (not MemFree, listed first) and capped by the cgroup's
limit minus usage, whichever is smaller; a plain RNN's activations and evaluation counted by hand at T=11, B=3,
eval batch 7 on the CPU and on CUDA (only the batch x is on the host there); the refusal word for word."""
import subprocess

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells, layers
from lnrnn.training import memory, prewarm
from lnrnn.training.runconfig import TrainConfig
from test_prewarm import fake_layer, spawns  # noqa: F401  (the fixture: Popen recorded, a cold cache)
from test_values218_memory import _serve

GIB, MIB = 1 << 30, 1 << 20


class _Recorder:
    """A child process that only notes what was asked of it; slow: still compiling when a timeout is given."""
    def __init__(self, slow=False):
        self.calls, self.slow = [], slow

    def wait(self, timeout=None):
        self.calls.append(("wait", timeout))
        if self.slow and timeout is not None:
            raise subprocess.TimeoutExpired(["python"], timeout)
        return 0

    def poll(self):
        self.calls.append(("poll",))
        return None

    def kill(self):
        self.calls.append(("kill",))


def test_the_child_gets_the_layers_own_sizes_type_and_clip(spawns):  # noqa: F811
    layer = fake_layer(cell="lstm", norm="ln", dtype=np.float64, I=3, H=5)
    layer.clip_gates = 2
    with prewarm.armed():
        prewarm.layer_forward(layer)
    assert spawns == [{"cell": "lstm", "norm": "ln", "I": 3, "H": 5, "dtype": "float64", "clip_gates": 2.0}]


def test_the_backward_hook_waits_for_the_child_with_the_documented_bound(spawns, monkeypatch):  # noqa: F811
    proc = _Recorder()
    monkeypatch.setattr(prewarm.subprocess, "Popen", lambda cmd, **kw: proc)
    with prewarm.armed():
        layers.HOOKS["training_forward"](fake_layer())
        layers.HOOKS["before_backward"]()
        assert proc.calls == [("wait", 600.0)], "waited for, with WAIT_S = 600 s; never killed"
        assert prewarm._state["children"] == {("lstm", "bn", "float32"): None}
    assert proc.calls == [("wait", 600.0)], "leaving the block has nothing more to wait for"


def test_wait_goes_on_past_a_child_that_never_started(monkeypatch):
    proc = _Recorder()
    monkeypatch.setattr(prewarm, "_state", {"armed": False, "children": {("rnn", "ln", "float32"): None,
                                                                         ("lstm", "bn", "float64"): proc}})
    prewarm.wait()
    assert proc.calls == [("wait", 600.0)]
    assert prewarm._state["children"] == {("rnn", "ln", "float32"): None, ("lstm", "bn", "float64"): None}


def test_memavailable_not_memfree_and_the_smaller_of_it_and_the_cgroups_room(monkeypatch):
    meminfo = "MemTotal: 99999999 kB\nMemFree: 1000 kB\nMemAvailable: 7777777 kB\nBuffers: 5 kB\n"
    _serve(monkeypatch, {"/proc/meminfo": meminfo})
    assert memory.available_bytes() == 7777777 * 1024
    # cgroup v2: limit 5 GiB, 1 GiB + 3 bytes used -> 4 GiB - 3 bytes of room, below MemAvailable (about 7.4 GiB)
    _serve(monkeypatch, {"/proc/meminfo": meminfo, "/sys/fs/cgroup/memory.max": f"{5 * GIB}\n",
                         "/sys/fs/cgroup/memory.current": f"{GIB + 3}\n"})
    assert memory.available_bytes() == 4 * GIB - 3


def _rnn_cfg(device):
    return TrainConfig(cell="rnn", hidden=5, layers=2, batch_size=3, eval_batch_size=7, skip=False,
                       optimizer="sgd", dtype="float32", device=device)


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_a_plain_rnns_activations_and_evaluation_by_hand(device):
    T, I, OUT, H, L, B, Be = 11, 3, 4, 5, 2, 3, 7
    parts = memory.estimate(_rnn_cfg(device), cells.get("rnn"), T, I, OUT, False)
    if device == "cuda":   # the activations live on the GPU: only the batch x (T, B, I) is counted, 4 bytes each
        assert parts["activations"] == 4 * 11 * 3 * 3 == 396
        assert parts["evaluation"] == 4 * 11 * 7 * 3 == 924
        return
    # the RNN forward saves h and the preactivation (2 H per step and row) in each of the 2 layers: 20 per (t, b)
    saved = L * 2 * H
    # backward's working set: dL/dpre (G = H), dL/dy (H), dL/dx (max(I, H)); the batch x; 3 x the head's B x OUT
    train = T * B * saved + T * B * (H + H + max(I, H)) + T * B * I + 3 * B * OUT
    assert train == 660 + 495 + 99 + 36
    assert parts["activations"] == int(1.25 * 4 * 1290) == 6450
    evaluation = T * Be * saved + T * Be * I + 2 * Be * OUT
    assert evaluation == 1540 + 231 + 56
    assert parts["evaluation"] == int(1.25 * 4 * 1827) == 9135


def test_the_refusal_word_for_word(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": 300 * MIB, "activations": 2560 * MIB, "evaluation": 1000, "data": 100 * MIB}
    # peak: 300 + 2560 + 100 = 2960 MiB = 2.89 GiB; hints from parts of at least 296 MiB (activations, parameters)
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=700 * MIB)
    assert str(e.value) == (
        "this run needs about 2.9 GB of memory (activations kept for backpropagation through time 2.5 GB, "
        "parameters, gradients and optimizer state 300.0 MB, the task's sequences 100.0 MB) but only 700.0 MB is "
        "available; try a smaller --batch-size, --hidden or --tbptt or a smaller --hidden or --layers "
        "(or set LNRNN_NO_MEMORY_CHECK=1 to try anyway).")
    assert memory.check_fits(parts, available=2960 * MIB) == 2960 * MIB, "exactly the peak available: it fits"
