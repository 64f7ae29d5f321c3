"""lnrnn/kernels/cuda/arrays_cuda.py: nbtype's refusal of a dtype its kernels do not take, named as NumPy names it;
copy_bytes under the simulator refusing arrays of two dtypes in its own sentence and leaving the destination as it
was; load copying an array into a longer plan buffer's first rows (against NumPy) and refusing one that does not
fit with both arrays named; grid_1d's blocks against the definition (enough blocks of config.THREADS_PER_BLOCK
threads for n elements, at least one, at most GRID_MAX_BLOCKS).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import backend, config  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402

dev = arrays_cuda.to_device
host = arrays_cuda.to_host


def test_nbtype_refuses_integers_by_their_numpy_name():
    for dtype, name in ((np.int32, "int32"), (np.dtype(np.float16), "float16")):
        with pytest.raises(TypeError) as e:
            arrays_cuda.nbtype(dtype)
        assert str(e.value) == f"CUDA kernels support float32 and float64, got {name}"


def test_copy_bytes_under_the_simulator_refuses_two_dtypes():
    if not backend.simulator_enabled():
        pytest.skip("a GPU copies bytes whatever the dtypes")
    dst = dev(np.array([1.5, 2.5]))
    src = dev(np.array([3.0, 4.0, 5.0, 6.0], np.float32))
    with pytest.raises(ValueError) as e:
        arrays_cuda.copy_bytes(dst, src, 8)
    assert str(e.value) == "copy_bytes: under the simulator, arrays of one dtype and whole elements only"
    np.testing.assert_array_equal(host(dst), [1.5, 2.5])


def test_load_fills_a_buffers_first_rows_and_refuses_a_misfit():
    buf = np.arange(12.0).reshape(4, 3)
    src = -np.arange(6.0).reshape(2, 3)
    dst = dev(buf)
    arrays_cuda.load([(dst, dev(src))])
    want = buf.copy()
    want[:2] = src
    np.testing.assert_array_equal(host(dst), want)
    with pytest.raises(ValueError) as e:
        arrays_cuda.load([(dst, dev(np.zeros((2, 2))))])
    assert str(e.value) == "load: a float64 (2, 2) array into a plan's float64 (4, 3)"


def test_grid_1d_by_its_definition(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)
    for n in (0, 1, 7, 8, 9, 15, 16, 17, 8 * arrays_cuda.GRID_MAX_BLOCKS + 1):
        blocks = -(-n // 8)  # the fewest blocks of 8 that hold n
        assert arrays_cuda.grid_1d(n) == (max(1, min(blocks, arrays_cuda.GRID_MAX_BLOCKS)), 8), n
