"""lnrnn/kernels/cuda/graphs_cuda.py's host logic, the library choice: a configured name is read whatever its case,
'auto' takes PyTorch before CuPy and then nothing, the simulator's stand-in is made under the simulator, and the
description says CUDA graphs only of a library that serves them. Made-up providers stand in for PyTorch and CuPy
(as on a GPU machine: the simulator switched off for graphs_cuda alone)."""
import types

import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")

from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402


def made_up(name, graphs):
    return types.SimpleNamespace(name=name, blas=True, graphs=graphs)


@pytest.fixture
def gpu_host(monkeypatch):
    """graphs_cuda as on a GPU machine; the returned dict is what _make made of each library name."""
    made = {}
    monkeypatch.setattr(graphs_cuda, "simulator_enabled", lambda: False)
    monkeypatch.setattr(graphs_cuda, "_MADE", made)
    return made


def test_a_name_is_read_whatever_its_case(monkeypatch):
    for raw in (" OFF ", "Off", "off"):
        monkeypatch.setenv("LNRNN_CUDA_BLAS", raw)
        assert graphs_cuda.choice() == "off"
        assert graphs_cuda.provider() is None and "LNRNN_CUDA_BLAS=off" in graphs_cuda.describe()


def test_auto_takes_torch_then_cupy_then_nothing(gpu_host, monkeypatch):
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "auto")
    gpu_host.update(torch=made_up("torch", True), cupy=made_up("cupy", False))
    assert graphs_cuda.provider() is gpu_host["torch"]
    gpu_host["torch"] = "torch: ImportError: no torch"
    assert graphs_cuda.provider() is gpu_host["cupy"]
    gpu_host["cupy"] = "cupy: RuntimeError: cupy sees no CUDA device"
    assert graphs_cuda.provider() is None
    line = graphs_cuda.describe()
    assert "no library served" in line and gpu_host["torch"] in line and gpu_host["cupy"] in line


def test_graphs_are_named_only_where_served(gpu_host, monkeypatch):
    gpu_host.update(torch=made_up("torch", True), cupy=made_up("cupy", False))
    for name in ("torch", "cupy"):
        monkeypatch.setenv("LNRNN_CUDA_BLAS", name)
        line = graphs_cuda.describe()
        assert line.startswith("cuBLAS ") and f"through {name} (LNRNN_CUDA_BLAS={name})" in line
        assert ("CUDA graphs" in line) == gpu_host[name].graphs, line


def test_the_stand_in_is_made_under_the_simulator(monkeypatch):
    monkeypatch.setattr(graphs_cuda, "simulator_enabled", lambda: True)
    monkeypatch.setattr(graphs_cuda, "_MADE", {"torch": made_up("torch", True)})
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    p = graphs_cuda.provider()
    assert p is not None and p.name == "eager" and not p.blas and p.graphs
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "torch")  # a real library is never taken under the simulator
    assert graphs_cuda.provider() is None
