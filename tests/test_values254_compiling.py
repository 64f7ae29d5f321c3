"""Values of the compile cache's keys and stamps (lnrnn/compiling.py): the kernel sources a stamp covers in a
package tree laid out here, what drop_unreadable_index keeps and deletes among index and data files pickled
here, the lock file of a signature compiled or not (its key worked out with hashlib), and a user's
NUMBA_CACHE_LOCATOR_CLASSES with lnrnn's locator put first once."""
import hashlib
import os
import pickle
import types as pytypes

import numba
import numpy as np
from numba import types
from numba.core import caching

from lnrnn import compiling
from lnrnn.kernels.cpu import blas


def test_kernel_sources_of_a_package_tree(tmp_path):
    for rel in ("kernels/__init__.py", "kernels/a.py", "kernels/notes.txt", "kernels/cpu/c.py",
                "kernels/cpu/c.pyc", "kernels/cuda/d.py", "config.py", "compiling.py", "other.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n")
    pkg = str(tmp_path) + os.sep
    want = [os.path.join(str(tmp_path), *rel.split("/")) for rel in
            ("compiling.py", "config.py", "kernels/__init__.py", "kernels/a.py", "kernels/cpu/c.py",
             "kernels/cuda/d.py")]
    assert compiling.kernel_sources(pkg) == want


def _index(folder, base, stamp, key, data_name, holds, version=None):
    with open(os.path.join(folder, base + ".nbi"), "wb") as f:
        f.write(pickle.dumps(numba.__version__ if version is None else version))
        f.write(pickle.dumps((stamp, {key: data_name})))
    if holds is not None:
        with open(os.path.join(folder, data_name), "wb") as f:
            pickle.dump((None, None, None, pytypes.SimpleNamespace(args=holds)), f)


def test_drop_unreadable_index_keeps_good_and_drops_bad(tmp_path):
    folder, base, stamp = str(tmp_path), "mod.fn-12-tag.py311", ("mod.py", 1.0, 10)
    key = (("int64", "float64"), "cpu")
    nbi = tmp_path / (base + ".nbi")
    _index(folder, base, stamp, key, "mod.fn-12-tag.py311.0.nbc", ("int64", "float64"))
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and nbi.exists()
    # a data file missing: Numba compiles that signature again, the index stays
    (tmp_path / "mod.fn-12-tag.py311.0.nbc").unlink()
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and nbi.exists()
    # a data file holding another signature than its key: deleted
    _index(folder, base, stamp, key, "mod.fn-12-tag.py311.0.nbc", ("float64", "float64"))
    assert compiling.drop_unreadable_index(folder, base, stamp) is True and not nbi.exists()
    # another stamp or Numba version: left alone even with a wrong data file
    _index(folder, base, ("mod.py", 2.0, 10), key, "mod.fn-12-tag.py311.0.nbc", ("float64", "float64"))
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and nbi.exists()
    _index(folder, base, stamp, key, "mod.fn-12-tag.py311.0.nbc", ("float64", "float64"), version="0.0.1")
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and nbi.exists()
    # garbled: deleted; none: nothing to do
    nbi.write_bytes(b"\x80\x04garbled")
    assert compiling.drop_unreadable_index(folder, base, stamp) is True and not nbi.exists()
    assert compiling.drop_unreadable_index(folder, base, stamp) is False


def test_lock_path_only_for_a_signature_not_compiled_here():
    disp = blas.gemm_pack
    disp(np.ones((2, 3)))
    done = (types.Array(types.float64, 2, "C"),)
    assert done in disp.overloads
    assert compiling.compile_lock_path(disp, done) is None
    fresh = (types.Array(types.int16, 2, "C"),)
    impl = disp._cache._impl
    assert isinstance(impl.locator, compiling.KernelCacheLocator)
    key = hashlib.sha1(repr(fresh).encode()).hexdigest()[:16]
    assert compiling.compile_lock_path(disp, fresh) == os.path.join(
        impl.locator.get_cache_path(), f"{impl.filename_base}.{key}.lock")


