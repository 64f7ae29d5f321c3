"""lnrnn/training/plot.py by value: a record key is a split (train or val) and a metric joined by the first
underscore, so a metric whose name holds one (nats_seq) gets its own panel, labelled from METRIC_INFO, with
its training and validation points; the same curves give the same SVG or PNG byte for byte whatever the
date (SOURCE_DATE_EPOCH, which matplotlib stamps into a file that carries a date). PDF is left out: its
writer takes the creation date under the key CreationDate, not the Date that ``_metadata`` gives, so a
PDF of the same curves carries the time it was written."""
import pytest

from lnrnn.model.heads import METRIC_INFO
from lnrnn.training.plot import Curves, learning_curve_figure, metric_names, panels, write_learning_curves

RECS = [{"epoch": 1, "step": 10, "train_nats_seq": 4.0, "val_nats_seq": 3.5, "train_loss": 2.0, "val_loss": 1.5},
        {"epoch": 2, "step": 20, "train_nats_seq": 3.0, "val_nats_seq": 2.5, "train_loss": 1.0, "val_loss": 0.5}]


def test_a_metric_with_an_underscore_in_its_name_gets_its_panel():
    run = Curves("a", RECS, [{"step": 5, "train_nats_seq": 4.5, "train_loss": 2.5}], "mdn")
    assert metric_names([run]) == ["nats_seq", "loss"]
    assert [(m, label) for m, label, _ in panels([run])] == [
        ("nats_seq", METRIC_INFO["nats_seq"][0]), ("loss", "negative log-likelihood (nats per point)")]
    fig = learning_curve_figure([run])
    nats = fig.axes[0]
    assert nats.get_ylabel() == "nats per sequence"
    assert sorted(tuple(line.get_ydata()) for line in nats.get_lines()) == sorted([(4.0, 3.0), (3.5, 2.5), (4.5,)])


@pytest.mark.parametrize("ext", [".svg", ".png", ".pdf"])
def test_the_same_curves_give_the_same_file_whatever_the_date(tmp_path, monkeypatch, ext):
    runs = [Curves("a", RECS, [], "mdn")]
    files = []
    for k, epoch in enumerate(("0", "1700000000")):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        files.append(write_learning_curves(str(tmp_path / f"c{k}{ext}"), runs, title="t"))
    a, b = (open(f, "rb").read() for f in files)
    assert a == b
    assert b"CreationDate" not in a and b"<dc:date>" not in a
