"""KanjiVG characters as handwriting: stroke-ordered SVG paths -> augmented stroke-3 lines.

KanjiVG (Ulrich Apel, CC BY-SA 3.0, https://kanjivg.tagaini.net) draws each character in a 109 x 109
box as one ``<path id="kvg:XXXXX-sK" d="...">`` per stroke, K in writing order; ``XXXXX`` (the file
name) is the code point in hex; files with a suffix (``04e14-Kaisho.svg``) are variants and are skipped.
The PyPI package ``kanjivg`` installs them as data files ``kanji/*.svg`` and no Python module, so they
are found through the distribution's file list; ``--data-dir`` may instead name a folder of such files.

Each stroke's path (M/m, C/c, S/s, L/l, H/h, V/v, Z/z) is flattened and resampled every SPACING units of
arc length, y negated (SVG's y grows downward). A line draws 1..CHARS_PER_LINE[charset] characters of
one split; each line is one "writer" (scale, slant) and each character gets its own small scale,
rotation and point jitter, so one design becomes many writers; characters follow each other with a
pen-up advance and a random gap. Each line's text is the characters it draws, in order and without
spaces (``StrokeTask.texts_train``). For writing, train and validation use disjoint sets of designs
(characters): the alphabet is the training designs', so a validation line's held-out characters are all
"unknown" (code 0; see ``strokes``), which is what a synthesis model meeting unseen characters gets.
For reading (spec "head": "ctc") every design is in both splits, since a reader can only name a
character it was trained on: validation lines are other combinations and other augmentations (their own
random stream) of the same designs.
"""
import importlib.metadata
import os
import re

import numpy as np

from lnrnn.data import strokes as S
from lnrnn.data.iamondb import parse_xml, read_limited
from lnrnn.errors import DataError

INSTALL_HINT = "pip install 'lnrnn[kanjivg]'"
MAX_SVG_BYTES = 1 << 20       # a KanjiVG file is 2-10 kB
SPACING = 3.0                 # arc length between resampled points, in units of the 109-unit box
CURVE_POINTS = 16             # points per Bezier segment before resampling
CHARS_PER_LINE = {"latin": 5, "kana": 4, "kanji": 2}
WRITER_SCALE = (0.8, 1.2)     # per line
WRITER_SLANT = (-0.3, 0.3)    # per line: x shift per unit of height
CHAR_SCALE = (0.93, 1.07)     # per character, on top of the writer's
CHAR_ROTATION = 0.06          # per character, radians, uniform +-
JITTER = 0.4                  # per point, Gaussian std, box units
GAP = (4.0, 14.0)             # pen-up space between characters, box units (times the writer's scale)
CHARSETS = {
    "latin": [ord(c) for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"],
    "kana": list(range(0x3041, 0x3097)) + list(range(0x30A1, 0x30FB)),   # hiragana, katakana
    "kanji": list(range(0x4E00, 0xA000)),                                # CJK unified ideographs
}
_SVG_NS = "{http://www.w3.org/2000/svg}"
_STROKE_ID = re.compile(r"-s(\d+)$")
_DOCTYPE = re.compile(rb"<!DOCTYPE[^\[>]*(\[[^\]]*\])?\s*>")
# KanjiVG's namespace: files of older releases bind the kvg: prefix only as a #FIXED attribute of <g> and <path>
# in the document type declaration, which stroke_paths cuts out; it binds the prefix on <svg> in its place
_KVG_NS = b"http://kanjivg.tagaini.net"
_TOKEN = re.compile(r"\s*,?\s*(?:([A-Za-z])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Z": 0}


# ---------------------------------------------------------------- finding the files

def installed_files():
    """{code point: path} of the kanjivg package's kanji/*.svg (variants skipped)."""
    try:
        dist = importlib.metadata.distribution("kanjivg")
    except importlib.metadata.PackageNotFoundError:
        raise DataError(f"strokes-kanjivg needs the KanjiVG data: {INSTALL_HINT} (CC BY-SA 3.0), "
                        "or pass --data-dir with a folder of its SVG files.") from None
    files = {}
    for f in dist.files or []:
        if len(f.parts) == 2 and f.parts[0] == "kanji" and f.suffix == ".svg":
            _add(files, f.stem, str(dist.locate_file(f)))
    if not files:
        raise DataError(f"the installed kanjivg package lists no kanji/*.svg files; reinstall it ({INSTALL_HINT}).")
    return files


def folder_files(folder):
    """{code point: path} of the KanjiVG SVG files in ``folder`` (or its kanji/ subfolder)."""
    if not os.path.isdir(folder):
        raise DataError(f"KanjiVG folder {folder} does not exist.")
    sub = os.path.join(folder, "kanji")
    folder = sub if os.path.isdir(sub) else folder
    files = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".svg"):
            _add(files, name[:-4], os.path.join(folder, name))
    if not files:
        raise DataError(f"{folder} holds no KanjiVG files (XXXXX.svg, the code point in hex).")
    return files


