"""The skip every CUDA test module starts with: numba-cuda installed, and lnrnn's CUDA kernels able to run here (a
GPU, or Numba's simulator that tests/conftest.py turns on where there is none). Importable without numba-cuda."""
import pytest


def skip_unless_cuda():
    """Skip the calling test module (call it at module level, before importing any CUDA kernel)."""
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")
    from lnrnn import backend
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA kernels cannot run here: {why}", allow_module_level=True)
