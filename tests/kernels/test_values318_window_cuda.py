"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py), seventeenth pass, in float64 under Numba's
simulator against its CPU twin (lnrnn/kernels/window.py) without a norm (the fused cell-and-window kernels):
B = 3, H = 5, K = 2, C = 4 (C not B, the last code 3 used), U = 5 with texts of 5, 1 and 0 characters and rows of
2, 4 and 3 of T = 4 steps (a text's row padded after step 2, so dw there must be ignored while dL/dw_t through
X_{t+1} is not), row kernels of 4 threads and tiles of 3 (no size a multiple of a block). Forward outputs, the
saved c and kappa of every step, every gradient to 1e-10 of the CPU twin's magnitude; phi past each text
exactly 0 and w of the empty text 0; dL/dkappa0 of both components nonzero where a text is read. The text check's
refusal of a code at C word for word (nothing run).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_NONE  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
# small_blocks: the autouse fixture (row kernels of TPB = 4 threads, tiles of 3, the simulator race-free)
from test_values103_window_cuda import small_blocks  # noqa: E402,F401
from test_values152_window_cuda import FWD_OUT, GRADS, TOL, run_twin  # noqa: E402
from test_values60_window_cuda import B, U, problem as layer_problem  # noqa: E402
from test_cuda_kernels import close  # noqa: E402

K, C = 2, 4
ULEN = [U, 1, 0]
LENGTHS = [2, 4, 3]


def problem(seed):
    a, run, dy, dw = layer_problem(seed, ULEN, K=K, C=C, alpha_shift=0.2)
    a["chars"][0, 1] = C - 1   # the last code inside a text
    a["chars"][1, 0] = C - 1
    return a, run, np.array(LENGTHS, np.int64), dy, dw


def test_layer_at_b3_k2_u5_equals_the_cpu_twin():
    assert (B, U) == (3, 5)
    a, run, lengths, dy, dw = problem(31830)
    want = run_twin(cpu, a, run, lengths, dy, dw, "none", np.asarray)
    got = run_twin(window_cuda, a, run, lengths, dy, dw, "none", to_host)
    for group, names, g, e in zip(("output", "saved", "running row", "gradient"),
                                  (FWD_OUT, ("c", "kappa"), range(6), GRADS), got, want):
        assert len(g) == len(e), group
        for name, x, z in zip(names, g, e):
            assert x.shape == z.shape and close(x, z) < TOL, f"{group} {name}: {close(x, z):.2e}"
    outs, grads = got[0], got[3]
    phi, w = outs[6], outs[1]
    for b, n in enumerate(ULEN):
        assert np.all(phi[:, b, n:] == 0.0) and np.all(phi[:, b, :n] > 0.0), f"row {b}"
    assert np.all(w[:, 2, :] == 0.0)
    w1 = w[:, 1, :]  # one character, code C - 1: w_t = phi(t,1) there, 0 elsewhere
    assert np.all(w1[:, C - 1] == phi[:, 1, 0]) and np.all(w1[:, :C - 1] == 0.0)
    dkappa0 = grads[3]
    assert np.all(dkappa0[:2] != 0.0) and np.all(dkappa0[2] == 0.0)


def test_code_at_c_refused_word_for_word():
    a, run, lengths, dy, dw = problem(31831)
    a["chars"][1, 0] = C
    a["chars"][2, :] = 99  # past a length of 0: never read
    with pytest.raises(ValueError) as e:
        window_cuda.window_lstm_forward(*a.values(), *([np.zeros((0, 0))] * 6), NORM_NONE, True, 0.1, 1e-5,
                                        lengths, True)
    assert str(e.value) == f"character codes must lie in [0, C) = [0, {C}), got 0..{C}"
