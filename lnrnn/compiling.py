"""Wall time Numba spends compiling, so that training time can leave it out and users hear about it.

Numba announces every compilation (not loads from its on-disk cache) as a ``numba:compile`` event;
nested compilations (a kernel compiling the helpers it calls) and compilations on the kernels' threads
overlap, so the clock counts the union of those intervals: the seconds during which at least one
compilation was running.

    with CompileClock() as clock:
        ...                       # clock.seconds(): compile seconds so far; clock.busy: compiling now

And what identifies a cached kernel on disk: ``use_kernel_cache(tag)`` puts the BLAS choice into the
cache file names of every function of lnrnn, and checks a function's cache files before Numba reads
them (``KernelCacheLocator`` says why); and it keeps the helpers compiled into a kernel private to it
(``private_helpers``), so that a kernel runs the same code whether it was just compiled or loaded
from the cache; and processes that share a cache folder compile each kernel once between them
(``compile_once``: the others wait for it and load it).
"""
import contextlib
import hashlib
import importlib
import inspect
import os
import pickle
import sys
import threading
import time
import types

try:
    import fcntl
except ImportError:  # Windows: each process compiles for itself
    fcntl = None

import numba
from llvmlite import binding as ll
from numba.core import caching, codegen, config, dispatcher, event, sigutils
from numba.core.compiler_lock import global_compiler_lock

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


# ------------------------------------------------------------------------------------------------
# What identifies a cached kernel
# ------------------------------------------------------------------------------------------------
# numba >= 0.68 names the locator list CacheImpl; 0.60-0.67 call it _CacheImpl.
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_OURS = "lnrnn.compiling.KernelCacheLocator"


def kernel_sources(package=_PACKAGE):
    """The files whose code and constants end up inside compiled kernels: every module of lnrnn/kernels
    and its machinery folders cpu/ and cuda/ (a kernel calls helpers of other modules, and Numba compiles
    them into it) and lnrnn/config.py (its constants are frozen into the code), and this file
    (private_helpers shapes the code)."""
    folder = os.path.join(package, "kernels")
    return sorted([os.path.join(d, f) for d in (folder, os.path.join(folder, "cpu"), os.path.join(folder, "cuda"))
                   for f in os.listdir(d) if f.endswith(".py")]
                  + [os.path.join(package, "config.py"), os.path.join(package, "compiling.py")])


def sources_stamp(paths):
    """(relative name, mtime, size) of each file: part of every lnrnn kernel's cache key, so that a
    changed helper or constant in another module recompiles the kernels that took it in (Numba's own
    stamp is the defining file's alone)."""
    out = []
    for path in paths:
        st = os.stat(path)
        out.append((os.path.basename(path), st.st_mtime, st.st_size))
    return tuple(out)


_KERNEL_STAMP = {"value": None}


def kernel_stamp():
    """sources_stamp(kernel_sources()), taken once per process."""
    if _KERNEL_STAMP["value"] is None:
        _KERNEL_STAMP["value"] = sources_stamp(kernel_sources())
    return _KERNEL_STAMP["value"]


class KernelCacheLocator(caching._CacheLocator):
    """Numba's own cache folder for a function, with lnrnn's BLAS choice in its file names.

    Why: a kernel that calls lnrnn.kernels.cpu.blas is compiled against one choice (MKL's cblas_* symbols,
    or np.dot), and Numba keys its cache on the function's own source and signature only, not on what
    its callees were compiled against. A kernel compiled against MKL and loaded by a process that did
    not load MKL calls an unresolved symbol: the process dies (SIGSEGV). With the choice in the name
    (``lstm.lstm_forward-212-mkl.py311.nbi`` next to ``...-212-numpy...``), each choice reads and writes
    only its own files: no process deletes what another one uses, and two processes with different
    choices can share a cache directory at the same time.

    Which functions: those defined in the lnrnn package, and those of any module whose globals hold
    something of lnrnn (a user's or a benchmark's @njit(cache=True) function that calls lnrnn's
    kernels compiles them into itself). Others are left to Numba's locators unchanged.

    Stale helpers cost a recompile: the source stamp is the function's file's and that of every file
    whose code or constants a kernel compiles in (``kernel_sources``), so that editing or upgrading a
    helper in common.py, batchnorm.py or config.py is never served from code compiled before.

    Unreadable files cost a recompile: Numba raises on a truncated or garbled index or data file, and
    loads whatever a data file holds for the key the index names. Before Numba reads a function's
    index (this runs when the function is decorated), the index is checked: it must unpickle, and each
    data file it names must unpickle and hold the signature of its key. An index that fails is deleted
    (Numba then compiles and writes afresh); so is one naming a data file compiled for the same file
    under another module's name (Numba rebuilds a function's environment by importing its module by
    name: a benchmark that loads a kernel file as a module of its own would leave entries that no other
    process can load). Not detectable here: object code altered inside a well-formed pickle (Numba
    writes no checksum).
    """
    tag = None  # the BLAS choice, set by use_kernel_cache()

    def __init__(self, inner, py_func, py_file):
        self._inner = inner  # the locator Numba would have used: folder and source stamp are its
        self._py_file = py_file  # read by Numba's "cannot cache" warning
        self._lineno = py_func.__code__.co_firstlineno

    def ensure_cache_path(self):
        self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return self._inner.get_source_stamp(), kernel_stamp()

    def get_disambiguator(self):
        return f"{self._inner.get_disambiguator()}-{self.tag}"

    @classmethod
    def from_function(cls, py_func, py_file):
        if cls.tag is None or not _uses_lnrnn(py_func, py_file):
            return None
        for other in _numba_locators():
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                self = cls(inner, py_func, py_file)
                drop_unreadable_index(self.get_cache_path(), _file_base(py_func, self.get_disambiguator()),
                                      self.get_source_stamp(), py_func.__module__)
                return self
        return None


