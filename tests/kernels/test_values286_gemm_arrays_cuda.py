"""lnrnn/kernels/cuda/gemm_cuda.py and arrays_cuda.py against NumPy, under Numba's CUDA simulator (tiles of 4,
blocks of 8 threads) or on a GPU:

- matmul (numba's tiled kernel) at shapes whose sides are 1, 17 and 33 (none a multiple of the tile; a K of one,
  a single row, a single column), each transpose, plain over an out that held other values and accumulating,
  against np.dot in float64;
- copy_bytes: bytes copied from a source offset to a destination offset against NumPy slicing, and a copy that
  runs past the destination refused word for word with nothing written;
- transpose_into over an out filled with NaN (every element written, the last one too) against a.T;
- final_rows at lengths T, 2 and 0 (s_T, seq[1] and s0 independent of one another) and mask_steps at lengths
  4, 1 and 0 against the running mask multiplied out by hand."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse: tiles of 4, a race-free simulator)
from test_values82_gemm_cuda import dev, host, numba_gemm, operands  # noqa: E402,F401  (numba_gemm: autouse)

TOL = 1e-12

# (M, K, N), transposes: a K of one into 17 x 33, a row against 17 columns over K = 33 (nine slabs, the last of one),
# 33 rows into one column, and 17 x 1 over K = 33 with both operands transposed
CASES = [((17, 1, 33), (False, False)), ((1, 33, 17), (False, False)), ((1, 33, 17), (True, False)),
         ((33, 17, 1), (False, True)), ((17, 33, 1), (True, True))]


@pytest.mark.parametrize("shape,trans", CASES,
                         ids=lambda v: "".join("t" if x else "n" for x in v) if isinstance(v[0], bool) else
                         "x".join(map(str, v)))
def test_matmul_at_sides_of_1_17_33_equals_np_dot(shape, trans):
    M, K, N = shape
    rng = np.random.default_rng(28600 + M + 100 * K + 10000 * N + 7 * trans[0] + 3 * trans[1])
    A, B, want = operands(rng, M, K, N, *trans)
    out = dev(np.full((M, N), 7.5))
    gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans[0], trans_b=trans[1])
    np.testing.assert_allclose(host(out), want, rtol=TOL, atol=TOL)
    C0 = rng.standard_normal((M, N))
    out = dev(C0)
    gemm_cuda.matmul(dev(A), dev(B), out=out, trans_a=trans[0], trans_b=trans[1], accumulate=True)
    np.testing.assert_allclose(host(out), C0 + want, rtol=TOL, atol=TOL)


def test_matmul_of_k_one_is_the_outer_product():
    """K = 1: C[m, n] = a[m] * b[n], written out by hand."""
    a = np.array([[1.5], [-2.0], [0.25]])
    b = np.array([[4.0, -1.0, 3.0, 0.5, 2.0]])
    want = np.array([[a[m, 0] * b[0, n] for n in range(5)] for m in range(3)])
    np.testing.assert_array_equal(host(gemm_cuda.matmul(dev(a), dev(b))), want)


def test_copy_bytes_moves_the_bytes_asked_for_from_where_asked():
    src = np.arange(1.0, 7.0)               # 6 float64: 48 bytes
    dst = np.full(5, -1.0)                  # 40 bytes
    d = dev(dst)
    arrays_cuda.copy_bytes(d, dev(src), 16, dst_at=24, src_at=8)   # src[1:3] into dst[3:5]
    want = dst.copy()
    want[3:5] = src[1:3]
    np.testing.assert_array_equal(host(d), want)


def test_copy_bytes_past_the_destination_refused_word_for_word_nothing_written():
    src, dst = np.arange(1.0, 4.0), np.full(5, -1.0)   # 24 and 40 bytes
    d = dev(dst)
    with pytest.raises(ValueError) as e:
        arrays_cuda.copy_bytes(d, dev(src), 16, dst_at=32, src_at=8)
    assert str(e.value) == "copy_bytes: 16 bytes from 8 of 24 into 32 of 40"
    np.testing.assert_array_equal(host(d), dst)


@pytest.mark.parametrize("shape", [(3, 5), (1, 17), (17, 1)], ids=lambda s: "x".join(map(str, s)))
def test_transpose_into_writes_every_element(shape):
    a = np.random.default_rng(2861 + shape[1]).standard_normal(shape)
    out = dev(np.full(shape[::-1], np.nan))
    arrays_cuda.transpose_into(dev(a), out)
    np.testing.assert_array_equal(host(out), a.T)


def test_final_rows_at_lengths_t_two_and_zero():
    T, B, H = 4, 3, 2
    rng = np.random.default_rng(2862)
    s_T, seq, s0 = rng.standard_normal((B, H)), rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    lengths = np.array([T, 2, 0], np.int64)
    out = host(arrays_cuda.final_rows(dev(s_T), dev(seq), dev(s0), dev(lengths)))
    np.testing.assert_array_equal(out, np.stack([s_T[0], seq[1, 1], s0[2]]))


def test_mask_steps_zeroes_each_rows_padded_steps():
    T, B, H = 4, 3, 2
    a = np.random.default_rng(2863).standard_normal((T, B, H)) + 3.0
    lengths = np.array([4, 1, 0], np.int64)
    want = a.copy()
    want[1:, 1] = 0.0      # row 1: its one step kept
    want[:, 2] = 0.0       # row 2: no step
    np.testing.assert_array_equal(host(arrays_cuda.mask_steps(dev(a), dev(lengths))), want)
