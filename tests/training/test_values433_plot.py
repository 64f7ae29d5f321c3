"""How a learning-curve picture shows a metric (lnrnn/training/plot.py): a metric lnrnn.model.heads.METRIC_INFO
does not know (one a head added, or a run's own records) is drawn, labelled and noted at its own values, not
scaled as a percentage; a percentage metric it knows (accuracy) is drawn times 100 beside it."""
from lnrnn.training.plot import Curves, learning_curve_figure

RECORDS = [{"step": 1, "train_mse": 0.5, "val_mse": 0.25, "train_acc": 0.4, "val_acc": 0.375,
            "train_loss": 1.0, "val_loss": 0.9},
           {"step": 2, "train_mse": 0.25, "val_mse": 0.125, "train_acc": 0.5, "val_acc": 0.625,
            "train_loss": 0.8, "val_loss": 0.7}]


def _lines(fig, ylabel):
    ax = next(a for a in fig.axes if a.get_ylabel() == ylabel)
    return {ln.get_linestyle(): list(ln.get_ydata()) for ln in ax.get_lines()}


def test_an_unknown_metric_is_drawn_at_its_values_a_percentage_times_100():
    fig = learning_curve_figure([Curves("run", RECORDS)])
    assert _lines(fig, "mse") == {"--": [0.5, 0.25], "-": [0.25, 0.125]}
    assert _lines(fig, "accuracy (%)") == {"--": [40.0, 50.0], "-": [37.5, 62.5]}


def test_the_legend_notes_an_unknown_metric_at_its_value():
    records = [{k: v for k, v in r.items() if "acc" not in k} for r in RECORDS]
    fig = learning_curve_figure([Curves("run", records)])
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "run (final validation mse 0.1250)" in labels


def test_the_legend_notes_a_percentage_metric_as_one():
    records = [{k: v for k, v in r.items() if "mse" not in k} for r in RECORDS]
    fig = learning_curve_figure([Curves("run", records)])
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "run (final validation accuracy 62.50%)" in labels
