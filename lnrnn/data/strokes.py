"""Online handwriting as stroke-3 sequences, and the stroke tasks built from them.

Stroke-3 (sketch-rnn's and Graves's format): a line of N points is an (N, 3) array whose row i is
``(dx_i, dy_i, pen_i)``: the offset from point i-1 to point i (row 0: (0, 0), the line starts where
its first point is), and ``pen_i = 1`` when the pen lifts after point i (the last point of every
stroke, so always the last row). Offsets are in a y-up frame (dy > 0 moves up the page): IAM-OnDB's
and SVG's y grows downward, so their readers negate it.

Each source (the synthetic generator here, ``iamondb``, ``kanjivg``, ``stroke_files``) yields lines
in its own units; ``make_task`` then
    1. drops steps longer than ``GLITCH_STEP`` of those units (Graves 2013, sec. 4.1: sensor glitches and
       huge pen-up jumps; the pen lift of a dropped point moves to the point before it) and counts them,
    2. divides dx and dy by their standard deviations over the training split (``scale`` = [sx, sy]:
       multiply a model's offsets by it to get the source's units back),
    3. stores each split as one concatenated (sum N, 3) float32 array plus start offsets.

A ``StrokeTask`` hands batches to the trainer as next-point prediction: the input at step t is p_t and
the target p_{t+1}, so a line of N points gives N-1 steps; see ``StrokeTask.batch``. A ``ReadingTask``
(spec key "head": "ctc", ``lnrnn train --head ctc``) reads instead: the input is the whole line, N steps,
and the target its text as CTC labels (``ReadingTask.batch``).

Text. A source whose lines carry what they say (IAM-OnDB with ascii/, KanjiVG's characters, the Hershey
lines) gives a task with ``texts_train`` / ``texts_val`` (one string per line) and an ``alphabet``: the
string ``UNKNOWN + the distinct characters of the training texts, sorted``. A character's code is its
index in the alphabet; code 0, the unknown symbol U+FFFD, stands for every character the training texts
never used (a validation line's, a user's), so a model over len(alphabet) one-hot codes reads any text
(``encode_text``). ``text_record(task)`` is what a run keeps of it. A task without text has None for all
three. Read with a CTC head, character code k is class k + 1 (``CTC_SHIFT``; class 0 is the blank), so
the head has len(alphabet) + 1 outputs and class c reads as ``alphabet[c - 1]`` (``classes_to_text``).
"""
import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from lnrnn.data.splits import parse_split
from lnrnn.errors import DataError

DATA_SEED = 0             # the seed of every stroke task's generator, augmentation and split (as tasks.DATA_SEED)
GLITCH_STEP = 1000.0      # offsets longer than this (source units) are dropped as glitches
MDN_COMPONENTS = 20       # M, Gaussian components of the mixture density head a stroke task asks for
VAL_FRACTION = 0.1        # share of forms (IAM-OnDB), designs (KanjiVG) or sequences held out for validation
SYN_TRAIN, SYN_VAL = 2000, 200   # default lines of strokes-synthetic and strokes-kanjivg (--split A/B)
SYN_POINTS = (40, 300)    # points per synthetic line, drawn uniformly in [lo, hi]
SYN_GLITCH_RATE = 0.02    # share of synthetic lines given one sensor spike (which GLITCH_STEP then removes)
SYN_SPIKE = 3000.0        # length of a synthetic spike, well above GLITCH_STEP both ways
UNKNOWN = "\ufffd"         # code 0 of every alphabet: a character the training texts never used
CTC_SHIFT = 1             # a character's CTC class is its code + 1: class 0 is the blank (kernels.codes.CTC_BLANK)


# ---------------------------------------------------------------- stroke-3 helpers

def to_stroke3(strokes):
    """Absolute pen-down strokes, a list of (n_k, 2) arrays (x, y up), -> (N, 3) float64 stroke-3."""
    lens = [len(s) for s in strokes]
    if not strokes or min(lens) == 0:
        raise ValueError("to_stroke3 needs at least one stroke and no empty stroke")
    pts = np.concatenate([np.asarray(s, np.float64) for s in strokes])   # (N, 2) absolute
    seq = np.zeros((len(pts), 3))                                         # (N, 3)
    seq[1:, :2] = np.diff(pts, axis=0)
    seq[np.cumsum(lens) - 1, 2] = 1.0                                     # lift after each stroke's end
    return seq


