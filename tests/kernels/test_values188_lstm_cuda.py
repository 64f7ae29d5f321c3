"""lstm_cuda (the LSTM's CUDA twin) against the CPU twin (lstm) and the NumPy spec (lnrnn/reference.py), float64,
with LayerNorm, every gain and bias off its default (the gains distinct per gate column), h0 and c0 of their own
and unequal in every row, eps 0.3; B = 3 rows, I = 4, H = 5 hidden units over blocks of 4 threads (neither a
multiple of the block). Compared: the per-step loop with Graves's clip at 0.05 (dy scaled so that it bites) and a
seed dL/dc_T of its own, all twelve gradients; the sequence loop's forward, whose h0 and c0 differ; the captured
plans' backward called twice at one shape (the second call on the first one's buffers). The kernels take no
lengths, masks or state noise (the layers above them do), so none are given here.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import GRADS, use_loop  # noqa: E402
from test_values174_lstm_cuda import B, CLIP, EPS, H, backward, forward, problem  # noqa: E402

T = 3


def test_per_step_loop_with_clip_and_seed_equals_the_cpu_twin(monkeypatch):
    """Per-step loop, clip 0.05 that bites and a seed dL/dc_T: y, hT, cT against the spec, the saved layout's
    shapes and all twelve gradients against the CPU twin (which, without the clip, gives another db)."""
    use_loop(monkeypatch, "per-step")
    p, dy = problem(18800, T)
    dcT = np.random.default_rng(18801).standard_normal((B, H))
    y, hT, cT, saved = forward(lstm_cuda, p)
    y_c, hT_c, cT_c, saved_c = forward(lstm, p)
    ys, hs, cs, _ = reference.lstm_forward(*[p[k] for k in LSTM_FWD], "ln", EPS)
    for name, a, e in (("y", y, ys), ("hT", hT, hs), ("cT", cT, cs)):
        assert close(host(a), e) < 1e-10, name
    assert [tuple(a.shape) for a in saved] == [np.shape(a) for a in saved_c], "saved layout"
    got, want = backward(lstm_cuda, dy, saved, p, dcT=dcT), backward(lstm, dy, saved_c, p, dcT=dcT)
    unclipped = lstm.lstm_backward(dy, saved_c, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"],
                                   p["gc"], lstm.NORM_LN, 1, dcT=dcT)
    assert close(host(unclipped[5]), want[5]) > 1e-2, "the clip bites"
    for name, a, e in zip(GRADS, got, want):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"


def test_sequence_forward_with_unequal_initial_states_equals_the_spec(monkeypatch):
    """Sequence loop, h0 and c0 far apart: y, hT and cT equal the spec's."""
    use_loop(monkeypatch, "sequence")
    p, _ = problem(18810, T)
    p["c0"] = p["c0"] + 1.5
    y, hT, cT, _ = forward(lstm_cuda, p)
    ys, hs, cs, _ = reference.lstm_forward(*[p[k] for k in LSTM_FWD], "ln", EPS)
    for name, a, e in (("y", y, ys), ("hT", hT, hs), ("cT", cT, cs)):
        assert close(host(a), e) < 1e-10, name


def test_graph_backward_twice_at_one_shape(monkeypatch):
    """The captured backward, called twice at one shape (the second call replays the first one's plan and
    buffers): each call's twelve gradients equal the CPU twin's, dL/dh0 and dL/dc0 in their places."""
    use_loop(monkeypatch, "graph")
    p, dy = problem(18820, T)
    _, _, _, saved = forward(lstm_cuda, p)
    saved_c = forward(lstm, p)[3]
    want = backward(lstm, dy, saved_c, p)
    for call in range(2):
        got = backward(lstm_cuda, dy, saved, p)
        for name, a, e in zip(GRADS, got, want):
            assert a.shape == e.shape and close(a, e) < TOL64, f"call {call}, {name}: {close(a, e):.2e}"
