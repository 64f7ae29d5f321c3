"""lnrnn/mkl.py's search for the mkl wheel's library under sys.prefix/lib, against a prefix made here (empty
files named as the wheel names its library; llvmlite's loader and symbol lookup replaced by stand-ins that
record the path): the first of the sorted matches of libmkl_rt.so*, a versioned name alone found, and
MKL_THREADING_LAYER set to SEQUENTIAL only where the user has not set it."""
import os
import sys

import pytest

from lnrnn import mkl


@pytest.fixture
def prefix(monkeypatch, tmp_path):
    llvm = pytest.importorskip("llvmlite.binding")
    monkeypatch.delenv("LNRNN_BLAS", raising=False)
    monkeypatch.delenv("LNRNN_MKL_LIB", raising=False)
    monkeypatch.delenv("MKL_THREADING_LAYER", raising=False)
    loaded = []
    monkeypatch.setattr(llvm, "load_library_permanently", loaded.append)
    monkeypatch.setattr(llvm, "address_of_symbol", lambda name: 1)
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    (tmp_path / "lib").mkdir()
    return tmp_path / "lib", loaded


def test_the_first_sorted_match_is_loaded(prefix):
    lib, loaded = prefix
    for name in ("libmkl_rt.so.3", "libmkl_rt.so", "libmkl_rt.so.2"):
        (lib / name).write_bytes(b"")
    want = os.path.join(str(lib), "libmkl_rt.so")
    assert mkl._load() == (want, "the mkl wheel's libmkl_rt was found and loaded")
    assert loaded == [want]


def test_a_versioned_name_alone_is_found(prefix):
    lib, loaded = prefix
    (lib / "libmkl_rt.so.2").write_bytes(b"")
    want = os.path.join(str(lib), "libmkl_rt.so.2")
    assert mkl._load() == (want, "the mkl wheel's libmkl_rt was found and loaded")
    assert loaded == [want]


def test_mkl_runs_sequential_unless_the_user_chose_a_threading_layer(prefix, monkeypatch):
    lib, _ = prefix
    (lib / "libmkl_rt.so").write_bytes(b"")
    mkl._load()
    assert os.environ["MKL_THREADING_LAYER"] == "SEQUENTIAL"
    monkeypatch.setenv("MKL_THREADING_LAYER", "GNU")
    mkl._load()
    assert os.environ["MKL_THREADING_LAYER"] == "GNU"