def to_strokes(seq, scale=(1.0, 1.0)):
    """(N, 3) stroke-3 -> list of (n_k, 2) absolute strokes (the first point at the origin), offsets
    multiplied by ``scale`` (the task's [sx, sy] to draw a normalized line in source units)."""
    seq = np.asarray(seq, np.float64)
    pts = np.cumsum(seq[:, :2] * np.asarray(scale, np.float64), axis=0)  # (N, 2)
    ends = np.flatnonzero(seq[:, 2] > 0.5) + 1                            # one past each stroke's end
    return [s for s in np.split(pts, ends) if len(s)]


def drop_long_steps(seq, threshold=GLITCH_STEP):
    """Graves's glitch fix: remove the points reached by an offset longer than ``threshold``.

    seq (N, 3) -> (seq' (N', 3), dropped = N - N'). The points after a dropped one keep their own
    offsets, so the line continues from the last kept point; a dropped point's pen lift moves to the
    last kept point before it. Row 0 is always kept.
    """
    seq = np.asarray(seq, np.float64)
    long = np.hypot(seq[:, 0], seq[:, 1]) > threshold                     # (N,)
    long[0] = False
    if not long.any():
        return seq, 0
    kept = np.flatnonzero(~long)                                          # (N',) rows kept
    out = seq[kept].copy()
    lifted = np.flatnonzero(long & (seq[:, 2] > 0.5))                     # dropped rows that lifted the pen
    out[np.searchsorted(kept, lifted, side="right") - 1, 2] = 1.0
    return out, int(long.sum())


def offset_scale(lines):
    """[sx, sy]: standard deviations of dx and dy over the offsets of ``lines`` (rows 1.. of each;
    row 0 is zero by construction). A degenerate axis (all offsets equal) gets 1."""
    d = np.concatenate([ln[1:, :2] for ln in lines])                      # (sum (N-1), 2)
    s = d.std(axis=0) if len(d) else np.ones(2)
    return [float(v) if v > 0 and math.isfinite(v) else 1.0 for v in s]


# ---------------------------------------------------------------- text

def make_alphabet(texts):
    """The alphabet of training texts (a list of str): UNKNOWN, then their distinct characters sorted."""
    return UNKNOWN + "".join(sorted(set("".join(texts)) - {UNKNOWN}))


def encode_text(text, alphabet):
    """str -> (U,) int64 codes: each character's index in ``alphabet``, 0 (UNKNOWN) where it has none."""
    index = {c: i for i, c in enumerate(alphabet)}
    return np.array([index.get(c, 0) for c in text], np.int64)


def text_labels(texts, alphabet):
    """Texts (list of str) -> (B, Lmax) int64 CTC labels: each character's code + CTC_SHIFT (1..len(alphabet)),
    right-padded with -1 (Lmax >= 1), as ``lnrnn.model.heads.CTCHead`` takes its targets."""
    codes = [encode_text(t, alphabet) + CTC_SHIFT for t in texts]
    labels = np.full((len(codes), max([1] + [len(c) for c in codes])), -1, np.int64)   # (B, Lmax)
    for b, c in enumerate(codes):
        labels[b, :len(c)] = c
    return labels


def classes_to_text(classes, alphabet):
    """A CTC label sequence (classes 1..len(alphabet)) -> the str it reads (``text_labels``'s inverse)."""
    return "".join(alphabet[int(c) - CTC_SHIFT] for c in classes)


def ctc_steps_needed(labels):
    """(B, Lmax) labels padded with -1 -> (B,) the fewest steps a CTC alignment of each needs: its length
    plus one blank between every two equal neighbours."""
    labels = np.asarray(labels)
    real = labels >= 0
    repeats = real[:, 1:] & (labels[:, 1:] == labels[:, :-1])
    return real.sum(axis=1) + repeats.sum(axis=1)


def text_record(task):
    """What a run keeps of a task's text (JSON-able), or None for a task without text:
    {"alphabet": the task's alphabet (UNKNOWN first), "unknown": 0, "lines": training lines with text}."""
    alphabet = getattr(task, "alphabet", None)
    if alphabet is None:
        return None
    return {"alphabet": alphabet, "unknown": 0, "lines": len(task.texts_train)}


# ---------------------------------------------------------------- the task

