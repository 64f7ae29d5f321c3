"""lnrnn/kernels/cuda/graphs_cuda.py's host logic: pool()'s refusal of an unknown LNRNN_CUDA_POOL word for word and
its choice (a library's allocator under auto, none under off); loop_path's refusal of an unknown
config.CUDA_LOOP_PATH word for word; describe() on a GPU machine where the asked-for library failed, beside a made
provider that is not a reason (only the reasons are listed). Made-up providers stand in for PyTorch and CuPy."""
import types

import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")

from lnrnn import config  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402
from test_values17_graphs_cuda import gpu_host  # noqa: E402,F401  (fixture: graphs_cuda as on a GPU machine)


def test_pool_refuses_an_unknown_word_and_follows_auto_and_off(gpu_host, monkeypatch):
    monkeypatch.setenv("LNRNN_CUDA_POOL", " Sometimes ")
    with pytest.raises(ValueError) as e:
        graphs_cuda.pool()
    assert str(e.value) == "LNRNN_CUDA_POOL/config.CUDA_POOL is 'sometimes'; use auto or off"

    def allocate(shape, dtype):
        return ("allocated", shape, dtype)

    gpu_host["torch"] = types.SimpleNamespace(name="torch", blas=True, graphs=True, empty=allocate)
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "torch")
    monkeypatch.setenv("LNRNN_CUDA_POOL", "auto")
    assert graphs_cuda.pool() is allocate
    monkeypatch.setenv("LNRNN_CUDA_POOL", "OFF")
    assert graphs_cuda.pool() is None


def test_loop_path_refuses_an_unknown_path_word_for_word(monkeypatch):
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graphs")
    with pytest.raises(ValueError) as e:
        graphs_cuda.loop_path(True, 30)
    assert str(e.value) == "config.CUDA_LOOP_PATH is 'graphs'; use one of auto, graph, seq, step"


def test_describe_lists_only_the_reasons(gpu_host, monkeypatch):
    gpu_host.update(eager=graphs_cuda.Eager(), cupy="cupy: RuntimeError: cupy sees no CUDA device")
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "cupy")
    assert graphs_cuda.provider() is None
    assert graphs_cuda.describe() == ("numba's own GEMM and per-launch time loops: no library served "
                                      "(cupy: RuntimeError: cupy sees no CUDA device)")
