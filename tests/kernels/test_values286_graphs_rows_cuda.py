"""lnrnn/kernels/cuda/graphs_cuda.py's plans and captured loops and rows_cuda.py's split matrix-vector product,
under Numba's CUDA simulator (the stand-in provider, LNRNN_CUDA_BLAS=eager) or on a GPU:

- bucket(T) for T = 1..70 against its definition, the smallest multiple of a quarter of T's power of two (at
  least 1) that is not below T, found by counting up;
- plan_for: a first call of 20 steps gets a plan of its own length, a second length of the same key (9) a plan of
  bucket(9) = 10 steps whose key says 10, which a later call of 10 reuses; at most CUDA_GRAPH_PLANS = 2 plans,
  the oldest one out first;
- capture_loop on the stand-in: a replay runs before, every step in order, then after, the same calls as the plain
  loop written out here (and nothing at capture time), with and without before/after;
- split_matvec(H = 3, N = 7, 8 threads: two thread groups of three) against W.T @ v."""
import types
from collections import OrderedDict

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda, rows_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse: small blocks, a race-free simulator)
from test_values82_rows_cuda import matvec_kernel  # noqa: E402  (split_matvec in a kernel of its own)


def test_bucket_is_t_rounded_up_to_a_quarter_of_its_power_of_two():
    for T in range(1, 71):
        power = 1
        while power * 2 <= T:
            power *= 2
        q = max(1, power // 4)
        S = T
        while S % q:
            S += 1
        assert graphs_cuda.bucket(T) == S, T


@pytest.fixture
def stand_in(monkeypatch):
    monkeypatch.setattr(graphs_cuda, "PLANS", OrderedDict())
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 16)
    made = []

    def make(prov, S):
        made.append(S)
        return types.SimpleNamespace(steps=S, library=prov.name)

    return made, make


def test_a_second_length_gets_a_bucketed_plan_kept_under_its_own_steps(stand_in):
    made, make = stand_in
    a = graphs_cuda.plan_for("rnn forward", 20, (3, 2), make)
    b = graphs_cuda.plan_for("rnn forward", 9, (3, 2), make)    # 20 > max(9 + 0, 10): a new plan of 10
    assert (a.steps, b.steps, made) == (20, 10, [20, 10])
    assert [k[2] for k in graphs_cuda.PLANS] == [20, 10]
    assert graphs_cuda.plan_for("rnn forward", 10, (3, 2), make) is b
    assert made == [20, 10]


def test_at_most_two_plans_the_oldest_out_first(stand_in, monkeypatch):
    made, make = stand_in
    monkeypatch.setattr(config, "CUDA_GRAPH_PLANS", 2)
    a = graphs_cuda.plan_for("lstm forward", 5, ("a",), make)
    b = graphs_cuda.plan_for("lstm forward", 5, ("b",), make)
    graphs_cuda.plan_for("lstm forward", 5, ("c",), make)          # a, the oldest, goes
    assert [k[3:] for k in graphs_cuda.PLANS] == [("b",), ("c",)]
    assert graphs_cuda.plan_for("lstm forward", 5, ("b",), make) is b
    assert graphs_cuda.plan_for("lstm forward", 5, ("a",), make) is not a
    assert made == [5, 5, 5, 5]


@pytest.mark.parametrize("ends", [True, False], ids=["before-after", "steps-only"])
def test_captured_loop_replays_the_plain_calls(monkeypatch, ends):
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    calls = []

    def step(t, stream):
        calls.append(("step", t))

    before = (lambda stream: calls.append(("before",))) if ends else None
    after = (lambda stream: calls.append(("after",))) if ends else None
    steps = range(4, 1, -1)
    # the plain loop, written out
    want = ([("before",)] if ends else []) + [("step", 4), ("step", 3), ("step", 2)] + ([("after",)] if ends else [])
    replay = graphs_cuda.capture_loop(graphs_cuda.provider(), step, steps, before, after)
    assert calls == []
    replay()
    replay()
    assert calls == want + want


def test_split_matvec_adds_every_thread_group():
    H, N, tpb = 3, 7, 8
    assert rows_cuda.split_groups(H, tpb) == 2
    rng = np.random.default_rng(2864)
    v, W = rng.standard_normal(N), rng.standard_normal((N, H))
    out = to_device(np.full(H, np.nan))
    matvec_kernel(H, N, tpb)[1, tpb](to_device(v), to_device(W), out)
    want = np.array([sum(v[j] * W[j, k] for j in range(N)) for k in range(H)])
    np.testing.assert_allclose(to_host(out), want, rtol=1e-12, atol=1e-12)
