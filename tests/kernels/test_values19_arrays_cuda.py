"""The small device-array helpers of lnrnn/kernels/cuda/arrays_cuda.py against NumPy: add_into (refuses two
shapes of one size), to_host (tuples and lists alike, other values untouched), transpose (non-square arrays,
grid-stride launches of 7 threads so a thread handles several elements).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402


@pytest.fixture(autouse=True)
def odd_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 7)


def test_add_into_adds_one_shape_and_refuses_another_of_the_same_size():
    a = np.arange(6.0).reshape(2, 3)
    out = arrays_cuda.to_device(np.ones((2, 3)))
    arrays_cuda.add_into(out, arrays_cuda.to_device(a))
    np.testing.assert_array_equal(out.copy_to_host(), 1.0 + a)
    with pytest.raises(ValueError, match="shapes"):
        arrays_cuda.add_into(out, arrays_cuda.to_device(a.reshape(3, 2)))


def test_to_host_converts_tuples_and_lists_and_passes_other_values():
    a, b = np.arange(3.0), np.arange(4.0).reshape(2, 2)
    got = arrays_cuda.to_host([arrays_cuda.to_device(a), (arrays_cuda.to_device(b), 5)])
    assert isinstance(got, list) and isinstance(got[1], tuple)
    assert isinstance(got[0], np.ndarray) and isinstance(got[1][0], np.ndarray)
    np.testing.assert_array_equal(got[0], a)
    np.testing.assert_array_equal(got[1][0], b)
    assert got[1][1] == 5


@pytest.mark.parametrize("shape", [(2, 5), (5, 2), (3, 3), (1, 4)])
def test_transpose_of_every_shape(shape):
    a = (10 * np.arange(shape[0])[:, None] + np.arange(shape[1])[None, :]).astype(np.float64)  # a[i, j] = 10 i + j
    got = arrays_cuda.transpose(arrays_cuda.to_device(a)).copy_to_host()
    assert got.shape == shape[::-1]
    np.testing.assert_array_equal(got, a.T)
