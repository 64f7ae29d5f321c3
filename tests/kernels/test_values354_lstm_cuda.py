"""lstm_cuda (the LSTM's CUDA twin) in float64 under Numba's simulator, eighteenth pass: B = 3 rows, I = 4 (the
narrow input whose xhat_x the backward recomputes), H = 5 units over blocks of 4 threads (neither a multiple of
the block), eps 0.3, gains and biases off their defaults, h0 far from c0, Graves's clip at 0.05 with dy of
scale 10 (it binds). Against lnrnn/reference.py's spec (y, hT, cT) and the CPU twin (every saved array and all
twelve gradients, to 1e-12):

- the sequence kernels with and without LayerNorm, training and evaluation (lstm_infer);
- the per-step loop with LayerNorm, one step and three;
- a fresh captured plan with LayerNorm;
- the state carried over two chunks on captured plans (2 steps, then 3): the second chunk's backward first,
  its dL/dh0 added to the first chunk's last dy and its dL/dc0 passed on as dcT, against the CPU twin's one
  backward over all 5 steps (dh0, dc0 and every parameter gradient summed over the chunks), the outputs
  against the spec's whole run; with config.CUDA_GRAPH_SLACK at 1 the 3-step plan would serve the 2-step call,
  were the seeded call not given a plan of its own length.

The kernels take no lengths or state noise (the layers above them do: lengths 0, 1 and T in one batch and the
noise are covered by the layer tests); a one-step call stands for the shortest length here. Runs under Numba's
CUDA simulator (tests/conftest.py) or on a GPU."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402
from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host  # noqa: E402
from test_values85_lstm_cuda import GRADS, use_loop  # noqa: E402
from test_values174_lstm_cuda import CLIP, EPS, problem  # noqa: E402
from test_values247_lstm_rnn_cuda import far_states, spec_forward  # noqa: E402
from test_values328_lstm_cuda import compare  # noqa: E402


def test_sequence_kernels_with_layernorm_training_and_evaluation(monkeypatch):
    use_loop(monkeypatch, "sequence")
    compare(35401, 3, "ln", infer=True)


def test_sequence_kernels_without_norm_training_and_evaluation(monkeypatch):
    use_loop(monkeypatch, "sequence")
    compare(35402, 3, "none", infer=True)


@pytest.mark.parametrize("T", [1, 3])
def test_per_step_loop_with_layernorm(T, monkeypatch):
    use_loop(monkeypatch, "per-step")
    compare(35403 + T, T, "ln", infer=T == 1)


def test_fresh_graph_plan_with_layernorm(monkeypatch):
    use_loop(monkeypatch, "graph")
    compare(35407, 2, "ln")


def _chunk(p, a, b):
    """The problem's steps a..b-1 (x), the rest as given."""
    return dict(p, x=p["x"][a:b])


def test_state_carried_over_two_chunks_on_captured_plans(monkeypatch):
    """Steps 0-1, then 2-4 from the first chunk's hT, cT; backward over the second chunk (a 3-step plan), then the
    first (2 steps, dcT = the second's dc0: a plan of its own length, not the 3-step one). A slack of 1 lets a
    plan serve calls of half its steps and more, so that only the seed's exact plan keeps the 2-step call right."""
    use_loop(monkeypatch, "graph")
    monkeypatch.setattr(config, "CUDA_GRAPH_SLACK", 1)
    p, dy = problem(35408, 5)
    p = far_states(p)
    n = NORM["ln"]
    rest = lambda q: (q["x"], q["h0"], q["c0"], q["Wx"], q["Wh"], q["gx"], q["gh"], q["gc"], n, 1)  # noqa: E731
    p1 = _chunk(p, 0, 2)
    y1, h1, c1, s1 = lstm_cuda.lstm_forward(*[p1[k] for k in LSTM_FWD], n, EPS, 1)
    p2 = dict(_chunk(p, 2, 5), h0=host(h1), c0=host(c1))
    y2, h2, c2, s2 = lstm_cuda.lstm_forward(*[p2[k] for k in LSTM_FWD], n, EPS, 1)
    spec = spec_forward(p, "ln")
    assert close(np.concatenate([host(y1), host(y2)]), spec[0]) < 1e-12, "y"
    assert close(host(h2), spec[1]) < 1e-12 and close(host(c2), spec[2]) < 1e-12, "hT, cT"
    g2 = [host(a) for a in lstm_cuda.lstm_backward(dy[2:], s2, *rest(p2), clip=CLIP)]
    dy1 = dy[:2].copy()
    dy1[-1] += g2[1]
    g1 = [host(a) for a in lstm_cuda.lstm_backward(dy1, s1, *rest(p1), clip=CLIP, dcT=g2[2])]
    saved_c = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], n, EPS, 1)[3]
    want = [host(a) for a in lstm.lstm_backward(dy, saved_c, *rest(p), clip=CLIP)]
    got = [np.concatenate([g1[0], g2[0]]), g1[1], g1[2]] + [a + b for a, b in zip(g1[3:], g2[3:])]
    for name, a, e in zip(GRADS, got, want):
        assert a.shape == e.shape and close(a, e, floor=1e-3) < TOL64, f"{name}: {close(a, e, floor=1e-3):.2e}"
