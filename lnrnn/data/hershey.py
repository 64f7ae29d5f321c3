"""strokes-hershey: lines of words written with the Hershey single-stroke fonts, a stand-in for handwriting.

Credits. The Hershey Fonts were originally created by Dr. A. V. Hershey while working at the U.S.
National Bureau of Standards (NBS). The format of the font data used here was originally created by
James Hurt (Cognition, Inc.). lnrnn reads them through the PyPI package ``hershey-fonts`` (MIT-licensed
code that carries the font data), the optional extra ``hershey``: ``pip install 'lnrnn[hershey]'``.
See docs/hershey.md.

What a line is. A text of WORDS_PER_LINE words of ``lnrnn.data.words`` (at most MAX_CHARS characters;
some capitalized or in capitals, numbers, quotes, parentheses, marks and hyphens: ``line_text``, so that
every letter, digit and common punctuation mark is in the training texts) is laid out word by word in one face of
FACES, pen strokes in the font's own order (a plotter's, not a hand's), y up with the baseline at 0, in
font units (capital height 21). A line is one writer (``random_style``): a scale, a slant (x += slant * y),
a baseline that tilts and waves (y += tilt * x + wave * sin(2 pi x / period + phase)), wider gaps between
words, and a pen speed. Then, in this order (``draw_line``):
    1. joined letters' zero-length pen lifts are merged: a stroke that starts exactly where the one
       before it ended continues it (script letters join so; so do a few strokes inside a glyph),
    2. slant, baseline drift and scale are applied to the font's points,
    3. every stroke is resampled by arc length, points ``style.spacing`` apart at most (SPACING font
       units times speed times scale: about 25 points per letter, Graves's rate on IAM-OnDB),
    4. every point moves by Gaussian jitter of std ``style.jitter``.
Each line's text is exactly what it writes, so the task carries text and an alphabet
(``strokes.StrokeTask``). Train and validation lines come from two streams seeded with DATA_SEED: the
validation lines do not change with the training count (--split A/B, default 2000/200).

A stand-in: every line of a face shares one set of letter shapes and the plotter's stroke order (one
"writer" per face, however it is slanted and scaled); the package's other single-stroke faces repeat
these letterforms (rowmans is futural; cursive is scripts with roman digits) and the rest draw each line
two or three times over, so FACES holds the script and roman letterforms there are.
"""
import functools
from typing import NamedTuple

import numpy as np

from lnrnn.data import strokes as S
from lnrnn.data.kanjivg import resample
from lnrnn.data.words import WORDS
from lnrnn.errors import DataError

INSTALL_HINT = "pip install 'lnrnn[hershey]' (the hershey-fonts package)"
FACES = ("scripts", "cursive", "futural")   # script simplex; script with roman digits; roman simplex (sans)
WORDS_PER_LINE = (2, 6)       # words per line, drawn uniformly, fewer when MAX_CHARS is reached
MAX_CHARS = 32                # characters per line at most, the closing mark included
CAPITAL = 0.3                 # share of lines whose first word is capitalized
NAME = 0.05                   # share of the other words that are capitalized
CAPS = 0.06                   # share of words written in capitals (so every capital letter appears: BOX, ZONE)
NUMBER = 0.05                 # share of words that are a number 0..2026 instead
MARKS = ".,?!"                # a line may end with one of these
MARK = 0.25                   # share of lines that do
INNER_MARKS = ",;:"           # a word inside a line may be followed by one of these
INNER = 0.06                  # share of words that are
WRAPS = ('""', "''", "()")    # a word may be quoted or put in parentheses
WRAP = 0.04                   # share of words that are
HYPHEN = 0.03                 # share of words joined to the one before by a hyphen instead of a space
SPACING = 2.0                 # font units between resampled points (times speed and scale)
SPEED = (0.85, 1.15)          # per line: multiplies SPACING
SCALE = (0.8, 1.25)           # per line: font units -> the task's source units
SLANT = (-0.2, 0.3)           # per line: x shift per unit of height
TILT = 0.03                   # per line: baseline slope, uniform +-
WAVE = (0.0, 1.5)             # per line: amplitude of the baseline's wave, font units
PERIOD = (150.0, 400.0)       # per line: its wavelength, font units
WORD_GAP = (0.0, 6.0)         # per line: the most pen-up space added after each word, font units
JITTER = 0.15                 # per point: Gaussian std, font units (times scale)
MERGE_EPS = 1e-9              # a pen lift shorter than this (font units) is a join, not a lift


class Style(NamedTuple):
    """One line's writer. Lengths in font units unless said otherwise."""
    scale: float       # font units -> source units
    slant: float       # x += slant * y
    tilt: float        # baseline: y += tilt * x + wave * sin(2 pi x / period + phase)
    wave: float
    period: float
    phase: float
    word_gap: float    # extra space after a word: uniform in [0, word_gap]
    spacing: float     # between resampled points, source units
    jitter: float      # per point, Gaussian std, source units


def random_style(rng):
    scale = rng.uniform(*SCALE)
    return Style(scale=scale, slant=rng.uniform(*SLANT), tilt=rng.uniform(-TILT, TILT), wave=rng.uniform(*WAVE),
                 period=rng.uniform(*PERIOD), phase=rng.uniform(0.0, 2 * np.pi), word_gap=WORD_GAP[1],
                 spacing=SPACING * rng.uniform(*SPEED) * scale, jitter=JITTER * scale)


# ---------------------------------------------------------------- fonts

@functools.lru_cache(maxsize=None)
def load_font(face):
    """One face of the hershey-fonts package (loaded once per process)."""
    try:
        from HersheyFonts import HersheyFonts
    except ImportError:
        raise DataError(f"strokes-hershey needs the Hershey fonts: {INSTALL_HINT}.") from None
    font = HersheyFonts()
    font.load_default_font(face)
    return font


