"""lnrnn/compiling.py by value: a cached kernel's source stamp is Numba's stamp of its own file together with the
(name, mtime, size) of every kernel module (kernels/, its cpu/ and cuda/), config.py and compiling.py, read here
with os.stat; before use_kernel_cache has chosen the BLAS no function gets lnrnn's locator (no '-None' file names);
and the compile lock of a signature is named after its types, whichever way the signature is spelled, and is not
taken once the signature is compiled."""
import hashlib
import os

import numba
import numpy as np

import lnrnn
import lnrnn.kernels.cpu.blas  # noqa: F401  (installs lnrnn's cache locator with the BLAS choice)
from lnrnn import compiling
from lnrnn.compiling import KernelCacheLocator


def _plus_two(x):
    return x + np.float64(2.0)   # np and lnrnn in this module's globals: the function counts as lnrnn's


def _stamp_by_hand():
    package = os.path.dirname(lnrnn.__file__)
    kernels = os.path.join(package, "kernels")
    paths = [os.path.join(d, f) for d in (kernels, os.path.join(kernels, "cpu"), os.path.join(kernels, "cuda"))
             for f in os.listdir(d) if f.endswith(".py")]
    paths += [os.path.join(package, "config.py"), os.path.join(package, "compiling.py")]
    return tuple((os.path.basename(p), os.stat(p).st_mtime, os.stat(p).st_size) for p in sorted(paths))


def test_the_source_stamp_is_the_files_and_every_kernel_sources():
    loc = numba.njit(cache=True)(_plus_two)._cache._impl.locator
    assert isinstance(loc, KernelCacheLocator)
    own, kernels = loc.get_source_stamp()
    assert own == loc._inner.get_source_stamp()                   # Numba's stamp of the function's own file
    assert kernels == _stamp_by_hand()
    assert {"config.py", "compiling.py", "blas.py", "bn_parts.py"} <= {name for name, _, _ in kernels}


def test_no_locator_of_lnrnns_before_the_blas_is_chosen(monkeypatch):
    tag = KernelCacheLocator.tag
    assert tag
    loc = KernelCacheLocator.from_function(_plus_two, __file__)
    assert loc is not None and loc.get_disambiguator().endswith(f"-{tag}")
    monkeypatch.setattr(KernelCacheLocator, "tag", None)
    assert KernelCacheLocator.from_function(_plus_two, __file__) is None
    kernel = lnrnn.kernels.cpu.blas.__file__                      # a function of the package itself, too
    assert KernelCacheLocator.from_function(_stamp_by_hand, kernel) is None


def test_the_compile_lock_is_named_by_the_signatures_types():
    disp = numba.njit(cache=True)(_plus_two)
    impl = disp._cache._impl
    key = hashlib.sha1(repr((numba.float64,)).encode()).hexdigest()[:16]
    want = os.path.join(impl.locator.get_cache_path(), f"{impl.filename_base}.{key}.lock")
    assert compiling.compile_lock_path(disp, "float64(float64)") == want
    assert compiling.compile_lock_path(disp, (numba.float64,)) == want
    assert compiling.compile_lock_path(disp, numba.float64(numba.float64)) == want
    other = compiling.compile_lock_path(disp, (numba.int64,))
    assert other != want and other.endswith(".lock")
    assert disp(1.0) == 3.0
    assert compiling.compile_lock_path(disp, (numba.float64,)) is None   # compiled: nothing to wait for