def _add(files, stem, path):
    if re.fullmatch(r"[0-9a-fA-F]{4,6}", stem):
        files[int(stem, 16)] = path


# ---------------------------------------------------------------- one SVG file

def stroke_paths(raw, path):
    """The bytes of a KanjiVG SVG -> its strokes' path data, in stroke order (sK ascending).

    The document type declaration (KanjiVG's internal subset only declares attributes) is cut out
    unparsed; entity declarations anywhere are refused, so nothing is expanded or fetched. Where that
    declaration was the only binding of the kvg: prefix (older releases), <svg> binds it instead."""
    if b"<!ENTITY" in raw or b"\x00" in raw:
        raise DataError(f"{path} declares XML entities (or is not 8-bit text); refusing to parse it.")
    raw = _DOCTYPE.sub(b"", raw, count=1)
    if b"<!DOCTYPE" in raw:
        raise DataError(f"{path} has a document type declaration lnrnn cannot skip safely; refusing to parse it.")
    if b"xmlns:kvg" not in raw:  # the prefix was bound in the declaration just cut (older releases)
        raw = re.sub(rb"<svg\b", b'<svg xmlns:kvg="' + _KVG_NS + b'"', raw, count=1)
    root = parse_xml(raw, path)
    if root.tag not in (_SVG_NS + "svg", "svg"):
        raise DataError(f"{path} has root element <{root.tag}>, not <svg>; it is not a KanjiVG file.")
    found = []
    for p in root.iter():
        m = _STROKE_ID.search(p.get("id", "")) if p.tag in (_SVG_NS + "path", "path") else None
        if m:
            if not p.get("d"):
                raise DataError(f"{path}: stroke path {p.get('id')} has no path data (d).")
            found.append((int(m[1]), p.get("d")))
    if not found:
        raise DataError(f"{path} has no stroke paths (<path id='kvg:XXXXX-s1' d=...>); it is not a KanjiVG file.")
    return [d for _, d in sorted(found, key=lambda t: t[0])]


def path_polylines(d, path="<path>"):
    """SVG path data -> list of (n, 2) dense polylines (one per subpath, SVG coordinates, y down)."""
    subpaths, cur, start, ctrl = [], np.zeros(2), np.zeros(2), None
    for cmd, args in _commands(d, path):
        rel, up = cmd.islower(), cmd.upper()
        for a in args:
            base = cur if rel else np.zeros(2)
            if up == "M":
                cur = start = base + a
                subpaths.append([cur[None]])
                up = "L"                      # further pairs after M are lines
                ctrl = None
                continue
            if not subpaths:
                raise DataError(f"{path}: path data {d[:40]!r} draws before its first moveto (M).")
            seg, ctrl = _segment(up, a, base, cur, start, ctrl, rel)
            subpaths[-1].append(seg[1:])
            cur = seg[-1]
    return [np.concatenate(s) for s in subpaths]


