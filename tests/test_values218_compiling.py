"""lnrnn/compiling.py on lines earlier value tests leave alone, against Numba's own naming and their definitions:
_file_base against Numba's _CacheImpl.get_filename_base fed the module's file stem and the qualified name written
out here (the stem of the file's base name, not of its path); MANGLED against Numba's Itanium mangler of an lnrnn
function's name; exclusive on a lock file that does not exist yet (it creates it and holds it); drop_unreadable_index
on an index and data file written here by Numba's pickle layout (version, then stamp and overloads): a file whose
signature matches is kept and reported kept, one whose signature differs is deleted and reported deleted."""
import os
import pickle
import sys
from types import SimpleNamespace

import numba
from numba import types
from numba.core import itanium_mangler
from numba.core.typing import signature

from lnrnn import compiling


def _nested():
    def inner(x):
        return x
    return inner


def test_file_base_is_numbas_name_of_the_file_stem():
    f = _nested()
    d = "abc-blas"
    numba_impl = SimpleNamespace(locator=SimpleNamespace(get_disambiguator=lambda: d))
    stem = os.path.splitext(os.path.basename(__file__))[0]
    assert stem == "test_values218_compiling"
    fullname = stem + "." + f.__qualname__
    want = compiling._CACHE_IMPL.get_filename_base(numba_impl, fullname, getattr(sys, "abiflags", ""))
    assert compiling._file_base(f, d) == want
    assert want == (f"test_values218_compiling._nested.locals.inner-abc-blas"
                    f".py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}")
    assert os.sep not in compiling._file_base(f, d)


def test_mangled_prefix_is_how_numba_names_lnrnn_functions():
    for name in ("lnrnn.kernels.cpu.lstm.lstm_forward", "lnrnn.f"):
        assert itanium_mangler.mangle(name, [types.float64]).startswith(compiling.MANGLED)
    # by definition: _ZN, then the length of the first name, then the name
    assert compiling.MANGLED == "_ZN" + str(len("lnrnn")) + "lnrnn"
    assert not itanium_mangler.mangle("lnrnnx.f", []).startswith(compiling.MANGLED)


def test_exclusive_creates_the_lock_file_and_holds_it(tmp_path):
    path = tmp_path / "new.lock"
    assert not path.exists()
    with compiling.exclusive(str(path), 0.0) as held:
        assert held is True
        assert path.exists()


def _write(folder, base, stamp, key_args, payload_args):
    name = base + "-0.nbc"
    key = (tuple(key_args), "target", "codegen")
    with open(os.path.join(folder, base + ".nbi"), "wb") as f:
        pickle.dump(numba.__version__, f)
        f.write(pickle.dumps((stamp, {key: name})))
    with open(os.path.join(folder, name), "wb") as f:
        pickle.dump((None, None, None, signature(types.float64, *payload_args)), f)


def test_a_matching_index_is_kept_a_wrong_one_dropped(tmp_path):
    stamp = (("a.py", 1.0, 10), (("b.py", 2.0, 20),))
    _write(str(tmp_path), "ok", stamp, [types.float64], [types.float64])
    assert compiling.drop_unreadable_index(str(tmp_path), "ok", stamp) is False
    assert (tmp_path / "ok.nbi").exists()
    _write(str(tmp_path), "bad", stamp, [types.float64], [types.int64])
    assert compiling.drop_unreadable_index(str(tmp_path), "bad", stamp) is True
    assert not (tmp_path / "bad.nbi").exists()
    assert compiling.drop_unreadable_index(str(tmp_path), "absent", stamp) is False