def _uses_lnrnn(py_func, py_file):
    """Defined in lnrnn, or in a module that imported something of lnrnn (see KernelCacheLocator)."""
    if os.path.abspath(py_file).startswith(_PACKAGE):
        return True
    for v in list(getattr(py_func, "__globals__", {}).values()):
        name = v.__name__ if isinstance(v, types.ModuleType) else getattr(v, "__module__", None)
        if isinstance(name, str) and (name == "lnrnn" or name.startswith("lnrnn.")):
            return True
    return False


def _numba_locators():
    """Numba's locators in its order of preference (NUMBA_CACHE_LOCATOR_CLASSES when set), ours left out."""
    if config.CACHE_LOCATOR_CLASSES:
        names = [n.strip() for n in config.CACHE_LOCATOR_CLASSES.split(",") if n.strip() and n.strip() != _OURS]
        found = []
        for n in names:
            module, _, cls = n.rpartition(".")
            found.append(getattr(importlib.import_module(module), cls) if module else getattr(caching, cls))
        return found
    return [c for c in _CACHE_IMPL._locator_classes if c is not KernelCacheLocator]


def _file_base(py_func, disambiguator):
    """The file name base Numba's CompileResultCacheImpl gives a function's cache files (its
    get_filename_base: <module file stem>.<qualname>-<disambiguator>.pyXY<abiflags>)."""
    stem = os.path.splitext(os.path.basename(inspect.getfile(py_func)))[0]
    full = f"{stem}.{py_func.__qualname__}".replace("<", "").replace(">", "")
    return f"{full}-{disambiguator}.py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"


class _Peek(pickle.Unpickler):
    """Reads a data file without rebuilding its Numba environment (a module's globals: 90% of a full
    unpickling's time, 2.4 s for lnrnn's 128 data files on a busy 2-core host): the environment is read
    as the name of the module whose globals it would take; everything else, the signature included, is
    read as Numba reads it."""

    def find_class(self, module, name):
        if (module, name) == ("numba.core.environment", "_rebuild_env"):
            return _env_module
        return super().find_class(module, name)


def _env_module(modname, *args):
    """What _Peek reads in place of Numba's _rebuild_env(modname, consts, env_name): the module's name."""
    return modname


def drop_unreadable_index(folder, base, stamp, module=None):
    """Delete folder/base.nbi when Numba would fail on it or load the wrong code through it; returns
    True when it was deleted. An index of another Numba version or source stamp is left alone (Numba
    ignores it and writes a new one). module: the name of the module the function now belongs to; an
    entry compiled for the same file under another module's name (a benchmark that loads a kernel file
    as a module of its own, a script run as __main__ and later imported) is dropped too: Numba would
    rebuild its environment from that module's globals, and fail where the module does not exist."""
    index = os.path.join(folder, base + ".nbi")
    try:
        with open(index, "rb") as f:
            version = pickle.load(f)
            rest = f.read()
        if version != numba.__version__:
            return False
        saved_stamp, overloads = pickle.loads(rest)
        if saved_stamp != stamp:
            return False
        for key, name in overloads.items():
            try:
                with open(os.path.join(folder, name), "rb") as f:
                    payload = _Peek(f).load()
            except FileNotFoundError:  # Numba compiles that signature again
                continue
            if tuple(payload[3].args) != tuple(key[0]):  # (libdata, fndesc, env, signature, ...)
                raise ValueError(f"{name} holds {payload[3]}, not {key[0]}")
            if module is not None and isinstance(payload[2], str) and payload[2] != module:
                raise ValueError(f"{name} was compiled for module {payload[2]}, not {module}")
        return False
    except FileNotFoundError:
        return False
    except Exception:  # noqa: BLE001 - any failure to read it is what this guards against
        try:
            os.remove(index)
        except OSError:
            pass
        return True


# ------------------------------------------------------------------------------------------------
# The same code whether a kernel was just compiled or loaded from the cache
# ------------------------------------------------------------------------------------------------
MANGLED = "_ZN5lnrnn"  # how Numba's mangled names of lnrnn's functions begin


