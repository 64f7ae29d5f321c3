"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py), eighteenth pass, in float64 under Numba's simulator
against its CPU twin (lnrnn/kernels/window.py): B = 3, K = 2, U = 5, H = 5, C = 4, T = 4 (test_values60_window_cuda's
problem), texts of U, 1 and 0 characters in one batch, row kernels of 4 threads and tiles of 3 (no size a multiple of
a block), LayerNorm on and off.

- One call with rows of 4, 2 and 3 steps: the forward outputs, the saved c and kappa of every step and every gradient
  (dx, dh0, dc0, dkappa0, dw0, dWx, dWh, db, the six norm gains and biases, dWp, dbp) equal the CPU twin's to 1e-12 of
  its magnitude, shapes included (the norm gradients of a layer without LayerNorm are zeros of G and H entries).
- kappa, the window w and the LSTM state carried over two chunks, a 1-step call (keep=True) then a 3-step one
  (keep=False, the inference slots), equal the CPU twin's single 4-step call: y, w and phi of every step and the
  final h, c, kappa and w.

Runs under Numba's CUDA simulator (tests/conftest.py sets NUMBA_ENABLE_CUDASIM=1) or on a GPU."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
# small_blocks: the autouse fixture (row kernels of TPB = 4 threads, tiles of 3, the simulator race-free)
from test_values103_window_cuda import small_blocks  # noqa: E402,F401
from test_values152_window_cuda import CODES, EPS, FWD_OUT, GRADS, MOM, run_twin  # noqa: E402
from test_values60_window_cuda import B, G, H, T, U, problem as layer_problem  # noqa: E402
from test_cuda_kernels import close  # noqa: E402

K, C = 2, 4
ULEN = [U, 1, 0]
LENGTHS = [4, 2, 3]
TOL = 1e-12
NONE6 = [np.zeros((0, 0))] * 6


def problem(seed):
    a, run, dy, dw = layer_problem(seed, ULEN, K=K, C=C, alpha_shift=0.2)
    a["chars"][0, 2] = C - 1  # the last code inside the full text and as the one-character text
    a["chars"][1, 0] = C - 1
    return a, run, dy, dw


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_forward_and_every_gradient_equal_the_cpu_twin(norm):
    assert (B, K, U, H, T) == (3, 2, 5, 5, 4)
    a, run, dy, dw = problem(3460 + len(norm))
    lengths = np.array(LENGTHS, np.int64)
    want = run_twin(cpu, a, run, lengths, dy, dw, norm, np.asarray)
    got = run_twin(window_cuda, a, run, lengths, dy, dw, norm, to_host)
    for group, names, g, e in zip(("output", "saved", "gradient"), (FWD_OUT, ("c", "kappa"), GRADS),
                                  (got[0], got[1], got[3]), (want[0], want[1], want[3])):
        assert len(g) == len(e) == len(names), group
        for name, x, z in zip(names, g, e):
            assert x.shape == z.shape, f"{group} {name}: {x.shape} vs {z.shape}"
            assert close(x, z) < TOL, f"{group} {name}: {close(x, z):.2e}"
    g = dict(zip(GRADS, got[3]))
    assert [g[n].shape for n in ("gx", "bx", "gh", "bh", "gc", "bc")] == [(G,)] * 4 + [(H,)] * 2
    if norm == "none":
        assert all(not g[n].any() for n in ("gx", "bx", "gh", "bh", "gc", "bc"))
    else:  # the gains' gradients are not their biases'
        assert close(g["gc"], g["bc"]) > 1e-3 and close(g["gh"], g["bh"]) > 1e-3
    phi, w = got[0][6], got[0][1]
    for b, n in enumerate(ULEN):  # no window past a text, none at all without one
        assert not phi[:, b, n:].any() and (phi[:, b, :n] > 0).all(), b
    assert not w[:, 2].any()
    assert np.abs(g["kappa0"][:2]).min() > 1e-8 and not g["kappa0"][2].any()


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_state_carried_over_two_chunks_equals_one_call(norm):
    a, _, _, _ = problem(3462 + len(norm))
    full = np.full(B, T, np.int64)
    code = CODES[norm]
    want = cpu.window_lstm_forward(*a.values(), *NONE6, code, True, MOM, EPS, full, False)
    first = dict(a, x=a["x"][:1])
    y1, w1, h1, c1, k1, wT1, phi1, saved = window_cuda.window_lstm_forward(*first.values(), *NONE6, code, True, MOM,
                                                                          EPS, np.ones(B, np.int64), True)
    assert saved is not None
    second = dict(a, x=a["x"][1:], h0=to_host(h1), c0=to_host(c1), kappa0=to_host(k1), w0=to_host(wT1))
    y2, w2, h2, c2, k2, wT2, phi2, none = window_cuda.window_lstm_forward(*second.values(), *NONE6, code, True, MOM,
                                                                         EPS, full - 1, False)
    assert none is None
    got = (np.concatenate([to_host(y1), to_host(y2)]), np.concatenate([to_host(w1), to_host(w2)]),
           to_host(h2), to_host(c2), to_host(k2), to_host(wT2), np.concatenate([to_host(phi1), to_host(phi2)]))
    for name, x, z in zip(FWD_OUT, got, want[:7]):
        assert x.shape == z.shape, name
        assert close(x, z) < TOL, f"{name}: {close(x, z):.2e}"
    # the carried kappa is the sum of the step sizes exp(k_hat) over all four steps, from kappa0
    assert close(got[4] - a["kappa0"], want[4] - a["kappa0"]) < TOL and (got[4] - a["kappa0"] > 0).all()
