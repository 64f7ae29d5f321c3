"""Learning curves (lnrnn/training/plot.py) read back from the SVG file written: the x axis of --x time_s is
labelled 'training time (s)'; the per-update training series is drawn as one faint line through every
update row (its vertices, in the file's coordinates, an affine image of the rows: equal x steps for updates
1, 2, 3 and y differences in the ratio of the losses 2.0, 1.5, 1.7); a lone epoch's dots carry their value
to one decimal as a percent (accuracy) or to four decimals (loss); and the legend's final value of a metric
the heads do not know (no METRIC_INFO entry) is its plain value, not a percent."""
import re

import pytest

from lnrnn.training.plot import Curves, write_learning_curves
from test_values251_plot import _texts


def _faint_paths(path):
    """[(colour, [(x, y), ...])] of the per-update lines (drawn at opacity 0.45) of an SVG file."""
    out = []
    for d, colour in re.findall(r'<path d="([^"]*)"[^>]*style="[^"]*stroke: (#[0-9a-f]{6}); stroke-opacity: 0\.45;',
                                path.read_text()):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        out.append((colour, list(zip(nums[0::2], nums[1::2]))))
    return out


def test_the_time_axis_is_labelled_training_time_in_seconds(tmp_path):
    records = [{"epoch": 1, "step": 5, "time_s": 2.5, "train_loss": 1.0, "val_loss": 1.2},
               {"epoch": 2, "step": 10, "time_s": 5.0, "train_loss": 0.8, "val_loss": 1.1}]
    path = tmp_path / "t.svg"
    write_learning_curves(str(path), [Curves("a", records)], x="time_s")
    texts = _texts(path)
    assert texts.count("training time (s)") == 1      # one panel (the loss), one x axis label
    assert "updates" not in texts and "epoch" not in texts


def test_the_per_update_series_goes_through_every_update_row(tmp_path):
    records = [{"epoch": 1, "step": 3, "train_loss": 1.6, "val_loss": 1.8}]
    updates = [{"step": 1, "train_loss": 2.0}, {"step": 2, "train_loss": 1.5}, {"step": 3, "train_loss": 1.7}]
    path = tmp_path / "u.svg"
    write_learning_curves(str(path), [Curves("a", records, updates)])
    faint = _faint_paths(path)
    assert len(faint) == 1
    colour, pts = faint[0]
    assert colour == "#1f77b4" and len(pts) == 3
    (x0, y0), (x1, y1), (x2, y2) = pts
    assert x1 - x0 == pytest.approx(x2 - x1, abs=1e-4)           # updates 1, 2, 3: equal steps
    # a linear y axis maps losses affinely: (1.5 - 2.0) / (1.7 - 2.0) = 5/3 (the SVG's y grows downwards)
    assert (y1 - y0) / (y2 - y0) == pytest.approx(5 / 3, rel=1e-4)
    assert y1 > y2 > y0


def test_a_lone_epochs_dots_carry_their_values(tmp_path):
    records = [{"epoch": 1, "step": 7, "train_acc": 0.87654, "val_acc": 0.91234,
                "train_loss": 0.3456789, "val_loss": 0.123456}]
    path = tmp_path / "one.svg"
    write_learning_curves(str(path), [Curves("a", records)])
    texts = _texts(path)
    # accuracy: 100 x, one decimal; loss: four decimals
    for label in ("training 87.7%", "validation 91.2%", "training 0.3457", "validation 0.1235"):
        assert label in texts


def test_the_legend_gives_an_unknown_metric_as_its_plain_value(tmp_path):
    records = [{"epoch": 1, "step": 4, "train_bpc": 1.5, "val_bpc": 1.4, "val_loss": 0.9},
               {"epoch": 2, "step": 8, "train_bpc": 1.3, "val_bpc": 1.234567, "val_loss": 0.8}]
    path = tmp_path / "b.svg"
    write_learning_curves(str(path), [Curves("run A", records)])
    assert "run A (final validation bpc 1.2346)" in _texts(path)
