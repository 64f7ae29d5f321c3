"""The device-array functions of lnrnn/kernels/cuda/arrays_cuda.py against NumPy: to_device of a host array (strided
views, float32 kept float32, zero-size) and of a device array (the same object back), copy and head and take_row
of float32 and float64 arrays (every element, the dtype, a fresh array; copy of strided views too), copy_bytes's
refusals, fill of every element over grid-stride launches of 3 threads, fill_zeros with an empty array among
others, and seq_threads against its definition (G rounded up to a multiple of 32, capped).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import backend, config  # noqa: E402

from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402

dev = arrays_cuda.to_device
host = arrays_cuda.to_host


@pytest.fixture(autouse=True)
def three_threads(monkeypatch):
    """Blocks of 3 threads: no size below is a multiple of the block, and a thread fills several elements."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 3)


def numbered(shape, dtype):
    """a[...] = its flat index + 1 (no zeros, every element its own value)."""
    return (np.arange(int(np.prod(shape))) + 1).reshape(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_to_device_of_host_views_and_device_arrays(dtype):
    a = numbered((4, 5), dtype)
    for view in (a, a.T, a[::2, 1:4], a[1][None]):
        d = dev(view)
        assert arrays_cuda.is_device(d) and d.dtype == np.dtype(dtype)
        assert d.shape == view.shape and d.is_c_contiguous()
        np.testing.assert_array_equal(host(d), view)
    d = dev(a)
    assert dev(d) is d  # a device array is taken as it is, not copied
    assert not arrays_cuda.is_device(a) and arrays_cuda.is_device(d)
    z = dev(np.zeros((0, 3), dtype))
    assert z.shape == (0, 3) and z.dtype == np.dtype(dtype) and host(z).shape == (0, 3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(3, 5), (7,), (2, 1, 3), (1,)])
def test_copy_holds_every_element_in_a_fresh_array(shape, dtype):
    a = numbered(shape, dtype)
    d = dev(a)
    c = arrays_cuda.copy(d)
    assert c.dtype == np.dtype(dtype) and c.shape == a.shape
    np.testing.assert_array_equal(host(c), a)
    arrays_cuda.fill(d, -1.0)  # the copy is its own memory
    np.testing.assert_array_equal(host(c), a)
    assert arrays_cuda.copy(dev(np.zeros((0, 4), dtype))).shape == (0, 4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_copy_of_a_strided_device_view_is_its_contents_laid_out_afresh(dtype):
    a = numbered((4, 5), dtype)
    d = dev(a)
    copies = []
    for view, want in ((d.T, a.T), (d[:, 1:4], a[:, 1:4]), (d[::2], a[::2])):
        assert not view.is_c_contiguous()
        c = arrays_cuda.copy(view)
        assert c.shape == want.shape and c.dtype == np.dtype(dtype) and c.is_c_contiguous()
        np.testing.assert_array_equal(host(c), want)
        copies.append((c, want))
    arrays_cuda.fill(d, -1.0)  # the copies are their own memory
    for c, want in copies:
        np.testing.assert_array_equal(host(c), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_head_and_take_row_of_a_sequence(dtype):
    a = numbered((5, 2, 3), dtype)
    d = dev(a)
    for n in (1, 3, 5):
        h = arrays_cuda.head(d, n)
        assert h.dtype == np.dtype(dtype) and h.shape == (n, 2, 3)
        np.testing.assert_array_equal(host(h), a[:n])
    for t in (0, 2, 4):
        r = arrays_cuda.take_row(d, t)
        assert r.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(host(r), a[t])


def test_copy_bytes_between_offsets_and_its_refusals():
    src, dst = dev(numbered((6,), np.float64)), dev(np.zeros(6))
    arrays_cuda.copy_bytes(dst, src, 16, dst_at=8, src_at=24)  # elements 3, 4 into 1, 2
    np.testing.assert_array_equal(host(dst), [0, 4, 5, 0, 0, 0])
    with pytest.raises(ValueError):
        arrays_cuda.copy_bytes(dst, src, 48, dst_at=8)  # past dst's end
    if backend.simulator_enabled():  # the simulator copies whole elements of one dtype only
        with pytest.raises(ValueError, match="whole elements"):
            arrays_cuda.copy_bytes(dst, src, 8, src_at=4)
        with pytest.raises(ValueError, match="whole elements"):
            arrays_cuda.copy_bytes(dst, dev(np.zeros(6, np.float32)), 8)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1,), (7,), (2, 5), (4, 1, 3)])
def test_fill_sets_every_element(shape, dtype):
    d = dev(numbered(shape, dtype))
    assert arrays_cuda.fill(d, 2.5) is d
    got = host(d)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, np.full(shape, 2.5, dtype))
    z = arrays_cuda.zeros(shape, dtype)
    np.testing.assert_array_equal(host(z), np.zeros(shape, dtype))
    assert host(arrays_cuda.fill(dev(np.zeros((0, 2), dtype)), 1.0)).shape == (0, 2)


def test_fill_zeros_zeroes_every_array_past_an_empty_one():
    arrays = [dev(numbered((2, 3), np.float64)), dev(np.zeros((0, 3))), dev(numbered((5,), np.float32)),
              dev(np.zeros(0, np.float32)), dev(numbered((1, 1), np.float64))]
    arrays_cuda.fill_zeros(*arrays)
    for a in arrays:
        got = host(a)
        np.testing.assert_array_equal(got, np.zeros(a.shape, a.dtype))


def test_seq_threads_is_g_rounded_up_to_a_warp_and_capped(monkeypatch):
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 1024)
    for G in (1, 5, 31, 32, 33, 63, 64, 65, 96, 100):
        want = min(w for w in range(32, 2048, 32) if w >= G)  # the smallest multiple of 32 that holds G
        assert arrays_cuda.seq_threads(G) == want, G
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 64)
    assert [arrays_cuda.seq_threads(G) for G in (32, 64, 65, 500)] == [32, 64, 64, 64]
