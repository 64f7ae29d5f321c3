"""Round 371: the run folder's lock (lnrnn/training/rundir.py) and the memory check (lnrnn/training/memory.py),
checked against their documentation: the lock is DIR/lnrnn.lock holding 'pid host start-time', held until
released, with no note when nothing was taken over and the documented note, word for word, when a lock file
nobody flocks (here naming pid 1 on this host) is taken over; a live pid is alive; check_fits returns
parameters + max(activations, evaluation) + data when the parts fit, nothing when LNRNN_NO_MEMORY_CHECK is set,
and its refusal written out by hand from the formula in its docstring (the parts over 1% of the peak, the hints
over 10%)."""
import os
import socket

import pytest

from lnrnn.errors import UserError
from lnrnn.training import memory
from lnrnn.training.rundir import RunLock, _alive


def test_lock_written_held_and_released(tmp_path):
    out = str(tmp_path)
    lock = RunLock(out).acquire()
    assert lock.held is True
    assert lock.note is None
    path = os.path.join(out, "lnrnn.lock")
    assert lock.path == path
    pid, host, started = open(path).read().split()
    assert (int(pid), host) == (os.getpid(), socket.gethostname())
    assert len(started) == len("2020-01-01T00:00:00") and started[10] == "T"
    lock.release()
    assert lock.held is False
    assert not os.path.exists(path)


def test_unflocked_lock_file_taken_over_with_the_note(tmp_path):
    out = str(tmp_path)
    host = socket.gethostname()
    with open(os.path.join(out, "lnrnn.lock"), "w") as f:
        f.write(f"1 {host} 2020-01-01T00:00:00\n")
    lock = RunLock(out).acquire()
    try:
        assert lock.note == (f"Note: took over the lock of a run in {out} that is no longer running (pid 1 on "
                             f"host {host}, started 2020-01-01T00:00:00).")
    finally:
        lock.release()


def test_own_pid_is_alive():
    assert _alive(os.getpid()) is True


GB, MB = 1 << 30, 1 << 20


def test_check_fits_returns_the_peak(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": 3 * MB, "activations": 5 * MB, "evaluation": 7 * MB, "data": 11}
    assert memory.check_fits(parts, available=64 * GB) == 3 * MB + 7 * MB + 11


def test_documented_variable_skips_the_check(monkeypatch):
    monkeypatch.setenv("LNRNN_NO_MEMORY_CHECK", "1")
    parts = {"parameters": 3 * GB, "activations": 5 * GB, "evaluation": 7 * GB, "data": 0}
    assert memory.check_fits(parts, available=1 * MB) is None


def test_refusal_word_for_word(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": 1 * MB, "activations": 3 * GB, "evaluation": 1 * GB, "data": 0}
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=1 * GB)
    assert str(e.value) == (
        "this run needs about 3.0 GB of memory (activations kept for backpropagation through time 3.0 GB) but "
        "only 1.0 GB is available; try a smaller --batch-size, --hidden or --tbptt (or set "
        "LNRNN_NO_MEMORY_CHECK=1 to try anyway).")
