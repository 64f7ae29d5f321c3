"""Learning-curve pictures, drawn with matplotlib's headless Agg backend: PNG, SVG or PDF by the file's extension.

``write_learning_curves(path, runs)`` draws one panel per metric the records hold (train_<m>/val_<m>:
accuracy and loss for a classifier, loss alone for a density head; the loss panel last) against updates
(or epochs, or training seconds). ``runs`` is a list of ``Curves`` (or ``(label, records)`` pairs): the
per-epoch dicts of ``metrics.jsonl`` (keys epoch, step, time_s, train_<m>, val_<m>) and, when the run
logged them, the per-update rows of ``updates.jsonl`` (same keys, every K updates). Each run gets a colour:
validation solid with dots at each epoch, the training epoch means dashed with dots, the training metrics
every K updates a thin line underneath. The loss axis is logarithmic when the loss stays positive and
spans more than LOG_SPAN (a factor of 20); the legend names each run (with its final validation figure)
and each line style; the title carries the run's configuration.

SVG text stays text (``svg.fonttype: none``), so the labels can be searched and the file stays small.
"""
import math
import os
from dataclasses import dataclass, field

from lnrnn.errors import UserError

FORMATS = (".png", ".svg", ".pdf")
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
X_AXES = {"step": "updates", "epoch": "epoch", "time_s": "training time (s)"}
LOG_SPAN = 20.0   # a positive loss whose largest value is more than this many times its smallest: log axis
# the loss of each head kind, with its unit (axis label)
LOSS_LABELS = {"classifier": "cross-entropy loss (nats)", "regression": "squared error",
               "l1": "absolute error", "mdn": "negative log-likelihood (nats per point)"}


@dataclass
class Curves:
    """One run's curves: ``records`` one dict per epoch; ``updates`` one dict every K updates (may be empty)."""

    label: str
    records: list
    updates: list = field(default_factory=list)


def _as_curves(run):
    if isinstance(run, Curves):
        return run
    return Curves(run[0], list(run[1]), list(run[2]) if len(run) > 2 else [])


def metric_names(runs):
    """The metrics the runs' records hold (train_<m> or val_<m>), loss last."""
    names = []
    for run in runs:
        for r in run.records + run.updates:
            for k in r:
                split, _, m = k.partition("_")
                if split in ("train", "val") and m and m not in names:
                    names.append(m)
    return sorted(names, key=lambda m: m == "loss") or ["loss"]


def use_log_scale(values):
    """A log axis when every value is positive and they span more than LOG_SPAN."""
    vals = [v for v in values if math.isfinite(v)]
    return bool(vals) and min(vals) > 0 and max(vals) / min(vals) > LOG_SPAN


def _points(rows, x, key, scale):
    pts = [(float(r.get(x, 0)), float(r[key]) * scale) for r in rows if r.get(key) is not None]
    return [p for p in pts if math.isfinite(p[1])]


def _final_note(run, metric):
    from lnrnn.heads import METRIC_INFO
    last = next((r for r in reversed(run.records) if r.get(f"val_{metric}") is not None), None)
    if last is None:
        return ""
    label, percent = METRIC_INFO.get(metric, (metric, False))
    v = last[f"val_{metric}"]
    value = f"{100 * v:.2f}%" if percent else f"{v:.4f}"
    return f" (final validation {label.replace(' (%)', '')} {value})"


def learning_curve_figure(runs, x="step", title="learning curves", loss_label=None):
    """A matplotlib Figure of the runs' curves (see the module docstring)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    from lnrnn.heads import METRIC_INFO

    if x not in X_AXES:
        raise ValueError(f"x must be one of {list(X_AXES)}")
    runs = [_as_curves(r) for r in runs]
    metrics = metric_names(runs)
    fig = Figure(figsize=(5.2 * len(metrics) + 0.6, 4.6 + 0.22 * len(runs)), layout="constrained")
    axes = fig.subplots(1, len(metrics), squeeze=False)[0]
    for ax, m in zip(axes, metrics):
        ylabel, percent = METRIC_INFO.get(m, (m, False))
        if m == "loss" and loss_label:
            ylabel = loss_label
        scale = 100.0 if percent else 1.0
        seen = []
        for k, run in enumerate(runs):
            color = COLORS[k % len(COLORS)]
            upd = _points(run.updates, x, f"train_{m}", scale)
            if upd:
                ax.plot(*zip(*upd), color=color, linewidth=0.7, alpha=0.45)
            for split, style in (("train", "--"), ("val", "-")):
                pts = _points(run.records, x, f"{split}_{m}", scale)
                if pts:
                    ax.plot(*zip(*pts), style, color=color, linewidth=1.6, marker="o", markersize=3.5)
                seen += [p[1] for p in pts]
            seen += [p[1] for p in upd]
        if m == "loss" and use_log_scale(seen):
            ax.set_yscale("log")
        ax.set_xlabel(X_AXES[x])
        ax.set_ylabel(ylabel)
        ax.set_title(ylabel.replace(" (%)", "").split(" (")[0], fontsize=11)
        ax.grid(True, color="#e4e4e4", linewidth=0.8)
    handles = [Line2D([], [], color="#444", linewidth=1.6, marker="o", markersize=3.5, label="validation"),
               Line2D([], [], color="#444", linewidth=1.6, linestyle="--", marker="o", markersize=3.5,
                      label="training (epoch mean)")]
    if any(run.updates for run in runs):
        handles.append(Line2D([], [], color="#444", linewidth=0.7, alpha=0.6, label="training (every few updates)"))
    handles += [Line2D([], [], color=COLORS[k % len(COLORS)], linewidth=5,
                       label=run.label + _final_note(run, metrics[0])) for k, run in enumerate(runs)]
    fig.legend(handles=handles, loc="outside lower center", ncol=min(3, len(handles)), fontsize=9, frameon=False)
    fig.suptitle(title if len(title) <= 160 else title[:159] + "\u2026", fontsize=11)
    return fig


def check_format(path):
    """UserError unless ``path`` ends in .png, .svg or .pdf."""
    if os.path.splitext(str(path))[1].lower() not in FORMATS:
        raise UserError(f"--out must end in {', '.join(FORMATS)} (the picture's format), not {str(path)!r}.")


def write_learning_curves(path, runs, x="step", title="learning curves", loss_label=None):
    """Draw the runs' curves into ``path`` (.png, .svg or .pdf), atomically (a reader never sees half a file)."""
    import matplotlib
    from lnrnn.files import write_output_file

    check_format(path)
    fig = learning_curve_figure(runs, x=x, title=title, loss_label=loss_label)
    fmt = os.path.splitext(str(path))[1].lower()[1:]
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "lnrnn", "pdf.fonttype": 42}):
        write_output_file(path, lambda f: fig.savefig(f, format=fmt, dpi=110, metadata=_metadata(fmt)))
    return path


def _metadata(fmt):
    """No creation date in SVG/PDF, so the same curves give the same file."""
    return {"Date": None} if fmt in ("svg", "pdf") else None
