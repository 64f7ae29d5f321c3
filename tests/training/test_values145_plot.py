"""The learning-curve figure read back through matplotlib's objects against the records it was given (written to
metrics.jsonl / updates.jsonl and read back): each line's x and y values, the per-update rows counted in the
log-axis choice (a loss whose epoch means span 3x but whose updates span 100x goes to a log axis), an infinite
value left out of the span, a one-epoch panel's lone dots named by their split and its x range past the lone x,
each panel's title the quantity without its unit, the legend's per-update entry when any run has such rows, and
each run's final note quoting its first metric (accuracy before loss)."""
import json
import math

import pytest

from lnrnn.model.heads import METRIC_INFO
from lnrnn.training.plot import LOG_SPAN, Curves, learning_curve_figure, use_log_scale
from lnrnn.training.rundir import read_jsonl


def _write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return read_jsonl(str(path))


def _legend_texts(fig):
    return [t.get_text() for leg in fig.legends for t in leg.get_texts()]


def _thin(ax):
    return [ln for ln in ax.get_lines() if ln.get_linewidth() < 1.0]


def test_update_rows_count_in_the_log_axis_choice(tmp_path):
    recs = _write_jsonl(tmp_path / "metrics.jsonl",
                        [{"epoch": e, "step": 10 * e, "train_loss": lo, "val_loss": lo * 1.1}
                         for e, lo in ((1, 3.0), (2, 2.0), (3, 1.0))])
    upd = _write_jsonl(tmp_path / "updates.jsonl",
                       [{"step": s, "train_loss": 10.0 / (1 + 3 * s)} for s in range(0, 34, 3)])
    ys = [r["train_loss"] for r in upd]
    assert max(ys) / min(ys) > LOG_SPAN                           # the updates alone span more than LOG_SPAN
    epoch_vals = [r[k] for r in recs for k in ("train_loss", "val_loss")]
    assert max(epoch_vals) / min(epoch_vals) < LOG_SPAN            # the epoch means alone do not
    fig = learning_curve_figure([Curves("r", recs, upd, "classifier")])
    (ax,) = fig.axes
    assert ax.get_yscale() == "log"
    assert ax.get_xlabel() == "updates" and ax.get_ylabel() == "cross-entropy loss (nats)"
    (thin,) = _thin(ax)
    assert list(thin.get_xdata()) == [float(r["step"]) for r in upd]
    assert list(thin.get_ydata()) == pytest.approx(ys, rel=1e-15)
    by_style = {ln.get_linestyle(): ln for ln in ax.get_lines() if ln.get_linewidth() > 1.0}
    assert list(by_style["--"].get_ydata()) == [r["train_loss"] for r in recs]
    assert list(by_style["-"].get_ydata()) == [r["val_loss"] for r in recs]
    assert list(by_style["-"].get_xdata()) == [10.0, 20.0, 30.0]
    # the same run without its update rows: the epoch means alone, a linear axis
    fig = learning_curve_figure([Curves("r", recs, [], "classifier")])
    assert fig.axes[0].get_yscale() == "linear"


def test_an_infinite_value_is_no_part_of_the_span():
    assert not use_log_scale([1.0, 2.0, math.inf])                 # the finite values span 2x
    assert not use_log_scale([1.0, 2.0, math.nan])
    assert use_log_scale([1.0, 2.0 * LOG_SPAN, math.inf])


def test_one_epoch_dots_are_named_by_their_split_and_the_x_range_passes_them():
    rec = {"epoch": 1, "step": 10, "train_loss": 1.25, "val_loss": 0.75, "train_acc": 0.5, "val_acc": 0.625}
    fig = learning_curve_figure([Curves("r", [rec], [], "classifier")])
    axes = {ax.get_ylabel(): ax for ax in fig.axes}
    loss_ax, acc_ax = axes["cross-entropy loss (nats)"], axes["accuracy (%)"]
    assert sorted(t.get_text() for t in loss_ax.texts) == ["training 1.2500", "validation 0.7500"]
    assert sorted(t.get_text() for t in acc_ax.texts) == ["training 50.0%", "validation 62.5%"]
    for ax in fig.axes:
        assert ax.get_xlim() == pytest.approx((0.0, 1.6 * rec["step"]))
    assert loss_ax.get_title() == "cross-entropy loss"
    assert acc_ax.get_title() == "accuracy"


def test_the_updates_legend_entry_when_any_run_has_them_and_the_final_note_quotes_the_first_metric():
    recs_a = [{"epoch": 1, "step": 5, "train_loss": 1.0, "val_loss": 0.9, "val_acc": 0.4},
              {"epoch": 2, "step": 10, "train_loss": 0.8, "val_loss": 0.7, "val_acc": 0.55}]
    recs_b = [{"epoch": 1, "step": 5, "train_loss": 1.1, "val_loss": 1.0, "val_acc": 0.3125}]
    upd = [{"step": s, "train_loss": 1.2 - 0.05 * s} for s in range(1, 11)]
    fig = learning_curve_figure([Curves("a", recs_a, upd, "classifier"), Curves("b", recs_b, [], "classifier")])
    texts = _legend_texts(fig)
    assert "training (every few updates)" in texts
    name = METRIC_INFO["acc"][0].replace(" (%)", "")
    assert f"a (final validation {name} {100 * 0.55:.2f}%)" in texts
    assert f"b (final validation {name} {100 * 0.3125:.2f}%)" in texts
    fig = learning_curve_figure([Curves("a", recs_a, [], "classifier"), Curves("b", recs_b, [], "classifier")])
    assert "training (every few updates)" not in _legend_texts(fig)


def test_a_run_given_as_a_tuple_keeps_its_update_rows():
    recs = [{"epoch": 1, "step": 4, "train_loss": 1.0, "val_loss": 0.9},
            {"epoch": 2, "step": 8, "train_loss": 0.7, "val_loss": 0.8}]
    upd = [{"step": s, "train_loss": 1.5 - 0.1 * s} for s in range(1, 9)]
    fig = learning_curve_figure([("t", recs, upd)])
    (thin,) = _thin(fig.axes[0])
    assert list(thin.get_xdata()) == [float(s) for s in range(1, 9)]
    assert list(thin.get_ydata()) == pytest.approx([r["train_loss"] for r in upd], rel=1e-15)
    assert "training (every few updates)" in _legend_texts(fig)
