"""Learning-curve figures (lnrnn/training/plot.py) read back from matplotlib: a percentage metric's lines are
its records times 100 and the loss's lines the records themselves; the loss axis is logarithmic when the
loss values (not the updates) span more than LOG_SPAN; the legend's final figure is the last validation
value, formatted here; a metric logged only per update still gets its panel; an .svg is written as SVG."""
import numpy as np

from lnrnn.training.plot import LOG_SPAN, Curves, learning_curve_figure, picture_format, write_learning_curves

RECORDS = [{"epoch": 1, "step": 10, "train_loss": 0.9, "val_loss": 1.1, "train_acc": 0.5, "val_acc": 0.55},
           {"epoch": 2, "step": 20, "train_loss": 0.6, "val_loss": 0.7, "train_acc": 0.7, "val_acc": 0.75}]


def _by_title(fig):
    return {ax.get_title(): ax for ax in fig.axes}


def _series(ax):
    # the epoch lines: dashed training, solid validation
    return {("train" if ln.get_linestyle() == "--" else "val"): list(ln.get_ydata()) for ln in ax.lines}


def test_a_percent_metric_is_drawn_times_100_and_the_loss_as_it_is():
    axes = _by_title(learning_curve_figure([Curves("a", RECORDS)]))
    assert sorted(axes) == ["accuracy", "loss"]
    for title, m, scale in (("accuracy", "acc", 100.0), ("loss", "loss", 1.0)):
        got = _series(axes[title])
        for split in ("train", "val"):
            np.testing.assert_allclose(got[split], [scale * r[f"{split}_{m}"] for r in RECORDS])


def test_the_log_axis_follows_the_loss_values_not_the_updates():
    rows = [{"epoch": e, "step": e, "train_loss": v, "val_loss": v} for e, v in ((1, 50.0), (2, 1.0))]
    losses = [50.0, 1.0]
    assert max(losses) / min(losses) > LOG_SPAN and 2 / 1 < LOG_SPAN
    ax = _by_title(learning_curve_figure([Curves("a", rows)]))["loss"]
    assert ax.get_yscale() == "log"


def test_the_legend_gives_the_last_validation_value():
    fig = learning_curve_figure([Curves("run A", RECORDS)])
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert f"run A (final validation accuracy {100 * RECORDS[-1]['val_acc']:.2f}%)" in texts


def test_a_metric_logged_only_per_update_gets_its_panel():
    upd = [{"step": 5, "train_loss": 1.2, "train_acc": 0.4}, {"step": 10, "train_loss": 1.0, "train_acc": 0.45}]
    axes = _by_title(learning_curve_figure([Curves("a", [], upd)]))
    assert sorted(axes) == ["accuracy", "loss"]
    (line,) = axes["accuracy"].lines
    np.testing.assert_allclose(line.get_ydata(), [100 * r["train_acc"] for r in upd])


def test_an_svg_name_writes_svg(tmp_path):
    assert picture_format("curves.SVG") == "svg" and picture_format("c.png") == "png"
    path = tmp_path / "c.svg"
    write_learning_curves(str(path), [Curves("a", RECORDS)])
    text = path.read_text()
    assert text.startswith("<?xml") and "<svg" in text
