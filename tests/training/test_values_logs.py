"""lnrnn/training/logs.py: metrics.csv read back with the csv module holds every field of every row, its
columns in order of first appearance, an empty cell where a row lacks a field, floats exactly."""
import csv

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
