"""lnrnn/training/plot.py, nineteenth pass: the Figure's own artists read back against the history drawn. Eight
runs get eight different colours and each run's legend entry has the colour of its lines; a classifier's panels
are accuracy then its cross-entropy loss (the module docstring's order and LOSS_LABELS' words); the legend names a
run with its last validation accuracy written out by hand ('a (final validation accuracy 91.00%)'); every x axis
of X_AXES is drawn and named, another refused; the per-update rows become a thin line of exactly their points
under the epoch lines; a positive loss spanning more than a factor of 20 gets a 'log' axis; a PNG is written at
110 dpi, its pixel size read from the IHDR chunk and compared with the figure size the docstring's rule gives."""

import pytest
from matplotlib.colors import to_hex

from lnrnn.training.plot import Curves, learning_curve_figure, panels, write_learning_curves
from test_values487_sampler_layout import png_size


def _rows(losses, accs=None):
    rows = []
    for e, loss in enumerate(losses, 1):
        r = {"epoch": e, "step": 7 * e, "time_s": 1.5 * e, "train_loss": loss * 1.1, "val_loss": loss}
        if accs is not None:
            r.update(train_acc=accs[e - 1] - 0.01, val_acc=accs[e - 1])
        rows.append(r)
    return rows


def _legend(fig):
    (leg,) = fig.legends
    return {t.get_text(): h for t, h in zip(leg.get_texts(), leg.legend_handles)}


def test_eight_runs_eight_colours_and_the_legend_matches_the_lines():
    runs = [Curves(f"r{k}", _rows([1.0 + k, 0.9 + k])) for k in range(8)]
    fig = learning_curve_figure(runs)
    (ax,) = fig.axes
    lines = ax.get_lines()
    assert len(lines) == 16  # train dashed and val solid per run
    colours = [to_hex(ln.get_color()) for ln in lines]
    per_run = [colours[2 * k:2 * k + 2] for k in range(8)]
    assert all(a == b for a, b in per_run)
    assert len({a for a, _ in per_run}) == 8
    legend = _legend(fig)
    for k in range(8):
        # the run's lines hold its own values (1 + k, 0.9 + k) on the validation line
        assert list(lines[2 * k + 1].get_ydata()) == pytest.approx([1.0 + k, 0.9 + k])
        # named with its last validation loss (loss is the only metric, so the note's)
        assert to_hex(legend[f"r{k} (final validation loss {0.9 + k:.4f})"].get_color()) == per_run[k][0]


def test_a_classifiers_panels_accuracy_then_its_loss():
    run = Curves("a", _rows([0.5, 0.3], [0.8, 0.91]), kind="classifier")
    assert panels([run]) == [("acc", "accuracy (%)", [0]), ("loss", "cross-entropy loss (nats)", [0])]
    fig = learning_curve_figure([run])
    assert [ax.get_ylabel() for ax in fig.axes] == ["accuracy (%)", "cross-entropy loss (nats)"]
    assert [ax.get_title() for ax in fig.axes] == ["accuracy", "cross-entropy loss"]
    assert list(fig.axes[0].get_lines()[1].get_ydata()) == pytest.approx([80.0, 91.0])


def test_the_legend_names_the_last_validation_accuracy():
    run = Curves("a", _rows([0.5, 0.3], [0.8, 0.91]), kind="classifier")
    bare = Curves("b", [{"epoch": 1, "step": 3, "train_acc": 0.5}])  # no validation: no note
    legend = _legend(learning_curve_figure([run, bare]))
    assert set(legend) == {"validation", "training (epoch mean)", "a (final validation accuracy 91.00%)", "b"}


@pytest.mark.parametrize("x, label, values", [("step", "updates", [7, 14, 21]), ("epoch", "epoch", [1, 2, 3]),
                                              ("time_s", "training time (s)", [1.5, 3.0, 4.5])])
def test_each_x_axis_drawn_and_named(x, label, values):
    fig = learning_curve_figure([Curves("a", _rows([3.0, 2.0, 1.0]))], x=x)
    (ax,) = fig.axes
    assert ax.get_xlabel() == label
    assert list(ax.get_lines()[0].get_xdata()) == pytest.approx(values)


def test_another_x_refused():
    with pytest.raises(ValueError, match="x must be one of"):
        learning_curve_figure([Curves("a", _rows([1.0]))], x="samples")


def test_the_updates_are_a_thin_line_of_their_points():
    updates = [{"step": s, "train_loss": 2.0 / s} for s in (2, 4, 6, 8)]
    run = Curves("a", _rows([0.6, 0.5]), updates)
    fig = learning_curve_figure([run])
    (ax,) = fig.axes
    lines = ax.get_lines()
    assert len(lines) == 3
    thin = lines[0]
    assert list(thin.get_xdata()) == [2, 4, 6, 8]
    assert list(thin.get_ydata()) == pytest.approx([1.0, 0.5, 1 / 3, 0.25])
    assert thin.get_linewidth() < lines[1].get_linewidth()
    assert "training (every few updates)" in _legend(fig)


def test_a_loss_spanning_more_than_twenty_is_on_a_log_axis():
    wide = learning_curve_figure([Curves("a", _rows([10.0, 1.0, 0.1]))])
    narrow = learning_curve_figure([Curves("a", _rows([1.0, 0.5]))])
    assert wide.axes[0].get_yscale() == "log"
    assert narrow.axes[0].get_yscale() == "linear"


def test_a_png_is_written_at_110_dpi(tmp_path):
    run = Curves("a", _rows([0.5, 0.3], [0.8, 0.91]), kind="classifier")
    path = tmp_path / "c.png"
    write_learning_curves(str(path), [run])
    w, h = png_size(path)  # asserts the PNG signature and its IHDR chunk
    # two panels, one run: (5.2 * 2 + 0.6) x (4.6 + 0.22) inches at 110 dots per inch
    assert (w, h) == (round(11.0 * 110), round(4.82 * 110))
