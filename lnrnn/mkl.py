"""Intel MKL's libmkl_rt, found and loaded once, at import, for the kernels' BLAS (lnrnn.kernels.cpu.blas) and for
the BLAS thread limit (lnrnn.threadscope), which must see every BLAS the kernels call. It imports nothing of
lnrnn, so both read it from below.

    LNRNN_BLAS=numpy          no MKL: the kernels multiply with np.dot
    LNRNN_MKL_LIB=/path       that libmkl_rt
    otherwise                 the `mkl` wheel's libmkl_rt under sys.prefix/lib (pip install mkl), if any
MKL is asked to run single-threaded (MKL_THREADING_LAYER=SEQUENTIAL): lnrnn threads over batch chunks.
MKL is asked for conditionally reproducible results (MKL_CBWR=AUTO: the best code path for this CPU, its results
the same wherever the arrays lie in memory). Without it, MKL's products may order their additions by the arrays'
alignment (Intel's reproducibility conditions), and a block of rows that lies at another address in another process,
another MPI rank or after another allocation could give other bits: the results lnrnn promises to be the same bits
on any thread count and, with --reproducible, any number of ranks. ``cnr_mode()`` says what MKL runs with (a
process that used MKL before lnrnn loaded it keeps the mode it started with).
llvmlite loads the library for the JIT, so compiled code refers to its symbols by name.
"""
import glob
import os
import sys

# every CBLAS symbol lnrnn.kernels.cpu.blas calls: a library without one of them is not used
SYMBOLS = ("cblas_sgemm", "cblas_dgemm", "cblas_sgemm_pack_get_size", "cblas_dgemm_pack_get_size", "cblas_sgemm_pack",
           "cblas_dgemm_pack", "cblas_sgemm_compute", "cblas_dgemm_compute")


def _load():
    """(path of the libmkl_rt loaded, or None; why this choice, in words)."""
    if os.environ.get("LNRNN_BLAS", "").lower() == "numpy":
        return None, "LNRNN_BLAS=numpy asks for np.dot"
    path = os.environ.get("LNRNN_MKL_LIB")
    if path:
        if not os.path.exists(path):
            return None, f"LNRNN_MKL_LIB={path} does not exist"
        how = f"LNRNN_MKL_LIB={path}"
    else:
        hits = sorted(glob.glob(os.path.join(sys.prefix, "lib", "libmkl_rt.so*")))
        if not hits:
            return None, (f"no libmkl_rt under {os.path.join(sys.prefix, 'lib')} (the mkl wheel, a default "
                          "dependency on x86-64 Linux: pip install mkl)")
        path, how = hits[0], "the mkl wheel's libmkl_rt"
    os.environ.setdefault("MKL_THREADING_LAYER", "SEQUENTIAL")
    os.environ.setdefault("MKL_CBWR", "AUTO")
    try:
        from llvmlite import binding as llvm
        llvm.load_library_permanently(path)
    except Exception as e:  # noqa: BLE001 - a broken or foreign library: fall back to np.dot
        return None, f"{path} failed to load ({e})"
    missing = [n for n in SYMBOLS if not llvm.address_of_symbol(n)]
    if missing:  # compiled code calling an unresolved symbol would kill the process
        return None, f"{path} lacks {', '.join(missing)}"
    return path, f"{how} was found and loaded"


MKL_PATH, BLAS_WHY = _load()  # (path of the libmkl_rt loaded, or None; why, in words)

# MKL_CBWR_Get(MKL_CBWR_BRANCH)'s answers (mkl_cbwr.h); 1 (MKL_CBWR_BRANCH_OFF): not reproducible across alignments
CNR_BRANCHES = {1: "off", 2: "AUTO", 3: "COMPATIBLE"}   # the others, a named instruction set's: "branch N"


def cnr_mode():
    """MKL's conditional numerical reproducibility branch, in words ("AUTO", "off", ...), or None without MKL."""
    if MKL_PATH is None:
        return None
    import ctypes
    lib = ctypes.CDLL(MKL_PATH)      # the library already loaded: the same handle, the same state
    lib.MKL_CBWR_Get.restype = ctypes.c_int
    branch = lib.MKL_CBWR_Get(ctypes.c_int(1))
    return CNR_BRANCHES.get(branch, f"branch {branch}")
