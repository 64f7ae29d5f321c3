"""lnrnn/training/logs.py's TensorBoard side through the stand-in package of test_values_logs: without an
importable tensorboard package there is no log (open returns None, nothing is created); with it the writer
is opened on RUN/tensorboard, and each add is flushed, so a reader finds the scalars before the log is
closed."""
import os
import sys

from lnrnn.training import logs
from test_values_logs import tensorboard_stand_in


def test_no_tensorboard_package_means_no_log_and_no_folder(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "tensorboard", None)         # import tensorboard... raises ImportError
    assert logs.tensorboard_available() is False
    assert logs.TensorBoardLog.open(str(tmp_path)) is None
    assert os.listdir(tmp_path) == []


def test_the_writer_is_opened_on_the_runs_tensorboard_folder(monkeypatch, tmp_path):
    tensorboard_stand_in(monkeypatch)
    assert logs.tensorboard_available() is True
    tb = logs.TensorBoardLog.open(str(tmp_path / "run"))
    assert tb.writer.folder == os.path.join(str(tmp_path / "run"), "tensorboard")


def test_every_add_is_flushed_after_its_events(monkeypatch, tmp_path):
    events = tensorboard_stand_in(monkeypatch)
    writer = sys.modules["tensorboard.summary.writer.event_file_writer"].EventFileWriter
    seen = []
    monkeypatch.setattr(writer, "flush", lambda self: seen.append(len(events)))
    tb = logs.TensorBoardLog.open(str(tmp_path))
    tb.add([{"step": 3, "val_loss": 2.0}, {"step": 6, "val_loss": 1.0}])
    assert seen == [2]
    tb.add([{"step": 9, "train_loss": 0.5}])
    assert seen == [2, 3]
    assert [e.step for e in events] == [3, 6, 9]
