"""rnn_cuda (the RNN's CUDA twin) against the CPU twin (rnn) and the NumPy spec (lnrnn/reference.py), float64, on
shapes that are no multiple of the block: T = 2 steps, B = 3 rows, I = 3, H = 5 hidden units over blocks of 4
threads, on each of the three time loops; the LN gain and the bias off their defaults, h0 of its own in every row,
eps 0.3 (large enough that dropping it shows). y, hT and the gradient of every input and parameter are compared;
hT also with the last step's y, and with LN one step is recomputed here by the definition.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402

from lnrnn.kernels import rnn, rnn_cuda  # noqa: E402
from test_cuda_kernels import NORM, RNN_FWD, TOL64, close, host, small_blocks  # noqa: E402,F401
from test_values85_lstm_cuda import LOOPS, use_loop  # noqa: E402
import test_values85_rnn_cuda as v85  # noqa: E402
from test_values85_rnn_cuda import EPS, GRADS, run  # noqa: E402  (run: EPS 0.3 in the LN)

T, B, I, H = 2, 3, 3, 5  # B and H as test_values85_rnn_cuda's; T and I its own


def problem(seed):
    return v85.problem(seed, T, I)


@pytest.mark.parametrize("loop", list(LOOPS))
@pytest.mark.parametrize("norm", ["ln", "none"])
def test_outputs_and_every_gradient_equal_the_cpu_twin_and_the_spec(norm, loop, monkeypatch):
    """y, hT and the six gradients equal the CPU twin's and the spec's on each loop; hT is y at the last step."""
    use_loop(monkeypatch, loop)
    assert rnn_cuda.rnn_path(H, np.float64, T=T) == LOOPS[loop]
    p, dy = problem(10410 + (norm == "ln"))
    (outs, grads), (outs_c, grads_c) = run(rnn_cuda, p, dy, norm), run(rnn, p, dy, norm)
    for k, (a, e) in enumerate(zip(outs, outs_c)):
        assert a.shape == e.shape and close(a, e) < TOL64, f"output {k}: {close(a, e):.2e}"
    for name, a, e in zip(GRADS, grads, grads_c):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{name}: {close(a, e):.2e}"
    assert close(outs[1], outs[0][T - 1]) < 1e-15, "hT is y of the last step"
    y, hT, cache = reference.rnn_forward(*[p[k] for k in RNN_FWD], norm, EPS)
    spec = reference.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    assert close(outs[0], y) < 1e-10 and close(outs[1], hT) < 1e-10
    for name, a, e in zip(GRADS, grads, spec):
        assert close(a, e) < 1e-10, f"{name} against the spec"


@pytest.mark.parametrize("loop", list(LOOPS))
def test_ln_first_step_by_the_definition(loop, monkeypatch):
    """Step 0 of the LN-RNN recomputed here: a = x Wx + h0 Wh, z = g (a - mean) / sqrt(var + eps) + b, y = tanh z
    (eps 0.3 in the variance)."""
    use_loop(monkeypatch, loop)
    p, dy = problem(10412)
    outs, _ = run(rnn_cuda, p, dy, "ln")
    a = p["x"][0] @ p["Wx"] + p["h0"] @ p["Wh"]
    m = a.mean(1, keepdims=True)
    z = p["g"] * (a - m) / np.sqrt(((a - m) ** 2).mean(1, keepdims=True) + EPS) + p["b"]
    assert close(outs[0][0], np.tanh(z)) < 1e-12
