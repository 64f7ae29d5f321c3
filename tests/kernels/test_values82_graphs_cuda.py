"""lnrnn/kernels/cuda/graphs_cuda.py where no library captures (the simulator): the stand-in's replay runs the whole
recorded loop (before, every step in order, after) again at each replay, a loop with only one of its hooks, the
warm-up a capturing library is handed (before, the first step, after); which time loop loop_path reports for every
setting, with and without the stand-in and with sequence kernels that fit or not, and the per-step plan call_plan
then makes; LNRNN_CUDA_POOL read whatever its case; and describe() naming the setting, not the library that served
it. Calls are recorded here and compared with the sequence the docstrings define."""
import types

import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")

from lnrnn import config  # noqa: E402
from lnrnn.kernels.cuda import gemm_cuda, graphs_cuda  # noqa: E402


def recorder():
    calls = []
    return (calls, lambda s: calls.append("before"), lambda t, s: calls.append(t), lambda s: calls.append("after"))


@pytest.mark.parametrize("hooks", ["both", "before", "after", "none"])
def test_the_stand_ins_replay_runs_the_whole_loop_each_time(hooks):
    calls, before, step, after = recorder()
    replay = graphs_cuda.capture_loop(graphs_cuda.Eager(), step, range(2, 6),
                                      before if hooks in ("both", "before") else None,
                                      after if hooks in ("both", "after") else None)
    assert calls == []  # nothing runs before the first replay
    want = (["before"] if hooks in ("both", "before") else []) + [2, 3, 4, 5] + \
        (["after"] if hooks in ("both", "after") else [])
    replay()
    assert calls == want
    replay()
    assert calls == want + want


def test_a_capturing_library_gets_the_first_step_to_warm_up_and_the_whole_loop_to_record():
    seen = {}

    class Capturing:
        name, blas, graphs = "made-up", True, True

        def capture(self, record, warm):
            calls.clear()
            warm("side")
            seen["warm"] = list(calls)
            calls.clear()
            record("side")
            seen["record"] = list(calls)
            return lambda: None

    calls, before, step, after = recorder()
    graphs_cuda.capture_loop(Capturing(), step, range(3, 0, -1), before, after)
    assert seen == {"warm": ["before", 3, "after"], "record": ["before", 3, 2, 1, "after"]}


@pytest.fixture
def loops(monkeypatch):
    """set(blas, loop): LNRNN_CUDA_BLAS and config.CUDA_LOOP_PATH; graphs after 4 steps."""
    monkeypatch.setattr(config, "CUDA_GRAPH_MIN_STEPS", 4)

    def set_(blas, loop):
        monkeypatch.setenv("LNRNN_CUDA_BLAS", blas)
        monkeypatch.setattr(config, "CUDA_LOOP_PATH", loop)
    return set_


@pytest.mark.parametrize("loop", ["auto", "graph", "seq", "step"])
@pytest.mark.parametrize("blas", ["off", "eager"])
def test_loop_path_for_every_setting(loops, blas, loop, monkeypatch):
    """Without a capturing library: the sequence kernels where asked ("auto", "seq") and they fit, else one launch
    pair a step. With the stand-in, "graph" always and "auto" from 4 steps (or a length not given)."""
    monkeypatch.setattr(graphs_cuda, "simulator_enabled", lambda: True)
    loops(blas, loop)
    graphs = blas == "eager"
    for seq_ok in (True, False):
        for T in (None, 2, 4, 9):
            if loop == "graph" and graphs or loop == "auto" and graphs and (T is None or T >= 4):
                want = "graph"
            elif loop in ("auto", "seq") and seq_ok:
                want = "seq"
            else:
                want = "step"
            assert graphs_cuda.loop_path(seq_ok, T) == want, (seq_ok, T)


def test_call_plan_makes_a_fresh_per_step_plan_without_graphs(loops, monkeypatch):
    """The BN cells have no sequence kernels: with no capturing library, a fresh plan of exactly T steps on the
    per-step provider (Direct), whatever the loop asked."""
    monkeypatch.setattr(graphs_cuda, "simulator_enabled", lambda: True)
    made = []
    for loop in ("auto", "seq", "step", "graph"):
        loops("off", loop)
        plan, fresh = gemm_cuda.call_plan("bn", 7, ("k",), lambda prov, S: made.append((prov.name, S)) or len(made))
        assert fresh and plan == len(made) and made[-1] == ("direct", 7)
    with pytest.raises(ValueError, match="CUDA_LOOP_PATH"):
        loops("off", "graphs")
        graphs_cuda.loop_path(True)


def test_the_pool_setting_is_read_whatever_its_case(monkeypatch):
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "off")
    for raw in ("off", " OFF ", "Off", "auto", "AUTO"):
        monkeypatch.setenv("LNRNN_CUDA_POOL", raw)
        assert graphs_cuda.pool() is None  # no library: numba's own allocation either way
    monkeypatch.setenv("LNRNN_CUDA_POOL", "sometimes")
    with pytest.raises(ValueError, match="LNRNN_CUDA_POOL"):
        graphs_cuda.pool()


@pytest.mark.parametrize("setting", ["auto", "AUTO", "torch"])
def test_describe_names_the_setting_and_the_library_that_served(monkeypatch, setting):
    """As with a GPU: a made-up torch serves; the line names it and the setting as it was given (lowered)."""
    monkeypatch.setattr(graphs_cuda, "simulator_enabled", lambda: False)
    monkeypatch.setattr(graphs_cuda, "_MADE", {"torch": types.SimpleNamespace(name="torch", blas=True, graphs=True)})
    monkeypatch.setenv("LNRNN_CUDA_BLAS", setting)
    monkeypatch.setenv("LNRNN_CUDA_POOL", "off")
    line = graphs_cuda.describe()
    assert line == f"cuBLAS and CUDA graphs through torch (LNRNN_CUDA_BLAS={setting.lower()})"


def test_describe_under_the_simulator(monkeypatch):
    monkeypatch.setattr(graphs_cuda, "simulator_enabled", lambda: True)
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "auto")
    assert graphs_cuda.provider() is None
    assert graphs_cuda.describe() == ("numba's own GEMM and per-launch time loops (the simulator has no cuBLAS or "
                                      "graphs)")
    monkeypatch.setenv("LNRNN_CUDA_BLAS", "eager")
    assert graphs_cuda.describe() == "numba's tiled GEMM, time loops replayed (LNRNN_CUDA_BLAS=eager)"