class StrokeSet:
    """One split: lines stored end to end. points (S, 3) float32, starts (n+1,) int64 offsets into it."""

    def __init__(self, lines, names=None, texts=None):
        lens = np.array([len(ln) for ln in lines], np.int64)             # (n,) points N per line
        self.starts = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)  # (n+1,)
        self.points = (np.concatenate(lines).astype(np.float32) if lines
                       else np.zeros((0, 3), np.float32))                # (S, 3)
        self.names = list(names) if names is not None else [str(i) for i in range(len(lines))]
        self.texts = list(texts) if texts is not None else [None] * len(lines)

    def __len__(self):
        return len(self.starts) - 1

    def line(self, i):
        """(N_i, 3) normalized stroke-3 of line i (a view)."""
        return self.points[self.starts[i]:self.starts[i + 1]]

    @property
    def max_steps(self):
        return int(np.diff(self.starts).max()) - 1 if len(self) else 0


class StrokeTask:
    """A built stroke task: variable-length lines for next-point prediction with a mixture density head.

    Attributes as ``tasks.TaskData`` where they apply: spec, description, input_size (3: dx, dy, pen),
    per_step (True), steps (the longest line's N-1), size(which), extra, head, batch(which, idx, dtype).
    ``objective`` 'mdn' and ``num_classes`` 0 are unused: the trainer takes ``head``. Tasks whose every
    training line has a text also have ``alphabet``, ``texts_train`` and ``texts_val`` (module docstring);
    others have None there.
    """

    input_size = 3
    num_classes = 0
    objective = "mdn"
    per_step = True

    def __init__(self, spec, description, train, val, scale, extra=None):
        self.spec, self.description = spec, description
        self.sets = {"train": train, "val": val}
        self.scale = scale                       # [sx, sy], the training split's offset std (source units)
        self.extra = dict(extra or {})
        texts = train.texts
        self.alphabet = make_alphabet(texts) if texts and all(isinstance(t, str) for t in texts) else None

    def as_trained(self, scale, alphabet):
        """This task's lines as a run trained on other data (or another split) reads them -> self: offsets
        divided by the run's ``scale`` [sx, sy] in place of this training split's, texts encoded in the run's
        ``alphabet`` (None: a run without text; a character it lacks is code 0, as the run's own validation
        lines' were). ``lnrnn eval`` of a run with --data-dir or --split."""
        scale = [float(v) for v in scale]
        if scale != self.scale:
            ratio = np.array([self.scale[0] / scale[0], self.scale[1] / scale[1]], np.float32)
            for s in self.sets.values():
                s.points[:, :2] *= ratio                                  # (S, 2) offsets in the run's units
            self.description += f"; offsets in the run's units (divided by {scale[0]:.3g}, {scale[1]:.3g})"
            self.scale = self.extra["offset_scale"] = scale
        if alphabet is not None and self.alphabet is not None and alphabet != self.alphabet:
            self.alphabet = alphabet
            self.description += f"; texts in the run's alphabet of {len(alphabet)} characters"
        return self

    @property
    def head(self):
        """The head config the task asks for (``plan.task_head``): a mixture density head that keeps the offset
        scale, so a writer draws in data units."""
        return {"kind": "mdn", "components": MDN_COMPONENTS, "per_step": True, "scale": list(self.scale)}

    @property
    def texts_train(self):
        """The training lines' texts, one str per line, or None (a task without text)."""
        return None if self.alphabet is None else list(self.sets["train"].texts)

    @property
    def texts_val(self):
        """The validation lines' texts, one str per line, or None (a task without text)."""
        return None if self.alphabet is None else list(self.sets["val"].texts)

    def encode(self, text):
        """str -> (U,) int64 codes in this task's alphabet (unknown characters 0)."""
        if self.alphabet is None:
            raise ValueError(f"task {self.spec.get('task')} has no text, so no alphabet to encode with")
        return encode_text(text, self.alphabet)

    @property
    def steps(self):
        return max(s.max_steps for s in self.sets.values())

    def size(self, which):
        return len(self.sets[which])

    def line(self, which, i):
        """(N, 3) normalized stroke-3 of line i of 'train' or 'val'."""
        return self.sets[which].line(i)

    def text(self, which, i):
        """The transcription of line i (IAM-OnDB with ascii/, KanjiVG's characters), or None."""
        return self.sets[which].texts[i]

    def text_batch(self, which, idx):
        """The texts of lines ``idx`` as the synthesis network reads them -> (codes (B, U) int64, ulen (B,)
        int64): row b's characters in the alphabet (``encode``), right-padded with code 0 to the longest
        text of the batch (U >= 1). ValueError for a task without text."""
        if self.alphabet is None:
            raise ValueError(f"task {self.spec.get('task')} has no text")
        texts = [self.sets[which].texts[i] for i in np.asarray(idx, np.int64)]
        ulen = np.array([len(t) for t in texts], np.int64)                  # (B,)
        codes = np.zeros((len(texts), max(1, int(ulen.max()) if len(texts) else 1)), np.int64)  # (B, U)
        for b, t in enumerate(texts):
            codes[b, :len(t)] = self.encode(t)
        return codes, ulen

    def batch(self, which, idx, dtype=np.float32):
        """-> x (T, B, 3) inputs p_0..p_{N-2}, targets (B, T, 3) p_1..p_{N-1}, lengths (B,) int64 = N_b - 1;
        T = the longest of the batch, rows right-padded with zeros."""
        s = self.sets[which]
        idx = np.asarray(idx, np.int64)                                   # (B,)
        first = s.starts[idx]                                             # (B,)
        lengths = s.starts[idx + 1] - first - 1                           # (B,) steps
        T, B = int(lengths.max()) if len(idx) else 0, len(idx)
        x = np.zeros((T, B, 3), dtype)                                    # (T, B, 3) time-major
        y = np.zeros((B, T, 3), dtype)                                    # (B, T, 3)
        for b in range(B):
            line = s.points[first[b]:first[b] + lengths[b] + 1]           # (N_b, 3)
            x[:lengths[b], b] = line[:-1]
            y[b, :lengths[b]] = line[1:]
        return x, y, lengths


