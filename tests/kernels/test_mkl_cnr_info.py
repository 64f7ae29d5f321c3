"""MKL's conditional-reproducibility mode (lnrnn/mkl.py): where the user has not set MKL_CBWR, lnrnn asks for AUTO
before it loads libmkl_rt, so that MKL's products give the same bits wherever their arrays lie in memory (a block's
rows at another address, in another process or MPI rank); the user's own setting is kept, and `lnrnn info` says
which mode MKL runs, with a hint where it is off. Each case runs in a fresh process, since MKL reads the mode once.
The mode is read back from MKL itself (MKL_CBWR_Get), not from the environment."""
import os
import subprocess
import sys

import numpy as np
import pytest

from lnrnn import mkl
from test_values216_mkl import prefix  # noqa: F401 - the stand-in library prefix fixture

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# MKL's own answer (mkl_cbwr.h: MKL_CBWR_Get(MKL_CBWR_BRANCH = 1) is 2 for MKL_CBWR_AUTO, 3 for COMPATIBLE, 1 where
# the mode is off), the environment, cnr_mode(); then `lnrnn info`'s lines
CODE = ("import ctypes, os; from lnrnn import mkl; from lnrnn.commands.info import info_lines; "
        "print(ctypes.CDLL(mkl.MKL_PATH).MKL_CBWR_Get(1), repr(os.environ.get('MKL_CBWR')), mkl.cnr_mode()); "
        "print('\\n'.join(info_lines()))")
needs_mkl = pytest.mark.skipif(mkl.MKL_PATH is None, reason="MKL is not loaded in this run (LNRNN_BLAS=numpy)")


def fresh(cbwr):
    """A new interpreter with MKL_CBWR removed (cbwr None) or set to cbwr: (MKL's answer line, info's MKL_CBWR lines)."""
    env = {k: v for k, v in os.environ.items() if k != "MKL_CBWR"}
    if cbwr is not None:
        env["MKL_CBWR"] = cbwr
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    first, *info = out.stdout.splitlines()
    return first, [ln for ln in info if "MKL_CBWR" in ln]


@needs_mkl
def test_auto_is_asked_for_where_the_user_set_nothing_and_info_names_it():
    assert fresh(None) == ("2 'AUTO' AUTO", ["MKL's reproducibility mode (MKL_CBWR): AUTO"])


@needs_mkl
def test_the_users_own_mode_is_kept():
    assert fresh("COMPATIBLE") == ("3 'COMPATIBLE' COMPATIBLE", ["MKL's reproducibility mode (MKL_CBWR): COMPATIBLE"])


@needs_mkl
def test_an_empty_setting_leaves_it_off_and_info_says_so():
    assert fresh("") == ("1 '' off", [
        "MKL's reproducibility mode (MKL_CBWR): off: results may depend on where the arrays lie in memory; unset "
        "MKL_CBWR (or set it to AUTO) for the same bits on any thread count and MPI rank count"])


def test_the_default_is_set_before_the_library_loads(prefix, monkeypatch):  # noqa: F811
    """_load (with the stand-in loader of test_values216_mkl) sets AUTO where nothing is set, keeps a user's value."""
    import llvmlite.binding as llvm
    lib, _ = prefix
    (lib / "libmkl_rt.so").write_bytes(b"")
    seen = []
    monkeypatch.setattr(llvm, "load_library_permanently", lambda p: seen.append(os.environ.get("MKL_CBWR")))
    monkeypatch.delenv("MKL_CBWR", raising=False)
    mkl._load()
    monkeypatch.setenv("MKL_CBWR", "AVX2")
    mkl._load()
    assert seen == ["AUTO", "AVX2"]


def test_no_mode_and_no_info_line_without_mkl(monkeypatch):
    from lnrnn.commands.info import info_lines
    monkeypatch.setattr(mkl, "MKL_PATH", None)
    assert mkl.cnr_mode() is None
    assert not [ln for ln in info_lines() if "MKL_CBWR" in ln]


def at_offset(a, off):
    """A copy of a whose data starts off elements past a 64-byte boundary."""
    raw = np.empty(a.size + 64, a.dtype)
    start = (-(raw.ctypes.data // a.itemsize)) % (64 // a.itemsize) + off
    out = raw[start:start + a.size].reshape(a.shape)
    out[...] = a
    assert (out.ctypes.data - off * a.itemsize) % 64 == 0
    return out


@needs_mkl
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("m", [2, 3, 33])
def test_mkls_products_are_the_same_bits_at_every_alignment(dtype, m):
    """What the blocks' bit-identity rests on: the kernels' MKL calls (the GEMM over rows, its += form and
    transposed left operand, the packed per-step product) give the same bits whichever of the 64 bytes of a cache
    line their row block and output start at (the rows of a block of 2, 3 or 33 rows, as a batch's blocks are)."""
    from lnrnn.kernels.cpu import blas
    rng = np.random.default_rng(m)
    K, N = 37, 45
    A, W = rng.standard_normal((m, K)).astype(dtype), rng.standard_normal((K, N)).astype(dtype)
    AT, C = np.ascontiguousarray(A.T), rng.standard_normal((m, N)).astype(dtype)
    P = blas.blas_pack(W, m)
    steps = 64 // np.dtype(dtype).itemsize
    seen = {}
    for off in range(steps):
        a, at, w = at_offset(A, off), at_offset(AT, (off * 5) % steps), at_offset(W, (off * 3) % steps)
        outs = [at_offset(np.zeros((m, N), dtype), (off * 7) % steps) for _ in range(3)] + [at_offset(C, off)]
        blas.gemm(a, w, outs[0], False)
        blas.gemm(at, w, outs[1], True)
        blas.blas_mul(a, W, P, outs[2])
        blas.gemm_add(a, w, outs[3], False)
        for k, o in enumerate(outs):
            seen.setdefault(k, o.copy())
            np.testing.assert_array_equal(o, seen[k], err_msg=f"product {k} at offset {off}")
    want = A.astype(np.float64) @ W.astype(np.float64)               # and they are the products
    tol = dict(rtol=1e-5, atol=1e-4) if dtype == "float32" else dict(rtol=1e-12, atol=1e-12)
    for k in range(3):
        np.testing.assert_allclose(seen[k], want, **tol)
    np.testing.assert_allclose(seen[3], C + want, **tol)
