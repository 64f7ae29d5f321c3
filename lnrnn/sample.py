"""Sampling handwriting from a trained mixture-density model, and drawing it.

Design. ``sample_strokes`` runs the model one step at a time (``SequenceModel.step``: the training
forward's arithmetic, through the infer kernels that save nothing for a backward, BatchNorm at the
step's own statistics), feeding each drawn point back as the
next input, K sequences at once; ``draw_strokes`` turns the stroke-3 points into pen strokes (a new
stroke after every pen lift) and draws each sample in its own row with matplotlib's headless
backend: equal aspect, even line width, PNG, SVG or PDF by the file's extension.

    model = model_from_checkpoint(meta, arrays)
    lines = sample_strokes(model, steps=700, count=4, bias=0.5, seed=0)   # [(N,3) dx, dy, pen] in data units
    draw_strokes(lines, "samples.png", title="ln-lstm, bias 0.5")
"""
import numpy as np

from lnrnn.errors import UserError

FORMATS = (".png", ".svg", ".pdf")


def sample_strokes(model, steps, count=1, bias=0.0, seed=0, start=None, progress=None):
    """Draw ``count`` sequences of ``steps`` points -> list of (steps, 3) float64 arrays (dx, dy in the
    data's units, pen 1 where the pen lifts after the point). Same seed, same samples. ``start``:
    the first input (3,), default the origin with the pen down. ``progress``: a ``lnrnn.training.progress.Progress``
    over steps * count points, updated after every step."""
    head = model.head
    if not hasattr(head, "sample"):
        raise UserError(f"this model's head ({head.kind}) does not generate sequences; sampling needs a "
                        "mixture density model (a strokes task).")
    rng = np.random.default_rng(seed)
    x = np.zeros((count, 3), model.dtype)
    if start is not None:
        x[:] = start
    state = model.noise_state(count, (3, int(seed)))
    out = np.empty((count, steps, 3))
    for t in range(steps):
        o, state = model.step(x, state, t=t)
        p = head.sample(o, rng, bias)                       # (count,3) normalized units
        out[:, t] = p
        x = p.astype(model.dtype)
        if progress is not None:
            progress.update(count)
    sx, sy = getattr(head, "scale", (1.0, 1.0))
    out[:, :, 0] *= sx
    out[:, :, 1] *= sy
    return [out[k] for k in range(count)]


def strokes_of(points):
    """(N,3) stroke-3 -> list of (n,2) absolute pen paths, split after every pen lift."""
    xy = np.cumsum(points[:, :2], axis=0)
    ends = np.nonzero(points[:, 2] > 0.5)[0]
    paths, start = [], 0
    for e in list(ends) + [len(points) - 1]:
        if e >= start:
            paths.append(xy[start:e + 1])
        start = e + 1
    return [p for p in paths if len(p)]


def draw_strokes(samples, path, title=None, y_down=False, labels=None):
    """Draw each (N,3) stroke-3 sample in its own row into ``path`` (.png, .svg or .pdf)."""
    import os
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in FORMATS:
        raise UserError(f"--out must end in {', '.join(FORMATS)}, not {path!r}.")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = len(samples)
    fig, axes = plt.subplots(n, 1, figsize=(10, 1.6 * n + (0.5 if title else 0)), squeeze=False)
    for k, (ax, pts) in enumerate(zip(axes[:, 0], samples)):
        for p in strokes_of(np.asarray(pts, np.float64)):
            ax.plot(p[:, 0], p[:, 1], "-", color="#1a1a1a", linewidth=1.6, solid_capstyle="round",
                    solid_joinstyle="round")
        ax.set_aspect("equal", adjustable="datalim")
        if y_down:
            ax.invert_yaxis()
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ax.spines.values():
            side.set_visible(False)
        if labels is not None:
            ax.set_title(labels[k], fontsize=9, loc="left")
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    from lnrnn.files import write_output_file
    try:
        write_output_file(path, lambda f: fig.savefig(f, format=ext[1:], dpi=120))
    finally:
        plt.close(fig)
    return path
