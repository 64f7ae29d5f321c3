"""lnrnn/training/memory.py, seventeenth pass: the estimate of a two-layer BN-RNN with skip connections, adam,
float32, --tbptt 4 of 7 steps and a per-step head, counted array by array by hand (each weight matrix's rows times
columns, the gains, the BN population statistics, adam's two slots, the 1.25 headroom on what BPTT keeps), and
available_bytes read from stand-in meminfo and cgroup files: MemAvailable in kB, the free pages only when it
is missing, the cgroup v2 limit less its usage capping it, 'max' meaning no cap."""
import io
import os

import pytest

from lnrnn.model import cells
from lnrnn.training import memory
from lnrnn.training.runconfig import TrainConfig


def test_bn_rnn_with_skip_and_adam_counted_by_hand():
    T, I, H, OUT, B, BE = 7, 3, 5, 4, 3, 2
    cfg = TrainConfig(cell="bn-rnn", hidden=H, layers=2, batch_size=B, eval_batch_size=BE, skip=True,
                      optimizer="adam", dtype="float32", tbptt=4)
    parts = memory.estimate(cfg, cells.get("bn-rnn"), T, I, OUT, True, n_data_bytes=999)
    # layer 0: Wx (3, 5), Wh (5, 5), b, gx, gh (5 each); layer 1 reads x and layer 0 (skip): Wx (8, 5)
    # head reads both layers (skip): W (10, 4), b (4)
    params = (3 * 5 + 5 * 5 + 3 * 5) + (8 * 5 + 5 * 5 + 3 * 5) + (10 * 4 + 4)
    assert params == 55 + 80 + 44 == 179
    # BN population statistics: mean and variance of x Wx and of h Wh, H wide, per step, per layer
    stats = 2 * 2 * (2 * T * H)
    # adam keeps m and v: params, grads, m, v and one copy for saving -> 5 copies, 4 bytes each
    assert parts["parameters"] == 4 * (5 * params + stats) == 4 * (895 + 280) == 4700
    # forward keeps 3 H per (layer, step, row) over --tbptt 4 steps; backward's G + H + max(I, H) = 15;
    # the whole batch x over T; the head's outputs on every step (3 copies)
    train = 4 * B * (2 * 3 * H) + 4 * B * (5 + 5 + 5) + T * B * I + 3 * B * (OUT * T)
    assert train == 360 + 180 + 63 + 252 == 855
    assert parts["activations"] == int(1.25 * 4 * train) == 4275
    evaluation = T * BE * (2 * 3 * H) + T * BE * I + 2 * BE * (OUT * T)
    assert parts["evaluation"] == int(1.25 * 4 * evaluation) == 2870
    assert parts["data"] == 999


def test_slots_counted_per_kind():
    assert [memory.slots(k) for k in ("adam", "rmsprop", "rmsprop-graves", "rmsprop-momentum", "sgd")] == \
        [2, 1, 3, 2, 1]


def _files(monkeypatch, files, pages=7, page=4096):
    def fake_open(path, *a, **k):   # by file name: meminfo, cgroup v2's memory.max/.current, v1's
        name = os.path.basename(path)
        if name not in files:
            raise FileNotFoundError(path)
        return io.StringIO(files[name])
    monkeypatch.setattr(memory, "open", fake_open, raising=False)
    monkeypatch.setattr(memory.os, "sysconf",
                        lambda name: {"SC_AVPHYS_PAGES": pages, "SC_PAGE_SIZE": page}[name])


MEMINFO = "MemTotal:       8000 kB\nMemFree:         100 kB\nMemAvailable:    2000 kB\nBuffers:  5 kB\n"


@pytest.mark.parametrize("files, want", [
    ({"meminfo": MEMINFO}, 2000 * 1024),
    # no MemAvailable line: the free pages, 7 of 4096 bytes
    ({"meminfo": "MemTotal: 8000 kB\nMemFree: 100 kB\n"}, 7 * 4096),
    ({}, 7 * 4096),
    # cgroup v2: 1048576 allowed, 48576 used -> 1000000 left, less than MemAvailable
    ({"meminfo": MEMINFO, "memory.max": "1048576\n",
      "memory.current": "48576\n"}, 1000000),
    # a cgroup allowing more than MemAvailable does not raise it
    ({"meminfo": MEMINFO, "memory.max": "9999999\n",
      "memory.current": "1\n"}, 2000 * 1024),
    # used past the limit: nothing left
    ({"meminfo": MEMINFO, "memory.max": "1000\n",
      "memory.current": "5000\n"}, 0),
    # v2 says 'max': no cap, and the v1 files are not read after it
    ({"meminfo": MEMINFO, "memory.max": "max\n", "memory.current": "10\n",
      "memory.limit_in_bytes": "4096\n",
      "memory.usage_in_bytes": "96\n"}, 2000 * 1024),
    # cgroup v1 only: 4096 - 96
    ({"meminfo": MEMINFO, "memory.limit_in_bytes": "4096\n",
      "memory.usage_in_bytes": "96\n"}, 4000),
])
def test_available_bytes_from_meminfo_pages_and_cgroup(monkeypatch, files, want):
    _files(monkeypatch, files)
    assert memory.available_bytes() == want
