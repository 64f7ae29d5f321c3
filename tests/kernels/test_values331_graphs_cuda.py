"""lnrnn/kernels/cuda/graphs_cuda.py's host logic, under Numba's CUDA simulator (the stand-in provider,
LNRNN_CUDA_BLAS=eager) or on a GPU, with made-up providers standing in for PyTorch:

- c_strides against NumPy's own strides of C-ordered arrays and the products written out (3 x 5 x 7 of 8 bytes:
  280, 56, 8);
- describe(): the stand-in's sentence, and a library with an allocator under LNRNN_CUDA_POOL auto and off, word
  for word as the docstrings define them;
- loop_path: "graph" asked for serves a call of one step; "auto" serves the graph from CUDA_GRAPH_MIN_STEPS = 4
  steps on, the sequence kernels at 3;
- plan_for: a plan captured for 20 steps serves a call of 18 (within bucket(18) = 20), a call of 21 gets a new plan
  of bucket(21) = 24 steps, an exact call of 18 one of its own length;
- capture_loop: the warm-up a library runs before capturing is before, the first step of the range (not its last)
  and after, on the warm-up's stream; the replay then every step in order."""
import types

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402
from test_values17_graphs_cuda import gpu_host  # noqa: E402,F401  (fixture: graphs_cuda as on a GPU machine)
from test_values286_graphs_rows_cuda import stand_in  # noqa: E402,F401  (fixture: eager, no plans, slack 16)


@pytest.mark.parametrize("shape,itemsize,want", [((3, 5, 7), 8, (280, 56, 8)), ((4, 1, 3), 4, (12, 12, 4)),
                                                 ((6,), 8, (8,))])
def test_c_strides_are_numpys_c_order_strides(shape, itemsize, want):
    assert graphs_cuda.c_strides(shape, itemsize) == want
    assert want == np.empty(shape, dtype=np.float64 if itemsize == 8 else np.float32).strides


def test_describe_of_the_stand_in(monkeypatch):
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    assert graphs_cuda.describe() == "numba's tiled GEMM, time loops replayed (LNRNN_CUDA_BLAS=eager)"


def test_describe_of_a_library_with_and_without_its_allocator(gpu_host, monkeypatch):
    class FakeTorch:
        name = "torch"
        blas = True
        graphs = True

        def empty(self, shape, dtype):
            raise AssertionError("describe allocates nothing")

    monkeypatch.setattr(graphs_cuda, "_CLASSES", {"torch": FakeTorch, "cupy": FakeTorch, "eager": graphs_cuda.Eager})
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "torch")
    monkeypatch.setenv("LNRNN_CUDA_POOL", "auto")
    assert graphs_cuda.describe() == ("cuBLAS and CUDA graphs through torch, device arrays from its caching allocator "
                                      "(LNRNN_CUDA_BLAS=torch)")
    monkeypatch.setenv("LNRNN_CUDA_POOL", "off")
    assert graphs_cuda.describe() == "cuBLAS and CUDA graphs through torch (LNRNN_CUDA_BLAS=torch)"


def test_loop_path_graph_asked_for_serves_one_step_and_auto_from_the_minimum(monkeypatch):
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    monkeypatch.setattr(config, "CUDA_GRAPH_MIN_STEPS", 4)
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
    assert graphs_cuda.loop_path(True, 1) == "graph"
    assert graphs_cuda.loop_path(False, 1) == "graph"
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "auto")
    assert [graphs_cuda.loop_path(True, T) for T in (3, 4)] == ["seq", "graph"]
    assert graphs_cuda.loop_path(False, 3) == "step"


def test_a_plan_serves_fewer_steps_and_a_longer_call_gets_its_own(stand_in):
    made, make = stand_in
    a = graphs_cuda.plan_for("rnn forward", 20, (2, 3), make)
    # bucket(18): 18 has 5 bits, a quarter of 16 is 4, 18 rounded up to a multiple of 4 is 20 >= 18 + 18 // 16
    assert graphs_cuda.plan_for("rnn forward", 18, (2, 3), make) is a
    # 21 > 20: the plan of 20 cannot serve; bucket(21) = 24
    b = graphs_cuda.plan_for("rnn forward", 21, (2, 3), make)
    assert b.steps == 24
    # exact: only a plan of 18 steps serves 18
    c = graphs_cuda.plan_for("rnn forward", 18, (2, 3), make, exact=True)
    assert c.steps == 18
    assert made == [20, 24, 18]
    assert [k[2] for k in graphs_cuda.PLANS] == [20, 24, 18]


def test_capture_warms_with_the_first_step_then_replays_every_step():
    calls = []

    class Capturer:
        def capture(self, record, warm):
            warm("warm")
            return lambda: record("replay")

    replay = graphs_cuda.capture_loop(Capturer(), lambda t, s: calls.append(("step", t, s)), range(3, 6),
                                      lambda s: calls.append(("before", s)), lambda s: calls.append(("after", s)))
    assert calls == [("before", "warm"), ("step", 3, "warm"), ("after", "warm")]
    del calls[:]
    replay()
    assert calls == [("before", "replay"), ("step", 3, "replay"), ("step", 4, "replay"), ("step", 5, "replay"),
                     ("after", "replay")]
