"""The learning-curve figure read back through matplotlib's objects: one panel per metric however many
records name it, log scale only for a loss spanning more than LOG_SPAN (an accuracy rising twentyfold stays
linear), and a run that records a metric for one split only still drawn in that metric's panel."""
import math

import numpy as np

from lnrnn.training.plot import LOG_SPAN, Curves, learning_curve_figure, metric_names


def _records(loss, acc, splits=("train", "val")):
    out = []
    for e, (lo, ac) in enumerate(zip(loss, acc), 1):
        r = {"epoch": e, "step": 10 * e}
        for s in splits:
            r[f"{s}_loss"], r[f"{s}_acc"] = lo, ac
        out.append(r)
    return out


def _by_style(ax):
    return {ln.get_linestyle(): (list(ln.get_xdata()), list(ln.get_ydata())) for ln in ax.get_lines()}


def test_each_metric_gets_one_panel_however_many_records_name_it():
    recs = _records([1.0, 0.8, 0.6], [0.5, 0.6, 0.7])
    upd = [{"step": s, "train_loss": 1.0 - 0.01 * s} for s in range(1, 30, 5)]
    runs = [Curves("a", recs, upd, "classifier"), Curves("b", recs, [], "classifier")]
    names = metric_names(runs)
    assert sorted(names) == ["acc", "loss"] and len(set(names)) == len(names)
    fig = learning_curve_figure(runs)
    assert len(fig.axes) == 2
    assert sorted(ax.get_ylabel() for ax in fig.axes) == ["accuracy (%)", "cross-entropy loss (nats)"]


def test_log_scale_for_a_widely_spread_loss_only():
    loss = [5.0, 1.0, 0.1]                                       # 50x: more than LOG_SPAN
    acc = [0.01, 0.3, 0.9]                                       # 1% .. 90%: 90x, but a percentage
    assert max(loss) / min(loss) > LOG_SPAN and max(acc) / min(acc) > LOG_SPAN
    fig = learning_curve_figure([Curves("r", _records(loss, acc), [], "classifier")], x="epoch")
    scales = {ax.get_ylabel(): ax.get_yscale() for ax in fig.axes}
    assert scales == {"accuracy (%)": "linear", "cross-entropy loss (nats)": "log"}
    narrow = [2.0, 1.0, 0.5]                                     # 4x: stays linear
    fig = learning_curve_figure([Curves("r", _records(narrow, acc), [], "classifier")], x="epoch")
    assert all(ax.get_yscale() == "linear" for ax in fig.axes)


def test_a_metric_recorded_for_training_only_is_still_drawn():
    only_train = _records([1.0, 0.5], [0.25, 0.5], splits=("train",))
    only_val = _records([0.9, 0.7], [0.2, 0.4], splits=("val",))
    fig = learning_curve_figure([Curves("t", only_train, [], "classifier"), Curves("v", only_val, [], "classifier")],
                                x="epoch")
    acc = next(ax for ax in fig.axes if ax.get_ylabel() == "accuracy (%)")
    lines = _by_style(acc)
    assert set(lines) == {"--", "-"}
    np.testing.assert_allclose(lines["--"][0], [1.0, 2.0])
    np.testing.assert_allclose(lines["--"][1], [25.0, 50.0])     # percent
    np.testing.assert_allclose(lines["-"][1], [20.0, 40.0])
    assert all(math.isfinite(v) for _, ys in lines.values() for v in ys)
