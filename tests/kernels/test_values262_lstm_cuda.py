"""lstm_cuda (the LSTM's CUDA twin) in float64 under Numba's simulator, B = 3 rows, I = 4, H = 5 hidden units over
blocks of 4 threads (neither a multiple of the block), h0 far from c0, eps 0.3, every gain and bias off its
default:

- the sequence kernels (one block a batch row runs every step) with LayerNorm over T = 3 steps: y, hT and cT
  against lnrnn/reference.py's spec, the saved rstd rows (x, h_{t-1} Wh, c_t) against the CPU twin's, and all
  twelve gradients under Graves's clip at 0.05 (it bites: the CPU twin without it differs) against the CPU twin
  with the same clip; dL/dgc judged apart from dL/dbc (the LN backward of c_t weighs each unit by its gain);
- the per-step loop without a norm over T = 2 steps: y, hT and cT against the spec (the last step is written).

The kernels take no lengths, masks or state noise (the layers above them do: test_values262_window_cuda and
test_values262_bn_lstm_cuda give their layers lengths 0 and T in one batch). Runs under Numba's CUDA simulator
(tests/conftest.py) or on a GPU."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402
from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import GRADS, use_loop  # noqa: E402
from test_values174_lstm_cuda import EPS, backward, forward, problem  # noqa: E402
from test_values247_lstm_rnn_cuda import far_states, spec_forward  # noqa: E402


def test_sequence_kernels_with_layernorm_and_clip_equal_the_spec_and_the_cpu_twin(monkeypatch):
    use_loop(monkeypatch, "sequence")
    T = 3
    p, dy = problem(26201, T)
    p = far_states(p)
    y, hT, cT, saved = forward(lstm_cuda, p)
    for name, a, e in zip(("y", "hT", "cT"), (y, hT, cT), spec_forward(p, "ln")):
        assert close(host(a), e) < 1e-12, name
    _, _, _, saved_c = forward(lstm, p)
    rstd, rstd_c = host(saved[7]), np.asarray(saved_c[7])
    assert rstd.shape == rstd_c.shape == (3, T, 3)
    for r, name in enumerate(("x", "h_{t-1} Wh", "c_t")):
        assert close(rstd[r], rstd_c[r]) < 1e-12, f"rstd of {name}"
    assert close(rstd[1], rstd[2]) > 1e-3, "the rows of h_{t-1} Wh and of c_t differ"
    got, want = backward(lstm_cuda, dy, saved, p), backward(lstm, dy, saved_c, p)
    unclipped = lstm.lstm_backward(dy, saved_c, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"],
                                   p["gc"], NORM["ln"], 1)
    assert close(np.asarray(unclipped[5]), want[5]) > 1e-2, "the clip bites"
    assert close(np.asarray(unclipped[1]), want[1]) > 1e-3, "and dL/dh0 shows it"
    for name, a, e in zip(GRADS, got, want):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"
    g = dict(zip(GRADS, got))
    assert close(g["dgc"], g["dbc"]) > 1e-3, "dgc is not dbc"


def test_per_step_loop_without_norm_writes_the_last_step(monkeypatch):
    use_loop(monkeypatch, "per-step")
    T = 2
    p, _ = problem(26202, T)
    p = far_states(p)
    y, hT, cT, _ = lstm_cuda.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["none"], EPS, 1)
    want = spec_forward(p, "none")
    for name, a, e in zip(("y", "hT", "cT"), (y, hT, cT), want):
        assert close(host(a), e) < 1e-12, name
    assert close(host(y)[T - 1], host(y)[T - 2]) > 1e-3, "the two steps differ"
