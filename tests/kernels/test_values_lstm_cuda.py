"""The CUDA LSTM backward (lnrnn/kernels/lstm_cuda.py) with the options that change its path, against the CPU
twin in float64: a gradient for the final cell state from outside (dcT, truncated BPTT's carried dL/dc),
which the sequence kernels cannot take (they start dL/dc at zero), asked for while the sequence kernels would
serve the shape; and Graves's gate clip where it bites on every gate block. Both kernel paths (sequence and
per-step), plain and LN, G = 4H not a multiple of the 8-thread blocks.

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
T, B, I, H = 3, 3, 2, 5


def backward(mod, p, dy, norm, **kw):
    _, _, _, saved = mod.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 2)
    return arrays_cuda.to_host(mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"],
                                                 p["gh"], p["gc"], NORM[norm], 2, **kw))


@pytest.mark.parametrize("path", ["sequence", "per-step"])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_a_final_cell_gradient_from_outside_reaches_every_gradient(norm, path, monkeypatch):
    set_geometry(monkeypatch, 8, path)
    p, dy = problem(np.random.default_rng(11), "lstm", T, B, I, H)
    dcT = np.random.default_rng(12).standard_normal((B, H))
    got = backward(lstm_cuda, p, dy, norm, dcT=dcT)
    want = backward(lstm, p, dy, norm, dcT=dcT)
    without = backward(lstm, p, dy, norm)
    assert close(want[2], without[2]) > 1e-2                      # dcT changes dc0: the seed is felt
    for k, (a, e) in enumerate(zip(got, want)):
        assert close(a, e) < 1e-12, k


@pytest.mark.parametrize("path", ["sequence", "per-step"])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_a_clip_binding_on_every_gate_block_matches_the_cpu_twin(norm, path, monkeypatch):
    set_geometry(monkeypatch, 8, path)
    p, dy = problem(np.random.default_rng(13), "lstm", T, B, I, H)
    dy = 50.0 * dy                                                # dL/da far past the bound in every block
    clip = 0.05
    saved = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 2)[3]
    gates = saved[0]                                              # (T,B,G) [i|f|g|o]
    o = gates[..., 3 * H:]
    do = (dy * saved[2] * o * (1 - o))[-1]                        # the last step's output-gate dL/da
    assert np.abs(do).max() > clip                                # the output gate's bound bites
    got = backward(lstm_cuda, p, dy, norm, clip=clip)
    want = backward(lstm, p, dy, norm, clip=clip)
    assert close(want[5], backward(lstm, p, dy, norm)[5]) > 1e-2  # db differs from the unclipped one
    assert np.abs(want[5]).max() <= B * T * clip + 1e-12          # db sums B*T clipped values per column
    for k, (a, e) in enumerate(zip(got, want)):
        assert close(a, e) < 1e-12, k
