"""Judging written lines: a reader (``lnrnn train --head ctc``) reads what a synthesis run wrote, and the
character error rate against the text asked for says how legible the writing is; three measures of the
attention window say whether the window walked the text.

    rows = sample_run(writer, text=["hello world", "layer norm"], bias=0.5)   # [lnrnn.sample.Written]
    judged = judge(writer, reader, rows)                                     # [Judged], one per line
    summary(judged)      # {'mean_cer', 'cer', 'mean_travel', 'stop_at_last', 'mean_peak_phi', 'lines'}
    report_lines(judged)                                                     # the table lnrnn sample prints

Per line (``Judged``):
* ``read``: the reader's best-path transcription of the line's written points (the prime's are not read);
  ``cer``: edit distance(asked, read) / characters asked (``lnrnn.textmetrics.cer``).
* ``travel``: where the window stands at the line's last point, kappa_T, over the text's U characters.
  The window (``lnrnn.model.window``) centres its K Gaussians at kappa (B,K); character u sits at
  position u = 1..U, so a window that walked the whole text ends near (U + 1/2) / U, about 1, and one
  that stalled after a few letters far below 1. kappa_T is the alpha-weighted mean of the K centres,
  sum_k alpha_k kappa_k / sum_k alpha_k, at the last step. ``Written`` keeps phi, not kappa: the
  judge replays the line (its inputs are the points the sampler fed back, the prime's first) through
  the writer's stack as one sequence; the replayed phi equals the sampled one (tests/commands/test_judge.py).
* ``stop_at_last``: the line ended by Graves's stop rule (not at the step cap) at a step where the
  window's largest weight phi(t, u) was on the text's last character: the rule fired because the
  window reached the end, not because a diffuse window put more weight past the text than on any letter.
* ``peak_phi``: the largest phi(t, u) over the line's points and the characters of its text; a window
  that reads one character at a time has peaks near 1 or above (sum_k alpha_k), a diffuse one far below.

A judge must read what the writer writes: ``check_judge`` refuses a reader that is not one, one trained on
another task (another data's units) and one whose alphabet lacks a character of the texts, each in one line.
"""
from dataclasses import asdict, dataclass

import numpy as np

from lnrnn.errors import UserError


@dataclass
class Judged:
    """One written line, judged: ``text`` asked, ``read`` by the reader, ``cer`` of read against text,
    ``travel`` kappa_T / U, ``stop_at_last``, ``peak_phi`` (module docstring), ``points`` written and
    ``capped`` (the line reached the step cap before the stop rule)."""

    text: str
    read: str
    cer: float
    travel: float
    stop_at_last: bool
    peak_phi: float
    points: int
    capped: bool


def check_judge(writer, reader, texts, writer_name="the writer", reader_name="the judge"):
    """A UserError in one line unless ``reader`` (a ``lnrnn.api.Run``) can judge what ``writer`` writes of
    ``texts``: a reader (CTC head on a stroke task with text), of the writer's task (the same data units),
    whose alphabet holds every character of the texts. -> the reader's alphabet."""
    from lnrnn.api import require_reader

    if not getattr(writer.model, "conditioned", False):
        raise UserError(f"{writer_name} ({writer.path}) writes no given text (it has no attention window): "
                        "there is nothing for a reader to judge.")
    if getattr(reader.model, "conditioned", False):
        raise UserError(f"{reader_name} ({reader.path}) is a writer (a synthesis run), not a reader; judge with "
                        "a run trained with lnrnn train --head ctc on the writer's task.")
    alphabet, _ = require_reader(reader)
    wt, rt = writer.task_spec.get("task"), reader.task_spec.get("task")
    if wt != rt:
        raise UserError(f"{reader_name} ({reader.path}) reads {rt} but {writer_name} writes {wt}: a reader reads "
                        "only its own task's data (its units and letterforms); train one on " f"{wt}.")
    missing = list(dict.fromkeys(c for t in texts for c in t if c not in alphabet[1:]))
    if missing:
        raise UserError(f"{reader_name} ({reader.path}) never learned to read {', '.join(map(repr, missing))} (its "
                        "alphabet is another); judge with a reader whose training texts hold every character "
                        "asked for.")
    return alphabet


