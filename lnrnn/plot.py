"""Learning-curve pictures as hand-written SVG (no plotting dependency).

``learning_curve_svg(runs)`` draws one panel per metric the records hold (train_<m>/val_<m>: accuracy
and loss for a classifier, loss alone for a density head; the loss panel last) against updates (or
epochs or wall-clock seconds). ``runs`` is a list of ``(label, records)`` with ``records`` the
per-epoch dicts of ``metrics.jsonl`` (keys epoch, step, time_s, train_<m>, val_<m>). Each run
gets a colour; validation is drawn solid with dots, training dashed. The legend names both.
"""
import math
from xml.sax.saxutils import escape

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
X_AXES = {"step": "updates", "epoch": "epoch", "time_s": "wall time (s)"}


def nice_ticks(lo, hi, n=5):
    """About n round tick values covering [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return [0.0, 1.0]
    if hi <= lo:
        lo, hi = lo - 0.5 * (abs(lo) or 1), hi + 0.5 * (abs(hi) or 1)
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    v = start
    while v <= hi + 1e-9 * step:
        ticks.append(round(v, 10))
        v += step
    if ticks[-1] < hi:
        ticks.append(round(v, 10))
    return ticks


def _fmt(v):
    if v == 0:
        return "0"
    if abs(v) >= 10000:
        return f"{v:.0e}".replace("e+0", "e")
    return f"{v:g}"


def _panel(out, x0, y0, w, h, series, xlabel, ylabel, title):
    """series: list of (color, dashed, [(x, y), ...])."""
    pts = [p for _, _, s in series for p in s if math.isfinite(p[1])]
    xs = [p[0] for p in pts] or [0, 1]
    ys = [p[1] for p in pts] or [0, 1]
    xt, yt = nice_ticks(min(xs), max(xs)), nice_ticks(min(ys), max(ys))
    xa, xb, ya, yb = xt[0], xt[-1], yt[0], yt[-1]

    def sx(v):
        return x0 + (v - xa) / (xb - xa) * w

    def sy(v):
        return y0 + h - (v - ya) / (yb - ya) * h

    out.append(f'<text x="{x0 + w / 2}" y="{y0 - 10}" text-anchor="middle" font-weight="bold">{escape(title)}</text>')
    out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#444"/>')
    for v in xt:
        out.append(f'<line x1="{sx(v):.1f}" y1="{y0}" x2="{sx(v):.1f}" y2="{y0 + h}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{sx(v):.1f}" y="{y0 + h + 16}" text-anchor="middle">{_fmt(v)}</text>')
    for v in yt:
        out.append(f'<line x1="{x0}" y1="{sy(v):.1f}" x2="{x0 + w}" y2="{sy(v):.1f}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{x0 - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{_fmt(v)}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 36}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate({x0 - 44},{y0 + h / 2}) rotate(-90)" text-anchor="middle">'
               f'{escape(ylabel)}</text>')
    for color, dashed, s in series:
        s = [p for p in s if math.isfinite(p[1])]
        if not s:
            continue
        path = " ".join(f"{'M' if i == 0 else 'L'}{sx(a):.1f},{sy(b):.1f}" for i, (a, b) in enumerate(s))
        dash = ' stroke-dasharray="5,4"' if dashed else ""
        out.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="1.8"{dash}/>')
        if not dashed:
            out.extend(f'<circle cx="{sx(a):.1f}" cy="{sy(b):.1f}" r="2.5" fill="{color}"/>' for a, b in s)


def metric_names(runs):
    """The metrics the runs' records hold (train_<m> or val_<m>), loss last."""
    names = []
    for _, recs in runs:
        for r in recs:
            for k in r:
                split, _, m = k.partition("_")
                if split in ("train", "val") and m and m not in names:
                    names.append(m)
    return sorted(names, key=lambda m: m == "loss") or ["loss"]


def learning_curve_svg(runs, x="step", title="learning curves"):
    """SVG text of one panel per metric (see the module docstring) for every (label, records) run."""
    from lnrnn.heads import METRIC_INFO
    if x not in X_AXES:
        raise ValueError(f"x must be one of {list(X_AXES)}")
    metrics = metric_names(runs)
    W, H = max(960, 80 + 470 * len(metrics)), 420 + 18 * len(runs)
    if len(title) > 120:
        title = title[:119] + "\u2026"
    pw, ph, top = 380, 280, 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>']
    for panel, key in enumerate(metrics):
        ylabel, percent = METRIC_INFO.get(key, (key, False))
        scale = 100.0 if percent else 1.0
        series = []
        for k, (_, recs) in enumerate(runs):
            color = COLORS[k % len(COLORS)]
            for split, dashed in (("train", True), ("val", False)):
                pts = [(float(r.get(x, 0)), float(r[f"{split}_{key}"]) * scale)
                       for r in recs if r.get(f"{split}_{key}") is not None]
                series.append((color, dashed, pts))
        _panel(out, 80 + panel * (pw + 90), top, pw, ph, series, X_AXES[x], ylabel,
               ylabel.replace(" (%)", ""))
    ly = top + ph + 62
    out.append(f'<line x1="80" y1="{ly}" x2="110" y2="{ly}" stroke="#444" stroke-width="1.8"/>'
               f'<text x="116" y="{ly + 4}">validation</text>'
               f'<line x1="200" y1="{ly}" x2="230" y2="{ly}" stroke="#444" stroke-width="1.8" stroke-dasharray="5,4"/>'
               f'<text x="236" y="{ly + 4}">training</text>')
    for k, (label, recs) in enumerate(runs):
        y = ly + 18 * (k + 1)
        color = COLORS[k % len(COLORS)]
        m = metrics[0]
        last = next((r for r in reversed(recs) if r.get(f"val_{m}") is not None), None)
        label_m, percent = METRIC_INFO.get(m, (m, False))
        value = f"{100 * last[f'val_{m}']:.2f}%" if percent and last else (f"{last[f'val_{m}']:.4f}" if last else "")
        note = f" (final validation {label_m.replace(' (%)', '')} {value})" if last else ""
        out.append(f'<rect x="80" y="{y - 9}" width="30" height="10" fill="{color}"/>'
                   f'<text x="116" y="{y}">{escape(label + note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_learning_curves(path, runs, x="step", title="learning curves"):
    from lnrnn.checkpoint import atomic_write_text
    atomic_write_text(path, learning_curve_svg(runs, x=x, title=title))
