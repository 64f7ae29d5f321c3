"""lnrnn/kernels/masks.py against its definition: row b is active at step t iff t < lengths[b], for lengths at
the edges (0, 1, T) and for None (T for every row); lengths outside [0, T] or of the wrong shape rejected with
a message that gives the bounds (T) and the expected shape (B), here with T != B so that the two differ."""
import numpy as np
import pytest

from lnrnn.kernels.masks import as_lengths, step_mask


@pytest.mark.parametrize("T,B", [(1, 1), (4, 3), (2, 5)])
def test_none_is_every_row_for_every_step(T, B):
    got = as_lengths(None, T, B)
    assert got.dtype == np.int64 and got.shape == (B,) and all(int(v) == T for v in got)
    mask = step_mask(None, T, B)
    assert mask.shape == (T, B) and mask.all()


def test_mask_at_the_edges_by_definition():
    T = 4
    lengths = [0, 1, T, 2, T - 1]
    mask = step_mask(np.array(lengths, dtype=np.int32), T, len(lengths))
    want = [[t < L for L in lengths] for t in range(T)]
    assert mask.tolist() == want
    got = as_lengths(np.array(lengths, dtype=np.uint8), T, len(lengths))
    assert got.dtype == np.int64 and got.flags.c_contiguous and got.tolist() == lengths


def test_lengths_past_t_or_negative_are_rejected_with_the_bounds():
    T, B = 4, 3
    as_lengths(np.array([T, 0, 1]), T, B)  # the edges are fine
    with pytest.raises(ValueError, match=r"\[0, 4\], got 0\.\.5"):
        as_lengths(np.array([5, 0, 1]), T, B)
    with pytest.raises(ValueError, match=r"\[0, 4\], got -1\.\.2"):
        as_lengths(np.array([2, -1, 1]), T, B)
    with pytest.raises(ValueError, match=r"\(3,\) integers"):
        as_lengths(np.array([1, 2]), T, B)
    with pytest.raises(ValueError, match=r"\(3,\) integers"):
        as_lengths(np.array([1.0, 2.0, 0.0]), T, B)
