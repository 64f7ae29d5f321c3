"""lnrnn/training/logs.py's TensorBoard scalars through a stand-in tensorboard package (the real one is an optional
extra): each row's numbers, ints as well as floats, become split/metric scalars (and lr) at the row's update,
not its epoch; a row with no numbers writes no event. The expected events are written out by hand."""
from lnrnn.training import logs
from test_values_logs import tensorboard_stand_in


def test_scalars_of_ints_and_floats_at_the_rows_update(monkeypatch, tmp_path):
    events = tensorboard_stand_in(monkeypatch)
    tb = logs.TensorBoardLog.open(str(tmp_path))
    assert tb is not None and tb.writer.folder == str(tmp_path / logs.TENSORBOARD_DIR)
    tb.add([{"epoch": 1, "step": 4, "time_s": 0.25, "train_loss": 0, "val_acc": 0.5, "lr": 0.01},
            {"epoch": 1, "step": 8, "val_loss": 2},
            {"epoch": 2, "step": 12, "stopped": "patience"}])
    tb.close()
    got = [(e.step, {v.tag: v.simple_value for v in e.summary.value}) for e in events]
    assert got == [(4, {"train/loss": 0.0, "val/acc": 0.5, "lr": 0.01}), (8, {"val/loss": 2.0})]
