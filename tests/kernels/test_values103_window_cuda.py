"""The window stack's CUDA helpers (lnrnn/kernels/window_cuda.py) under Numba's simulator: its column joins and
splits against NumPy's concatenate and slices (widths 2, 0, 3 and 1; a slice taken with an addend), on blocks of
4 threads; the norm check taking the three norms and refusing a fourth. (One window step on an empty text, a
one-character text and a row at its first padded step is test_values84_window_cuda's second step problem.)"""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE  # noqa: E402
from lnrnn.kernels.cuda import gemm_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from test_cuda_kernels import simulator_race_free  # noqa: E402

B = 3
TPB = 4


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", TPB)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    with simulator_race_free(monkeypatch):
        yield


def test_columns_joined_and_taken_equal_numpy():
    rng = np.random.default_rng(1031)
    parts = [rng.standard_normal((2, B, w)) for w in (2, 0, 3, 1)]
    joined = window_cuda.join_columns(parts)
    np.testing.assert_array_equal(to_host(joined), np.concatenate(parts, axis=2))
    add = rng.standard_normal((2, B, 3))
    np.testing.assert_array_equal(to_host(window_cuda.take_columns(joined, 2, 5)), parts[2])
    np.testing.assert_array_equal(to_host(window_cuda.take_columns(joined, 2, 5, add)), parts[2] + add)
    np.testing.assert_array_equal(to_host(window_cuda.take_columns(joined, 5, 6)), parts[3])


def test_norm_check_takes_the_three_norms_and_refuses_a_fourth():
    assert [window_cuda._check_norm(n) for n in (NORM_NONE, NORM_LN, NORM_BN)] == [NORM_NONE, NORM_LN, NORM_BN]
    with pytest.raises(ValueError, match="NORM_NONE, NORM_LN or NORM_BN"):
        window_cuda._check_norm(3)
