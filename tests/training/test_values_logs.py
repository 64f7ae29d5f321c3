"""lnrnn/training/logs.py: metrics.csv read back with the csv module holds every field of every row, its
columns in order of first appearance, an empty cell where a row lacks a field, floats exactly."""
import csv
import sys
import types
from types import SimpleNamespace as NS

from lnrnn.training import logs
from lnrnn.training.logs import write_csv

ROWS = [
    {"epoch": 1, "step": 7, "train_loss": 0.1 + 0.2, "val_loss": 1.25},
    {"epoch": 1, "step": 10, "val_loss": 1.0, "lr": 3e-3},                      # an eval-every row: no train_loss
    {"epoch": 2, "step": 14, "train_loss": 0.5, "val_loss": 0.75, "val_acc": 0.8125, "stopped": "patience"},
]


def test_csv_holds_every_field_of_every_row(tmp_path):
    path = tmp_path / "metrics.csv"
    write_csv(str(path), ROWS)
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        got = list(reader)
    assert reader.fieldnames == ["epoch", "step", "train_loss", "val_loss", "lr", "val_acc", "stopped"]
    assert len(got) == len(ROWS)
    for want, row in zip(ROWS, got):
        for k in reader.fieldnames:
            if k not in want:
                assert row[k] == "", k
            elif isinstance(want[k], float):
                assert float(row[k]) == want[k], k                   # exact: 0.30000000000000004 stays itself
            else:
                assert row[k] == str(want[k]), k
    assert path.read_text().splitlines()[0] == "epoch,step,train_loss,val_loss,lr,val_acc,stopped"


def test_csv_is_rewritten_whole(tmp_path):
    path = tmp_path / "metrics.csv"
    write_csv(str(path), ROWS)
    write_csv(str(path), ROWS[:1])
    lines = path.read_text().splitlines()
    assert lines == ["epoch,step,train_loss,val_loss", f"1,7,{0.1 + 0.2!r},1.25"]
    assert [p.name for p in tmp_path.iterdir()] == ["metrics.csv"]       # no temporary file left beside it


def tensorboard_stand_in(monkeypatch):
    """A stand-in tensorboard package in sys.modules (the real one is an optional extra) whose
    EventFileWriter appends each event to the list returned."""
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


def test_tensorboard_tags_split_at_the_first_underscore(monkeypatch, tmp_path):
    """TensorBoardLog.add through a stand-in tensorboard package (the real one is an optional extra): each
    train_/val_ metric is tagged split/metric, whole, underscores after the first kept (val/nats_seq)."""
    events = tensorboard_stand_in(monkeypatch)
    assert logs.tensorboard_available()
    tb = logs.TensorBoardLog.open(str(tmp_path))
    assert tb.writer.folder == str(tmp_path / "tensorboard")
    tb.add([{"epoch": 1, "step": 7, "train_loss": 0.5, "val_nats_seq": 2.0, "lr": 0.003, "stopped": "x"},
            {"epoch": 2, "step": 9}])
    tb.close()
    assert [e.step for e in events] == [7]                                  # a row with no scalar: no event
    assert {v.tag: v.simple_value for v in events[0].summary.value} == \
        {"train/loss": 0.5, "val/nats_seq": 2.0, "lr": 0.003}
