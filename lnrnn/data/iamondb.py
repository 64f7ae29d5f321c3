"""IAM-OnDB online handwriting lines (Liwicki & Bunke 2005), read from what a registered user downloads.

Layout: ``lineStrokes/a01/a01-000/a01-000u-01.xml`` is line 1 of form a01-000u (text a01-000 written by
one writer). Each file is ISO-8859-1 XML::

    <WhiteboardCaptureSession>
      <WhiteboardDescription> <SensorLocation corner="top_left"/> <DiagonallyOppositeCoords x= y=/> ...
      <StrokeSet>
        <Stroke colour="black" start_time="769.05" end_time="769.64">   one per pen-down segment
          <Point x="1073" y="1058" time="769.05"/> ...                   integer board units, y down

Optional transcriptions ``ascii/a01/a01-000/a01-000u.txt`` (beside lineStrokes/): the lines after
``CSR:`` are the form's lines in order, line k of the form being file ``-0k``.

The files come from outside, so XML is read defensively: at most MAX_XML_BYTES per file, and a file
with a document type or entity declaration (the billion laughs, external entities) is refused before
any parsing, so nothing is expanded or fetched; everything else that is wrong is a DataError that
names the file.
"""
import os
import re
import xml.etree.ElementTree as ET

import numpy as np

from lnrnn.data import strokes as S
from lnrnn.errors import DataError

MAX_XML_BYTES = 16 << 20         # a line file is ~10-200 kB; refuse anything past this unread
ROOT = "WhiteboardCaptureSession"
GET_HINT = ("IAM-OnDB needs registering: download lineStrokes-all.tar.gz (and ascii-all.tar.gz) from "
            "the IAM On-Line Handwriting Database's page and unpack them into one folder")
_LINE_NAME = re.compile(r"^(?P<form>.+)-(?P<line>\d+)$")   # a01-000u-01 -> form a01-000u, line 1
_FORBIDDEN = (b"<!DOCTYPE", b"<!ENTITY")


# ---------------------------------------------------------------- safe XML

def read_limited(path, limit=MAX_XML_BYTES, what="file"):
    """The bytes of ``path``, refusing files larger than ``limit`` before reading them."""
    try:
        size = os.path.getsize(path)
        if size > limit:
            raise DataError(f"{what} {path} is {size:,} bytes, more than the {limit:,} allowed; "
                            "it is not a file of this data set.")
        with open(path, "rb") as f:
            return f.read(limit + 1)
    except OSError as e:
        raise DataError(f"cannot read {what} {path}: {e.strerror or e}.") from None


def check_plain_xml(raw, path):
    """Refuse XML that declares a document type or entities (or hides them in a wide encoding)."""
    if b"\x00" in raw:
        raise DataError(f"{path} is not an 8-bit XML file (it holds NUL bytes); refusing to parse it.")
    for token in _FORBIDDEN:
        if token in raw:
            raise DataError(f"{path} declares {token[2:].decode()} in its XML, which a stroke file never "
                            "needs (it could expand entities or fetch external files); refusing to parse it.")


def parse_xml(raw, path):
    """Bytes already checked by ``check_plain_xml`` -> the root Element."""
    try:
        return ET.fromstring(raw)
    except ET.ParseError as e:
        raise DataError(f"{path} is malformed or truncated XML ({e}).") from None


def read_xml(path):
    raw = read_limited(path, MAX_XML_BYTES, "XML file")
    check_plain_xml(raw, path)
    return parse_xml(raw, path)


# ---------------------------------------------------------------- one line file

def line_strokes(root, path):
    """The root of a line file -> list of (n_k, 2) float64 absolute strokes (x, y up: y negated)."""
    if root.tag != ROOT:
        raise DataError(f"{path} has root element <{root.tag}>, not <{ROOT}>; it is not an IAM-OnDB line file.")
    stroke_set = root.find("StrokeSet")
    if stroke_set is None:
        raise DataError(f"{path} has no <StrokeSet>; it is not a complete IAM-OnDB line file.")
    elems = stroke_set.findall("Stroke")
    if not elems:
        raise DataError(f"{path} has no <Stroke> in its <StrokeSet>; the line is empty.")
    return [_stroke_points(e, k + 1, path) for k, e in enumerate(elems)]


