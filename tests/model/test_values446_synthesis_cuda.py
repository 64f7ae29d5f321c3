"""A BatchNorm synthesis model's update on the device in chunks of one step (``loss_and_grad_on_device``, tbptt 1
over T 4: chunks from t0 = 0, 1, 2 and 3) equals the host's: every parameter gradient, the loss's sums, and the
running statistics of the window layer and of the LSTM layer above it, of which each chunk updates its own row t0 of
the device's copies (fetched with ``pull_params``): rows 1..3 move, row 0 too where step 0 has something to
measure, and each row to the host's value.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0); shapes of
tests/model/test_synthesis_cuda.py (blocks of 8, tiles of 4; T=4 B=3 H=5 K=2 C=5 U=4), float64.
"""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from test_cuda_kernels import close, small_blocks  # noqa: E402,F401  (autouse fixture: blocks of 8, tiles of 4)
from test_synthesis_cuda import TOL  # noqa: E402
from test_values441_synthesis_cuda import chunked_updates  # noqa: E402


def test_batchnorm_synthesis_update_in_one_step_chunks_on_the_device_equals_the_host():
    T = 4
    host, dev, before = chunked_updates(T, 1)
    layers = {n.split(".")[1] for n in host.buffers}
    assert len(layers) == 2, sorted(host.buffers)  # the window layer's statistics and the LSTM layer's above it
    for n, a in host.buffers.items():
        moved = np.flatnonzero(np.any(a != before[n], axis=tuple(range(1, a.ndim))))
        # each one-step chunk its own row (h0 = 0 leaves the mean of step 0's h Wh where it was)
        assert set(range(1, T)) <= set(moved.tolist()) <= set(range(T)), (n, moved)
        assert close(dev.buffers[n], a) < TOL, n
