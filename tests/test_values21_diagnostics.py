"""lnrnn/diagnostics.py's per-step statistics over the rows still running, by hand: the spread of a step's
values is about the mean of the running rows alone (padded rows past a sequence's length, however large,
move neither the mean nor the spread), and the saturated share counts running values above SATURATED."""
import numpy as np

from lnrnn.diagnostics import SATURATED, _masked_stats


def test_the_spread_and_saturation_of_the_running_rows_alone():
    rng = np.random.default_rng(0)
    T, B, K = 3, 4, 5
    a = rng.normal(1.0, 2.0, (T, B, K))
    w = np.array([[1, 1, 1, 1], [1, 1, 0, 0], [0, 1, 0, 0]], float)
    a[w == 0] = 100.0                                      # padding far from the values
    std, sat = _masked_stats(a, w)
    for t in range(T):
        vals = a[t][w[t] > 0].ravel()                      # the running rows' units
        assert np.isclose(std[t], vals.std(), rtol=1e-12)
        assert np.isclose(sat[t], np.mean(np.abs(vals) > SATURATED), rtol=1e-12)
    std, sat = _masked_stats(a, np.zeros((T, B)))          # nothing running: zeros, no 0/0
    assert not std.any() and not sat.any()
