"""lnrnn/training/plot.py by value: the log axis at exactly LOG_SPAN (not more than it: linear), the legend's
final validation accuracy in percent, and a percentage metric drawn in percent on its panel (the epoch
records' and the update rows' points), against values written here."""
import pytest

from lnrnn.training.plot import LOG_SPAN, Curves, _final_note, learning_curve_figure, use_log_scale


def test_a_loss_spanning_exactly_the_factor_stays_linear():
    assert not use_log_scale([1.0, LOG_SPAN])
    assert not use_log_scale([0.5, 0.5 * LOG_SPAN, 2.0])
    assert use_log_scale([1.0, LOG_SPAN * 1.0001])


def test_the_final_validation_accuracy_is_given_in_percent():
    run = Curves("a", [{"epoch": 1, "val_acc": 0.5}, {"epoch": 2, "val_acc": 0.9}, {"epoch": 3, "train_acc": 0.1}])
    assert _final_note(run, "acc") == " (final validation accuracy 90.00%)"
    run = Curves("a", [{"epoch": 1, "val_loss": 0.25}])
    assert _final_note(run, "loss") == " (final validation loss 0.2500)"


def test_accuracy_is_drawn_in_percent():
    recs = [{"epoch": 1, "step": 10, "train_acc": 0.25, "val_acc": 0.5, "train_loss": 2.0, "val_loss": 1.5},
            {"epoch": 2, "step": 20, "train_acc": 0.75, "val_acc": 0.875, "train_loss": 1.0, "val_loss": 0.5}]
    ups = [{"step": 5, "train_acc": 0.125, "train_loss": 2.5}, {"step": 15, "train_acc": 0.625, "train_loss": 1.5}]
    fig = learning_curve_figure([Curves("a", recs, ups, "classifier")])
    acc, loss = fig.axes[:2]
    assert acc.get_ylabel() == "accuracy (%)"
    ys = sorted(tuple(line.get_ydata()) for line in acc.get_lines())
    assert ys == sorted([(12.5, 62.5), (25.0, 75.0), (50.0, 87.5)])
    ys = sorted(tuple(line.get_ydata()) for line in loss.get_lines())
    assert ys == sorted([(2.5, 1.5), (2.0, 1.0), (1.5, 0.5)])