def _segment(up, a, base, cur, start, ctrl, rel):
    """One drawing command's points (k, 2) from the current point, and the control point S reflects."""
    if up == "L":
        return np.stack([cur, base + a]), None
    if up == "H":
        return np.stack([cur, [(cur[0] if rel else 0.0) + a[0], cur[1]]]), None
    if up == "V":
        return np.stack([cur, [cur[0], (cur[1] if rel else 0.0) + a[0]]]), None
    if up == "Z":
        return np.stack([cur, start]), None
    if up == "C":
        c1, c2, end = base + a[0:2], base + a[2:4], base + a[4:6]
    else:                                     # S: first control point reflects the previous one
        c1 = 2 * cur - ctrl if ctrl is not None else cur
        c2, end = base + a[0:2], base + a[2:4]
    return _cubic(cur, c1, c2, end), c2


def _cubic(p0, p1, p2, p3):
    t = np.linspace(0.0, 1.0, CURVE_POINTS + 1)[:, None]                 # (k, 1)
    u = 1 - t
    return u ** 3 * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t ** 3 * p3  # (k, 2)


def _commands(d, path):
    """Tokenize path data -> [(command letter, list of (arity,) argument arrays)]."""
    out, pos = [], 0
    while pos < len(d):
        m = _TOKEN.match(d, pos)
        if not m or m.end() == pos:
            if not d[pos:].strip(" ,\t\r\n"):
                break
            raise DataError(f"{path}: cannot read path data {d!r} at character {pos}.")
        pos = m.end()
        if m[1]:
            if m[1].upper() not in _ARITY:
                raise DataError(f"{path}: path command {m[1]!r} is not supported (M, L, H, V, C, S, Z only).")
            out.append((m[1], []))
        elif not out:
            raise DataError(f"{path}: path data {d[:40]!r} does not start with a command.")
        else:
            out[-1][1].append(float(m[2]))
    return [(c, _group(c, nums, d, path)) for c, nums in out]


def _group(cmd, nums, d, path):
    k = _ARITY[cmd.upper()]
    if k == 0:
        if nums:
            raise DataError(f"{path}: path command Z takes no numbers in {d!r}.")
        return [np.zeros(0)]
    if not nums or len(nums) % k:
        raise DataError(f"{path}: path command {cmd} needs a multiple of {k} number{'s' * (k != 1)} in {d!r}, "
                        f"got {len(nums)}.")
    return list(np.array(nums).reshape(-1, k))


def resample(poly, spacing=SPACING):
    """(n, 2) polyline -> (m, 2) points every ``spacing`` of arc length, both ends kept (m >= 1)."""
    seg = np.hypot(*np.diff(poly, axis=0).T)                              # (n-1,)
    arc = np.concatenate([[0.0], np.cumsum(seg)])                         # (n,)
    if arc[-1] <= 0:
        return poly[:1].copy()
    m = max(2, int(np.ceil(arc[-1] / spacing)) + 1)
    s = np.linspace(0.0, arc[-1], m)                                      # (m,)
    return np.column_stack([np.interp(s, arc, poly[:, 0]), np.interp(s, arc, poly[:, 1])])


def read_design(path):
    """One KanjiVG file -> list of (m_k, 2) strokes in box units, y up, resampled by arc length."""
    raw = read_limited(path, MAX_SVG_BYTES, "KanjiVG file")
    out = []
    for d in stroke_paths(raw, path):
        for poly in path_polylines(d, path):
            pts = resample(poly)
            pts[:, 1] *= -1.0
            out.append(pts)
    return out


# ---------------------------------------------------------------- lines of augmented characters

