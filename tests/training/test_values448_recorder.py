"""An epoch's metrics row (lnrnn/training/recorder.py: epoch_row) keeps one decimal of samples per second and three
of seconds, worked out by hand where the figures do not come out round (16 sequences in 3 s: 5.333... per second),
on the hand-made trainer of test_values274_recorder; an epoch that took no measurable time gives a finite figure."""
import math

import pytest

from lnrnn.training.recorder import RunRecorder
from test_values274_recorder import hand_trainer


@pytest.mark.parametrize("wall, per_s", [(3.0, 5.3), (7.0, 2.3), (0.9, 17.8), (6.4, 2.5)])
def test_an_epochs_row_keeps_one_decimal_of_samples_per_second(tmp_path, wall, per_s):
    """16 sequences over wall seconds: 5.333 -> 5.3, 2.2857 -> 2.3, 17.777 -> 17.8, 2.5 -> 2.5."""
    t = hand_trainer(tmp_path, train_time=12.34567, compile_total=lambda: 0.1234 + 1.00051)
    row = RunRecorder(t).epoch_row({"loss": 0.7, "acc": 0.25}, wall)
    assert row["samples_per_s"] == per_s
    assert (row["time_s"], row["compile_s"]) == (12.346, 1.124)


def test_an_epoch_of_no_measurable_time_gives_a_finite_rate(tmp_path):
    row = RunRecorder(hand_trainer(tmp_path)).epoch_row({"loss": 0.7, "acc": 0.25}, 0.0)
    assert math.isfinite(row["samples_per_s"]) and row["samples_per_s"] == 16e9