class ReadingTask(StrokeTask):
    """A stroke task read with a CTC head (spec key "head": "ctc"): each line's whole stroke-3 sequence
    (N points, normalized as ``StrokeTask``'s) is the input, its text the target, as labels 1..A over
    the task's alphabet of A characters (``text_labels``; class 0 the blank): ``head`` has A + 1 outputs
    and keeps the offset scale, so a reader normalizes new lines as the training ones were. A line with
    fewer points than its labels need (``ctc_steps_needed``) is scored as CTC's zero_infinity does: loss
    0 and no gradient (``lnrnn.kernels.ctc``); the description counts such lines, and names the validation
    characters no training text uses (extra "unseen_characters")."""

    def __init__(self, spec, description, train, val, scale, extra=None):
        super().__init__(spec, description, train, val, scale, extra)
        if self.alphabet is None or not all(isinstance(t, str) for t in val.texts):
            raise DataError(f"--head ctc reads each line's text as its labels, and the lines of {spec['task']} "
                            "carry none; put IAM-OnDB's ascii/ transcriptions beside lineStrokes/, or use "
                            "strokes-hershey or strokes-kanjivg.")
        A = len(self.alphabet)
        short = {w: int(np.count_nonzero(np.diff(s.starts) < ctc_steps_needed(text_labels(s.texts, self.alphabet))))
                 for w, s in self.sets.items()}
        self.extra["unalignable"] = short
        unseen = "".join(sorted(set("".join(val.texts)) - set(self.alphabet)))
        self.extra["unseen_characters"] = unseen
        self.description += (f"; read with a CTC head: each whole line in, its text out as labels over {A} "
                             "characters and the blank")
        if unseen:
            self.description += (f"; the validation texts hold {len(unseen)} character{'s' * (len(unseen) != 1)} "
                                 f"no training text uses ({unseen[:20]!r}{'...' if len(unseen) > 20 else ''}), "
                                 "which no reader can name")
        if short["train"] or short["val"]:
            self.description += (f"; {short['train']} train / {short['val']} validation lines have fewer points "
                                 "than their labels need and score loss 0 without gradient (CTC's zero_infinity)")

    @property
    def head(self):
        """The CTC head of the class docstring: A + 1 outputs, the offset scale."""
        return {"kind": "ctc", "outputs": len(self.alphabet) + CTC_SHIFT, "per_step": True, "scale": list(self.scale)}

    @property
    def steps(self):
        return max(int(np.diff(s.starts).max()) if len(s) else 0 for s in self.sets.values())

    def batch(self, which, idx, dtype=np.float32):
        """-> x (T, B, 3) the lines' points p_0..p_{N-1}, labels (B, Lmax) int64 (``text_labels``), lengths
        (B,) int64 = N_b; T = the longest line of the batch, rows right-padded with zeros."""
        s = self.sets[which]
        idx = np.asarray(idx, np.int64)                                   # (B,)
        first = s.starts[idx]                                             # (B,)
        lengths = s.starts[idx + 1] - first                               # (B,) steps = points
        T, B = int(lengths.max()) if len(idx) else 0, len(idx)
        x = np.zeros((T, B, 3), dtype)                                    # (T, B, 3) time-major
        for b in range(B):
            x[:lengths[b], b] = s.points[first[b]:first[b] + lengths[b]]
        return x, text_labels([s.texts[i] for i in idx], self.alphabet), lengths


