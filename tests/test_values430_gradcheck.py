"""Which elements a finite-difference check looks at (lnrnn/gradcheck.py: sample_idx): every flat index of an array
of at most k elements, in order; else k distinct ones, sorted, inside the array, so that a check of "40 elements"
checks 40 (drawn with replacement, repeats would leave fewer); the same generator state draws the same ones."""
import numpy as np
import pytest

from lnrnn.gradcheck import sample_idx


@pytest.mark.parametrize("size, k", [(5, 5), (5, 40), (1, 1)])
def test_a_small_array_is_checked_whole(size, k):
    got = sample_idx(np.zeros(size), k, np.random.default_rng(0))
    np.testing.assert_array_equal(got, np.arange(size))


@pytest.mark.parametrize("shape, k", [((41,), 40), ((6, 7), 40), ((3, 4, 50), 40), ((1000,), 999)])
def test_a_large_array_gets_k_distinct_sorted_indices_inside_it(shape, k):
    arr = np.zeros(shape)
    for seed in range(20):
        got = sample_idx(arr, k, np.random.default_rng(seed))
        assert len(got) == k == len(set(got.tolist()))
        assert np.all(np.diff(got) > 0) and 0 <= got[0] and got[-1] < arr.size


def test_the_same_generator_state_draws_the_same_indices():
    arr = np.zeros((10, 10))
    a = sample_idx(arr, 12, np.random.default_rng(7))
    b = sample_idx(arr, 12, np.random.default_rng(7))
    np.testing.assert_array_equal(a, b)