def private_helpers(optimize):
    """Numba's CPUCodeLibrary._optimize_final_module, made to turn the lnrnn helpers linked into a
    library into private (internal) functions of it first.

    Why: Numba links a copy of every helper a kernel calls into the kernel's module with linkonce_odr
    linkage, which becomes a weak symbol in the object code. When that object is loaded, a call the
    optimizer did not inline resolves to the first definition of the symbol the process has, which is
    the helper's own standalone compilation whenever the helper was compiled (or loaded) before: always
    in a process that compiles the kernel (Numba compiles a kernel's helpers first), never in one that
    loads the kernel from the cache. The two compilations of a helper need not be the same machine
    code (fastmath's reassoc lets LLVM vectorise a sum one way in one module and another way in the
    other), so training gave other bits on a user's first run than on every later one (the BN cells, and
    LN-RNN float32 by 0.15 in head.W after 50 updates on digits: tests/kernels/test_reproducible.py). Private
    helpers are called only by their kernel, whichever process compiled it. Only functions of lnrnn
    change; a user's own Numba code is compiled as Numba compiles it."""
    def optimize_final_module(self):
        for fn in self._final_module.functions:
            if not fn.is_declaration and fn.linkage == ll.Linkage.linkonce_odr and fn.name.startswith(MANGLED):
                fn.linkage = "internal"
        return optimize(self)
    optimize_final_module.lnrnn_private_helpers = True
    return optimize_final_module


# ------------------------------------------------------------------------------------------------
# Processes that share a cache folder compile each kernel once
# ------------------------------------------------------------------------------------------------
COMPILE_WAIT_S = 900.0  # the longest a process waits for another's compilation before compiling itself


@contextlib.contextmanager
def exclusive(path, wait_s):
    """Hold an exclusive lock on the file at path (made if absent) for the with-block, waiting up to wait_s
    seconds for another process's hold to end; yields whether it is held. Not held (the block runs all
    the same) where there is no fcntl (Windows), the file cannot be made, or the wait ran out. A holder
    that dies releases its lock (the system closes its file)."""
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:
            fd = None
    held = False
    try:
        if fd is not None:
            deadline = time.monotonic() + wait_s
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    held = True
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
        yield held
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


def compile_lock_path(disp, sig):
    """The lock file compile_once takes for dispatcher disp and signature sig (a tuple of argument
    types), beside the function's cache files; None where lnrnn does not locate its cache or the
    signature is compiled in this process already."""
    impl = getattr(getattr(disp, "_cache", None), "_impl", None)
    locator = getattr(impl, "locator", None)
    if not isinstance(locator, KernelCacheLocator):
        return None
    args, _ = sigutils.normalize_signature(sig)
    if tuple(args) in disp.overloads:
        return None
    key = hashlib.sha1(repr(tuple(args)).encode()).hexdigest()[:16]
    return os.path.join(locator.get_cache_path(), f"{impl.filename_base}.{key}.lock")


def compile_once(compile):
    """Numba's Dispatcher.compile, made to take a lock file per (function, signature) in the function's
    cache folder first, for the functions whose cache lnrnn locates (KernelCacheLocator).

    Why: processes started together on a cold cache (MPI ranks, a test runner's workers, a user's
    parallel jobs) each compile the same kernels: n processes, n times the compile time, on the same
    cores. With the lock, the first compiles and saves; the others wait (asleep) and then load what it
    saved (Numba's compile reads the cache's index afresh once it holds the lock). The lock is taken
    inside Numba's own in-process compiler lock, so a thread never waits on a file while holding up
    its own process's compiler; a call graph has no cycles, so two processes compiling nested helpers
    never wait on each other in a circle. A lock whose holder died is released by the system; after
    COMPILE_WAIT_S the waiter compiles anyway. Where the folder takes no lock file (read-only, or no
    fcntl: Windows) it compiles as Numba does."""
    def compile_shared(self, sig):
        with global_compiler_lock:
            path = compile_lock_path(self, sig)
            if path is None:
                return compile(self, sig)
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
            except OSError:
                return compile(self, sig)
            with exclusive(path, COMPILE_WAIT_S):
                return compile(self, sig)
    compile_shared.lnrnn_compile_once = True
    return compile_shared


def use_kernel_cache(tag):
    """Cache the functions of lnrnn (and of modules that use it) under file names carrying tag, the
    BLAS choice (see KernelCacheLocator), and keep the helpers compiled into them private
    (private_helpers); lnrnn.kernels.cpu.blas calls it once, before its own kernels."""
    lib = codegen.CPUCodeLibrary
    if not getattr(lib._optimize_final_module, "lnrnn_private_helpers", False):
        lib._optimize_final_module = private_helpers(lib._optimize_final_module)
    if not getattr(dispatcher.Dispatcher.compile, "lnrnn_compile_once", False):
        dispatcher.Dispatcher.compile = compile_once(dispatcher.Dispatcher.compile)
    KernelCacheLocator.tag = tag
    if KernelCacheLocator not in _CACHE_IMPL._locator_classes:
        _CACHE_IMPL._locator_classes.insert(0, KernelCacheLocator)
    if config.CACHE_LOCATOR_CLASSES and _OURS not in config.CACHE_LOCATOR_CLASSES:
        config.CACHE_LOCATOR_CLASSES = _OURS + "," + config.CACHE_LOCATOR_CLASSES  # a user's list replaces Numba's
