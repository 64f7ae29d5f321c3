"""lnrnn/compiling.py against its docstrings, with nothing compiled: the compile clock hearing the event Numba
announces a compilation by ("numba:compile", one of Numba's own event kinds) and counting its seconds on a clock
stood in (2.5 s from 10.0 to 12.5); a user's function counted as lnrnn's by what its globals hold (a module of
lnrnn, an object of lnrnn's) and not by names alone; drop_unreadable_index on index and data files pickled here:
an entry compiled under another existing module's name (json) dropped, one under the function's own name kept,
an index cut short after its version (EOFError) deleted; exclusive() holding its lock file against a second
open file for the block and releasing it after; the lock file of compile_lock_path beside the cache files of
lnrnn's locator, one per signature, none once the signature is compiled."""
import fcntl
import os
import pickle
import types as pytypes

import numba
from numba import types
from numba.core import event
from numba.core.typing import signature

from lnrnn import compiling
from lnrnn import config as lnrnn_config
from lnrnn.errors import UserError


# ---- the compile clock ----
def test_the_clock_hears_numbas_compile_event_and_counts_its_seconds(monkeypatch):
    assert "numba:compile" in event._builtin_kinds, "the kind Numba announces compilations by"
    now = {"t": 10.0}
    monkeypatch.setattr(compiling, "time", pytypes.SimpleNamespace(perf_counter=lambda: now["t"]))
    with compiling.CompileClock() as clock:
        assert clock.seconds() == 0.0 and not clock.busy
        with event.trigger_event("numba:compile", data={"dispatcher": None}):
            assert clock.busy
            now["t"] = 11.0
            assert clock.seconds() == 1.0, "a compilation in flight counts up to now"
            now["t"] = 12.5
        assert not clock.busy
        now["t"] = 20.0
        assert clock.seconds() == 2.5, "10.0 to 12.5, and nothing after it ended"


# ---- whose functions lnrnn's locator takes ----
def _function(globals_):
    ns = dict(globals_)
    exec("def f(x):\n    return x\n", ns)
    return ns["f"]


def test_a_users_function_is_lnrnns_by_what_its_globals_hold(tmp_path):
    user = str(tmp_path / "user.py")
    assert compiling._uses_lnrnn(_function({"os": os}), user) is False
    assert compiling._uses_lnrnn(_function({"lnrnn": "lnrnn", "config": "lnrnn.config"}), user) is False, \
        "names and strings are not lnrnn's objects"
    assert compiling._uses_lnrnn(_function({"cfg": lnrnn_config}), user) is True, "a module of lnrnn"
    assert compiling._uses_lnrnn(_function({"Err": UserError}), user) is True, "an object defined in lnrnn"
    inside = os.path.join(compiling._PACKAGE, "kernels", "made_here.py")
    assert compiling._uses_lnrnn(_function({}), inside) is True, "defined in the lnrnn package itself"


# ---- index and data files ----
class _Env:
    """Pickles as Numba pickles a compiled function's environment: _rebuild_env(module name, consts, env name)."""

    def __init__(self, modname):
        self.modname = modname

    def __reduce__(self):
        from numba.core.environment import _rebuild_env
        return _rebuild_env, (self.modname, (), "v369.env." + self.modname)


def _write(folder, base, stamp, module):
    """An index naming one data file for (float64,), the data file holding that signature and an
    environment of module."""
    key = ((types.float64,), "cpu", "magic")
    data = base + ".0.nbc"
    with open(os.path.join(folder, base + ".nbi"), "wb") as f:
        pickle.dump(numba.__version__, f)
        f.write(pickle.dumps((stamp, {key: data})))
    with open(os.path.join(folder, data), "wb") as f:
        pickle.dump((b"lib", "fndesc", _Env(module), signature(types.float64, types.float64)), f)
    return os.path.join(folder, base + ".nbi")


def test_an_entry_of_another_existing_module_is_dropped_and_the_own_kept(tmp_path):
    folder, base, stamp = str(tmp_path), "user.f-3-numpy.py311", (("user.py", 5.0, 77), ())
    nbi = _write(folder, base, stamp, "lnrnn.config")
    assert compiling.drop_unreadable_index(folder, base, stamp, "lnrnn.config") is False
    assert os.path.exists(nbi)
    nbi = _write(folder, base, stamp, "json")  # a module that exists: its environment could be rebuilt
    assert compiling.drop_unreadable_index(folder, base, stamp, "lnrnn.config") is True
    assert not os.path.exists(nbi)


def test_an_index_cut_short_is_deleted(tmp_path):
    folder, base, stamp = str(tmp_path), "user.g-9-mkl.py311", (("user.py", 1.0, 2), ())
    nbi = _write(folder, base, stamp, "lnrnn.config")
    with open(nbi, "rb") as f:
        whole = f.read()
    with open(nbi, "wb") as f:
        f.write(whole[:len(pickle.dumps(numba.__version__)) + 5])  # the version, then 5 bytes of the rest
    assert compiling.drop_unreadable_index(folder, base, stamp, "lnrnn.config") is True
    assert not os.path.exists(nbi)
    assert compiling.drop_unreadable_index(folder, base, stamp, "lnrnn.config") is False, "nothing left to drop"


# ---- the lock ----
def _can_lock(path):
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def test_exclusive_holds_its_file_for_the_block_and_lets_go_after(tmp_path):
    path = str(tmp_path / "k.lock")
    with compiling.exclusive(path, 5.0) as held:
        assert held is True and os.path.exists(path)
        assert not _can_lock(path), "another open file cannot take it during the block"
    assert _can_lock(path), "released when the block ends"


class _FakeInner:
    def __init__(self, folder):
        self.folder = folder

    def get_cache_path(self):
        return self.folder


def test_the_lock_file_sits_beside_the_cache_one_per_signature(tmp_path):
    locator = compiling.KernelCacheLocator(_FakeInner(str(tmp_path)), _function({}), str(tmp_path / "user.py"))
    impl = pytypes.SimpleNamespace(locator=locator, filename_base="user.f-3-numpy.py311")
    disp = pytypes.SimpleNamespace(_cache=pytypes.SimpleNamespace(_impl=impl), overloads={})
    a = compiling.compile_lock_path(disp, (types.float64,))
    b = compiling.compile_lock_path(disp, (types.float32, types.int64))
    assert a is not None and b is not None and a != b
    for p in (a, b):
        assert os.path.dirname(p) == str(tmp_path)
        name = os.path.basename(p)
        assert name.startswith("user.f-3-numpy.py311.") and name.endswith(".lock")
    assert compiling.compile_lock_path(disp, (types.float64,)) == a, "the same signature, the same file"
    disp.overloads[(types.float64,)] = object()
    assert compiling.compile_lock_path(disp, (types.float64,)) is None, "compiled here already"
    other = pytypes.SimpleNamespace(locator=_FakeInner(str(tmp_path)), filename_base="x")
    disp2 = pytypes.SimpleNamespace(_cache=pytypes.SimpleNamespace(_impl=other), overloads={})
    assert compiling.compile_lock_path(disp2, (types.float64,)) is None, "a locator not lnrnn's"

