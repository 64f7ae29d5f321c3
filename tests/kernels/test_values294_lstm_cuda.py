"""lstm_cuda (the LSTM's CUDA twin) in float64 under Numba's simulator against the CPU twin (lnrnn/kernels/lstm.py)
and lnrnn/reference.py's spec, at B = 3 rows, I = 4, H = 5 hidden units over blocks of 4 threads (neither a
multiple of the block), T = 3 steps, h0 far from c0, a forget bias of +1, eps 0.3, every gain and bias off its
default: the sequence kernels without a norm (training: y, hT, cT and all six gradients, no clip; evaluation:
lstm_infer's y, hT, cT), and the per-step loop with LayerNorm (training: y, hT, cT, the saved rstd rows and all
twelve gradients under Graves's clip at 0.05; evaluation likewise). Runs under Numba's CUDA simulator
(tests/conftest.py) or on a GPU."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host  # noqa: E402
from test_values85_lstm_cuda import GRADS, use_loop  # noqa: E402
from test_values174_lstm_cuda import CLIP, EPS, problem  # noqa: E402
from test_values247_lstm_rnn_cuda import far_states, spec_forward  # noqa: E402

T = 3


def grads(mod, dy, saved, p, norm, clip):
    return [host(a) for a in mod.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"],
                                               p["gh"], p["gc"], NORM[norm], 1, clip=clip)]


def twins(p, dy, norm, clip):
    """Training (forward, backward) and evaluation (lstm_infer) of both twins against the spec and each other."""
    want = spec_forward(p, norm)
    args = [p[k] for k in LSTM_FWD]
    y, hT, cT, saved = lstm_cuda.lstm_forward(*args, NORM[norm], EPS, 1)
    for name, a, e in zip(("y", "hT", "cT"), (y, hT, cT), want):
        assert close(host(a), e) < 1e-12, f"training {name}"
    for name, a, e in zip(("y", "hT", "cT"), lstm_cuda.lstm_infer(*args, NORM[norm], EPS, 1), want):
        assert close(host(a), e) < 1e-12, f"evaluation {name}"
    saved_c = lstm.lstm_forward(*args, NORM[norm], EPS, 1)[3]
    got, exp = grads(lstm_cuda, dy, saved, p, norm, clip), grads(lstm, dy, saved_c, p, norm, clip)
    for name, a, e in zip(GRADS, got, exp):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"
    return saved, saved_c


def test_sequence_kernels_without_norm_training_and_evaluation(monkeypatch):
    use_loop(monkeypatch, "sequence")
    p, dy = problem(29401, T)
    twins(far_states(p), 0.1 * dy, "none", 0.0)


def test_per_step_loop_with_layernorm_and_clip_training_and_evaluation(monkeypatch):
    use_loop(monkeypatch, "per-step")
    p, dy = problem(29402, T)
    saved, saved_c = twins(far_states(p), dy, "ln", CLIP)
    rstd, rstd_c = host(saved[7]), np.asarray(saved_c[7])
    assert rstd.shape == rstd_c.shape == (3, T, 3)
    for r, name in enumerate(("x", "h_{t-1} Wh", "c_t")):
        assert close(rstd[r], rstd_c[r]) < 1e-12, f"rstd of {name}"
