"""Round 284: the compile cache's index checks and which functions take lnrnn's locator. An index whose data
file holds another signature, and a garbled one, deleted (the file gone, not only reported); an intact one and
one of another stamp kept; none absent reported as nothing done (index files pickled by hand with
test_values254_compiling's _index). _uses_lnrnn on functions made with exec in globals of their own: a file of
the package, a module or a compiled kernel of lnrnn in the globals, against NumPy alone and a module named
lnrnnx."""
import os
import types as pytypes

import numpy as np

from lnrnn import compiling
from lnrnn.kernels.cpu import blas
from test_values254_compiling import _index


def test_stale_and_unreadable_indexes_kept_or_deleted(tmp_path):
    folder, base, stamp = str(tmp_path), "k.step-40-numpy.py311", ("k.py", 3.5, 77)
    key, data = (("float32",), "cpu"), "k.step-40-numpy.py311.1.nbc"
    nbi = tmp_path / (base + ".nbi")
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and not nbi.exists()
    _index(folder, base, stamp, key, data, ("float32",))
    assert compiling.drop_unreadable_index(folder, base, stamp, "k") is False and nbi.exists()
    _index(folder, base, ("k.py", 3.5, 78), key, data, ("float64",))        # another stamp: Numba's to ignore
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and nbi.exists()
    _index(folder, base, stamp, key, data, ("float64",))                    # the wrong signature inside
    assert compiling.drop_unreadable_index(folder, base, stamp) is True and not nbi.exists()
    nbi.write_bytes(b"\x80\x04\x95")                                       # cut short
    assert compiling.drop_unreadable_index(folder, base, stamp) is True and not nbi.exists()
    assert sorted(os.listdir(folder)) == [data]


def _function(tmp_path, **globals_):
    g = {"__name__": "elsewhere", **globals_}
    exec("def f(x):\n    return x\n", g)
    return g["f"], str(tmp_path / "elsewhere.py")


def test_which_functions_take_lnrnns_locator(tmp_path):
    f, path = _function(tmp_path)
    assert compiling._uses_lnrnn(f, path) is False
    assert compiling._uses_lnrnn(f, os.path.join(compiling._PACKAGE, "kernels", "x.py")) is True
    assert compiling._uses_lnrnn(*_function(tmp_path, np=np, os=os)) is False
    assert compiling._uses_lnrnn(*_function(tmp_path, other=pytypes.ModuleType("lnrnnx"))) is False
    assert compiling._uses_lnrnn(*_function(tmp_path, blas=blas)) is True
    assert compiling._uses_lnrnn(*_function(tmp_path, gemm=blas.gemm)) is True
    assert compiling.KernelCacheLocator.from_function(*_function(tmp_path, np=np)) is None