def replay_kappa(model, rows, seed=0):
    """kappa_T of each written line (``lnrnn.sample.Written``): (B,) float64, the alpha-weighted mean of the
    window's K centres after the line's last point, and phi (list of (N_b, U_b)) of the replay. The
    stack reads each line's inputs (the prime's points, or the origin, then every written point but the
    last: what the sampler fed back) with its text, as one padded batch, from the sampler's initial states."""
    stack, dt = model.stack, model.dtype
    sx, sy = getattr(model.head, "scale", (1.0, 1.0))
    units = np.array([sx, sy, 1.0])
    xs = []
    for r in rows:
        first = np.zeros((1, 3)) if r.prime is None else np.asarray(r.prime) / units       # (P,3) normalized
        xs.append(np.concatenate([first, np.asarray(r.points)[:-1] / units]))             # (P+N-1,3)
    B = len(rows)
    lengths = np.array([len(x) for x in xs], np.int64)                                     # (B,)
    x = np.zeros((int(lengths.max()), B, 3), dt)                                           # (T,B,3)
    for b, xb in enumerate(xs):
        x[:len(xb), b] = xb
    ulen = np.array([len(r.codes) for r in rows], np.int64)                                # (B,)
    codes = np.zeros((B, int(ulen.max())), np.int64)                                       # (B,U)
    for b, r in enumerate(rows):
        codes[b, :ulen[b]] = r.codes
    y, states = stack.forward(x, model.noise_state(B, (3, int(seed))), training=False, lengths=lengths,
                              keep=False, text=(codes, ulen))
    L1, H, K = stack.layers[0], stack.H, stack.K
    h1 = np.asarray(y[lengths - 1, np.arange(B), :H], np.float64)                           # (B,H) last step
    alpha = np.exp(h1 @ L1.params["Wp"].astype(np.float64) + L1.params["bp"])[:, :K]       # (B,K)
    kappa = np.asarray(states[0][2], np.float64)                                           # (B,K)
    phi = [np.asarray(stack.phi[lengths[b] - len(r.points):lengths[b], b, :ulen[b]]) for b, r in enumerate(rows)]
    return (alpha * kappa).sum(axis=1) / alpha.sum(axis=1), phi


def stop_at_last(row):
    """The line ended by the stop rule at a step whose largest phi(t, u) is on the text's last character."""
    return (not row.capped) and len(row.points) > 0 and int(np.argmax(row.phi[-1])) == row.phi.shape[1] - 1


def peak_phi(row):
    """The largest phi(t, u) over the line's points and its own text's characters (not the prime's)."""
    phi = np.asarray(row.phi)[:, row.prime_chars:]
    return float(phi.max()) if phi.size else 0.0


def judge(writer, reader, rows, beam=1, seed=0):
    """Read each written line (``rows``: ``lnrnn.sample.Written`` of ``writer``) with ``reader`` (runs or run
    folders) -> list of ``Judged``. ``beam``: the reader's decoding (``lnrnn.api.read``); ``seed``: the
    sampler's, for its initial states."""
    from lnrnn.api import _as_run, read
    from lnrnn.textmetrics import cer

    writer, reader = _as_run(writer), _as_run(reader)
    rows = list(rows)
    if not rows:
        raise UserError("no written lines to judge.")
    check_judge(writer, reader, [r.text for r in rows])
    reads = read(reader, [np.asarray(r.points) for r in rows], beam=beam)
    kappa, _ = replay_kappa(writer.model, rows, seed)
    prime_chars = np.array([r.prime_chars for r in rows])
    travel = (kappa - prime_chars) / np.array([len(r.codes) - r.prime_chars for r in rows])
    return [Judged(text=r.text, read=got, cer=float(cer(r.text, got)), travel=float(tr),
                   stop_at_last=bool(stop_at_last(r)), peak_phi=peak_phi(r), points=len(r.points),
                   capped=bool(r.capped))
            for r, got, tr in zip(rows, reads, travel)]


def summary(judged):
    """The lines' figures together: ``mean_cer`` (mean of the lines' CER), ``cer`` (all edits over all
    characters asked, as papers report a test set), ``mean_travel``, ``stop_at_last`` (the share of lines),
    ``mean_peak_phi``, ``lines``."""
    from lnrnn.textmetrics import error_rates

    n = len(judged)
    return {"mean_cer": float(np.mean([j.cer for j in judged])),
            "cer": float(error_rates([j.text for j in judged], [j.read for j in judged])["cer"]),
            "mean_travel": float(np.mean([j.travel for j in judged])),
            "stop_at_last": sum(j.stop_at_last for j in judged) / n,
            "mean_peak_phi": float(np.mean([j.peak_phi for j in judged])), "lines": n}


def report_lines(judged):
    """The judged lines as a table, one row per line, then the summary: a list of str."""
    out = [f"{'line':>4}  {'CER':>5}  {'travel':>6}  {'stop at last':>12}  {'peak phi':>8}  asked -> read"]
    for k, j in enumerate(judged, 1):
        cap = " (capped)" if j.capped else ""
        out.append(f"{k:>4}  {j.cer:>5.3f}  {j.travel:>6.2f}  {'yes' if j.stop_at_last else 'no':>12}  "
                   f"{j.peak_phi:>8.2f}  {j.text!r} -> {j.read!r}{cap}")
    s = summary(judged)
    out.append(f"mean CER {s['mean_cer']:.3f} over {s['lines']} line{'s' * (s['lines'] != 1)} (all edits / all "
               f"characters {s['cer']:.3f}); mean travel {s['mean_travel']:.2f}; stop rule at the last character "
               f"{round(s['stop_at_last'] * s['lines'])}/{s['lines']}; mean peak phi {s['mean_peak_phi']:.2f}")
    return out


def as_record(judged, **about):
    """A JSON-ready dict: ``about`` (writer, reader, bias, seed, ...), each line's fields, the summary."""
    return dict(about, lines=[asdict(j) for j in judged], summary=summary(judged))
