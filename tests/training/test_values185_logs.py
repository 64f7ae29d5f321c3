"""lnrnn/training/logs.py's TensorBoard scalars through a stand-in tensorboard package (the real one is an optional
extra): each row's numbers, ints as well as floats, become split/metric scalars (and lr) at the row's update,
not its epoch; a row with no numbers writes no event. The expected events are written out by hand."""
import sys
import types
from types import SimpleNamespace as NS

from lnrnn.training import logs


def _stand_in(monkeypatch):
    events = []

    class Writer:
        def __init__(self, folder):
            self.folder = folder

        def add_event(self, e):
            events.append(e)

        def flush(self):
            pass

        def close(self):
            pass
    summary_pb2 = types.ModuleType("summary_pb2")
    summary_pb2.Summary = lambda value: NS(value=value)
    summary_pb2.Summary.Value = lambda tag, simple_value: NS(tag=tag, simple_value=simple_value)
    event_pb2 = types.ModuleType("event_pb2")
    event_pb2.Event = lambda wall_time, step, summary: NS(step=step, summary=summary)
    writer_mod = types.ModuleType("event_file_writer")
    writer_mod.EventFileWriter = Writer
    names = {"tensorboard": {}, "tensorboard.compat": {}, "tensorboard.compat.proto":
             {"event_pb2": event_pb2, "summary_pb2": summary_pb2}, "tensorboard.summary": {},
             "tensorboard.summary.writer": {"event_file_writer": writer_mod}}
    for name, attrs in names.items():
        mod = types.ModuleType(name)
        mod.__path__ = []
        for k, v in attrs.items():
            setattr(mod, k, v)
            monkeypatch.setitem(sys.modules, f"{name}.{k}", v)
        monkeypatch.setitem(sys.modules, name, mod)
    return events


def test_scalars_of_ints_and_floats_at_the_rows_update(monkeypatch, tmp_path):
    events = _stand_in(monkeypatch)
    tb = logs.TensorBoardLog.open(str(tmp_path))
    assert tb is not None and tb.writer.folder == str(tmp_path / logs.TENSORBOARD_DIR)
    tb.add([{"epoch": 1, "step": 4, "time_s": 0.25, "train_loss": 0, "val_acc": 0.5, "lr": 0.01},
            {"epoch": 1, "step": 8, "val_loss": 2},
            {"epoch": 2, "step": 12, "stopped": "patience"}])
    tb.close()
    got = [(e.step, {v.tag: v.simple_value for v in e.summary.value}) for e in events]
    assert got == [(4, {"train/loss": 0.0, "val/acc": 0.5, "lr": 0.01}), (8, {"val/loss": 2.0})]