def augment(design, rng, scale, slant):
    """A design (list of (m_k, 2) strokes) as one writer's character: scale, slant, a small rotation
    and scale of its own, jitter on every point. -> list of (m_k, 2)."""
    a = rng.uniform(-CHAR_ROTATION, CHAR_ROTATION)
    s = scale * rng.uniform(*CHAR_SCALE)
    m = s * np.array([[1.0, 0.0], [slant, 1.0]]) @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    return [st @ m + rng.normal(0.0, JITTER, st.shape) for st in design]   # row vectors: p' = p M


def join_line(chars, rng, scale):
    """Characters (each a list of strokes) side by side with a pen-up gap -> list of strokes."""
    out, right = [], None
    for strokes in chars:
        pts = np.concatenate(strokes)                                     # (n, 2)
        shift = 0.0 if right is None else right + scale * rng.uniform(*GAP) - pts[:, 0].min()
        out += [st + [shift, 0.0] for st in strokes]
        right = pts[:, 0].max() + shift
    return out


class Designs:
    """The chosen characters' files, parsed on first use."""

    def __init__(self, files):
        self.files, self.cache = files, {}

    def __getitem__(self, cp):
        if cp not in self.cache:
            self.cache[cp] = read_design(self.files[cp])
        return self.cache[cp]


def make_lines(rng, designs, codepoints, count, max_chars):
    """``count`` raw lines -> (list of (N, 3) stroke-3, their texts)."""
    lines, texts = [], []
    for _ in range(count):
        chosen = rng.choice(codepoints, size=int(rng.integers(1, max_chars + 1)))
        scale, slant = rng.uniform(*WRITER_SCALE), rng.uniform(*WRITER_SLANT)
        chars = [augment(designs[int(cp)], rng, scale, slant) for cp in chosen]
        lines.append(S.to_stroke3(join_line(chars, rng, scale)))
        texts.append("".join(chr(int(cp)) for cp in chosen))
    return lines, texts


def build(spec):
    """strokes-kanjivg: lines of one charset's characters; designs split between train and validation,
    except for a reader (``--head ctc``), whose two splits draw lines of every design."""
    charset = spec.get("charset", "latin")
    files = folder_files(spec["data_dir"]) if spec.get("data_dir") else installed_files()
    cps = np.array([cp for cp in CHARSETS[charset] if cp in files], np.int64)   # (C,)
    if len(cps) < 2:
        where = spec.get("data_dir") or "the kanjivg package"
        raise DataError(f"{where} holds {len(cps)} {charset} character{'s' * (len(cps) != 1)}; at least 2 are needed "
                        "to split them.")
    reading = spec.get("head") == "ctc"
    val = np.zeros(len(cps), bool) if reading else S.split_groups(list(cps), what=f"{charset} characters")
    train_cps, val_cps = (cps, cps) if reading else (cps[~val], cps[val])
    n_train, n_val = S.split_counts(spec)
    designs, k = Designs(files), CHARS_PER_LINE[charset]
    train, t_train = make_lines(np.random.default_rng([S.DATA_SEED, 0]), designs, train_cps, n_train, k)
    vlines, t_val = make_lines(np.random.default_rng([S.DATA_SEED, 1]), designs, val_cps, n_val, k)
    n_held = int(val.sum())
    held = "".join(chr(c) for c in cps[val]) if charset == "latin" else f"{n_held} character{'s' * (n_held != 1)}"
    split = ("every design in both splits, validation lines other combinations and augmentations" if reading
             else f"{held} held out for validation")
    return S.make_task(spec, f"KanjiVG {charset} characters ({len(cps)} designs, {split}), 1-{k} per line, "
                       "augmented, each line's characters its text",
                       S.RawSplit(train, texts=t_train), S.RawSplit(vlines, texts=t_val),
                       extra={"charset": charset, "val_designs": [int(c) for c in cps[val]]})


def check_charset(value):
    """The spec's charset option, checked (tasks.OPTIONS)."""
    from lnrnn.errors import UserError
    if value not in CHARSETS:
        raise UserError(f"--charset must be one of {', '.join(CHARSETS)}, not {value!r}.")
    return value
