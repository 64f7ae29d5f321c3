"""lnrnn/compiling.py on lines earlier value tests leave alone, against their definitions: which functions count
as lnrnn's (a file under the package folder, not a sibling folder whose name begins with lnrnn; a global that is
an lnrnn module or an lnrnn function), Numba's locators with ours left out (NUMBA_CACHE_LOCATOR_CLASSES or
Numba's own list) and ours put first in a user's list, from_function dropping a broken index under the tagged
file name and the full source stamp, private_helpers against a hand table of functions, exclusive's flock
against a lock this test holds (shared, exclusive, released after a while) and given back after its block, and
compile_lock_path's file name as sha1 of the signature's argument types written out here."""
import fcntl
import hashlib
import os
import pickle
import threading
import time
from types import SimpleNamespace

import llvmlite.binding as ll
import numba
from numba import types
from numba.core import caching, config

import lnrnn.config
import lnrnn.kernels.cpu.blas  # noqa: F401  (its import has called use_kernel_cache: the hooks are in place)
from lnrnn import compiling


def _plain(source, env):
    """A function compiled from source with only env as its globals (nothing of lnrnn unless env has it)."""
    ns = dict(env)
    exec(source, ns)  # noqa: S102 - a two-line function written here
    return ns["f"]


def test_uses_lnrnn_by_folder_and_by_globals(tmp_path):
    plain = _plain("def f(x):\n    return x\n", {"os": os})
    here = os.path.dirname(os.path.abspath(lnrnn.config.__file__))          # the package's own folder
    parent = os.path.dirname(here)
    assert compiling._uses_lnrnn(plain, os.path.join(here, "kernels", "k.py")) is True
    # a sibling folder whose name merely begins with the package's: not lnrnn's
    for sibling in (here + "_extra", here + "x", here + ".bak"):
        assert compiling._uses_lnrnn(plain, os.path.join(sibling, "k.py")) is False
    assert compiling._uses_lnrnn(plain, os.path.join(parent, "other", "k.py")) is False
    # globals: an lnrnn module, an lnrnn function, a module whose name only begins with lnrnn
    by_module = _plain("def f(x):\n    return x\n", {"cfg": lnrnn.config})
    assert compiling._uses_lnrnn(by_module, str(tmp_path / "user.py")) is True
    by_function = _plain("def f(x):\n    return x\n", {"kb": compiling.kernel_stamp})
    assert compiling._uses_lnrnn(by_function, str(tmp_path / "user.py")) is True
    lookalike = SimpleNamespace(__module__="lnrnnish")
    assert compiling._uses_lnrnn(_plain("def f(x):\n    return x\n", {"v": lookalike}),
                                 str(tmp_path / "user.py")) is False


def test_numba_locators_leave_ours_out(monkeypatch):
    own = [caching.UserProvidedCacheLocator, compiling.KernelCacheLocator, caching.InTreeCacheLocator]
    monkeypatch.setattr(compiling._CACHE_IMPL, "_locator_classes", own)
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", "")
    assert compiling._numba_locators() == [caching.UserProvidedCacheLocator, caching.InTreeCacheLocator]
    users = "lnrnn.compiling.KernelCacheLocator, InTreeCacheLocator,numba.core.caching.UserProvidedCacheLocator"
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", users)
    assert compiling._numba_locators() == [caching.InTreeCacheLocator, caching.UserProvidedCacheLocator]


def test_use_kernel_cache_puts_ours_first_in_a_users_list(monkeypatch):
    monkeypatch.setattr(compiling.KernelCacheLocator, "tag", compiling.KernelCacheLocator.tag)
    monkeypatch.setattr(compiling._CACHE_IMPL, "_locator_classes", list(compiling._CACHE_IMPL._locator_classes))
    users = "UserProvidedCacheLocator,InTreeCacheLocator"
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", users)
    compiling.use_kernel_cache("t205")
    compiling.use_kernel_cache("t205")                                    # a second call adds nothing
    assert config.CACHE_LOCATOR_CLASSES == "lnrnn.compiling.KernelCacheLocator," + users
    assert compiling._CACHE_IMPL._locator_classes[0] is compiling.KernelCacheLocator
    assert compiling._CACHE_IMPL._locator_classes.count(compiling.KernelCacheLocator) == 1
    assert compiling.KernelCacheLocator.tag == "t205"


class FakeInner:
    folder = None

    @classmethod
    def from_function(cls, py_func, py_file):
        return cls()

    def get_cache_path(self):
        return self.folder

    def get_source_stamp(self):
        return (3.0, 4)

    def get_disambiguator(self):
        return "fake-7"


def kernel_like(x):
    return compiling.MANGLED + x   # a global of lnrnn's: this function counts as using lnrnn


