"""lnrnn/compiling.py in numbers: the compile clock on a stand-in clock (nested and overlapping compilations
count once, as the union of their intervals), and the files whose edits change every kernel's cache key."""
import os
from types import SimpleNamespace

from lnrnn import compiling


def test_compile_clock_counts_the_union_of_nested_intervals(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(compiling, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    clock = compiling.CompileClock()
    events = [(0.0, "start"), (2.0, "start"), (3.0, "end"), (4.0, "start"), (4.5, "end"), (5.0, "end"),
              (10.0, "start"), (11.0, "end")]
    seen = []
    for t, what in events:
        now[0] = t
        (clock.on_start if what == "start" else clock.on_end)(None)
        seen.append((clock.busy, clock.seconds()))
    # busy from 0 to 5 and from 10 to 11; a nested compilation adds nothing of its own
    assert seen == [(True, 0.0), (True, 2.0), (True, 3.0), (True, 4.0), (True, 4.5), (False, 5.0),
                    (True, 5.0), (False, 6.0)]
    now[0] = 20.0
    assert clock.seconds() == 6.0                     # idle time is not counted


def test_every_kernel_takes_in_config_and_this_module():
    """A change to config.py (constants frozen into the code) or compiling.py (which shapes the compiled code)
    must change the cache key of every kernel, as one to any module under lnrnn/kernels does."""
    package = os.path.dirname(os.path.abspath(compiling.__file__))
    sources = compiling.kernel_sources()
    assert os.path.join(package, "config.py") in sources
    assert os.path.join(package, "compiling.py") in sources
    assert os.path.join(package, "kernels", "cpu", "blas.py") in sources
    assert sources == sorted(sources)
