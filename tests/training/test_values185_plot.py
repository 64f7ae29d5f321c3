"""lnrnn/training/plot.py's figure read back through matplotlib's objects against the records written to
metrics.jsonl here: the log axis taken only past a span of 20 (a factor of 15 stays linear), each run's lines
drawn in the colour of its own legend patch (lines matched to runs by their data), every y axis labelled with
what it measures, a lone point at x = 0 drawn over (0, 1), the legend at most three columns wide, and a metric's
panel listing only the runs that logged it."""
import json

import pytest

from lnrnn.training.plot import Curves, learning_curve_figure, panels
from lnrnn.training.rundir import read_jsonl


def _records(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return read_jsonl(str(path))


def _classifier_rows(scale):
    return [{"epoch": e, "step": 4 * e, "time_s": 0.5 * e, "train_loss": scale / e, "val_loss": scale / e + 0.05,
             "train_acc": 0.1 * e + scale / 100, "val_acc": 0.05 * e + scale / 70} for e in (1, 2, 3)]


def _thick(ax):
    return [ln for ln in ax.get_lines() if ln.get_linewidth() > 1.0]


@pytest.mark.parametrize("span", [15.0, 25.0])
def test_the_loss_axis_is_logarithmic_only_past_a_span_of_twenty(tmp_path, span):
    losses = [1.5, 0.6, 1.5 / span]
    recs = _records(tmp_path / "metrics.jsonl", [{"epoch": e + 1, "step": 3 * (e + 1), "train_loss": lo,
                                                  "val_loss": lo} for e, lo in enumerate(losses)])
    fig = learning_curve_figure([Curves("r", recs, [], "classifier")])
    (ax,) = fig.axes
    assert max(losses) / min(losses) == pytest.approx(span)
    assert ax.get_yscale() == ("log" if span > 20 else "linear")


def test_each_runs_lines_take_the_colour_of_its_legend_patch(tmp_path):
    runs = [Curves(f"run{k}", _records(tmp_path / f"m{k}.jsonl", _classifier_rows(1.0 + k)), [], "classifier")
            for k in range(3)]
    fig = learning_curve_figure(runs)
    patches = {h.get_label().split(" (")[0]: h.get_color() for leg in fig.legends for h in leg.legend_handles
               if h.get_linewidth() == 5}
    assert sorted(patches) == ["run0", "run1", "run2"]
    assert len(set(patches.values())) == 3
    for ax in fig.axes:
        m = "acc" if "accuracy" in ax.get_ylabel() else "loss"
        scale = 100.0 if m == "acc" else 1.0
        lines = _thick(ax)
        assert len(lines) == 2 * len(runs)
        for ln in lines:
            y = list(ln.get_ydata())
            owner = [run.label for run in runs for split in ("train", "val")
                     if y == pytest.approx([r[f"{split}_{m}"] * scale for r in run.records])]
            assert len(owner) == 1
            assert ln.get_color() == patches[owner[0]]


def test_each_y_axis_says_what_it_measures(tmp_path):
    clf = Curves("clf", _records(tmp_path / "a.jsonl", _classifier_rows(2.0)), [], "classifier")
    den = Curves("den", _records(tmp_path / "b.jsonl", [{"epoch": 1, "step": 5, "train_loss": 3.0, "val_loss": 2.5},
                                                         {"epoch": 2, "step": 10, "train_loss": 2.0,
                                                          "val_loss": 1.5}]), [], "mdn")
    fig = learning_curve_figure([clf, den])
    assert [ax.get_ylabel() for ax in fig.axes] == ["accuracy (%)", "cross-entropy loss (nats)",
                                                   "negative log-likelihood (nats per point)"]
    assert [ax.get_xlabel() for ax in fig.axes] == ["updates"] * 3


@pytest.mark.parametrize("x0,want", [(0.0, (0.0, 1.0)), (5.0, (0.0, 8.0))])
def test_a_lone_point_is_drawn_from_zero_to_past_it(tmp_path, x0, want):
    recs = _records(tmp_path / "metrics.jsonl", [{"epoch": 1, "step": 7, "time_s": x0, "train_loss": 0.7,
                                                  "val_loss": 0.9}])
    fig = learning_curve_figure([Curves("r", recs, [], "classifier")], x="time_s")
    (ax,) = fig.axes
    assert ax.get_xlim() == pytest.approx(want)
    assert ax.get_xlabel() == "training time (s)"


@pytest.mark.parametrize("n_runs", [1, 4])
def test_the_legend_is_at_most_three_columns_wide(tmp_path, n_runs):
    runs = [Curves(f"r{k}", _records(tmp_path / f"m{k}.jsonl", _classifier_rows(1.0 + k)), [], "classifier")
            for k in range(n_runs)]
    fig = learning_curve_figure(runs)
    (leg,) = fig.legends
    n_handles = 2 + n_runs                                # validation, training (epoch mean), one patch per run
    assert len(leg.get_texts()) == n_handles
    assert leg._ncols == min(3, n_handles)


def test_a_metric_panel_lists_only_the_runs_that_logged_it(tmp_path):
    den = Curves("den", _records(tmp_path / "b.jsonl", [{"epoch": 1, "step": 5, "train_loss": 3.0,
                                                         "val_loss": 2.5}]), [], "mdn")
    clf = Curves("clf", _records(tmp_path / "a.jsonl", _classifier_rows(2.0)), [], "classifier")
    got = panels([den, clf])
    assert got[0] == ("acc", "accuracy (%)", [1])                          # the density run logged no acc
    assert sorted(idx for _, _, members in got[1:] for idx in members) == [0, 1]
    fig = learning_curve_figure([den, clf])
    assert len(_thick(fig.axes[0])) == 2                                  # clf's train and val accuracy
