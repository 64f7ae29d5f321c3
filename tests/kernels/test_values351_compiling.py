"""Round 351 (tests/mutants/mutants_values351.py): the compile clock and the compiled-kernel cache, by value.
CompileClock over nested compile events on a stand-in clock (the union of the intervals worked out by hand);
which files take lnrnn's locator (a folder beside the package whose name begins the same does not); compile_once
taking its lock file, a file beside the function's cache files, for the wait COMPILE_WAIT_S; use_kernel_cache
putting lnrnn's locator first in Numba's list, once; an index of this Numba version whose stamp and overloads are
cut short deleted (and the data file left)."""
import os
import pickle

import numba
from numba.core import caching, event

from lnrnn import compiling
from test_values178_rec_choice import Clock
from test_values284_compiling import _function
from test_values488_compile_lock_folder import recorded


def test_compile_clock_counts_the_union_of_nested_compilations(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(compiling, "time", clock)
    with compiling.CompileClock() as cc:
        for t, what in ((1.0, "start"), (2.0, "start"), (3.0, "end")):   # a kernel compiling a helper inside it
            clock.t = t
            (event.start_event if what == "start" else event.end_event)(compiling.KIND)
        clock.t = 4.0
        assert cc.busy and cc.seconds() == 3.0       # 1 -> 4, the outer compilation still running
        clock.t = 5.0
        event.end_event(compiling.KIND)
        assert not cc.busy and cc.seconds() == 4.0
        clock.t = 7.0
        event.start_event(compiling.KIND)
        clock.t = 9.5
        event.end_event(compiling.KIND)
        clock.t = 20.0
        assert cc.seconds() == 6.5                   # 1 -> 5 and 7 -> 9.5
    clock.t = 30.0
    event.start_event(compiling.KIND)                # after the block: no longer listening
    event.end_event(compiling.KIND)
    assert cc.seconds() == 6.5


def test_a_folder_beside_the_package_is_not_lnrnns(tmp_path):
    package = compiling._PACKAGE                      # the package folder, with its separator
    f, _ = _function(tmp_path)
    assert compiling._uses_lnrnn(f, os.path.join(package, "kernels", "lstm.py")) is True
    assert compiling._uses_lnrnn(f, os.path.join(package, "a.py")) is True
    beside = package.rstrip(os.sep)
    assert compiling._uses_lnrnn(f, os.path.join(beside + "_extras", "kernels.py")) is False
    assert compiling._uses_lnrnn(f, beside + "x.py") is False


def test_compile_once_takes_its_lock_file_beside_the_cache(monkeypatch, tmp_path):
    lock = tmp_path / "cache" / "lstm.forward-7-numpy.py311.0123abcd.lock"
    monkeypatch.setattr(compiling, "compile_lock_path", lambda disp, sig: str(lock))
    real = compiling.exclusive
    waits, held_inside = recorded(monkeypatch), []

    def compile(disp, sig):
        with real(str(lock), 0.0) as second:           # another holder's try while compiling: refused
            held_inside.append(second)
        return ("compiled", disp, sig)
    shared = compiling.compile_once(compile)
    assert shared("disp", ("float32[:]",)) == ("compiled", "disp", ("float32[:]",))
    assert waits == [(str(lock), compiling.COMPILE_WAIT_S)] and held_inside == [False]
    assert lock.is_file() and os.listdir(tmp_path / "cache") == [lock.name]
    monkeypatch.setattr(compiling, "compile_lock_path", lambda disp, sig: None)   # not lnrnn's: no lock at all
    assert shared("other", ("int64",)) == ("compiled", "other", ("int64",)) and len(waits) == 1


def test_use_kernel_cache_puts_lnrnns_locator_first_once(monkeypatch):
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    numbas = [c for c in impl._locator_classes if c is not compiling.KernelCacheLocator]
    monkeypatch.setattr(impl, "_locator_classes", list(numbas))
    monkeypatch.setattr(compiling.KernelCacheLocator, "tag", compiling.KernelCacheLocator.tag)
    monkeypatch.setattr(compiling.config, "CACHE_LOCATOR_CLASSES", "")
    compiling.use_kernel_cache("mkl-rgemm-blas")
    assert impl._locator_classes == [compiling.KernelCacheLocator] + numbas
    assert compiling.KernelCacheLocator.tag == "mkl-rgemm-blas"
    compiling.use_kernel_cache("numpy-blas-blas")
    assert impl._locator_classes == [compiling.KernelCacheLocator] + numbas
    assert compiling.KernelCacheLocator.tag == "numpy-blas-blas"
    assert compiling._numba_locators() == numbas


def test_an_index_cut_short_after_its_version_is_deleted(tmp_path):
    base, stamp = "rnn.step-12-numpy-rgemm-blas.py311", ("rnn.py", 2.0, 40)
    data = tmp_path / (base + ".1.nbc")
    data.write_bytes(pickle.dumps((None, None, None, None)))
    whole = pickle.dumps((stamp, {(("float64",), "cpu"): data.name}))
    nbi = tmp_path / (base + ".nbi")
    nbi.write_bytes(pickle.dumps(numba.__version__) + whole[:len(whole) // 2])
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is True
    assert os.listdir(tmp_path) == [data.name]
