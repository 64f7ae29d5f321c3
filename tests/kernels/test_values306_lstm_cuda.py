"""lstm_cuda (the LSTM's CUDA twin) in float64 under Numba's simulator against the CPU twin (lnrnn/kernels/lstm.py)
and lnrnn/reference.py's spec: B = 3 rows, I = 4 (the narrow input whose xhat_x is recomputed, not saved), H = 5
units over blocks of 4 threads (neither a multiple of the block), eps 0.3, gains and biases off their defaults, h0
far from c0, Graves's clip at 0.05 with dy of scale 10 (it binds):

- a captured plan of 3 steps serving a later call of 2 (config.CUDA_GRAPH_SLACK at 1, so that a plan up to twice
  as long serves), with LayerNorm: the second call's y, hT, cT against the spec, its saved arrays (shapes and the
  three rstd rows) and all twelve gradients against the CPU twin, although the plan's third step still holds the
  first call's rows;
- the captured plan without a norm: the saved layout (shapes) and the six gradients against the CPU twin;
- the sequence kernels and the per-step loop with LayerNorm: the saved layout, the rstd rows of x, h_{t-1} Wh and
  c_t, and all twelve gradients against the CPU twin.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402
from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from lnrnn.kernels.cuda import graphs_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host  # noqa: E402
from test_values85_lstm_cuda import GRADS, use_loop  # noqa: E402
from test_values174_lstm_cuda import CLIP, EPS, problem  # noqa: E402
from test_values247_lstm_rnn_cuda import far_states, spec_forward  # noqa: E402


def run_both(p, dy, norm):
    """(cuda y, hT, cT, saved, grads), (cpu saved, grads) of one forward and backward with the clip."""
    args = [p[k] for k in LSTM_FWD]
    y, hT, cT, saved = lstm_cuda.lstm_forward(*args, NORM[norm], EPS, 1)
    saved_c = lstm.lstm_forward(*args, NORM[norm], EPS, 1)[3]
    rest = (p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], NORM[norm], 1)
    got = [host(a) for a in lstm_cuda.lstm_backward(dy, saved, *rest, clip=CLIP)]
    want = [host(a) for a in lstm.lstm_backward(dy, saved_c, *rest, clip=CLIP)]
    return (host(y), host(hT), host(cT), [host(a) for a in saved], got), ([np.asarray(a) for a in saved_c], want)


def check(p, dy, norm, T):
    (y, hT, cT, saved, got), (saved_c, want) = run_both(p, dy, norm)
    for name, a, e in zip(("y", "hT", "cT"), (y, hT, cT), spec_forward(p, norm)):
        assert a.shape == e.shape and close(a, e) < 1e-12, name
    assert [a.shape for a in saved] == [a.shape for a in saved_c], "saved layout"
    assert saved[0].shape == (T, 3, 20)
    if norm == "ln":
        assert saved[4].shape == (0, 0, 0), "a narrow input's xhat_x is not saved"
        assert saved[7].shape == (3, T, 3)
        for r, name in enumerate(("x", "h_{t-1} Wh", "c_t")):
            assert close(saved[7][r], saved_c[7][r]) < 1e-12, f"rstd of {name}"
    else:
        assert saved[7].shape == (3, 0, 0)
    for name, a, e in zip(GRADS, got, want):
        assert a.shape == e.shape and close(a, e, floor=1e-3) < TOL64, f"{name}: {close(a, e, floor=1e-3):.2e}"


def test_graph_plan_of_3_steps_serves_a_later_call_of_2_with_layernorm(monkeypatch):
    use_loop(monkeypatch, "graph")
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 1)
    p, dy = problem(30601, 3)
    check(far_states(p), dy, "ln", 3)
    q, dq = problem(30602, 2)
    q = far_states(q)
    check(q, dq, "ln", 2)
    assert sorted(k[2] for k in graphs_cuda.PLANS) == [3, 3], "the second call ran on the first call's plans"


def test_graph_plan_without_norm_saved_layout_and_gradients(monkeypatch):
    use_loop(monkeypatch, "graph")
    p, dy = problem(30603, 2)
    check(far_states(p), dy, "none", 2)


@pytest.mark.parametrize("loop", ["sequence", "per-step"])
def test_layernorm_saved_layout_rstd_rows_and_gradients(loop, monkeypatch):
    use_loop(monkeypatch, loop)
    p, dy = problem(30604 + (loop == "sequence"), 3)
    check(far_states(p), dy, "ln", 3)
