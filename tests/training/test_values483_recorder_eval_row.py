"""An evaluation's metrics row (lnrnn/training/recorder.py: eval_row, kinds 'update' and 'stop') keeps three
decimals of the training and compiling seconds, as an epoch's row does (test_values448_recorder), worked out by hand
where the figures do not come out round, on the hand-made trainer of test_values274_recorder."""
import pytest

from lnrnn.training.recorder import RunRecorder
from test_values274_recorder import hand_trainer


@pytest.mark.parametrize("kind", ["update", "stop"])
@pytest.mark.parametrize("train_time, compiling, want", [
    (12.34567, 0.1234 + 1.00051, (12.346, 1.124)),
    (0.00049, 2.71828, (0.0, 2.718)),
    (99.99951, 0.0006, (100.0, 0.001)),
])
def test_an_evaluations_row_keeps_three_decimals_of_seconds(tmp_path, kind, train_time, compiling, want):
    t = hand_trainer(tmp_path, train_time=train_time, compile_total=lambda: compiling)
    row = RunRecorder(t).eval_row({"loss": 0.7, "acc": 0.25}, 3, kind)
    assert (row["time_s"], row["compile_s"], row["eval"]) == want + (kind,)
    epoch = RunRecorder(t).epoch_row({"loss": 0.7, "acc": 0.25}, 1.0)
    assert (epoch["time_s"], epoch["compile_s"]) == want
