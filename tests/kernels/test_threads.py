"""threads.run_synced and threads.barrier: the threads that BN cells split their time loop over."""
import os
import threading
import time

import numpy as np
import pytest
from numba import njit

from lnrnn.kernels.cpu.threads import barrier, run_synced


@njit(nogil=True)
def _steps(q, n, flags, log, fail_part, fail_step):
    """Each step: write this part's slot of log[t], meet the others, then check every slot of step t and
    of the step before. A barrier that let a part through early shows up as a slot not yet written
    (0) or already overwritten; log[T, q] counts what this part saw wrong."""
    T = log.shape[0] - 1
    bad = 0
    for t in range(T):
        if q == fail_part and t == fail_step:
            raise ValueError("part failed on purpose")
        log[t, q] = t + 1
        if not barrier(flags, q, n, t + 1):
            return
        for p in range(n):
            if log[t, p] != t + 1:
                bad += 1
    log[T, q] = bad


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_every_part_sees_the_whole_step(n):
    T = 3000
    log = np.zeros((T + 1, n), np.int64)
    run_synced(_steps, n, log, -1, -1)
    assert np.array_equal(log[:T], np.repeat(np.arange(1, T + 1)[:, None], n, axis=1))  # every part ran every step
    assert np.all(log[T] == 0), f"parts saw unfinished steps: {log[T]}"


def test_a_failing_part_releases_the_others_and_raises():
    n, T = 3, 50
    log = np.zeros((T + 1, n), np.int64)
    with pytest.raises(ValueError, match="on purpose"):
        run_synced(_steps, n, log, 1, 7)  # part 1 raises at step 7; parts 0 and 2 wait at that barrier
    # Step 6 was finished by all (part 1 got to step 7 only through barrier 7); part 1 never wrote step 7;
    # whether 0 and 2 wrote theirs depends on when they saw the abort flag (in barrier 7 or 8), but
    # nobody went past step 7, and nobody reached the end.
    assert np.all(log[6] == 7) and log[7, 1] == 0
    assert np.all(log[8:] == 0)
    again = np.zeros((T + 1, n), np.int64)
    run_synced(_steps, n, again, -1, -1)  # the worker threads survived
    assert np.all(again[T - 1] == T) and np.all(again[T] == 0)


def test_calls_from_two_python_threads():
    """Two Python threads calling run_synced at once take turns (a lock); neither deadlocks."""
    n, T = 2, 2000
    logs = [np.zeros((T + 1, n), np.int64) for _ in range(4)]
    threads = [threading.Thread(target=run_synced, args=(_steps, n, log, -1, -1)) for log in logs]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not any(th.is_alive() for th in threads)
    for log in logs:
        assert np.all(log[T - 1] == T) and np.all(log[T] == 0)


FORK_CHECK = r"""
import os, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
from test_threads import _steps
from lnrnn.kernels.cpu.threads import run_synced
n, T = 2, 100
run_synced(_steps, n, np.zeros((T + 1, n), np.int64), -1, -1)  # the parent's workers exist now
pid = os.fork()
if pid == 0:  # child: exit status 0 only when run_synced came back with every step done
    code = 1
    try:
        log = np.zeros((T + 1, n), np.int64)
        run_synced(_steps, n, log, -1, -1)
        code = 0 if np.all(log[T - 1] == T) and np.all(log[T] == 0) else 1
    finally:
        os._exit(code)
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        sys.exit(os.waitstatus_to_exitcode(status))
    time.sleep(0.05)
os.kill(pid, 9)
os.waitpid(pid, 0)
sys.exit(3)  # the forked child hung in run_synced
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_child_starts_its_own_workers():
    """A child forked after the workers exist inherits their inboxes but not the threads; its first
    run_synced must start new ones instead of waiting at the first barrier for ever. The fork happens in
    a fresh interpreter: this process may hold other libraries' threads (JAX's), which a fork must not copy."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", FORK_CHECK, os.path.dirname(os.path.abspath(__file__))],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode != 3, "the forked child hung in run_synced"
    assert r.returncode == 0, r.stderr


# ---- readonly: one compiled time loop whoever calls it ----

def _chunk_functions():
    """The compiled time loops that run_chunks and run_synced run for the cells: {name: dispatcher}."""
    from lnrnn.kernels import bn_lstm, bn_rnn, lstm, rnn
    return {f"{m.__name__.rsplit('.', 1)[1]}.{n}": getattr(m, n)
            for m, names in ((lstm, ("_forward_rows", "_backward_rows")), (rnn, ("_forward_rows", "_backward_rows")),
                             (bn_lstm, ("_forward_part", "_backward_part")),
                             (bn_rnn, ("_forward_part", "_backward_part")))
            for n in names}


def _layer_pass(cell, arrays, frozen):
    """One forward and backward of a layer through the functional pair every caller uses, with every
    array handed in read-only (as the JAX binding hands them) or writable (as a layer's own)."""
    from lnrnn.model.functional import layer_backward, layer_forward

    def ro(a):
        if not frozen or a is None:
            return a
        v = a.view()
        v.flags.writeable = False
        return v
    x, state, params, lengths, dy, buffers = arrays
    x, state, params, dy = ro(x), tuple(ro(s) for s in state), {k: ro(v) for k, v in params.items()}, ro(dy)
    buffers = {k: v.copy() for k, v in buffers.items()}  # a training forward updates them in place: writable
    y, final, res = layer_forward(cell, x, state, params, lengths=ro(lengths), buffers=buffers)
    res = [ro(r) for r in res]
    return layer_backward(cell, res, x, state, params, ro(y), dy, lengths=ro(lengths))


@pytest.mark.parametrize("cell", ["lstm", "ln-lstm", "rnn", "ln-rnn", "bn-lstm", "bn-rnn"])
def test_read_only_inputs_reach_the_same_compiled_time_loop(cell):
    """A caller whose arrays are read-only (the JAX binding's, a saved tuple kept read-only) runs the same
    compiled time loops as one whose arrays are writable: Numba compiles a function again for every
    combination of its arguments' read-only flags (seconds each for a cell's loop), so the kernels hand
    every input to their loops read-only (threads.readonly) and no new signature appears. Both a narrow
    input (I 2: the folded input product) and a wide one (I 40), with lengths and without."""
    from lnrnn.model import cells
    spec = cells.get(cell)
    loops = _chunk_functions()
    rng = np.random.default_rng(0)
    T, B, H = 4, 3, 5
    for I in (2, 40):
        for lengths in (None, np.array([4, 2, 0])):
            params = {n: rng.standard_normal(shape) * 0.3 for n, shape in spec.param_shapes(I, H)}
            state = tuple(rng.standard_normal((B, H)) for _ in range(spec.nstate))
            buffers = {p + n: np.full((T, spec.width(H, w)), 1.0 if p == "rv" else 0.0)
                       for n, w in spec.buffers for p in ("rm", "rv")}
            arrays = (rng.standard_normal((T, B, I)), state, params, lengths, rng.standard_normal((T, B, H)), buffers)
            writable = _layer_pass(cell, arrays, frozen=False)
            before = {n: len(f.signatures) for n, f in loops.items()}
            frozen = _layer_pass(cell, arrays, frozen=True)
            after = {n: len(f.signatures) for n, f in loops.items()}
            grown = {n: (before[n], after[n]) for n in loops if after[n] != before[n]}
            assert not grown, f"{cell} I={I} lengths={lengths}: read-only inputs compiled the loops again: {grown}"
            np.testing.assert_array_equal(frozen[0], writable[0])  # and they compute the same dx
