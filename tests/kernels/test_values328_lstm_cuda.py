"""lstm_cuda (the LSTM's CUDA twin) in float64 under Numba's simulator, B = 3 rows, I = 4 (the narrow input whose
xhat_x the backward recomputes from x and the centered Wx), H = 5 units over blocks of 4 threads (neither a
multiple of the block), eps 0.3, gains and biases off their defaults, h0 far from c0, Graves's clip at 0.05 with
dy of scale 10 (it binds), against lnrnn/reference.py's spec (y, hT, cT) and the CPU twin (every saved array and
all twelve gradients, to 1e-12):

- the sequence kernels and the per-step loop with LayerNorm over T = 3, training (forward and backward) and
  evaluation (lstm_infer against the spec);
- the per-step loop without a norm;
- a fresh captured plan with LayerNorm (all three rstd rows loaded before the replay);
- step_threads against its definition worked out by hand (H rounded up to a power of two, at least
  config.THREADS_PER_BLOCK, at most config.CUDA_SEQ_MAX_THREADS);
- _rstd_load's refusal word for word.

The kernels take no lengths or state noise (the layers above them do); chunks and seeds are covered by
test_values174_lstm_cuda. Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from numba import cuda  # noqa: E402

from lnrnn import config  # noqa: E402
from lnrnn.kernels import lstm_cuda  # noqa: E402
from test_cuda_kernels import LSTM_FWD, NORM, TOL64, close, host  # noqa: E402
from test_values85_lstm_cuda import GRADS, use_loop  # noqa: E402
from test_values174_lstm_cuda import EPS, problem  # noqa: E402
from test_values247_lstm_rnn_cuda import far_states, spec_forward  # noqa: E402
from test_values306_lstm_cuda import run_both  # noqa: E402

SAVED = ("gates", "c", "tc", "y", "xp", "hhat", "chat", "rstd")


def compare(seed, T, norm, infer=False):
    """One forward and backward (clip 0.05) on the loop in use: y, hT, cT against the spec; every saved array and
    gradient against the CPU twin; with infer, lstm_infer's y, hT, cT against the spec too."""
    p, dy = problem(seed, T)
    p = far_states(p)
    (y, hT, cT, saved, got), (saved_c, want) = run_both(p, dy, norm)
    spec = spec_forward(p, norm)
    for name, a, e in zip(("y", "hT", "cT"), (y, hT, cT), spec):
        assert a.shape == e.shape and close(a, e) < 1e-12, name
    for name, a, e in zip(SAVED, saved, saved_c):
        assert a.shape == e.shape and close(a, e) < 1e-12, f"saved {name}"
    for name, a, e in zip(GRADS, got, want):
        assert a.shape == e.shape and close(a, e, floor=1e-3) < TOL64, f"{name}: {close(a, e, floor=1e-3):.2e}"
    if infer:
        out = lstm_cuda.lstm_infer(*[p[k] for k in LSTM_FWD], NORM[norm], EPS, 1)
        for name, a, e in zip(("y", "hT", "cT"), out, spec):
            assert close(host(a), e) < 1e-12, f"lstm_infer {name}"


@pytest.mark.parametrize("loop", ["sequence", "per-step"])
def test_layernorm_with_clip_training_and_evaluation(loop, monkeypatch):
    use_loop(monkeypatch, loop)
    compare(32801 + (loop == "sequence"), 3, "ln", infer=True)


def test_per_step_loop_without_norm(monkeypatch):
    use_loop(monkeypatch, "per-step")
    compare(32803, 3, "none")


def test_fresh_graph_plan_with_layernorm(monkeypatch):
    use_loop(monkeypatch, "graph")
    compare(32804, 2, "ln")


def test_step_threads_by_hand(monkeypatch):
    """H rounded up to a power of two (1 -> 1, 5 -> 8, 9 -> 16, 33 -> 64, 100 -> 128), then at least 4 and at
    most 64."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 64)
    want = {1: 4, 3: 4, 4: 4, 5: 8, 8: 8, 9: 16, 17: 32, 33: 64, 64: 64, 100: 64}
    assert {H: lstm_cuda.step_threads(H) for H in want} == want
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 16)
    assert [lstm_cuda.step_threads(H) for H in (5, 17, 200)] == [16, 32, 64]


def test_rstd_load_refuses_a_longer_call_word_for_word():
    dst = cuda.to_device(np.zeros((3, 2, 3)))
    rstd = cuda.to_device(np.ones((3, 3, 3)))
    with pytest.raises(ValueError) as e:
        lstm_cuda._rstd_load(dst, rstd)
    assert str(e.value) == "_rstd_load: a float64 (3, 3, 3) rstd into a plan's float64 (3, 2, 3)"
    assert (host(dst) == 0).all(), "nothing copied"
