"""lnrnn/training/plot.py: a row that lacks the x axis's value (a log written by hand or by another tool;
lnrnn's own rows always carry step, epoch and time_s) is left out of that axis's lines, not drawn at an x of
its own; the rows that carry it are drawn at their own x, on every axis of X_AXES."""
import math

import pytest

from lnrnn.training.plot import X_AXES, Curves, learning_curve_figure
from test_values372_plot import _rows


@pytest.mark.parametrize("x", list(X_AXES))
def test_rows_without_the_axis_are_left_out(x):
    rows = _rows([4.0, 2.0, 1.0, 0.5])      # epoch e: step 7e, time_s 1.5e, val_loss as given, train_loss 1.1 times it
    for r in (rows[0], rows[2]):
        del r[x]
    rows[3][x] = math.nan           # not a finite position either
    updates = [{"step": 5, "epoch": 0.5, "time_s": 1.0, "train_loss": 3.0}, {"train_loss": 2.5}]
    fig = learning_curve_figure([Curves("a", rows, updates)], x=x)
    (ax,) = fig.axes
    lines = ax.get_lines()
    assert len(lines) == 3    # the update rows' thin line, training and validation
    assert list(lines[0].get_xdata()) == [updates[0][x]] and list(lines[0].get_ydata()) == [3.0]
    for line, val in zip(lines[1:], (2.2, 2.0)):      # epoch 2 alone: training, then validation
        assert list(line.get_xdata()) == [rows[1][x]]
        assert list(line.get_ydata()) == pytest.approx([val])
