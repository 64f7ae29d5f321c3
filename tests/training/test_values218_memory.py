"""lnrnn/training/memory.py on lines earlier value tests leave alone: a BN-LSTM's parameter part with its
BatchNorm statistics counted by hand (rm and rv of (T, width) for x (G), h (G) and c (H), each layer and each
direction); available_bytes from files and sysconf values served here (MemAvailable in kB, a cgroup v2 limit
below and "max", only the available pages when /proc/meminfo cannot be read); check_fits with available=0
refusing (0 bytes is a value, not 'unknown'), and with --steps given naming a smaller --steps first."""
import io
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory
from lnrnn.training.runconfig import TrainConfig
from test_values185_memory import _allocated

T, I, H, OUT = 6, 3, 5, 2
G = 4 * H
GIB = 1 << 30


@pytest.mark.parametrize("bidirectional", [False, True])
def test_bn_lstm_statistics_by_hand(bidirectional):
    D, L = (2 if bidirectional else 1), 2
    W = D * H
    extras = G + G + H + H  # gx, gh (G), gc, bc (H)
    n = D * (I * G + H * G + G + extras) + D * (W * G + H * G + G + extras) + W * OUT + OUT
    stats = D * L * (2 * T * G + 2 * T * G + 2 * T * H)  # rm, rv of x, h (G wide) and c (H wide)
    cfg = TrainConfig(cell="bn-lstm", hidden=H, layers=L, batch_size=2, eval_batch_size=3, skip=False,
                      optimizer="sgd", dtype="float64", bidirectional=bidirectional)
    parts = memory.estimate(cfg, cells.get("bn-lstm"), T, I, OUT, False)
    assert parts["parameters"] == 8 * (n * (3 + _allocated("sgd")) + stats)


def _serve(monkeypatch, files):
    def fake_open(path, *a, **k):
        if path not in files:
            raise FileNotFoundError(path)
        return io.StringIO(files[path])
    monkeypatch.setattr(memory, "open", fake_open, raising=False)


@pytest.mark.parametrize("limit, want", [(str(4 * GIB), 3 * GIB), ("max", 8 * GIB), (str(16 * GIB), 8 * GIB)])
def test_cgroup_limit_by_hand(monkeypatch, limit, want):
    _serve(monkeypatch, {"/proc/meminfo": "MemTotal: 99999999 kB\nMemAvailable: 8388608 kB\n",
                         "/sys/fs/cgroup/memory.max": limit + "\n", "/sys/fs/cgroup/memory.current": f"{GIB}\n"})
    assert memory.available_bytes() == want


def test_sysconf_counts_the_available_pages(monkeypatch):
    _serve(monkeypatch, {})
    pages = {"SC_AVPHYS_PAGES": 100, "SC_PHYS_PAGES": 1000, "SC_PAGE_SIZE": 4096}
    monkeypatch.setattr(os, "sysconf", lambda name: pages[name])
    assert memory.available_bytes() == 100 * 4096


PARTS = {"parameters": 1000, "activations": 5000, "evaluation": 100, "data": 4000}


def test_zero_bytes_available_is_refused(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    with pytest.raises(UserError):
        memory.check_fits(dict(PARTS), available=0)
    assert memory.check_fits(dict(PARTS), available=10000) == 1000 + 5000 + 4000


def test_steps_hint_first(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    # peak 10000: activations 5000, data 4000, parameters 1000 are each at least a tenth of it
    hints = ["a smaller --batch-size, --hidden or --tbptt", "a smaller --steps", "a smaller --hidden or --layers"]
    for steps_option, order in ((False, hints), (True, [hints[1], hints[0], hints[2]])):
        with pytest.raises(UserError) as e:
            memory.check_fits(dict(PARTS), available=1024, steps_option=steps_option)
        assert f"; try {' or '.join(order)} (or set" in str(e.value)