def test_user_locator_list_gets_ours_first_once(monkeypatch):
    ours = "lnrnn.compiling.KernelCacheLocator"
    tag = compiling.KernelCacheLocator.tag
    # numba >= 0.68 names it UserWideCacheLocator, older ones _UserWideCacheLocator
    user = "UserWideCacheLocator" if hasattr(caching, "UserWideCacheLocator") else "_UserWideCacheLocator"
    monkeypatch.setattr(compiling.config, "CACHE_LOCATOR_CLASSES", user)
    compiling.use_kernel_cache(tag)
    assert compiling.config.CACHE_LOCATOR_CLASSES == ours + "," + user
    compiling.use_kernel_cache(tag)
    assert compiling.config.CACHE_LOCATOR_CLASSES == ours + "," + user
    assert compiling._numba_locators() == [getattr(caching, user)]
    monkeypatch.setattr(compiling.config, "CACHE_LOCATOR_CLASSES", "")
    compiling.use_kernel_cache(tag)
    assert compiling.config.CACHE_LOCATOR_CLASSES == ""
    assert compiling.KernelCacheLocator.tag == tag


class _Env:
    """Pickles as Numba pickles a compiled function's environment: _rebuild_env(module name, consts, name)."""

    def __init__(self, modname):
        self.modname = modname

    def __reduce__(self):
        from numba.core.environment import _rebuild_env
        return _rebuild_env, (self.modname, (), "env")


def test_drop_unreadable_index_drops_an_entry_of_another_module(tmp_path):
    """A data file whose environment names another module than the function's own (the same file loaded
    under another name) is dropped with its index; one naming the function's module, or an index checked
    without a module, stays."""
    folder, base, stamp = str(tmp_path), "mod.fn-12-tag.py311", ("mod.py", 1.0, 10)
    key = (("int64",), "cpu")
    nbi = tmp_path / (base + ".nbi")

    def write(modname):
        _index(folder, base, stamp, key, base + ".0.nbc", None)
        with open(tmp_path / (base + ".0.nbc"), "wb") as f:
            pickle.dump((None, None, _Env(modname), pytypes.SimpleNamespace(args=("int64",))), f)

    write("pkg.mod")
    assert compiling.drop_unreadable_index(folder, base, stamp, "pkg.mod") is False and nbi.exists()
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and nbi.exists()
    write("pkg.ab_new")
    assert compiling.drop_unreadable_index(folder, base, stamp, "pkg.mod") is True and not nbi.exists()
    write("__main__")
    assert compiling.drop_unreadable_index(folder, base, stamp, "pkg.mod") is True and not nbi.exists()


_KERNEL_FILE = '''import lnrnn.kernels.cpu.blas  # lnrnn's cache locator, which takes the functions of a module using lnrnn
from numba import njit


@njit(cache=True)
def twice(x):
    return 2 * x
'''

_LOAD = '''import importlib.util, sys
import lnrnn
spec = importlib.util.spec_from_file_location(sys.argv[2], sys.argv[1])
mod = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = mod
spec.loader.exec_module(mod)
print(mod.twice(21))
'''


def test_a_kernel_file_loaded_under_two_module_names_runs_in_both(tmp_path):
    """The same file loaded as module one_name in one process and as other_name in the next (as
    bench/ab_lstm.py loads a kernel file): the second process prints 42 where Numba's cache would have
    rebuilt the first one's environment from a module that does not exist there (ModuleNotFoundError)."""
    import subprocess
    import sys
    (tmp_path / "kern.py").write_text(_KERNEL_FILE)
    (tmp_path / "load.py").write_text(_LOAD)
    for name in ("one_name", "other_name", "one_name"):
        out = subprocess.run([sys.executable, str(tmp_path / "load.py"), str(tmp_path / "kern.py"), name],
                             capture_output=True, text=True, timeout=300)
        assert (out.returncode, out.stdout.strip()) == (0, "42"), out.stderr[-2000:]