def _stroke_points(stroke, k, path):
    points = stroke.findall("Point")
    if not points:
        raise DataError(f"{path}: stroke {k} has no <Point>; an empty stroke is not valid.")
    try:                                                                 # fast path: all numeric
        xy = np.array([[p.get("x"), p.get("y")] for p in points], np.float64)   # (n, 2)
        ok = bool(np.isfinite(xy).all())
    except (TypeError, ValueError):
        ok = False
    if not ok:                                                           # find the culprit, say where
        xy = np.array([[_number(p, name, f"point {i + 1} of stroke {k}", path) for name in ("x", "y")]
                       for i, p in enumerate(points)])
    xy[:, 1] *= -1.0                                                     # y down -> y up
    return xy


def _number(elem, name, where, path):
    text = elem.get(name)
    if text is None:
        raise DataError(f"{path}: {where} lacks the attribute {name}.")
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not np.isfinite(v):
        raise DataError(f"{path}: {where} has the non-numeric {name}={text!r}.")
    return v


def read_line(path):
    """One line file -> (N, 3) stroke-3 in board units (y up)."""
    return S.to_stroke3(line_strokes(read_xml(path), path))


# ---------------------------------------------------------------- the folder

def find_lines(data_dir):
    """-> (lineStrokes folder, sorted list of its .xml line files). DIR holds lineStrokes/ or is it."""
    if data_dir is None:
        raise DataError(f"the strokes task reads IAM-OnDB: pass --data-dir DIR with DIR/lineStrokes ({GET_HINT}).")
    if not os.path.isdir(data_dir):
        raise DataError(f"data directory {data_dir} does not exist ({GET_HINT}).")
    root = os.path.join(data_dir, "lineStrokes")
    root = root if os.path.isdir(root) else data_dir
    files = sorted(os.path.join(d, f) for d, _, names in os.walk(root) for f in names
                   if f.lower().endswith(".xml"))
    if not files:
        raise DataError(f"{data_dir} holds no IAM-OnDB line files (lineStrokes/**/*.xml); {GET_HINT}.")
    return root, files


def form_of(path):
    """'.../a01-000u-01.xml' -> ('a01-000u', 1); a name without a line number is its own form (line 1)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    m = _LINE_NAME.match(stem)
    return (m["form"], int(m["line"])) if m else (stem, 1)


def transcriptions(ascii_path):
    """The CSR lines of one ascii/ file -> list of str (line k of the form at index k-1)."""
    raw = read_limited(ascii_path, what="transcription")
    lines = raw.decode("latin-1").splitlines()
    for i, ln in enumerate(lines):
        if ln.strip().startswith("CSR:"):
            rest = [r.rstrip() for r in lines[i + 1:]]
            while rest and not rest[0].strip():
                rest.pop(0)
            while rest and not rest[-1].strip():
                rest.pop()
            return rest
    raise DataError(f"transcription {ascii_path} has no 'CSR:' section; it is not an IAM-OnDB ascii file.")


def _ascii_root(data_dir, line_root):
    for cand in (os.path.join(data_dir, "ascii"), os.path.join(os.path.dirname(os.path.abspath(line_root)), "ascii")):
        if os.path.isdir(cand):
            return cand
    return None


def _text_of(path, line_root, ascii_root, cache):
    """The transcription of one line file, or None when ascii/ lacks it."""
    if ascii_root is None:
        return None
    form, k = form_of(path)
    rel = os.path.relpath(os.path.dirname(path), line_root)
    txt = os.path.join(ascii_root, rel, form + ".txt")
    if txt not in cache:
        cache[txt] = transcriptions(txt) if os.path.isfile(txt) else []
    return cache[txt][k - 1] if k - 1 < len(cache[txt]) else None


def build(spec):
    """strokes: every line file under --data-dir, split by form (VAL_FRACTION of the forms, fixed seed)."""
    data_dir = spec.get("data_dir")
    line_root, files = find_lines(data_dir)
    ascii_root, cache = _ascii_root(data_dir, line_root), {}
    lines = [read_line(p) for p in files]                                # each (N, 3)
    texts = [_text_of(p, line_root, ascii_root, cache) for p in files]
    names = [os.path.splitext(os.path.basename(p))[0] for p in files]
    val = S.split_groups([form_of(p)[0] for p in files], what="forms (a01-000u, ...)")
    n_forms = len({form_of(p)[0] for p in files})
    return S.make_task(spec, f"IAM-OnDB lines from {data_dir} ({n_forms} forms, split by form; "
                       f"{sum(t is not None for t in texts)} with transcriptions)",
                       *S.split_raw(lines, val, names, texts), extra={"forms": n_forms})
