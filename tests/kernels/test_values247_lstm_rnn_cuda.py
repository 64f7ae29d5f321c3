"""lstm_cuda and rnn_cuda (the CUDA twins) on each time loop against the NumPy spec (lnrnn/reference.py) and the
CPU twins, B = 3 rows, I = 4, H = 5 hidden units over blocks of 4 threads (neither a multiple of the block):

- the per-step loop with LayerNorm over T = 4 steps, h0 far from c0: y, hT, cT against the spec, the saved rstd
  rows (x, h_{t-1} Wh, c_t) against the CPU twin's, all twelve gradients under Graves's clip at 0.05 (it bites)
  against the CPU twin's with the same clip, and lstm_infer's hT and cT against the spec;
- the plain cell's per-step backward in float32 against the float64 CPU twin (dL/dh0 and dL/dc0 in their places);
- the captured forward and backward (the simulator's stand-in library) with LayerNorm, h0 far from c0;
- the sequence kernels' choice at exactly the bytes of their backward's four shared arrays (bwd_row's 4 * tpb
  scratch, dh (H), dv (4H), the dv Wh^T partial sums (groups * H)) and at one byte fewer;
- the RNN's captured backward with LayerNorm against the CPU twin (dg and dWh).

The kernels take no lengths, masks or state noise (the layers above them do: test_values247_window_cuda gives the
window layer its lengths). Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config, reference  # noqa: E402
from lnrnn.kernels import lstm, lstm_cuda, rnn, rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda.rows_cuda import split_groups  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL32, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import GRADS, use_loop  # noqa: E402
from test_values174_lstm_cuda import B, CLIP, EPS, H, I, backward, forward, problem  # noqa: E402
from test_values153_rnn_cuda import problem as rnn_problem, run as rnn_run  # noqa: E402

G = 4 * H


def far_states(p):
    """h0 and c0 far apart in every row, so that trading them shows."""
    return dict(p, c0=p["c0"] + 2.0, h0=-0.5 * p["h0"])


def spec_forward(p, norm="ln"):
    return reference.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)[:3]


def test_step_loop_with_layernorm_and_clip_equals_the_spec_and_the_cpu_twin(monkeypatch):
    use_loop(monkeypatch, "per-step")
    T = 4
    p, dy = problem(24700, T)
    p = far_states(p)
    y, hT, cT, saved = forward(lstm_cuda, p)
    for name, a, e in zip(("y", "hT", "cT"), (y, hT, cT), spec_forward(p)):
        assert close(host(a), e) < 1e-10, name
    yi, hi, ci = lstm_cuda.lstm_infer(*[p[k] for k in LSTM_FWD], NORM["ln"], EPS, 1)
    for name, a, e in zip(("infer y", "infer hT", "infer cT"), (yi, hi, ci), spec_forward(p)):
        assert close(host(a), e) < 1e-10, name
    _, _, _, saved_c = forward(lstm, p)
    rstd, rstd_c = host(saved[7]), np.asarray(saved_c[7])
    assert rstd.shape == rstd_c.shape == (3, T, B)
    for r, name in enumerate(("x", "h_{t-1} Wh", "c_t")):
        assert close(rstd[r], rstd_c[r]) < 1e-12, f"rstd of {name}"
    assert close(rstd[1], rstd[2]) > 1e-3, "the two rows differ"
    got, want = backward(lstm_cuda, dy, saved, p), backward(lstm, dy, saved_c, p)
    unclipped = lstm.lstm_backward(dy, saved_c, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"],
                                   p["gc"], NORM["ln"], 1)
    assert close(host(unclipped[5]), want[5]) > 1e-2, "the clip bites"
    for name, a, e in zip(GRADS, got, want):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"


def test_plain_cell_backward_in_float32_equals_the_cpu_twin(monkeypatch):
    use_loop(monkeypatch, "per-step")
    T = 3
    p, dy = problem(24710, T)
    p = far_states(p)
    p32 = {k: v.astype(np.float32) for k, v in p.items()}
    _, _, _, saved = lstm_cuda.lstm_forward(*[p32[k] for k in LSTM_FWD], NORM["none"], EPS, 1)
    _, _, _, saved_c = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], NORM["none"], EPS, 1)
    got = [host(a) for a in lstm_cuda.lstm_backward(dy.astype(np.float32), saved, p32["x"], p32["h0"], p32["c0"],
                                                     p32["Wx"], p32["Wh"], p32["gx"], p32["gh"], p32["gc"],
                                                     NORM["none"], 1)]
    want = [np.asarray(a) for a in lstm.lstm_backward(dy, saved_c, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"],
                                                      p["gx"], p["gh"], p["gc"], NORM["none"], 1)]
    assert close(want[1], want[2]) > 1e-2, "dL/dh0 and dL/dc0 differ"
    for name, a, e in zip(GRADS, got, want):
        assert a.dtype == np.float32 and a.shape == e.shape, name
        assert close(a, e, floor=1.0) < 10 * TOL32, f"{name}: {close(a, e, floor=1.0):.2e}"


def test_captured_forward_and_backward_with_layernorm_equal_the_spec_and_the_cpu_twin(monkeypatch):
    use_loop(monkeypatch, "graph")
    T = 3
    assert lstm_cuda.lstm_path(H, np.float64, T=T) == "graph"
    p, dy = problem(24720, T)
    p = far_states(p)
    y, hT, cT, saved = forward(lstm_cuda, p)
    for name, a, e in zip(("y", "hT", "cT"), (y, hT, cT), spec_forward(p)):
        assert close(host(a), e) < 1e-10, name
    _, _, _, saved_c = forward(lstm, p)
    got, want = backward(lstm_cuda, dy, saved, p), backward(lstm, dy, saved_c, p)
    for name, a, e in zip(GRADS, got, want):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"


def test_sequence_kernels_chosen_at_exactly_their_shared_bytes(monkeypatch):
    use_loop(monkeypatch, "sequence")
    for h in (5, 9):
        g = 4 * h
        tpb = min(int(config.CUDA_SEQ_MAX_THREADS), (g + 31) // 32 * 32)  # G rounded up to a warp, capped
        need = (4 * tpb + h + g + split_groups(h, tpb) * h) * 8  # float64
        assert split_groups(h, tpb) >= 1
        monkeypatch.setattr(config, "CUDA_SHARED_BYTES", need)
        assert lstm_cuda.lstm_path(h, np.float64, T=3) == "seq", h
        monkeypatch.setattr(config, "CUDA_SHARED_BYTES", need - 1)
        assert lstm_cuda.lstm_path(h, np.float64, T=3) == "step", h


def test_rnn_captured_backward_with_layernorm_equals_the_cpu_twin(monkeypatch):
    use_loop(monkeypatch, "graph")
    assert rnn_cuda.rnn_path(H, np.float64, 3) == "graph"
    p, dy = rnn_problem(24730)
    p = dict(p, h0=p["h0"] - 1.0)  # h0 far from y_0
    (y, hT), grads = rnn_run(rnn_cuda, p, dy, "ln")
    (y_c, hT_c), grads_c = rnn_run(rnn, p, dy, "ln")
    assert close(y, y_c) < TOL64 and close(hT, hT_c) < TOL64
    names = ("dx", "dh0", "dWx", "dWh", "db", "dg")
    assert close(grads_c[5], grads_c[4]) > 1e-2, "dg differs from db"
    for name, a, e in zip(names, grads, grads_c):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"
