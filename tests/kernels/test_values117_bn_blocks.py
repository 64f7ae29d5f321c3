"""BatchNorm over time (lnrnn/kernels/batchnorm.py) against its definition written here in NumPy: each step's mean
and biased variance over the rows still running (t < length), y = (x - mean) / sqrt(var + eps) * gain + bias, the
running row min(t, Ts-1) moved by momentum toward the mean and the unbiased variance; inference from the running
statistics. The parts' pieces (lnrnn/kernels/bn_parts.py): part_rows against the rows of its blocks, each block
k holding rows [floor(kB/nblk), floor((k+1)B/nblk)) for B not a multiple of the blocks; sum_parts against NumPy's
sum over the parts of a column range. Thread blocks (lnrnn/kernels/cpu/threads.py): batch_blocks under
block_rows and back to config.BLOCK_ROWS after it, against the largest power of two its docstring describes."""
import numpy as np
import pytest

from lnrnn.config import BLOCK_ROWS
from lnrnn.kernels import bn_parts
from lnrnn.kernels.batchnorm import bn_forward
from lnrnn.kernels.cpu import threads

EPS, MOM = 1e-5, 0.1


def bn_by_hand(x, lengths, gain, bias, rm, rv):
    """y, mean, var (T,F) and running rows (Ts,F) after a training forward, in float64 NumPy."""
    T, B, F = x.shape
    rm, rv = rm.copy(), rv.copy()
    y = np.zeros_like(x)
    mean, var = np.zeros((T, F)), np.zeros((T, F))
    for t in range(T):
        rows = x[t][lengths > t]                                  # (n,F) the rows still running
        n = len(rows)
        if n:
            mean[t], var[t] = rows.mean(0), rows.var(0)
            if t < rm.shape[0]:
                rm[t] = (1 - MOM) * rm[t] + MOM * mean[t]
                rv[t] = (1 - MOM) * rv[t] + MOM * rows.var(0, ddof=1 if n > 1 else 0)
        y[t] = (x[t] - mean[t]) / np.sqrt(var[t] + EPS) * gain + bias
    return y, mean, var, rm, rv


@pytest.mark.parametrize("lengths", [[4, 4, 4, 4, 4], [4, 1, 3, 3, 2], [2, 4, 1, 4, 2]])
def test_batchnorm_training_with_masks_and_running_rows(lengths):
    rng = np.random.default_rng(3)
    T, B, F, Ts = 4, 5, 3, 3
    lengths = np.array(lengths, np.int64)
    x = rng.standard_normal((T, B, F)) * 2 + 1
    gain, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    want_y, want_m, want_v, want_rm, want_rv = bn_by_hand(x, lengths, gain, bias, rm, rv)
    y, mean, rstd = bn_forward(x, gain, bias, rm, rv, True, MOM, EPS, lengths)
    active = (np.arange(T)[:, None] < lengths[None, :])          # (T,B)
    np.testing.assert_allclose(y[active], want_y[active], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(mean, want_m, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(want_v + EPS), rtol=1e-10)
    np.testing.assert_allclose(rm, want_rm, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(rv, want_rv, rtol=1e-10, atol=1e-12)


def test_batchnorm_inference_uses_the_running_rows():
    rng = np.random.default_rng(4)
    T, B, F, Ts = 3, 4, 3, 2
    x = rng.standard_normal((T, B, F))
    gain, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    rm0, rv0 = rm.copy(), rv.copy()
    y, mean, rstd = bn_forward(x, gain, bias, rm, rv, False, MOM, EPS, None)
    for t in range(T):
        r = min(t, Ts - 1)
        want = (x[t] - rm0[r]) / np.sqrt(rv0[r] + EPS) * gain + bias
        np.testing.assert_allclose(y[t], want, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(mean[t], rm0[r], rtol=0, atol=0)
    np.testing.assert_array_equal(rm, rm0)
    np.testing.assert_array_equal(rv, rv0)


def _block_rows(B, nblk, k):
    return (k * B) // nblk, ((k + 1) * B) // nblk


@pytest.mark.parametrize("B,nblk,n", [(7, 3, 2), (10, 4, 3), (5, 4, 4), (9, 2, 1), (6, 4, 2)])
def test_part_rows_are_its_blocks_rows(B, nblk, n):
    covered = []
    for q in range(n):
        k0, k1, r0, r1 = bn_parts.part_rows(B, nblk, n, q)
        assert (k0, k1) == ((q * nblk) // n, ((q + 1) * nblk) // n)
        rows = [r for k in range(k0, k1) for r in range(*_block_rows(B, nblk, k))]
        assert list(range(r0, r1)) == rows
        covered += rows
    assert covered == list(range(B))                               # every row in exactly one part, in order


@pytest.mark.parametrize("k0,k1", [(0, 5), (2, 5), (1, 3), (4, 5)])
def test_sum_parts_of_a_column_range(k0, k1):
    parts = np.random.default_rng(5).integers(-9, 9, (3, 6)).astype(np.float64)   # (n_parts, F) exact sums
    out = np.full(k1 - k0, np.nan)
    bn_parts.sum_parts(parts, k0, k1, out)
    np.testing.assert_array_equal(out, parts[:, k0:k1].sum(0))


def _blocks_by_definition(B, rows):
    """The largest power of two n <= B with n <= max(2, B // rows)."""
    n = 1
    for p in range(10):
        if 2 ** p <= B and 2 ** p <= max(2, B // rows):
            n = 2 ** p
    return n


def test_block_rows_sets_the_blocks_and_gives_them_back():
    sizes = (1, 2, 3, 7, 17, 64, 100, 257)
    before = [threads.batch_blocks(B) for B in sizes]
    assert before == [_blocks_by_definition(B, BLOCK_ROWS) for B in sizes]
    with threads.block_rows(3):
        assert [threads.batch_blocks(B) for B in sizes] == [_blocks_by_definition(B, 3) for B in sizes]
        assert threads.batch_blocks(13) == 4                       # 13 // 3 = 4 rows a block at least
    assert [threads.batch_blocks(B) for B in sizes] == before
    with pytest.raises(ValueError):
        with threads.block_rows(0):
            pass
