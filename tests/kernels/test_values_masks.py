"""lnrnn/kernels/masks.py by hand: which (step, row) pairs are active, and which lengths are accepted."""
import numpy as np
import pytest

from lnrnn.kernels.masks import as_lengths, step_mask


def test_step_mask_by_hand():
    """Row b is active at step t iff t < lengths[b]: lengths 0, 1 and T = 3 over T 3."""
    want = np.array([[False, True, True],
                     [False, False, True],
                     [False, False, True]])
    np.testing.assert_array_equal(step_mask(np.array([0, 1, 3]), 3, 3), want)
    np.testing.assert_array_equal(step_mask(None, 2, 4), np.ones((2, 4), bool))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.uint32, np.uint64])
def test_any_integer_type_is_taken_as_int64(dtype):
    out = as_lengths(np.array([0, 2, 5], dtype), 5, 3)
    assert out.dtype == np.int64 and out.flags.c_contiguous
    np.testing.assert_array_equal(out, [0, 2, 5])
    np.testing.assert_array_equal(as_lengths(None, 4, 2), [4, 4])


@pytest.mark.parametrize("bad", [[0, 6, 1], [-1, 2, 2], [1.0, 2.0, 3.0], [1, 2]])
def test_out_of_range_float_or_misshapen_lengths_are_refused(bad):
    with pytest.raises(ValueError, match="lengths"):
        as_lengths(np.array(bad), 5, 3)
