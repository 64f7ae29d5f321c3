"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py), fourteenth pass, in float64 under Numba's
simulator against its CPU twin (lnrnn/kernels/window.py) with BatchNorm: B = 3, H = 5, K = 2, C = 3, U = 4 (texts
of 4, 0 and 2 characters: the full width next to an empty one), T = 4 steps with row lengths 4, 2 and 3, row
kernels of 4 threads and tiles of 3, in training and in evaluation (the running rows read, the backward's BN in
its evaluation form). Forward outputs, the saved c and kappa, the running rows after and every gradient to 1e-10
of the CPU twin's magnitude (test_values262_window_cuda's run); phi past each text exactly 0.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
# small_blocks: the autouse fixture (row kernels of TPB = 4 threads, tiles of 3, the simulator race-free)
from test_values103_window_cuda import small_blocks  # noqa: E402,F401
from test_values152_window_cuda import FWD_OUT, GRADS, TOL, problem  # noqa: E402
from test_values262_window_cuda import run  # noqa: E402
from test_cuda_kernels import close  # noqa: E402

K, U = 2, 4
ULEN = [U, 0, 2]


@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
def test_bn_layer_at_b3_h5_k2_u4_equals_the_cpu_twin(training):
    a, rows, lengths, dy, dw = problem(29330, K, ULEN, [4, 2, 3])
    a["chars"] = np.ascontiguousarray(a["chars"][:, :U])
    want = run(cpu, a, rows, lengths, dy, dw, training, 0.0, np.asarray)
    got = run(window_cuda, a, rows, lengths, dy, dw, training, 0.0, to_host)
    for group, names, g, e in zip(("output", "saved", "running row", "gradient"),
                                  (FWD_OUT, ("c", "kappa"), range(6), GRADS), got, want):
        assert len(g) == len(e), group
        for name, x, z in zip(names, g, e):
            assert x.shape == z.shape and close(x, z) < TOL, f"{group} {name}: {close(x, z):.2e}"
    phi = got[0][6]
    assert phi.shape[2] == U
    for b, n in enumerate(ULEN):
        assert np.all(phi[:, b, n:] == 0.0) and np.all(phi[:, b, :n] > 0.0), f"row {b}"
