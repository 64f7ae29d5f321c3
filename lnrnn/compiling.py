"""Wall time Numba spends compiling, so that training time can leave it out and users hear about it.

Numba announces every compilation (not loads from its on-disk cache) as a ``numba:compile`` event;
nested compilations (a kernel compiling the helpers it calls) and compilations on the kernels' threads
overlap, so the clock counts the union of those intervals: the seconds during which at least one
compilation was running.

    with CompileClock() as clock:
        ...                       # clock.seconds(): compile seconds so far; clock.busy: compiling now
"""
import threading
import time

from numba.core import event

KIND = "numba:compile"


class CompileClock(event.Listener):
    def __init__(self):
        self._lock = threading.Lock()
        self._depth = 0
        self._since = 0.0
        self._total = 0.0

    def on_start(self, ev):
        with self._lock:
            if self._depth == 0:
                self._since = time.perf_counter()
            self._depth += 1

    def on_end(self, ev):
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                self._total += time.perf_counter() - self._since

    def seconds(self):
        with self._lock:
            return self._total + (time.perf_counter() - self._since if self._depth else 0.0)

    @property
    def busy(self):
        return self._depth > 0

    def __enter__(self):
        event.register(KIND, self)
        return self

    def __exit__(self, *exc):
        event.unregister(KIND, self)
