"""lnrnn/kernels/losses_cuda.py's squared error at the edge of the tolerance (CUDA, or the simulator): a row
whose error is exactly the tolerance on some output is not within it (|err| < tolerance, as the host
regression head counts), errors computed here in float64 from values exact in binary."""
import numpy as np
import pytest


def test_an_error_of_exactly_the_tolerance_is_not_within_it():
    from lnrnn import backend
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    from lnrnn.kernels import losses_cuda
    from lnrnn.kernels.cuda import arrays_cuda
    hw = np.array([[0.5, 1.0], [0.75, 1.0], [0.5, 1.125], [2.0, 1.0], [0.25, 1.0]])   # (B,O)
    b = np.array([0.0, 0.0])
    target = np.array([[0.25, 1.0], [0.5, 1.0], [0.5, 1.0], [1.0, 1.0], [0.0, 1.0]])
    mask = np.array([1.0, 1.0, 1.0, 1.0, 0.0])                                        # the last row not scored
    tol = 0.25
    err = (hw + b - target) * mask[:, None]
    want_within = (np.all(np.abs(err) < tol, axis=1) & (mask != 0)).astype(float)
    assert want_within.tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]
    d = arrays_cuda.empty(hw.shape, np.float64)
    rows = arrays_cuda.empty((5, 2), np.float64)
    losses_cuda.squared_error(arrays_cuda.to_device(hw), arrays_cuda.to_device(b), arrays_cuda.to_device(target),
                              arrays_cuda.to_device(mask), 0.5, tol, d, rows)
    got = rows.copy_to_host()
    np.testing.assert_array_equal(got[:, 1], want_within)
    np.testing.assert_array_equal(got[:, 0], (err ** 2).sum(axis=1))
    np.testing.assert_array_equal(d.copy_to_host(), 2 * 0.5 * err)
