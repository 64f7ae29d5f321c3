"""The learning-curve figure read back through matplotlib's objects: which values each panel plots against
which x, the line style of each split (the legend's: validation solid, training means dashed), the axes'
labels for each x, and NaN values left out of the lines and of a lone point's label."""
import math

import numpy as np
import pytest

from lnrnn.training.plot import Curves, X_AXES, learning_curve_figure

RECORDS = [
    {"epoch": 1, "step": 10, "time_s": 2.5, "train_loss": 1.5, "val_loss": 1.25, "train_acc": 0.5, "val_acc": 0.625},
    {"epoch": 2, "step": 20, "time_s": 5.0, "train_loss": 1.0, "val_loss": math.nan, "train_acc": 0.75,
     "val_acc": 0.7},
    {"epoch": 3, "step": 30, "time_s": 7.5, "train_loss": 0.75, "val_loss": 0.5, "train_acc": 0.875,
     "val_acc": 0.8},
]


def _series(records, x, key, scale=1.0):
    pts = [(float(r[x]), r[key] * scale) for r in records if r.get(key) is not None and math.isfinite(r[key])]
    return [p[0] for p in pts], [p[1] for p in pts]


def _lines(ax):
    return {ln.get_linestyle(): (list(ln.get_xdata()), list(ln.get_ydata())) for ln in ax.get_lines()}


@pytest.mark.parametrize("x", ["step", "epoch", "time_s"])
def test_each_panel_plots_the_splits_in_their_styles_against_x(x):
    fig = learning_curve_figure([Curves("run", RECORDS, [], "classifier")], x=x)
    acc, loss = fig.axes[:2]
    assert acc.get_xlabel() == loss.get_xlabel() == X_AXES[x]
    assert acc.get_ylabel() == "accuracy (%)" and loss.get_ylabel() == "cross-entropy loss (nats)"
    for ax, m, scale in ((acc, "acc", 100.0), (loss, "loss", 1.0)):
        lines = _lines(ax)
        assert set(lines) == {"-", "--"}
        for style, split in (("-", "val"), ("--", "train")):
            xs, ys = _series(RECORDS, x, f"{split}_{m}", scale)
            np.testing.assert_allclose(lines[style][0], xs)
            np.testing.assert_allclose(lines[style][1], ys)
            assert all(math.isfinite(v) for v in lines[style][1])


def test_x_labels_name_what_the_curves_run_against():
    assert X_AXES == {"step": "updates", "epoch": "epoch", "time_s": "training time (s)"}
    for x in X_AXES:
        ax = learning_curve_figure([("a", RECORDS)], x=x).axes[0]
        assert ax.get_xlabel() == X_AXES[x]


def test_a_lone_point_is_labelled_with_its_split_and_finite_value():
    recs = [{"epoch": 1, "step": 4, "train_loss": 0.25, "val_loss": 0.125},
            {"epoch": 2, "step": 8, "train_loss": math.nan, "val_loss": math.inf}]
    ax = learning_curve_figure([("one", recs)], x="epoch").axes[0]
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == ["training 0.2500", "validation 0.1250"]
    lines = _lines(ax)
    assert lines["-"] == ([1.0], [0.125]) and lines["--"] == ([1.0], [0.25])
    lo, hi = ax.get_xlim()
    assert lo == 0 and hi == pytest.approx(1.6)
