"""lnrnn/kernels/cuda/gemm_cuda.py and arrays_cuda.py against NumPy, under Numba's CUDA simulator (tiles of 4,
blocks of 8 threads) or on a GPU:

- matmul (numba's tiled kernel) at sides of 1, 3 and 17 (none a multiple of the tile) with only A transposed, only
  B, and both, plain over an out that held other values and accumulating into it, against np.dot in float64;
- projection_grads with B = 2 rows a step and H = 3 (B != H) over T = 3 steps against its definition:
  dx = dXW Wx^T, dWx = X^T dXW, dWh = Hprev^T dHW with Hprev = (h0, y_0, y_1);
- to_host keeps a list a list and a tuple a tuple; copy of a transposed (F-ordered) view and transpose of a 3 x 5
  array against a.T; load of a transposed view refused word for word with nothing written, and a C-ordered array
  of fewer rows loaded into the first rows."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse: tiles of 4, a race-free simulator)
from test_values82_gemm_cuda import dev, host, numba_gemm, operands  # noqa: E402,F401  (numba_gemm: autouse)

TOL = 1e-12
CASES = [((3, 17, 1), (True, False)), ((1, 3, 17), (False, True)), ((17, 1, 3), (True, True))]


@pytest.mark.parametrize("shape,trans", CASES, ids=["3x17x1-tn", "1x3x17-nt", "17x1x3-tt"])
def test_matmul_with_transposed_operands_plain_and_accumulated(shape, trans):
    M, K, N = shape
    rng = np.random.default_rng(3310 + M + 10 * K + 100 * N)
    A, B, want = operands(rng, M, K, N, *trans)
    C0 = rng.standard_normal((M, N)) + 2.0
    out = dev(C0.copy())
    gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans[0], trans_b=trans[1])
    np.testing.assert_allclose(host(out), want, rtol=0, atol=TOL)
    out = dev(C0.copy())
    gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans[0], trans_b=trans[1], accumulate=True)
    np.testing.assert_allclose(host(out), C0 + want, rtol=0, atol=TOL)


def test_projection_grads_against_their_definition():
    T, B, I, H, G = 3, 2, 3, 3, 5
    rng = np.random.default_rng(3311)
    x, h0, y = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((T, B, H))
    Wx, dXW, dHW = rng.standard_normal((I, G)), rng.standard_normal((T, B, G)), rng.standard_normal((T, B, G))
    dx, dWx, dWh = gemm_cuda.projection_grads(dev(dXW), dev(dHW), dev(x), dev(h0), dev(y), dev(Wx))
    hprev = np.concatenate([h0[None], y[:-1]]).reshape(T * B, H)
    np.testing.assert_allclose(host(dx), (dXW.reshape(T * B, G) @ Wx.T).reshape(T, B, I), rtol=0, atol=TOL)
    np.testing.assert_allclose(host(dWx), x.reshape(T * B, I).T @ dXW.reshape(T * B, G), rtol=0, atol=TOL)
    np.testing.assert_allclose(host(dWh), hprev.T @ dHW.reshape(T * B, G), rtol=0, atol=TOL)


def test_to_host_keeps_lists_and_tuples():
    a, b = np.arange(3.0), np.ones((2, 2))
    got = arrays_cuda.to_host([dev(a), (dev(b), 3), "x"])
    assert type(got) is list and type(got[1]) is tuple and got[1][1] == 3 and got[2] == "x"
    np.testing.assert_array_equal(got[0], a)
    np.testing.assert_array_equal(got[1][0], b)


def test_copy_and_transpose_of_a_three_by_five_array():
    a = np.arange(15.0).reshape(3, 5) * 1.5 - 4.0
    got = arrays_cuda.copy(dev(a).T)
    assert got.shape == (5, 3) and got.is_c_contiguous()
    np.testing.assert_array_equal(host(got), a.T)
    np.testing.assert_array_equal(host(arrays_cuda.copy(dev(a))), a)
    t = arrays_cuda.transpose(dev(a))
    assert t.shape == (5, 3)
    np.testing.assert_array_equal(host(t), a.T)


def test_load_refuses_a_transposed_view_and_fills_the_first_rows():
    dst = dev(np.zeros((4, 2)))
    src = dev(np.arange(6.0).reshape(2, 3)).T  # (3, 2), not C-ordered
    with pytest.raises(ValueError) as e:
        arrays_cuda.load([(dst, src)])
    assert str(e.value) == "load: a float64 (3, 2) array into a plan's float64 (4, 2)"
    np.testing.assert_array_equal(host(dst), np.zeros((4, 2)))
    rows = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    arrays_cuda.load([(dst, dev(rows))])
    np.testing.assert_array_equal(host(dst), [[1, 2], [3, 4], [5, 6], [0, 0]])
