"""lnrnn/compiling.py's cache keys and what drops a cached index: KernelCacheLocator's disambiguator is Numba's
locator's with the BLAS choice after it (two choices never share a name), _file_base names a function's files
as Numba's CacheImpl.get_filename_base does for that disambiguator, and drop_unreadable_index deletes an
index that does not unpickle (a garbled one in a temporary folder) and keeps a missing one, one written by
another Numba version and one whose source stamp differs (Numba itself rewrites those)."""
import os
import pickle
import sys
from types import SimpleNamespace

import numba
from numba.core import caching

from lnrnn import compiling


def kernel_like(x):
    return x + 1


class Inner:
    def __init__(self, folder):
        self.folder = folder

    def get_disambiguator(self):
        return "kernel_like-20"

    def get_cache_path(self):
        return self.folder

    def ensure_cache_path(self):
        pass

    def get_source_stamp(self):
        return (1.0, 2)


def test_disambiguator_and_file_names_carry_the_blas_choice(tmp_path):
    names = {}
    for tag in ("mkl", "numpy", "mkl-rgemm"):
        loc = compiling.KernelCacheLocator(Inner(str(tmp_path)), kernel_like, __file__)
        loc.tag = tag
        d = loc.get_disambiguator()
        assert d == "kernel_like-20-" + tag
        numba_side = SimpleNamespace(locator=SimpleNamespace(get_disambiguator=lambda d=d: d))
        fullname = os.path.splitext(os.path.basename(__file__))[0] + "." + kernel_like.__qualname__
        want = caching.CacheImpl.get_filename_base(numba_side, fullname, getattr(sys, "abiflags", ""))
        names[tag] = compiling._file_base(kernel_like, d)
        assert names[tag] == want
        assert loc.get_cache_path() == str(tmp_path)
    assert len(set(names.values())) == 3


def test_drop_unreadable_index(tmp_path):
    base = "kernels.kernel_like-20-mkl.py311"
    index = tmp_path / (base + ".nbi")
    stamp = (1.0, 2)
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is False      # none there
    index.write_bytes(b"\x80\x04garbled")
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is True
    assert not index.exists()
    (tmp_path / (base + ".nbc")).write_bytes(b"not an index")                       # data files are not looked at
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is False
    assert (tmp_path / (base + ".nbc")).exists()
    index.write_bytes(pickle.dumps("0.0.1") + b"anything")                          # another Numba: its own
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is False
    assert index.exists()
    index.write_bytes(pickle.dumps(numba.__version__) + pickle.dumps(((9.0, 9), {})))  # an older source: Numba's
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is False
    assert index.exists()
    index.write_bytes(pickle.dumps(numba.__version__) + pickle.dumps((stamp, {})))  # whole, no overloads
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is False
    assert index.exists()
    index.write_bytes(pickle.dumps(numba.__version__) + b"cut sh")                  # truncated after the version
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is True
    assert not index.exists()
