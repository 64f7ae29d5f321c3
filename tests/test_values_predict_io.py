"""lnrnn/predict_io.py's comparison of inputs with the training data: sequence lengths inside the training
range taken at both ends, values within the slack of the range taken at both ends and refused past them,
and the training record's steps and range (a negative scale swaps the ends)."""
import numpy as np

from lnrnn.predict_io import check_like_training, describe_training_data


def x_of(T, lo=0.0, hi=10.0):
    x = np.full((2, T, 1), (lo + hi) / 2)
    x[0, 0, 0], x[1, -1, 0] = lo, hi
    return x


def test_lengths_inside_the_training_range_at_both_ends():
    record = {"steps": [4, 9], "min": 0.0, "max": 10.0}
    for T in (4, 6, 9):
        assert check_like_training(x_of(T), record) == [], T
    for T in (3, 10):
        (said,) = check_like_training(x_of(T), record)
        assert said == f"they have {T} steps where the training sequences had 4 to 9"
    assert check_like_training(x_of(7), {"steps": 7}) == []
    assert check_like_training(x_of(8), {"steps": 7}) == ["they have 8 steps where the training sequences had 7"]


def test_values_within_the_slack_at_both_ends():
    record = {"steps": 5, "min": 0.0, "max": 10.0}                    # width 10, slack 0.1: 1 either side
    for lo, hi in ((0.5, 9.5), (-1.0, 11.0), (0.0, 10.0), (3.0, 4.0)):
        assert check_like_training(x_of(5, lo, hi), record) == [], (lo, hi)
    for lo, hi in ((-1.5, 10.0), (0.0, 11.5), (-2.0, 12.0)):
        (said,) = check_like_training(x_of(5, lo, hi), record)
        assert said == f"their values span {lo:g} to {hi:g} where the training data's spanned 0 to 10"
    assert check_like_training(x_of(5, -1.5, 10.0), record, slack=0.2) == []
    assert check_like_training(x_of(5, 0.0, 10.0), {}) == []


def test_the_training_record():
    x = x_of(6, -2.0, 3.0)
    assert describe_training_data(x) == {"steps": 6, "min": -2.0, "max": 3.0}
    assert describe_training_data(x, np.array([6, 6])) == {"steps": 6, "min": -2.0, "max": 3.0}
    assert describe_training_data(x, np.array([2, 6]), scale=-0.5) == {"steps": [2, 6], "min": -1.5, "max": 1.0}
