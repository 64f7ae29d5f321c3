"""A run's log in other tools' formats (lnrnn/training/logs.py), read back to the values written: metrics.csv
against its text written out by hand (columns by first appearance, an empty cell where a row lacks one, every
row kept); TensorBoard scalars through the stand-in package of test_values_logs: tags split/metric and lr, at
each row's own update."""
from lnrnn.training import logs
from test_values_logs import tensorboard_stand_in


def test_csv_holds_every_row_under_the_columns_of_first_appearance(tmp_path):
    path = tmp_path / "metrics.csv"
    logs.write_csv(str(path), [{"epoch": 1, "step": 10, "val_loss": 0.5},
                               {"epoch": 2, "step": 20, "val_loss": 0.25, "val_acc": 0.875},
                               {"epoch": 3, "step": 30, "val_loss": 0.375}])
    assert path.read_text() == ("epoch,step,val_loss,val_acc\n"
                                "1,10,0.5,\n"
                                "2,20,0.25,0.875\n"
                                "3,30,0.375,\n")


def test_tensorboard_tags_and_steps_of_each_row(monkeypatch, tmp_path):
    events = tensorboard_stand_in(monkeypatch)
    tb = logs.TensorBoardLog.open(str(tmp_path))
    tb.add([{"epoch": 1, "step": 13, "train_acc": 0.75, "val_loss": 1.5, "lr": 0.002},
            {"epoch": 2, "step": 26, "val_acc": 0.5, "lr": 0.0018}])
    tb.close()
    assert [e.step for e in events] == [13, 26]
    assert [(v.tag, v.simple_value) for v in events[0].summary.value] == \
        [("train/acc", 0.75), ("val/loss", 1.5), ("lr", 0.002)]
    assert [(v.tag, v.simple_value) for v in events[1].summary.value] == [("val/acc", 0.5), ("lr", 0.0018)]