def test_from_function_drops_a_broken_index_under_the_tagged_name(tmp_path, monkeypatch):
    monkeypatch.setattr(FakeInner, "folder", str(tmp_path))
    monkeypatch.setattr(compiling, "_numba_locators", lambda: [FakeInner])
    monkeypatch.setattr(compiling.KernelCacheLocator, "tag", "blas9")
    stamp = ((3.0, 4), compiling.kernel_stamp())                           # Numba's stamp, then the sources'
    base = compiling._file_base(kernel_like, "fake-7-blas9")               # the disambiguator with the tag
    index = tmp_path / (base + ".nbi")
    (tmp_path / "broken.nbc").write_bytes(b"not a pickle")
    index.write_bytes(pickle.dumps(numba.__version__) + pickle.dumps((stamp, {((types.int64,), "x"): "broken.nbc"})))
    loc = compiling.KernelCacheLocator.from_function(kernel_like, __file__)
    assert isinstance(loc, compiling.KernelCacheLocator)
    assert loc.get_source_stamp() == stamp and loc.get_disambiguator() == "fake-7-blas9"
    assert not index.exists()                                              # dropped: its data file is garbled
    monkeypatch.setattr(compiling.KernelCacheLocator, "tag", None)         # no tag: ours stands aside
    assert compiling.KernelCacheLocator.from_function(kernel_like, __file__) is None


def test_private_helpers_by_hand():
    mangled = "_ZN" + str(len("lnrnn")) + "lnrnn"                          # Itanium: N, length, name
    assert compiling.MANGLED == mangled
    odr = ll.Linkage.linkonce_odr
    fns = [SimpleNamespace(name=mangled + "6kernel", is_declaration=False, linkage=odr),           # ours: internal
           SimpleNamespace(name=mangled + "4decl", is_declaration=True, linkage=odr),              # a declaration
           SimpleNamespace(name=mangled + "3ext", is_declaration=False, linkage=ll.Linkage.external),
           SimpleNamespace(name="_ZN5numba4help", is_declaration=False, linkage=odr),              # not ours
           SimpleNamespace(name="cfunc_" + mangled, is_declaration=False, linkage=odr)]
    want = ["internal", odr, ll.Linkage.external, odr, odr]
    calls = []
    wrapped = compiling.private_helpers(lambda self: calls.append(self) or "optimized")
    lib = SimpleNamespace(_final_module=SimpleNamespace(functions=fns))
    assert wrapped(lib) == "optimized" and calls == [lib]
    assert [f.linkage for f in fns] == want


def _lock(path, how):
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    fcntl.flock(fd, how)
    return fd


def test_exclusive_against_locks_held_here(tmp_path):
    path = str(tmp_path / "k.lock")
    with compiling.exclusive(path, 0.0) as held:
        assert held is True
    mine = _lock(path, fcntl.LOCK_EX | fcntl.LOCK_NB)                      # given back after its block
    os.close(mine)
    reader = _lock(path, fcntl.LOCK_SH)                                    # a shared lock also keeps it out
    try:
        with compiling.exclusive(path, 0.1) as held:
            assert held is False
    finally:
        os.close(reader)
    writer = _lock(path, fcntl.LOCK_EX)
    threading.Timer(0.2, os.close, args=(writer,)).start()                 # released while exclusive waits
    t0 = time.monotonic()
    with compiling.exclusive(path, 30.0) as held:
        assert held is True
        other = os.open(path, os.O_RDWR)
        try:                                                              # and it is exclusive
            try:
                fcntl.flock(other, fcntl.LOCK_SH | fcntl.LOCK_NB)
                got = True
            except OSError:
                got = False
            assert got is False
        finally:
            os.close(other)
    assert time.monotonic() - t0 < 30.0


def test_compile_lock_path_by_hand(tmp_path):
    inner = SimpleNamespace(get_cache_path=lambda: str(tmp_path))
    loc = compiling.KernelCacheLocator(inner, kernel_like, __file__)
    disp = SimpleNamespace(_cache=SimpleNamespace(_impl=SimpleNamespace(locator=loc, filename_base="k.f-1-t.py311")),
                           overloads={})
    names = set()
    pair = (types.int64, types.float32)
    for sig, args in (("float64(float64)", (types.float64,)), (pair, pair)):
        key = hashlib.sha1(repr(args).encode()).hexdigest()[:16]
        want = os.path.join(str(tmp_path), "k.f-1-t.py311." + key + ".lock")
        assert compiling.compile_lock_path(disp, sig) == want
        names.add(want)
    assert len(names) == 2                                                 # one lock file per signature
    disp.overloads[(types.float64,)] = object()                            # compiled already: no lock
    assert compiling.compile_lock_path(disp, "float64(float64)") is None
    plain = SimpleNamespace(_cache=SimpleNamespace(_impl=SimpleNamespace(locator=inner, filename_base="x")),
                            overloads={})
    assert compiling.compile_lock_path(plain, "float64(float64)") is None  # Numba's own locator: no lock