def normalize_line(seq, scale):
    """A stroke-3 line in source units -> (N', 3) float64 as a task trained with offset ``scale`` presents
    it: glitch steps dropped (``drop_long_steps``), dx and dy divided by scale [sx, sy]."""
    fixed, _ = drop_long_steps(seq)
    return fixed / np.array([scale[0], scale[1], 1.0])


@dataclass
class RawSplit:
    """One split's lines before the glitch fix and normalization, in source units."""

    lines: list                    # of (N_i, 3) stroke-3
    names: Optional[list] = None   # a name per line (IAM-OnDB's a01-000u-01), or None
    texts: Optional[list] = None   # a transcription per line, or None


def split_raw(lines, val_mask, names=None, texts=None):
    """-> (train, val) RawSplits of ``lines`` by a (n,) bool validation mask."""
    def pick(items, v):
        return None if items is None else [x for x, m in zip(items, val_mask) if m == v]
    return tuple(RawSplit(pick(lines, v), pick(names, v), pick(texts, v)) for v in (False, True))


def make_task(spec, what, train, val, extra=None):
    """Glitch fix, training-split normalization and packing of two RawSplits into a StrokeTask; ``what``
    begins its one-sentence description."""
    fixed, dropped = {}, {}
    for which, raw in (("train", train), ("val", val)):
        fixed[which], dropped[which] = _fix_lines(raw.lines)
    usable = {w: [ln for ln in fixed[w] if ln is not None] for w in fixed}
    if not usable["train"] or not usable["val"]:
        empty = "training" if not usable["train"] else "validation"
        raise DataError(f"{spec['task']}: the {empty} split has no line of 2 or more points; "
                        "the data set is too small to split.")
    scale = offset_scale(usable["train"])
    div = np.array([scale[0], scale[1], 1.0])
    sets = {}
    for which, raw in (("train", train), ("val", val)):
        keep = [i for i, ln in enumerate(fixed[which]) if ln is not None]
        sets[which] = StrokeSet([fixed[which][i] / div for i in keep], _pick(raw.names, keep), _pick(raw.texts, keep))
    n_drop = dropped["train"] + dropped["val"]
    n_short = sum(len(fixed[w]) - len(usable[w]) for w in fixed)
    # constant_prefix: every line starts with the offset (0, 0), which BN cells need state noise for
    info = dict(extra or {}, dropped_steps=n_drop, short_lines=n_short, offset_scale=scale, constant_prefix=True,
                points=[int(sets[w].starts[-1]) for w in ("train", "val")])
    desc = (f"{what}: {len(sets['train'])} train / {len(sets['val'])} validation lines of "
            f"{_points_range(sets)} points (dx, dy, pen), offsets divided by the training std "
            f"({scale[0]:.3g}, {scale[1]:.3g}); {n_drop} glitch step{'' if n_drop == 1 else 's'} longer than "
            f"{GLITCH_STEP:g} dropped"
            + (f", {n_short} line{'' if n_short == 1 else 's'} of fewer than 2 points skipped" if n_short else ""))
    kind = ReadingTask if spec.get("head") == "ctc" else StrokeTask
    return kind(spec, desc, sets["train"], sets["val"], scale, info)


def _fix_lines(lines):
    """-> (list of fixed (N, 3) lines, None where fewer than 2 points remain), steps dropped."""
    out, dropped = [], 0
    for ln in lines:
        ln, d = drop_long_steps(ln)
        dropped += d
        out.append(ln if len(ln) >= 2 else None)
    return out, dropped


def _pick(items, keep):
    return None if items is None else [items[i] for i in keep]


def _points_range(sets):
    lens = np.concatenate([np.diff(s.starts) for s in sets.values()])
    return f"{lens.min()}-{lens.max()}"


def split_groups(groups, fraction=VAL_FRACTION, seed=DATA_SEED, what="groups"):
    """Validation mask (n,) bool over items labelled by ``groups`` (form ids, character designs): a fixed
    random ``fraction`` of the distinct groups (at least one, never all) goes to validation whole."""
    distinct = sorted(set(groups))
    if len(distinct) < 2:
        raise DataError(f"needs at least two {what} to split into training and validation, found {len(distinct)}.")
    n_val = min(len(distinct) - 1, max(1, round(fraction * len(distinct))))
    order = np.random.default_rng(seed).permutation(len(distinct))
    val = {distinct[i] for i in order[:n_val]}
    return np.array([g in val for g in groups], bool)


