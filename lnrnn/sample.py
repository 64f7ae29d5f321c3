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

Writing a given text (Graves 2013, sec. 5). A synthesis run (``model.conditioned``: an attention window
over each line's text, ``lnrnn.model.window``) writes the lines it is given, one row each:

    codes, prime, chars = text_inputs(model, meta["text"], ["a line"])   # checked against the alphabet
    rows = sample_strokes(model, 700, 1, bias=0.5, seed=0, text=codes, alphabet=chars)   # [Written]
    draw_written(rows, "line.png", "ln-lstm, bias 0.5", attention=True)

Each row stops by Graves's rule: after the first step t at which the window's weight just past the text,
phi(t, U+1), exceeds its weight on every character, phi(t, u) for all u <= U; ``steps`` is only a cap
(``Written.capped`` says a row reached it first). Priming (Graves's sec. 5.3): the model first reads
the prime's points as its inputs (teacher-forced, nothing drawn) while the window reads the prime's text,
then writes on; the window's text is the prime's text, a space, then the line's.

Devices. The sampler runs the model wherever it was built; ``lnrnn sample`` builds it on the CPU
(``api.load_run``'s default), whatever device trained the run: a checkpoint holds host arrays. A model on
'cuda' samples too (``WindowStack.step`` on the CUDA twins, equal to the CPU's; tests/model/test_synthesis_cuda.py).
"""
import os
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from lnrnn.errors import DAMAGED_NUMPY_FILE, CheckpointError, UserError, too_large
from lnrnn.training.plot import picture_format  # the drawings' format rule, the learning curves' too

PYTHON_NAMES = {"text": "text", "prime_strokes": "prime_strokes", "prime_text": "prime_text"}  # what errors call them


@dataclass
class Written:
    """One written line: ``points`` (N,3) stroke-3 in data units (the generated part only, the point of
    the stopping step included), ``phi`` (N,U) the window's weight on each character the window read
    (the prime's text first, where primed) at each of those points, ``capped`` (the line reached the
    step cap before the stop rule fired), ``text`` (the line asked for), ``chars`` (the U characters
    the window read, one per column of phi), ``codes`` (U,) their codes, ``prime`` (P,3) the prime's
    points in data units or None, ``prime_chars`` how many of ``chars`` are the prime's (its text and the
    space after it)."""

    points: np.ndarray = field(repr=False)
    phi: np.ndarray = field(repr=False)
    capped: bool
    text: str
    chars: list = field(repr=False)
    codes: np.ndarray = field(repr=False)
    prime: Optional[np.ndarray] = field(default=None, repr=False)
    prime_chars: int = 0


def _start(model, count, seed, start):
    """What every sampler starts from: its generator, first input x (count,3) and initial states."""
    rng = np.random.default_rng(seed)
    x = np.zeros((count, 3), model.dtype)
    if start is not None:
        x[:] = start
    state = model.noise_state(count, (3, int(seed)))
    return rng, x, state


def sample_strokes(model, steps, count=1, bias=0.0, seed=0, start=None, progress=None, text=None, prime=None,
                   alphabet=None):
    """Draw ``count`` sequences of ``steps`` points -> list of (steps, 3) float64 arrays (dx, dy in the
    data's units, pen 1 where the pen lifts after the point). Same seed, same samples. ``start``:
    the first input (3,), default the origin with the pen down. ``progress``: a ``lnrnn.training.progress.Progress``
    over steps * count points, updated after every step.

    A synthesis model (``model.conditioned``) writes ``text``, a list of ``count`` non-empty (U_b,) arrays
    of codes (``lnrnn.data.strokes.encode_text`` of the run's alphabet), and returns a list of ``Written``
    instead; each row stops by Graves's rule (module docstring), ``steps`` is the cap. ``prime``:
    (points (P,3) normalized stroke-3, as the model reads them, codes (V,) of the prime's text and the
    space after it): the model first reads those points (teacher-forced; they replace ``start``) while its
    window reads those codes before each line's. ``alphabet``: the run's (str: code -> character), for ``Written.text`` and
    ``Written.chars``; None shows each character as its code. A model without a window refuses both."""
    head = model.head
    if not hasattr(head, "sample"):
        raise UserError(f"this model's head ({head.kind}) does not generate sequences; sampling needs a "
                        "mixture density model (a strokes task).")
    if model.conditioned or text is not None or prime is not None:
        return _write(model, steps, count, bias, seed, start, progress, text, prime, alphabet)
    _fits(count, steps, 0)
    rng, x, state = _start(model, count, seed, start)
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


def _fits(count, steps, U):
    """Refuse, before the first step, samples whose points (count,steps,3) and window weights (count,steps,U)
    cannot fit in memory (a --no-cap draw of billions of points)."""
    from lnrnn.training.memory import refuse_beyond
    refuse_beyond(8 * count * steps * (3 + U), f"{count:,} sample{'s' * (count != 1)} of up to {steps:,} points"
                  + (" and the window's weights on their characters" if U else ""), "fewer or shorter samples")


def past_the_end(end, phi, ulen):
    """Graves's stop rule, per row: phi(t, U+1) > phi(t, u) for every character u <= U of the row.
    end (B,) = phi(t, ulen[b] + 1), phi (B,U) = phi(t, u) (zero past ulen[b]), ulen (B,) -> (B,) bool."""
    on = np.arange(phi.shape[1])[None, :] < ulen[:, None]                      # (B,U) the row's characters
    return np.all(~on | (end[:, None] > phi), axis=1)


def _codes(c, C, what):
    c = np.asarray(c)
    if c.ndim != 1 or len(c) == 0 or not np.issubdtype(c.dtype, np.integer) or c.min() < 0 or c.max() >= C:
        raise UserError(f"{what} must be a non-empty 1-D array of codes in [0, {C}) (the model's alphabet); "
                        "encode a str with lnrnn.data.strokes.encode_text.")
    return c.astype(np.int64)


def _write(model, steps, count, bias, seed, start, progress, text, prime, alphabet):
    """``sample_strokes`` for a synthesis model: -> list of ``Written``, one per line of ``text``."""
    if not model.conditioned:
        raise UserError("this model was trained without text (it has no attention window): it draws freely and "
                        "can neither write a given text nor be primed with one; sample it without them.")
    if text is None:
        raise UserError("this model writes a given text (it reads each line through an attention window): "
                        "pass text=, one array of codes per line.")
    head, C, dt = model.head, model.stack.C, model.dtype
    lines = [_codes(c, C, f"line {b + 1} of text") for b, c in enumerate(text)]
    if len(lines) != count:
        raise UserError(f"text holds {len(lines)} line{'s' * (len(lines) != 1)} but count is {count}: "
                        "each line is one sample.")
    pre_pts, pre_codes = None, np.zeros(0, np.int64)
    if prime is not None:
        pre_pts = check_stroke3(prime[0], "the prime's points")                # (P,3) normalized
        pre_codes = _codes(prime[1], C, "the prime's codes")                   # (V,)
    full = [np.concatenate([pre_codes, c]) for c in lines]                     # what each row's window reads
    ulen = np.array([len(c) for c in full], np.int64)                          # (B,)
    U = int(ulen.max())
    codes = np.zeros((count, U), np.int64)                                     # (B,U) right-padded with 0
    for b, c in enumerate(full):
        codes[b, :len(c)] = c
    txt = (codes, ulen)
    _fits(count, steps, U)
    rng, x, state = _start(model, count, seed, start)
    t0 = 0
    if pre_pts is not None:
        # Graves's priming: the prime's points are the inputs (teacher-forced: nothing is drawn), as the
        # training lines' points are; the last one's output gives the first drawn point
        for t in range(len(pre_pts) - 1):
            x[:] = pre_pts[t]
            _, state = model.step(x, state, t=t, text=txt)
        x[:] = pre_pts[-1]
        t0 = len(pre_pts) - 1
    out = np.zeros((count, steps, 3))                                          # (B,steps,3) normalized
    phis = np.zeros((count, steps, U))                                         # (B,steps,U)
    n = np.full(count, steps, np.int64)                                        # (B,) points kept per row
    running = np.ones(count, bool)                                             # (B,) rows the rule has not stopped
    for i in range(steps):
        o, state = model.step(x, state, t=t0 + i, text=txt)
        p = head.sample(o, rng, bias)                                          # (B,3) normalized units
        out[:, i] = p
        phis[:, i] = model.stack.step_phi
        x = p.astype(dt)
        ended = running & past_the_end(model.stack.step_end, model.stack.step_phi, ulen)
        n[ended] = i + 1                                                       # the stopping step's point is kept
        running &= ~ended
        if progress is not None:
            progress.update(count if running.any() else count * (steps - i))   # an early stop fills the bar
        if not running.any():
            break
    sx, sy = getattr(head, "scale", (1.0, 1.0))
    units = np.array([sx, sy, 1.0])
    show = (lambda cs: [alphabet[k] for k in cs]) if alphabet is not None else (lambda cs: [str(k) for k in cs])
    prime_units = None if pre_pts is None else pre_pts * units
    return [Written(points=out[b, :n[b]] * units, phi=phis[b, :n[b], :ulen[b]], capped=bool(running[b]),
                    text=("" if alphabet is not None else " ").join(show(lines[b])), chars=show(full[b]),
                    codes=full[b], prime=prime_units, prime_chars=len(pre_codes))
            for b in range(count)]


# ---------------------------------------------------------------- what a text-writing sample is given

def check_stroke3(points, what):
    """points -> (N,3) float64 stroke-3 (N >= 1, finite, pen 0 or 1), or a UserError naming ``what``."""
    a = np.asarray(points)
    if a.dtype == object or not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)):
        raise UserError(f"{what} must be numbers (an (N,3) stroke-3 array: dx, dy, pen), not {a.dtype} values.")
    if a.ndim != 2 or a.shape[1] != 3 or a.shape[0] < 1:
        raise UserError(f"{what} must be an (N,3) stroke-3 array (dx, dy, pen) of at least one point, not shape "
                        f"{a.shape}.")
    a = a.astype(np.float64)
    if not np.isfinite(a).all():
        raise UserError(f"{what} hold NaN or infinite values; a stroke-3 array is finite.")
    if not np.isin(a[:, 2], (0.0, 1.0)).all():
        raise UserError(f"{what} have pen values other than 0 and 1 (column 3 of stroke-3: 1 where the pen "
                        "lifts after the point).")
    return a


def read_stroke3(path, option="prime_strokes"):
    """A stroke-3 file -> (N,3) float64 in data units: a .npz with a ``points`` (N,3) array (what
    ``lnrnn sample --npz`` writes: with ``lengths``, its first line only) or a .npy (N,3) array. Nothing
    is unpickled; any other content is a UserError naming ``option``."""
    text = str(path)
    ext = os.path.splitext(text)[1].lower()
    if ext not in (".npz", ".npy"):
        raise UserError(f"{option} {text} must be a .npz (with a points array, as --npz writes) or a .npy "
                        "stroke-3 file.")
    if not os.path.isfile(text):
        raise UserError(f"{option} {text}: no such file.")
    what = f"the points of {option} {text}"
    with open(text, "rb") as f:
        magic = f.read(6)
    if magic[:4] != b"PK\x03\x04" and magic != b"\x93NUMPY":   # neither a zip (.npz) nor a .npy
        raise UserError(f"{option} {text} cannot be read as stroke-3 (it is not a NumPy file).")
    try:
        f = np.load(text, allow_pickle=False)          # .npy: the array; .npz: an NpzFile of them
        if isinstance(f, np.ndarray):
            a, lengths = f, None
        else:
            with f:
                a, lengths = f["points"], (f["lengths"] if "lengths" in f.files else None)
    except KeyError:
        raise UserError(f"{option} {text} holds no 'points' array (an (N,3) stroke-3 array, as --npz "
                        "writes).") from None
    except (ValueError, *DAMAGED_NUMPY_FILE) as e:
        why = "it holds pickled objects, which are not read" if "pickle" in str(e) else "it is not a NumPy file"
        raise UserError(f"{option} {text} cannot be read as stroke-3 ({why}).") from None
    except MemoryError as e:
        raise UserError(too_large(f"{option} {text}", e)) from None
    if lengths is not None:
        lengths = np.asarray(lengths)
        if lengths.ndim != 1 or len(lengths) < 1 or not np.issubdtype(lengths.dtype, np.integer) or \
                not 1 <= lengths[0] <= len(a) or (lengths < 0).any() or int(lengths.sum()) != len(a):
            raise UserError(f"{option} {text} has a 'lengths' array that does not split its points into lines.")
        a = a[:int(lengths[0])]
    return check_stroke3(a, what)


def check_prime_pair(prime_strokes, prime_text, names=PYTHON_NAMES):
    """A UserError unless the prime's points and its text come together (or neither does)."""
    if (prime_strokes is None) != (prime_text is None):
        ps, pt = names["prime_strokes"], names["prime_text"]
        given, needed = (ps, pt) if prime_text is None else (pt, ps)
        raise UserError(f"{given} needs {needed}: a prime is handwriting and the text it writes; give both or "
                        "neither.")


def writer_alphabet(model, record, source="this run"):
    """The alphabet of a writer ``model`` (one with a window) that its checkpoint records (``record``: its
    ``meta['text']``): a CheckpointError naming ``source`` when it records none, or one that is not the
    window's C distinct characters."""
    alphabet = record.get("alphabet") if isinstance(record, dict) else None
    if not isinstance(alphabet, str) or not alphabet:
        raise CheckpointError(f"{source} reads a text, but its checkpoint does not record the alphabet of its "
                              "training texts; it is corrupt.")
    C = getattr(model, "config", {}).get("alphabet_size")   # the window's input width (stand-ins may lack it)
    if C is not None and (len(alphabet) != C or len(set(alphabet)) != len(alphabet)):
        raise CheckpointError(f"{source} reads {C} character codes, but its checkpoint records an alphabet of "
                              f"{len(alphabet)} characters ({len(set(alphabet))} distinct); it is corrupt.")
    return alphabet


def text_inputs(model, record, lines, prime_strokes=None, prime_text=None, names=PYTHON_NAMES, source="this run"):
    """Check and encode what a sample of ``model`` is given -> (codes, prime, alphabet): a list of (U_b,)
    code arrays, one per line, (points (P,3) normalized, codes) or None, and the run's alphabet; all None
    for a model without a window (which must be given no text and no prime). ``record``: the run's
    ``meta['text']`` (``lnrnn.data.strokes.text_record``); ``lines``: str per line, or None;
    ``prime_strokes`` (P,3) stroke-3 in data units with ``prime_text``, the text it writes. Every
    character must be in the alphabet: others are refused by name (code 0 would stand for all of them,
    which the model never learned to write). ``names``: what the messages call the three inputs;
    ``source``: what they call the run."""
    from lnrnn.data.strokes import encode_text

    t, ps = names["text"], names["prime_strokes"]
    check_prime_pair(prime_strokes, prime_text, names)
    if not model.conditioned:
        if lines or prime_strokes is not None:
            raise UserError(f"{source} was trained without text (it has no attention window): it draws freely and "
                            f"can neither write a given text nor be primed; leave out {t if lines else ps}.")
        return None, None, None
    if not lines:
        raise UserError(f"{source} writes a given text (it reads each line through an attention window): give "
                        f"the lines to write with {t}.")
    alphabet = writer_alphabet(model, record, source)
    given = [(f"{t} line {k + 1}", s) for k, s in enumerate(lines)]
    if prime_text is not None:
        given.append((names["prime_text"], prime_text))
    for what, s in given:
        if not isinstance(s, str):
            raise UserError(f"{what} must be a str, not {type(s).__name__}.")
        if not s:
            raise UserError(f"{what} is empty; give at least one character to write.")
        unknown = list(dict.fromkeys(c for c in s if c not in alphabet))
        if unknown:
            raise UserError(f"{what} ({shortened(s, 60)}) has characters that the run's training texts never used: "
                            f"{', '.join(repr(c) for c in unknown)}; the run can write only these: "
                            f"{alphabet[1:]!r}.")
    codes = [encode_text(s, alphabet) for s in lines]
    prime = None
    if prime_strokes is not None:
        sx, sy = getattr(model.head, "scale", (1.0, 1.0))
        pts = check_stroke3(prime_strokes, ps) / np.array([sx, sy, 1.0])     # data units -> the model's
        sep = " " if " " in alphabet else ""                                 # between the prime's text and a line's
        prime = (pts, encode_text(prime_text + sep, alphabet))
    return codes, prime, alphabet


# ---------------------------------------------------------------- drawing

def strokes_of(points, origin=(0.0, 0.0)):
    """(N,3) stroke-3 -> list of (n,2) absolute pen paths from ``origin``, split after every pen lift."""
    xy = np.asarray(origin, np.float64) + np.cumsum(points[:, :2], axis=0)
    ends = np.nonzero(points[:, 2] > 0.5)[0]
    paths, start = [], 0
    for e in list(ends) + [len(points) - 1]:
        if e >= start:
            paths.append(xy[start:e + 1])
        start = e + 1
    return [p for p in paths if len(p)]


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _ink(ax, points, color="#1a1a1a", origin=(0.0, 0.0)):
    """Draw (N,3) stroke-3 points as pen strokes from ``origin`` -> where the pen ends (2,)."""
    pts = np.asarray(points, np.float64)
    for p in strokes_of(pts, origin):
        ax.plot(p[:, 0], p[:, 1], "-", color=color, linewidth=1.6, solid_capstyle="round", solid_joinstyle="round")
    return np.asarray(origin, np.float64) + pts[:, :2].sum(axis=0)


def _paper(ax, y_down=False):
    """A handwriting axis: equal aspect (the box fits the limits ``_same_scale`` set, left-aligned), no
    ticks, no frame."""
    ax.set_aspect("equal", adjustable="box", anchor="W")
    if y_down:
        ax.invert_yaxis()
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(False)


def _save(fig, plt, path, fmt):
    from lnrnn.files import write_output_file
    try:
        write_output_file(path, lambda f: fig.savefig(f, format=fmt, dpi=120))
    finally:
        plt.close(fig)
    return path


def draw_strokes(samples, path, title=None, y_down=False, labels=None):
    """Draw each (N,3) stroke-3 sample in its own row into ``path`` (.png, .svg or .pdf), every row at one
    scale."""
    fmt = picture_format(path)
    plt = _pyplot()
    return _save(strokes_figure(plt, samples, title, y_down, labels), plt, path, fmt)


def strokes_figure(plt, samples, title=None, y_down=False, labels=None):
    """The figure ``draw_strokes`` saves."""
    n = len(samples)
    fig, axes = plt.subplots(n, 1, figsize=(10, 1.6 * n + (0.5 if title else 0)), squeeze=False)
    for k, (ax, pts) in enumerate(zip(axes[:, 0], samples)):
        _ink(ax, pts)
        if labels is not None:
            ax.set_title(labels[k], fontsize=9, loc="left")
    _same_scale(axes[:, 0], [_absolute(pts) for pts in samples])
    for ax in axes[:, 0]:
        _paper(ax, y_down)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


CAPTION_CHARS = 100  # a caption longer than this would run past the picture's width (10 in, 9 pt)


def shortened(text, limit):
    """repr(text), its middle cut to keep it within ``limit`` characters: 'abc…xyz'."""
    r = repr(text)
    if len(r) <= limit:
        return r
    keep = max(limit - 3, 2)
    return r[:keep - keep // 3] + "\u2026" + r[len(r) - keep // 3:]


def written_label(row):
    """A written line's caption: its text, and whether it reached the step cap before the stop rule. A long
    text is shortened (its length said) so that the notes after it stay inside the picture."""
    primed = " after the prime (grey)" if row.prime is not None else ""
    notes = [f"stopped at the {len(row.points)}-point cap"] if row.capped else []
    text = repr(row.text)
    if len(text) + len(primed) + sum(len(n) + 2 for n in notes) + 1 > CAPTION_CHARS:
        notes.insert(0, f"{len(row.text):,} characters")
        tail = primed + f" ({'; '.join(notes)})"
        return shortened(row.text, CAPTION_CHARS - len(tail)) + tail
    return text + primed + (f" ({'; '.join(notes)})" if notes else "")


def _same_scale(axes, inks):
    """One scale for every row: each axis gets the widest row's width and the tallest row's height (its own
    ink left-aligned and centred in them), so short and long lines are drawn at the same size. ``inks``:
    per axis, the (n,2) absolute points it draws."""
    boxes = [(p[:, 0].min(), p[:, 0].max(), p[:, 1].min(), p[:, 1].max()) if len(p) else (0, 0, 0, 0)
             for p in inks]
    W = max(max(b[1] - b[0] for b in boxes), 1e-9)
    H = max(max(b[3] - b[2] for b in boxes), 1e-9)
    pad = 0.03 * max(W, H)
    for ax, (x0, _, y0, y1) in zip(axes, boxes):
        ax.set_xlim(x0 - pad, x0 + W + pad)
        mid = (y0 + y1) / 2
        ax.set_ylim(mid - H / 2 - pad, mid + H / 2 + pad)


def _absolute(points, origin=(0.0, 0.0)):
    """(N,3) stroke-3 -> (N,2) absolute pen positions from ``origin``."""
    pts = np.asarray(points, np.float64).reshape(-1, 3)
    return np.asarray(origin, np.float64) + np.cumsum(pts[:, :2], axis=0)


def draw_written(results, path, title=None, attention=False, y_down=False):
    """Draw each ``Written`` line in its own row into ``path`` (.png, .svg or .pdf), every row at one scale,
    titled with its text (shortened when long, and the cap, where it stopped there); a prime in grey
    before it. ``attention``: beneath each line
    the window's weights phi(t, u) as an image, points t across, the characters u down (the prime's
    first, in grey), with a colour bar."""
    fmt = picture_format(path)
    plt = _pyplot()
    return _save(written_figure(plt, results, title, attention, y_down), plt, path, fmt)


def written_figure(plt, results, title=None, attention=False, y_down=False):
    """The figure ``draw_written`` saves."""
    heights = []
    for r in results:
        heights.append(1.6)
        if attention:
            heights.append(max(1.2, 0.13 * r.phi.shape[1] + 0.6))
    fig = plt.figure(figsize=(10, sum(heights) + (0.5 if title else 0)))
    grid = fig.add_gridspec(len(heights), 1, height_ratios=heights)
    k, ink_axes, inks = 0, [], []
    for r in results:
        ax = fig.add_subplot(grid[k])
        k += 1
        origin, drawn = (0.0, 0.0), []
        if r.prime is not None:
            drawn.append(_absolute(r.prime))
            origin = _ink(ax, r.prime, color="#a0a0a0")
        drawn.append(_absolute(r.points, origin))
        _ink(ax, r.points, origin=origin)
        ax.set_title(written_label(r), fontsize=9, loc="left")
        ink_axes.append(ax)
        inks.append(np.concatenate(drawn))
        if attention:
            _attention(fig, fig.add_subplot(grid[k]), r)
            k += 1
    _same_scale(ink_axes, inks)                              # short and long lines at one size
    for ax in ink_axes:
        _paper(ax, y_down)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def _attention(fig, ax, row):
    """phi (N,U) of one line as an image: x the points 1..N, y the characters (tick labels), a colour bar."""
    N, U = row.phi.shape
    im = ax.imshow(row.phi.T, aspect="auto", origin="upper", interpolation="nearest", cmap="viridis",
                   extent=(0.5, N + 0.5, U - 0.5, -0.5), vmin=0.0)
    every = max(1, U // 60)                                # at most about 60 labels on a long line
    ax.set_yticks(np.arange(0, U, every))
    ax.set_yticklabels(["\u2423" if c == " " else c for c in row.chars[::every]], fontsize=7 if U <= 30 else 5)
    for label, u in zip(ax.get_yticklabels(), range(0, U, every)):
        if u < row.prime_chars:
            label.set_color("#909090")                     # the prime's text, as its strokes
    ax.set_xlabel("point", fontsize=8)
    ax.set_ylabel("character", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    bar = fig.colorbar(im, ax=ax, fraction=0.025, pad=0.01)
    bar.set_label("window weight \u03c6", fontsize=7)
    bar.ax.tick_params(labelsize=6)
