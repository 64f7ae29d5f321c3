"""Learning-curve pictures, drawn with matplotlib's headless Agg backend: PNG, SVG or PDF by the file's extension.

``write_learning_curves(path, runs)`` draws one panel per metric the records hold (train_<m>/val_<m>:
accuracy and loss for a classifier, loss alone for a density head; the loss panel last; runs whose heads
differ, a classifier's cross-entropy and a density head's negative log-likelihood, get a loss panel each,
labelled with what it measures) against updates
(or epochs, or training seconds). ``runs`` is a list of ``Curves`` (or ``(label, records)`` pairs): the
per-epoch dicts of ``metrics.jsonl`` (keys epoch, step, time_s, train_<m>, val_<m>) and, when the run
logged them, the per-update rows of ``updates.jsonl`` (same keys, every K updates). Each run gets a colour:
validation solid with dots at each epoch, the training epoch means dashed with dots, the training metrics
every K updates a thin line underneath. A series of one point (a run of one epoch) is labelled with its
name and value beside the dot. The loss axis is logarithmic when the loss stays positive and
spans more than LOG_SPAN (a factor of 20); the legend names each run (with its final validation figure)
and each line style; the title carries the run's configuration.

SVG text stays text (``svg.fonttype: none``), so the labels can be searched and the file stays small.
"""
import math
from dataclasses import dataclass, field
from typing import Optional

from lnrnn.errors import UserError

FORMATS = (".png", ".svg", ".pdf")
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
X_AXES = {"step": "updates", "epoch": "epoch", "time_s": "training time (s)"}
LOG_SPAN = 20.0   # a positive loss whose largest value is more than this many times its smallest: log axis
# the loss of each head kind, with its unit (axis label)
LOSS_LABELS = {"classifier": "cross-entropy loss (nats)", "regression": "squared error",
               "l1": "absolute error", "mdn": "negative log-likelihood (nats per point)",
               "ctc": "CTC loss (nats per line)"}


@dataclass
class Curves:
    """One run's curves: ``records`` one dict per epoch; ``updates`` one dict every K updates (may be empty);
    ``kind`` the run's head kind (classifier, mdn, ...: what its loss measures), None when unknown."""

    label: str
    records: list
    updates: list = field(default_factory=list)
    kind: Optional[str] = None


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


def _has(run, m):
    return any(r.get(f"{split}_{m}") is not None for r in run.records + run.updates for split in ("train", "val"))


def loss_kinds(runs, loss_label=None):
    """{loss axis label: [run indices]} of the runs' losses: one entry when they measure one thing, one per
    head kind when they differ (cross-entropy and negative log-likelihood are not one axis)."""
    runs = [_as_curves(r) for r in runs]
    labels = {}
    for k, run in enumerate(runs):
        label = LOSS_LABELS.get(run.kind) if run.kind else None
        labels.setdefault(label or loss_label or "loss", []).append(k)
    return labels


def panels(runs, loss_label=None):
    """[(metric, axis label, run indices)] in drawing order: each metric some run holds, the loss last and
    split by what it measures (``loss_kinds``)."""
    from lnrnn.model.heads import METRIC_INFO

    runs = [_as_curves(r) for r in runs]
    out = []
    for m in metric_names(runs):
        if m == "loss":
            for label, idx in loss_kinds(runs, loss_label).items():
                out.append((m, label, idx))
        else:
            out.append((m, METRIC_INFO.get(m, (m, False))[0], [k for k, run in enumerate(runs) if _has(run, m)]))
    return out


def use_log_scale(values):
    """A log axis when every value is positive and they span more than LOG_SPAN."""
    vals = [v for v in values if math.isfinite(v)]
    return bool(vals) and min(vals) > 0 and max(vals) / min(vals) > LOG_SPAN


def _points(rows, x, key, scale):
    """(x, value * scale) of the rows that hold both as finite numbers: a row without the axis's value (a log
    written by hand, or by another tool) is left out, not drawn at some x of its own."""
    pts = [(float(r[x]), float(r[key]) * scale) for r in rows if r.get(key) is not None and r.get(x) is not None]
    return [p for p in pts if math.isfinite(p[0]) and math.isfinite(p[1])]


def _final_note(run, metric):
    from lnrnn.model.heads import METRIC_INFO
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

    from lnrnn.model.heads import METRIC_INFO

    if x not in X_AXES:
        raise ValueError(f"x must be one of {list(X_AXES)}")
    runs = [_as_curves(r) for r in runs]
    metrics = metric_names(runs)
    layout = panels(runs, loss_label)
    fig = Figure(figsize=(5.2 * len(layout) + 0.6, 4.6 + 0.22 * len(runs)), layout="constrained")
    axes = fig.subplots(1, len(layout), squeeze=False)[0]
    for ax, (m, ylabel, members) in zip(axes, layout):
        percent = METRIC_INFO.get(m, (m, False))[1]
        scale = 100.0 if percent else 1.0
        seen, xs = [], set()
        for k in members:
            run = runs[k]
            color = COLORS[k % len(COLORS)]
            upd = _points(run.updates, x, f"train_{m}", scale)
            if upd:
                ax.plot(*zip(*upd), color=color, linewidth=0.7, alpha=0.45)
            for split, style in (("train", "--"), ("val", "-")):
                pts = _points(run.records, x, f"{split}_{m}", scale)
                if pts:
                    ax.plot(*zip(*pts), style, color=color, linewidth=1.6, marker="o", markersize=3.5)
                if len(pts) == 1:  # one epoch: a lone dot says nothing by itself, so it carries its name and value
                    value = f"{pts[0][1]:.1f}%" if percent else f"{pts[0][1]:.4f}"
                    name = "validation" if split == "val" else "training"
                    ax.annotate(f"{name} {value}", pts[0], xytext=(7, 0), textcoords="offset points",
                                va="center", fontsize=8, color=color)
                seen += [p[1] for p in pts]
                xs |= {p[0] for p in pts}
            seen += [p[1] for p in upd]
            xs |= {p[0] for p in upd}
        if m == "loss" and use_log_scale(seen):
            ax.set_yscale("log")
        if len(xs) == 1:  # one x (one epoch, no per-update rows): from 0 to past it, room for the labels
            ax.set_xlim(0, 1.6 * max(xs) if max(xs) > 0 else 1)
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


def picture_format(path):
    """The picture format of ``path`` by its suffix ('png', 'svg' or 'pdf'), or a UserError: the one rule for
    learning curves and written samples alike, checked by the commands before any work and by the drawings."""
    from lnrnn.files import named_suffix

    ext = named_suffix(path, FORMATS)
    if ext is None:
        raise UserError(f"--out must end in {', '.join(FORMATS)} (the picture's format), not {str(path)!r}.")
    return ext[1:]


def write_learning_curves(path, runs, x="step", title="learning curves", loss_label=None):
    """Draw the runs' curves into ``path`` (.png, .svg or .pdf), atomically (a reader never sees half a file)."""
    import matplotlib
    from lnrnn.files import write_output_file

    fmt = picture_format(path)
    fig = learning_curve_figure(runs, x=x, title=title, loss_label=loss_label)
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "lnrnn", "pdf.fonttype": 42}):
        write_output_file(path, lambda f: fig.savefig(f, format=fmt, dpi=110, metadata=_metadata(fmt)))
    return path


def _metadata(fmt):
    """No creation date in SVG/PDF, so the same curves give the same file (each backend names the date its own
    way: SVG's Dublin Core "Date", PDF's info dictionary "CreationDate")."""
    return {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)