def split_counts(spec, default=(SYN_TRAIN, SYN_VAL)):
    """(train, val) line counts of a generated task: --split A/B or the default."""
    return parse_split(spec.get("split")) or default


# ---------------------------------------------------------------- strokes-synthetic

def synthetic_line(rng, n_points):
    """One handwriting-like line in board-like units: words of loops along a slanted, wobbling baseline
    (a prolate cycloid per word), an occasional dot above a word, pen lifts between them.
    -> list of (n_k, 2) absolute strokes with n_points points in all (the last word is cut short)."""
    h = rng.uniform(25, 50)                     # this writer's loop height
    slant = rng.uniform(-0.4, 0.3)              # x shift per unit of height
    per_loop = int(rng.integers(12, 22))        # points per loop (pen speed)
    strokes, total, x0 = [], 0, 0.0
    while total < n_points:
        word = _loop_word(rng, h, slant, per_loop, x0)               # (n, 2)
        strokes.append(word)
        total += len(word)
        if rng.random() < 0.3:
            i = int(rng.integers(len(word)))
            dot = word[i] + [rng.uniform(-5, 5), 2.2 * h] + rng.normal(0, 1.0, (2, 2)).cumsum(0)  # (2, 2)
            strokes.append(dot)
            total += 2
        x0 = word[:, 0].max() + rng.uniform(0.6, 1.4) * h           # pen-up advance to the next word
    return _cut(strokes, n_points)


def _loop_word(rng, h, slant, per_loop, x0):
    """(n, 2) points of one word: 2-6 loops, some tall (like l, h), with jitter."""
    loops = int(rng.integers(2, 7))
    t = np.linspace(0, 2 * np.pi * loops, per_loop * loops + 1)     # (n,)
    tall = np.repeat(np.where(rng.random(loops) < 0.25, 2.0, 1.0), per_loop)
    tall = np.append(tall, tall[-1])                                 # (n,) height factor per point
    adv = rng.uniform(0.5, 0.9) * h / (2 * np.pi)                    # advance per radian
    b = rng.uniform(0.25, 0.4) * h                                   # loop radius > adv: the curve loops
    y = 0.5 * h * tall * (1 - np.cos(t)) + rng.normal(0, 2.0)        # (n,) above the baseline
    x = x0 + adv * t - b * np.sin(t) + slant * y                     # (n,)
    pts = np.column_stack([x, y])
    return pts + rng.normal(0, 0.3, pts.shape)


def _cut(strokes, n_points):
    """Keep the first n_points points of a list of strokes."""
    out, left = [], n_points
    for s in strokes:
        if left <= 0:
            break
        out.append(s[:left])
        left -= len(out[-1])
    return out


def synthetic_lines(rng, count, glitch_rate=SYN_GLITCH_RATE):
    """``count`` raw synthetic lines -> (list of (N, 3) stroke-3, number of spikes planted). A spike moves
    one inner point SYN_SPIKE away, so the two offsets into and out of it are glitches."""
    lines, spikes = [], 0
    for _ in range(count):
        seq = to_stroke3(synthetic_line(rng, int(rng.integers(SYN_POINTS[0], SYN_POINTS[1] + 1))))
        if rng.random() < glitch_rate:
            i = int(rng.integers(1, len(seq) - 1))
            angle = rng.uniform(0, 2 * np.pi)
            jump = SYN_SPIKE * np.array([np.cos(angle), np.sin(angle)])
            seq[i, :2] += jump
            seq[i + 1, :2] -= jump
            spikes += 1
        lines.append(seq)
    return lines, spikes


def build_synthetic(spec):
    """strokes-synthetic: SYN_TRAIN / SYN_VAL lines (or --split A/B), train and val from separate seeded
    streams, so the validation lines do not change with the training count."""
    n_train, n_val = split_counts(spec)
    train, s_train = synthetic_lines(np.random.default_rng([DATA_SEED, 0]), n_train)
    val, s_val = synthetic_lines(np.random.default_rng([DATA_SEED, 1]), n_val)
    return make_task(spec, "synthetic handwriting (loops along a baseline, pen lifts; fixed seed)",
                     RawSplit(train), RawSplit(val), extra={"spikes": s_train + s_val})
