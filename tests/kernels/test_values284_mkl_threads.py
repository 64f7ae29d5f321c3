"""Round 284: lnrnn/mkl.py's answers word for word for LNRNN_MKL_LIB set empty, to a missing file and to a file,
and for a library lacking one or two of the CBLAS symbols (llvmlite's loader and symbol lookup stood in, as in
test_values216_mkl); run_chunks' worker pool grown when a call asks for more threads than the last one, checked by
three chunks that must all be running at once to pass a barrier."""
import os
import threading

import numba
import pytest

from lnrnn import mkl
from lnrnn.kernels.cpu import threads
from test_values216_mkl import prefix  # noqa: F401 (the fixture)


def test_a_library_lacking_symbols_is_refused_naming_them(prefix, monkeypatch):  # noqa: F811
    lib, loaded = prefix
    monkeypatch.setenv("MKL_CBWR", "AUTO")
    (lib / "libmkl_rt.so").write_bytes(b"")
    path = os.path.join(str(lib), "libmkl_rt.so")
    llvm = pytest.importorskip("llvmlite.binding")
    monkeypatch.setattr(llvm, "address_of_symbol", lambda name: 0 if name == "cblas_dgemm_compute" else 1)
    assert mkl._load() == (None, f"{path} lacks cblas_dgemm_compute")
    monkeypatch.setattr(llvm, "address_of_symbol", lambda name: 0 if name.endswith("gemm_pack") else 7)
    assert mkl._load() == (None, f"{path} lacks cblas_sgemm_pack, cblas_dgemm_pack")
    assert loaded == [path, path]


def test_mkl_lib_values_word_for_word(prefix, monkeypatch, tmp_path):  # noqa: F811
    lib, loaded = prefix
    monkeypatch.setenv("MKL_CBWR", "AUTO")
    (lib / "libmkl_rt.so.2").write_bytes(b"")
    wheel = os.path.join(str(lib), "libmkl_rt.so.2")
    monkeypatch.setenv("LNRNN_MKL_LIB", "")     # set but empty: as if unset
    assert mkl._load() == (wheel, "the mkl wheel's libmkl_rt was found and loaded")
    missing = str(tmp_path / "nowhere" / "libmkl_rt.so")
    monkeypatch.setenv("LNRNN_MKL_LIB", missing)
    assert mkl._load() == (None, f"LNRNN_MKL_LIB={missing} does not exist")
    own = tmp_path / "own.so"
    own.write_bytes(b"")
    monkeypatch.setenv("LNRNN_MKL_LIB", str(own))
    assert mkl._load() == (str(own), f"LNRNN_MKL_LIB={own} was found and loaded")
    monkeypatch.setenv("LNRNN_BLAS", "NumPy")
    assert mkl._load() == (None, "LNRNN_BLAS=numpy asks for np.dot")
    assert loaded == [wheel, str(own)]


def test_run_chunks_grows_its_pool_for_more_threads(monkeypatch):
    monkeypatch.setitem(threads._pool, "size", 0)
    monkeypatch.setitem(threads._pool, "executor", None)
    made = []
    try:
        monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
        seen = []
        threads.run_chunks(lambda q, lo, hi: seen.append((q, lo, hi)), 5, 2)
        assert sorted(seen) == [(0, 0, 2), (1, 2, 5)]
        made.append(threads._pool["executor"])
        assert threads._pool["size"] == 1
        monkeypatch.setattr(numba, "get_num_threads", lambda: 3)
        meet = threading.Barrier(3, timeout=20)
        names = {}

        def rows(q, lo, hi):
            names[q] = (lo, hi, threading.current_thread().name)
            meet.wait()               # passes only with all three chunks running at once
        threads.run_chunks(rows, 7, 3)
        made.append(threads._pool["executor"])
        assert threads._pool["size"] == 2
        assert [names[q][:2] for q in range(3)] == [(0, 2), (2, 4), (4, 7)]
        assert len({n for _, _, n in names.values()}) == 3
    finally:
        for ex in made:
            if ex is not None:
                ex.shutdown()
