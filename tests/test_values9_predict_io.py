"""lnrnn/predict_io.py by value: a training set whose rows all share one length shorter than T is recorded
with that length, and the slack of the value check is a fraction of the training range's width, also for a
range far from zero."""
import numpy as np

from lnrnn.predict_io import check_like_training, describe_training_data


def test_rows_of_one_length_shorter_than_t_record_that_length():
    x = np.zeros((3, 8, 1))
    x[0, 1, 0], x[2, 2, 0] = -1.0, 4.0
    assert describe_training_data(x, np.array([5, 5, 5])) == {"steps": 5, "min": -1.0, "max": 4.0}
    assert describe_training_data(x, np.array([3, 5, 8]))["steps"] == [3, 8]
    assert describe_training_data(x)["steps"] == 8


def test_the_slack_is_a_fraction_of_the_width_far_from_zero():
    record = {"steps": 4, "min": 100.0, "max": 110.0}          # width 10, slack 0.1: 1 either side
    x = np.full((2, 4, 1), 105.0)
    assert check_like_training(x, record) == []
    x[0, 0, 0] = 111.0
    assert check_like_training(x, record) == []
    x[0, 0, 0] = 111.5
    assert check_like_training(x, record) == [
        "their values span 105 to 111.5 where the training data's spanned 100 to 110"]
    x[0, 0, 0] = 98.5
    assert check_like_training(x, record) == [
        "their values span 98.5 to 105 where the training data's spanned 100 to 110"]
