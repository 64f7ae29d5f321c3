"""lnrnn/compiling.py by value: CompileClock under a clock set by hand (nested compilations counted once,
from the outer start to the outer end; busy only between them), kernel_stamp against sources_stamp of
kernel_sources recomputed here from os.stat, and exclusive() yielding False while another open file holds
the lock (or where the lock file cannot be made) and True once it is free."""
import os
from types import SimpleNamespace

import pytest

from lnrnn import compiling


def test_nested_compilations_count_once(monkeypatch):
    now = {"t": 0.0}
    monkeypatch.setattr(compiling, "time", SimpleNamespace(perf_counter=lambda: now["t"]))
    clock = compiling.CompileClock()
    assert not clock.busy and clock.seconds() == 0.0
    for t, what in [(1.0, "start"), (2.0, "start"), (5.0, "end")]:
        now["t"] = t
        getattr(clock, "on_" + what)(None)
    now["t"] = 6.0
    assert clock.busy and clock.seconds() == pytest.approx(6.0 - 1.0)
    now["t"] = 10.0
    clock.on_end(None)
    assert not clock.busy
    now["t"] = 20.0
    assert clock.seconds() == pytest.approx(10.0 - 1.0)  # seconds from the outer start to the outer end


def test_kernel_stamp_is_the_sources_stamp(monkeypatch):
    monkeypatch.setitem(compiling._KERNEL_STAMP, "value", None)
    stamp = compiling.kernel_stamp()
    paths = compiling.kernel_sources()
    want = tuple((os.path.basename(p), os.stat(p).st_mtime, os.stat(p).st_size) for p in paths)
    assert stamp == want and len(stamp) == len(paths) > 2
    assert compiling.kernel_stamp() is stamp  # computed once


@pytest.mark.skipif(compiling.fcntl is None, reason="no fcntl: exclusive() never holds a lock")
def test_exclusive_yields_whether_the_lock_is_held(tmp_path):
    fcntl = compiling.fcntl
    path = str(tmp_path / "k.lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another holder (flock locks an open file, not a process)
        with compiling.exclusive(path, 0.1) as held:
            assert held is False
    finally:
        os.close(fd)
    with compiling.exclusive(path, 1.0) as held:
        assert held is True


def test_exclusive_without_a_lock_file_holds_nothing(tmp_path):
    with compiling.exclusive(str(tmp_path / "missing" / "k.lock"), 0.1) as held:
        assert held is False
