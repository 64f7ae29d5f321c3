"""lnrnn/gradcheck.py's sampling by value: sample_idx gives every index of a small array, and k distinct
sorted ones of a larger array (as many as asked: none repeated)."""
import numpy as np

from lnrnn.gradcheck import sample_idx


def test_sampled_elements_are_distinct_and_as_many_as_asked():
    np.testing.assert_array_equal(sample_idx(np.zeros(7), 7, np.random.default_rng(0)), np.arange(7))
    for seed in range(20):
        idx = sample_idx(np.zeros((6, 5)), 25, np.random.default_rng(seed))
        assert len(idx) == 25 and len(set(idx.tolist())) == 25
        assert np.all(np.diff(idx) > 0) and idx.min() >= 0 and idx.max() < 30
