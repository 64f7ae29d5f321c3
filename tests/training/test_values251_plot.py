"""Learning curves (lnrnn/training/plot.py) read back from the SVG file written: the x axis is the one asked for
(--x epoch labels 'epoch', not 'updates'), each run's legend entry gives the last validation value of the first
metric without its '(%)' ('final validation accuracy 75.00%', formatted here), a lone epoch beside per-update
rows keeps the x range of the updates (not the lone-dot range 0 .. 1.6 x), and a picture name without a picture
suffix, given as a pathlib.Path, is refused quoting the name as typed, with nothing written."""
import pathlib
import re

import pytest

from lnrnn.errors import UserError
from lnrnn.training.plot import Curves, learning_curve_figure, write_learning_curves
from test_values222_plot import RECORDS, _by_title


def _texts(path):
    return re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text())


def test_the_x_axis_asked_for_is_the_one_written(tmp_path):
    for x, label, other in (("epoch", "epoch", "updates"), ("step", "updates", "epoch")):
        path = tmp_path / f"{x}.svg"
        write_learning_curves(str(path), [Curves("a", RECORDS)], x=x)
        texts = _texts(path)
        assert texts.count(label) == 2          # one x axis label under each panel (accuracy, loss)
        assert other not in texts


def test_the_legend_gives_the_first_metrics_last_validation_value_without_its_percent_sign(tmp_path):
    path = tmp_path / "c.svg"
    write_learning_curves(str(path), [Curves("run A", RECORDS), Curves("run B", RECORDS[:1])])
    texts = _texts(path)
    assert "run A (final validation accuracy 75.00%)" in texts     # val_acc 0.75 of the second epoch
    assert "run B (final validation accuracy 55.00%)" in texts     # val_acc 0.55 of its only epoch


def test_one_epoch_beside_update_rows_keeps_the_updates_x_range():
    records = [{"epoch": 1, "step": 10, "train_loss": 0.9, "val_loss": 1.1}]
    updates = [{"step": 3, "train_loss": 1.3}, {"step": 6, "train_loss": 1.1}, {"step": 10, "train_loss": 0.95}]
    ax = _by_title(learning_curve_figure([Curves("a", records, updates)]))["loss"]
    lo, hi = ax.get_xlim()
    # matplotlib's 5% margins around 3 .. 10: 2.65 .. 10.35 (the lone-dot range would be 0 .. 16)
    assert lo == pytest.approx(3 - 0.05 * 7) and hi == pytest.approx(10 + 0.05 * 7)


def test_a_path_without_a_picture_suffix_is_refused_as_typed(tmp_path):
    path = pathlib.Path(tmp_path / "curves.jpg")
    with pytest.raises(UserError) as e:
        write_learning_curves(path, [Curves("a", RECORDS)])
    assert str(e.value) == f"--out must end in .png, .svg, .pdf (the picture's format), not '{path}'."
    assert list(tmp_path.iterdir()) == []
