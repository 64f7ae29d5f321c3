"""lnrnn.threadscope's settings restored, each against what the module docstring promises: start_kernel_threads
puts OMP_WAIT_POLICY=passive in the environment only while Numba's threading layer starts (seen from inside a
stand-in for numba.get_num_threads) and takes it out again; prepare_process runs once per process and a
threading layer that fails to start leaves None behind instead of raising; nested kernel_threads() blocks keep
every BLAS at one thread until the outermost one closes, and then the caller's counts come back."""
import os

import numba
import pytest

from lnrnn import threadscope


def test_the_wait_policy_is_passive_while_the_layer_starts_and_gone_after(monkeypatch):
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    seen = []
    monkeypatch.setattr(numba, "get_num_threads", lambda: seen.append(os.environ.get("OMP_WAIT_POLICY")) or 1)
    monkeypatch.setattr(numba, "threading_layer", lambda: "omp")
    assert threadscope.start_kernel_threads() == "omp"
    assert seen == ["passive"]
    assert "OMP_WAIT_POLICY" not in os.environ


def test_prepare_process_runs_once_and_a_failing_threading_layer_leaves_none(monkeypatch):
    calls = []

    def broken():
        calls.append("start")
        raise RuntimeError("no threading layer")

    monkeypatch.setattr(threadscope, "_prepared", {})
    monkeypatch.setattr(threadscope, "_reuse_freed_memory", lambda: calls.append("malloc") or False)
    monkeypatch.setattr(threadscope, "start_kernel_threads", broken)
    assert threadscope.prepare_process() == {"MALLOC_TUNED": False, "THREADING_LAYER": None}
    assert threadscope.prepare_process() == {"MALLOC_TUNED": False, "THREADING_LAYER": None}
    assert calls == ["malloc", "start"]                                     # once per process


def test_nested_blocks_hold_one_blas_thread_until_the_outermost_closes():
    threadpoolctl = pytest.importorskip("threadpoolctl")

    def counts():
        return sorted((p["filepath"], p["num_threads"]) for p in threadpoolctl.threadpool_info()
                      if p["user_api"] == "blas")

    threadscope.prepare_process()
    threadscope._blas_controller()  # loads the BLAS libraries the kernels call, so they are counted below
    with threadpoolctl.threadpool_limits(2, user_api="blas"):
        before = counts()
        assert any(n == 2 for _, n in before), before  # lnrnn's own MKL may stay at one thread
        with threadscope.kernel_threads():
            with threadscope.kernel_threads():
                pass
            inner_closed = counts()                                         # the outer block still open
        assert counts() == before
    assert inner_closed and {n for _, n in inner_closed} == {1}, inner_closed
