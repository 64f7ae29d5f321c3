"""lnrnn/kernels/cuda/graphs_cuda.py's cache of captured plans and its C strides, as host logic: made-up providers
and plans (make(provider, steps) records its calls) stand in for a library and a cell's plan. A plan serves only
the library that captured it; of the cached plans long enough for a call the shortest serves; the cache evicts
the plan least recently used, not the oldest made; and c_strides (the strides of the arrays a pool hands out) are
NumPy's for C-ordered arrays of unequal sides."""
import types
from collections import OrderedDict

import numpy as np
import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")

from lnrnn import config  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402


@pytest.fixture
def cache(monkeypatch):
    """A fresh plan cache, a settable provider, and make(): returns (use(name), make, calls)."""
    monkeypatch.setattr(graphs_cuda, "PLANS", OrderedDict())
    current = {}
    monkeypatch.setattr(graphs_cuda, "provider", lambda: current["p"])
    calls = []

    def use(name):
        current["p"] = types.SimpleNamespace(name=name, blas=True, graphs=True)

    def make(prov, S):
        calls.append((prov.name, S))
        return types.SimpleNamespace(library=prov.name, steps=S)
    return use, make, calls


def test_a_plan_serves_only_the_library_that_made_it(cache):
    use, make, calls = cache
    use("torch")
    a = graphs_cuda.plan_for("lstm forward", 8, (2, 3), make)
    use("cupy")
    b = graphs_cuda.plan_for("lstm forward", 8, (2, 3), make)
    assert b is not a and b.library == "cupy"
    use("torch")
    assert graphs_cuda.plan_for("lstm forward", 8, (2, 3), make) is a
    assert calls == [("torch", 8), ("cupy", 8)]


def test_the_shortest_plan_long_enough_serves_a_call(cache, monkeypatch):
    """Plans of 9 and 12 steps (a first length, then bucket(12) = 12); a call of 8 steps fits both (slack 1:
    up to 16 steps) and takes the 9-step plan, a call of 10 only the 12-step one."""
    use, make, calls = cache
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 1)
    use("eager")
    nine = graphs_cuda.plan_for("rnn backward", 9, ("k",), make)
    twelve = graphs_cuda.plan_for("rnn backward", 12, ("k",), make)
    assert (nine.steps, twelve.steps) == (9, 12)
    assert graphs_cuda.plan_for("rnn backward", 8, ("k",), make) is nine
    assert graphs_cuda.plan_for("rnn backward", 10, ("k",), make) is twelve
    assert graphs_cuda.plan_for("rnn backward", 9, ("k",), make) is nine
    assert len(calls) == 2


def test_the_least_recently_used_plan_is_evicted(cache, monkeypatch):
    """Room for two plans: a, b made, a used again, c made: b goes, a stays (and is not made again)."""
    use, make, calls = cache
    monkeypatch.setattr(config, "CUDA_GRAPH_PLANS", 2)
    use("eager")
    a = graphs_cuda.plan_for("lstm forward", 3, ("a",), make)
    graphs_cuda.plan_for("lstm forward", 3, ("b",), make)
    assert graphs_cuda.plan_for("lstm forward", 3, ("a",), make) is a
    graphs_cuda.plan_for("lstm forward", 3, ("c",), make)
    assert [k[3:] for k in graphs_cuda.PLANS] == [("a",), ("c",)]
    assert graphs_cuda.plan_for("lstm forward", 3, ("a",), make) is a
    assert len(calls) == 3


@pytest.mark.parametrize("shape", [(2, 3, 4), (5,), (1, 7), (3, 1, 2), (4, 6), ()])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_c_strides_are_numpys(shape, dtype):
    assert graphs_cuda.c_strides(shape, np.dtype(dtype).itemsize) == np.empty(shape, dtype).strides