def word_strokes(font, word):
    """One word -> (list of (n_k, 2) float64 strokes as the font draws them, y up, baseline 0, starting
    at x = 0; the word's advance width). Strokes are the font's, unmerged."""
    glyphs = list(font.glyphs_for_text(word))
    if len(glyphs) != len(word):
        missing = sorted({c for c in word if not list(font.glyphs_for_text(c))})
        raise DataError(f"the Hershey font has no glyph for {''.join(missing)!r}; reinstall {INSTALL_HINT}.")
    base = float(font.render_options["base_line"])
    out = [np.array([[x, base - y] for x, y in st], np.float64) for st in font.strokes_for_text(word)]
    return out, float(sum(g.char_width for g in glyphs))


def merge_joins(strokes, eps=MERGE_EPS):
    """Merge zero-length pen lifts: a stroke starting within ``eps`` of the previous one's end continues
    it (its first point, the same as that end, is dropped). list of (n_k, 2) -> list of (m_j, 2)."""
    out = []
    for st in strokes:
        if out and np.hypot(*(st[0] - out[-1][-1])) <= eps:
            out[-1] = np.concatenate([out[-1], st[1:]])
        else:
            out.append(st)
    return out


def layout(font, text, rng, word_gap):
    """A line's strokes in font units (y up, baseline 0), words one after the other, each followed by
    the font's space and a random extra gap in [0, word_gap]; zero-length lifts merged."""
    space = word_strokes(font, " ")[1]
    strokes, x = [], 0.0
    for word in text.split(" "):
        pieces, width = word_strokes(font, word)
        strokes += [p + [x, 0.0] for p in pieces]
        x += width + space + rng.uniform(0.0, word_gap)
    return merge_joins(strokes)


def draw_line(font, text, style, rng):
    """One line of ``text`` in ``font`` written by ``style`` -> list of (n_k, 2) absolute strokes in
    source units (y up); steps 2-4 of the module docstring."""
    out = []
    for st in layout(font, text, rng, style.word_gap):
        x, y = st[:, 0], st[:, 1]
        drift = style.tilt * x + style.wave * np.sin(2 * np.pi * x / style.period + style.phase)
        pts = style.scale * np.column_stack([x + style.slant * y, y + drift])     # (n, 2)
        pts = resample(pts, style.spacing)                                      # (m, 2)
        out.append(pts + rng.normal(0.0, style.jitter, pts.shape) if style.jitter > 0 else pts)
    return out


# ---------------------------------------------------------------- lines

def _word(rng, first):
    """One word of a line: from WORDS or a number, perhaps in capitals or capitalized, quoted or in
    parentheses."""
    w = str(int(rng.integers(0, 2027))) if rng.random() < NUMBER else WORDS[int(rng.integers(len(WORDS)))]
    if rng.random() < CAPS:
        w = w.upper()
    elif rng.random() < (CAPITAL if first else NAME):
        w = w.capitalize()
    if rng.random() < WRAP:
        a, b = WRAPS[int(rng.integers(len(WRAPS)))]
        w = a + w + b
    return w


def line_text(rng):
    """A line's text: WORDS_PER_LINE words (fewer at MAX_CHARS), some capitalized or in capitals, numbers,
    quoted or in parentheses, a mark after a word or a hyphen between two, a closing mark: every letter,
    digit and common punctuation mark turns up in a training set's texts."""
    n = int(rng.integers(WORDS_PER_LINE[0], WORDS_PER_LINE[1] + 1))
    mark = str(rng.choice(list(MARKS))) if rng.random() < MARK else ""
    text = _word(rng, first=True)
    for _ in range(n - 1):
        w = _word(rng, first=False)
        if rng.random() < HYPHEN:
            sep = "-"
        elif rng.random() < INNER:
            sep = INNER_MARKS[int(rng.integers(len(INNER_MARKS)))] + " "
        else:
            sep = " "
        if len(text) + len(sep) + len(w) + len(mark) > MAX_CHARS:
            break
        text += sep + w
    return text + mark


def line_texts(rng, count):
    """``count`` line texts, from a stream of their own (seeded by one draw of ``rng``): a set's texts do not
    depend on how its lines are drawn."""
    own = np.random.default_rng(int(rng.integers(2**63)))
    return [line_text(own) for _ in range(count)]


def make_lines(rng, count, faces=FACES):
    """``count`` raw lines -> (list of (N, 3) stroke-3 in source units, their texts, their names: the face
    and the line's number, scripts-00017)."""
    texts = line_texts(rng, count)
    lines, names = [], []
    for i, text in enumerate(texts):
        face = faces[int(rng.integers(len(faces)))]
        lines.append(S.to_stroke3(draw_line(load_font(face), text, random_style(rng), rng)))
        names.append(f"{face}-{i:05d}")
    return lines, texts, names


def build(spec):
    """strokes-hershey: --split A/B lines (default 2000/200), train and validation from separate streams."""
    for face in FACES:
        load_font(face)                                   # a missing package says so before any work
    n_train, n_val = S.split_counts(spec)
    train = make_lines(np.random.default_rng([S.DATA_SEED, 0]), n_train)
    val = make_lines(np.random.default_rng([S.DATA_SEED, 1]), n_val)
    return S.make_task(spec, f"Hershey single-stroke fonts (A. V. Hershey, NBS) writing lines of common English "
                       f"words in {len(FACES)} faces ({', '.join(FACES)}), randomly slanted, scaled, jittered, "
                       "baseline drifting; a stand-in for handwriting (one writer per face, plotter stroke order)",
                       S.RawSplit(train[0], train[2], train[1]), S.RawSplit(val[0], val[2], val[1]),
                       extra={"faces": list(FACES)})
