"""The CUDA LSTM (lnrnn/kernels/lstm_cuda.py) where its path depends on a bound or on where an argument lives,
against the CPU twin in float64: an input exactly config.FOLD_MAX_I wide (the last narrow one: the saved
tuple holds no xhat_x, the backward recomputes it) and one wider (saved), LN; and a final-cell gradient dcT
given as a device array, which the backward must read and leave as it was (the caller may reuse it).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, close, problem, set_geometry, small_blocks  # noqa: E402,F401

EPS = 1e-5


def forward_backward(mod, p, dy, norm, **kw):
    _, _, _, saved = mod.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 2)
    grads = mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                              NORM[norm], 2, **kw)
    return arrays_cuda.to_host(saved), arrays_cuda.to_host(grads)


@pytest.mark.parametrize("wide", [0, 1], ids=["I=FOLD_MAX_I", "I=FOLD_MAX_I+1"])
def test_the_saved_tuple_at_the_fold_bound_is_the_cpu_twins(wide, monkeypatch):
    set_geometry(monkeypatch, 8, "sequence")
    I = config.FOLD_MAX_I + wide
    p, dy = problem(np.random.default_rng(31), "lstm", 2, 2, I, 3)
    saved, grads = forward_backward(lstm_cuda, p, dy, "ln")
    saved_c, grads_c = forward_backward(lstm, p, dy, "ln")
    assert saved_c[4].shape == ((2, 2, 12) if wide else (0, 0, 0))  # the CPU twin's layout (lstm.py)
    for k, (a, e) in enumerate(zip(saved, saved_c)):
        assert a.shape == e.shape, f"saved[{k}] layout"
        assert close(a, e) < 1e-12, f"saved[{k}]"
    for k, (a, e) in enumerate(zip(grads, grads_c)):
        assert close(a, e) < 1e-12, k


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_a_device_final_cell_gradient_is_read_and_left_as_given(norm, monkeypatch):
    set_geometry(monkeypatch, 8, "per-step")
    p, dy = problem(np.random.default_rng(32), "lstm", 2, 3, 2, 3)
    dcT = np.random.default_rng(33).standard_normal((3, 3))
    dev = arrays_cuda.to_device(dcT.copy())
    _, grads = forward_backward(lstm_cuda, p, dy, norm, dcT=dev)
    _, grads_c = forward_backward(lstm, p, dy, norm, dcT=dcT)
    assert np.array_equal(arrays_cuda.to_host(dev), dcT)  # the caller's array, unchanged
    for k, (a, e) in enumerate(zip(grads, grads_c)):
        assert close(a, e) < 1e-12, k
