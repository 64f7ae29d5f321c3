"""Learning curves (lnrnn/training/plot.py) read back from the figure's own line data: accuracy drawn in percent
(100 x the fraction) and the loss as written, against the x axis asked for (updates or epochs) over a
non-monotonic history; a lone x gets an axis from 0 to 1.6 times it, two x's keep matplotlib's own limits; a
density head's loss axis is labelled in nats per point (README: 'loss in nats per point')."""
import pytest

from lnrnn.training.plot import Curves, learning_curve_figure

RECORDS = [{"epoch": 1, "step": 12, "time_s": 2.0, "train_acc": 0.5, "val_acc": 0.25, "train_loss": 0.9,
            "val_loss": 1.25},
           {"epoch": 2, "step": 24, "time_s": 4.0, "train_acc": 0.75, "val_acc": 0.625, "train_loss": 0.5,
            "val_loss": 0.75},
           {"epoch": 3, "step": 36, "time_s": 6.0, "train_acc": 0.625, "val_acc": 0.5, "train_loss": 0.625,
            "val_loss": 1.0}]


def _lines(ax):
    return [(list(line.get_xdata()), list(line.get_ydata())) for line in ax.get_lines()]


@pytest.mark.parametrize("x,xs", [("step", [12, 24, 36]), ("epoch", [1, 2, 3]), ("time_s", [2.0, 4.0, 6.0])])
def test_the_curves_are_the_history_in_percent_and_as_written(x, xs):
    fig = learning_curve_figure([Curves("a", RECORDS)], x=x)
    acc, loss = fig.axes[:2]
    assert acc.get_ylabel() == "accuracy (%)" and loss.get_ylabel() == "loss"
    assert _lines(acc) == [(xs, pytest.approx([50.0, 75.0, 62.5])), (xs, pytest.approx([25.0, 62.5, 50.0]))]
    assert _lines(loss) == [(xs, pytest.approx([0.9, 0.5, 0.625])), (xs, pytest.approx([1.25, 0.75, 1.0]))]


def test_a_lone_x_spans_from_zero_and_two_keep_their_own_limits():
    fig = learning_curve_figure([Curves("a", RECORDS[1:2])])
    assert fig.axes[0].get_xlim() == pytest.approx((0.0, 1.6 * 24))
    fig = learning_curve_figure([Curves("a", RECORDS[:2])])
    lo, hi = fig.axes[0].get_xlim()
    assert 0 < lo < 12 and 24 < hi < 1.6 * 24


def test_a_density_heads_loss_is_in_nats_per_point():
    recs = [{"epoch": 1, "step": 5, "train_loss": 2.5, "val_loss": 2.25},
            {"epoch": 2, "step": 10, "train_loss": 2.0, "val_loss": 2.125}]
    fig = learning_curve_figure([Curves("hw", recs, kind="mdn")])
    assert fig.axes[0].get_ylabel() == "negative log-likelihood (nats per point)"
