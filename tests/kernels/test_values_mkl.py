"""lnrnn/mkl.py's choice of BLAS, rule by rule (its ``_load`` called again under each setting; loading a
library a second time changes nothing): LNRNN_BLAS=numpy in any case turns MKL off, LNRNN_MKL_LIB names the
library (a missing path, or a library without the CBLAS symbols the kernels call, falls back to np.dot and
says why), else the mkl wheel's libmkl_rt under sys.prefix/lib, if there is one."""
import os
import sys

import pytest

from lnrnn import mkl


def loaded_libm():
    """[path] of the C math library this process has mapped (Linux), or []."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "/libm." in line or "/libm-" in line}
    except OSError:
        return []
    return sorted(p for p in paths if os.path.isfile(p))[:1]


@pytest.fixture
def env(monkeypatch):
    monkeypatch.delenv("LNRNN_BLAS", raising=False)
    monkeypatch.delenv("LNRNN_MKL_LIB", raising=False)
    return monkeypatch


@pytest.mark.parametrize("value", ["numpy", "NumPy", "NUMPY"])
def test_numpy_asked_in_any_case(env, value):
    env.setenv("LNRNN_BLAS", value)
    assert mkl._load() == (None, "LNRNN_BLAS=numpy asks for np.dot")


def test_a_named_library_that_does_not_exist(env, tmp_path):
    env.setenv("LNRNN_MKL_LIB", str(tmp_path / "libmkl_rt.so"))
    path, why = mkl._load()
    assert path is None and why == f"LNRNN_MKL_LIB={tmp_path / 'libmkl_rt.so'} does not exist"


def test_a_named_library_without_the_symbols(env):
    """In a fresh process (in this one MKL's symbols are loaded already): libm stands in for a library that
    is not MKL."""
    import json
    import subprocess
    found = loaded_libm()
    if not found:
        pytest.skip("no libm found to stand in for a library that is not MKL")
    out = subprocess.run([sys.executable, "-c", "import json, lnrnn.mkl as m; print(json.dumps([m.MKL_PATH, m.BLAS_WHY]))"],
                         env=dict(os.environ, LNRNN_MKL_LIB=found[0]), capture_output=True, text=True, check=True)
    path, why = json.loads(out.stdout)
    assert path is None and why.startswith(f"{found[0]} lacks cblas_sgemm, cblas_dgemm"), why


def test_without_settings_the_wheel_under_the_prefix(env, tmp_path):
    env.setattr(sys, "prefix", str(tmp_path))
    path, why = mkl._load()
    assert path is None and why.startswith(f"no libmkl_rt under {tmp_path / 'lib'}")
    if mkl.MKL_PATH is None:
        return
    env.setattr(sys, "prefix", os.path.dirname(os.path.dirname(mkl.MKL_PATH)))   # where it was found at import
    assert mkl._load() == (mkl.MKL_PATH, "the mkl wheel's libmkl_rt was found and loaded")
    env.setenv("LNRNN_MKL_LIB", mkl.MKL_PATH)
    assert mkl._load() == (mkl.MKL_PATH, f"LNRNN_MKL_LIB={mkl.MKL_PATH} was found and loaded")
