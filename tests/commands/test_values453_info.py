"""lnrnn info reports and writes nothing: the parallel probe it runs to start Numba's threading layer is compiled for
the call and never cached, so no compiled-code file of it lands next to lnrnn's sources (Numba's in-tree cache) or
in a NUMBA_CACHE_DIR, however often info runs; watched at numba.njit (every function info compiles, with the options
it asks for) and on disk, and the threading line it prints is the probe's answer: the layer Numba chose, and the
thread counts."""
import glob
import os
import sys
import time

import numba

from lnrnn.commands import info as info_mod
from test_cli import assert_ok, invoke

HERE = os.path.dirname(info_mod.__file__)


def cache_files(since):
    roots = [HERE] + ([numba.config.CACHE_DIR] if numba.config.CACHE_DIR else [])
    found = [f for r in roots for ext in ("nbi", "nbc") for f in glob.glob(os.path.join(r, "**", f"*.{ext}"),
                                                                            recursive=True)]
    return sorted(f for f in found if "info." in os.path.basename(f) and os.path.getmtime(f) >= since)


def test_info_compiles_its_probe_for_the_call_and_caches_nothing(monkeypatch):
    asked = []
    real = numba.njit

    def spy(*args, **kw):
        if sys._getframe(1).f_globals["__name__"] == info_mod.__name__:   # (lnrnn's kernels, imported on the way)
            asked.append(kw)
        return real(*args, **kw)
    monkeypatch.setattr(numba, "njit", spy)
    t0 = time.time() - 1
    for _ in range(2):
        r = invoke("info")
        assert_ok(r)
    assert len(asked) == 2 and all(kw.get("cache") is False and kw.get("parallel") is True for kw in asked)
    assert cache_files(t0) == []
    layer, n, cap = info_mod._threading()
    assert layer == numba.threading_layer() and n == numba.get_num_threads() and cap == numba.config.NUMBA_NUM_THREADS
    assert any(layer in ln and str(n) in ln for ln in r.stdout.splitlines() if "thread" in ln.lower())
