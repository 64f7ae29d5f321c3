"""The window layer's graph plans (window_cuda) with BatchNorm: a training call and an evaluation call of the same
shapes, one after the other on the same plan cache, each equal to the NumPy spec (reference.py) at its own
setting: an evaluation forward normalizes with the running rows and its backward is the one of fixed statistics,
a training one with the batch's. Plans of the "eager" provider under the simulator, tiny shapes."""
import numpy as np
import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")

from lnrnn import backend, config  # noqa: E402

_ok, _why = backend.cuda_usable()
if not _ok:
    pytest.skip(f"CUDA kernels cannot run here: {_why}", allow_module_level=True)

from test_cuda_kernels import close, simulator_race_free  # noqa: E402
from test_window_cuda import (BWD_ARGS, CODES, EPS, FWD_OUT, GRADS, MOMENTUM, TOL_BWD, problem,  # noqa: E402
                              spec)

from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda, graphs_cuda  # noqa: E402

host = arrays_cuda.to_host
SHAPE = dict(T=5, B=3, I=2, H=5, K=2, C=7, U=5)


@pytest.fixture(autouse=True)
def graphs(monkeypatch):
    """The "eager" provider's graph path with a fresh plan cache; blocks of 4 threads, tiles of 3."""
    monkeypatch.delenv("LNRNN_CUDA_BLAS", raising=False)
    monkeypatch.setattr(config, "CUDA_BLAS", "eager")
    monkeypatch.setattr(config, "CUDA_LOOP_PATH", "graph")
    monkeypatch.setattr(graphs_cuda, "PLANS", type(graphs_cuda.PLANS)())
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 4)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    with simulator_race_free(monkeypatch):
        yield


def run_bn(a, stats, lengths, dy, dw, training):
    """The NORM_BN twin: host copies of (outputs, gradients) and the running rows after (folded in place)."""
    run_ = [r.copy() for r in stats]
    *outs, saved = window_cuda.window_lstm_forward(*a.values(), *run_, CODES["bn"], training, MOMENTUM, EPS, lengths,
                                                   True)
    grads = window_cuda.window_lstm_backward(dy, dw, saved, *[a[k] for k in BWD_ARGS], CODES["bn"], 0.0)
    return host(outs), host(grads), run_


@pytest.mark.parametrize("order", [(True, False), (False, True)])
def test_bn_training_and_evaluation_calls_keep_their_own_backward(order):
    """Both orders: each call equals the spec at its own setting (outputs, gradients, running rows), the two
    settings' gradients differ (so a shared backward plan would show), and each setting has its own plan."""
    a, stats, lengths, dy, dw = problem(2221, [5, 2, 5], [5, 3, 0], **SHAPE)
    assert window_cuda.window_path(CODES["bn"], SHAPE["T"]) == "graph"
    grads = {}
    for training in order:
        outs, got, run_ = run_bn(a, stats, lengths, dy, dw, training)
        outs_c, run_c, grads_c = spec(a, stats, lengths, dy, dw, "bn", training)
        for name, g, e in zip(FWD_OUT, outs, outs_c):
            assert close(g, e) < TOL_BWD, (training, name)
        for name, g, e in zip(GRADS, got, grads_c):
            assert close(g, e) < TOL_BWD, (training, "d" + name)
        for r, e in zip(run_, run_c):
            assert close(r, e) < TOL_BWD, training
        grads[training] = grads_c
    assert any(close(g, e) > 1e-3 for g, e in zip(grads[True], grads[False]))
    assert sum(k[0] == "window backward" for k in graphs_cuda.PLANS) == 2
