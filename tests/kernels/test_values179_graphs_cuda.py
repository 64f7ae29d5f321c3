"""lnrnn/kernels/cuda/graphs_cuda.py's host logic, as on a GPU machine where no library serves: made-up PyTorch
and CuPy classes that fail to be made, and describe()'s sentence against the one the docstrings define (each
library's name, the exception's type and its text, reasons separated by semicolons), each library tried once;
and a plan made for a length other calls of the key have not come with: made for bucket(T) steps (T rounded up
to a quarter of its power of two, computed here), and serving a later call of that many steps. Made-up
providers and plans stand in for a library and a cell's plan."""
import types
from collections import OrderedDict

import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")

from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402


def test_describe_says_why_each_library_could_not_serve(monkeypatch):
    made = []

    class NoTorch:
        def __init__(self):
            made.append("torch")
            raise ImportError("No module named 'torch'")

    class NoCupy:
        def __init__(self):
            made.append("cupy")
            raise RuntimeError("cupy sees no CUDA device; check the driver")

    monkeypatch.setattr(graphs_cuda, "simulator_enabled", lambda: False)
    monkeypatch.setattr(graphs_cuda, "_MADE", {})
    monkeypatch.setattr(graphs_cuda, "_CLASSES", {"torch": NoTorch, "cupy": NoCupy, "eager": graphs_cuda.Eager})
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "auto")
    assert graphs_cuda.provider() is None
    assert graphs_cuda.describe() == (
        "numba's own GEMM and per-launch time loops: no library served (torch: ImportError: No module named "
        "'torch'; cupy: RuntimeError: cupy sees no CUDA device; check the driver)")
    assert made == ["torch", "cupy"]  # describe() asked again: the reasons kept, nothing made twice


def test_a_new_length_of_a_known_key_gets_a_plan_of_bucketed_steps(monkeypatch):
    monkeypatch.setattr(graphs_cuda, "PLANS", OrderedDict())
    prov = types.SimpleNamespace(name="eager", blas=False, graphs=True)
    monkeypatch.setattr(graphs_cuda, "provider", lambda: prov)
    steps = []

    def make(p, S):
        steps.append(S)
        return types.SimpleNamespace(steps=S)

    first = graphs_cuda.plan_for("lstm forward", 9, ("k",), make)
    T = 13
    q = 2 ** (T.bit_length() - 3)  # a quarter of 13's power of two (8): 2
    S = -(-T // q) * q  # 14
    second = graphs_cuda.plan_for("lstm forward", T, ("k",), make)
    assert (first.steps, second.steps) == (9, S) and steps == [9, S]
    assert graphs_cuda.plan_for("lstm forward", S, ("k",), make) is second
    assert steps == [9, S]
