"""rnn_cuda (the RNN's CUDA twin) on its per-step loop against the CPU twin (rnn) and the NumPy spec
(lnrnn/reference.py), float64, with LayerNorm (gain and bias off their defaults and far apart, eps 0.3), h0 of its
own in every row; T = 3, B = 3 rows, I = 4, H = 5 hidden units over blocks of 4 threads (neither a multiple of the
block): y, hT and all six gradients. The kernels take no lengths, masks or state noise (the layers above them do).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import rnn, rnn_cuda  # noqa: E402
from test_cuda_kernels import RNN_FWD, close, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import use_loop  # noqa: E402
from test_values153_rnn_cuda import EPS, GRADS, T, check, problem, run  # noqa: E402


def test_per_step_loop_equals_the_spec_and_the_cpu_twin(monkeypatch):
    """Per-step loop with LN: y (every step, the last included) and hT equal the spec's; the six gradients equal
    the spec's and the CPU twin's."""
    use_loop(monkeypatch, "per-step")
    p, dy = problem(18830)
    got = run(rnn_cuda, p, dy, "ln")
    y, hT, cache = reference.rnn_forward(*[p[k] for k in RNN_FWD], "ln", EPS)
    spec = reference.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], "ln")
    for t in range(T):
        assert close(got[0][0][t], y[t]) < 1e-10, f"y at step {t}"
    assert close(got[0][1], hT) < 1e-10, "hT"
    for name, a, e in zip(GRADS, got[1], spec):
        assert close(a, e) < 1e-10, f"{name} against the spec"
    check(got, run(rnn, p, dy, "ln"))
