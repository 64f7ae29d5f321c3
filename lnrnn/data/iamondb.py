"""IAM-OnDB online handwriting lines (Liwicki & Bunke 2005), read from what a registered user downloads.

Layout: ``lineStrokes/a01/a01-000/a01-000u-01.xml`` is line 1 of form a01-000u (text a01-000 written by
one writer). Each file is ISO-8859-1 XML::

    <WhiteboardCaptureSession>
      <WhiteboardDescription> <SensorLocation corner="top_left"/> <DiagonallyOppositeCoords x= y=/> ...
      <StrokeSet>
        <Stroke colour="black" start_time="769.05" end_time="769.64">   one per pen-down segment
          <Point x="1073" y="1058" time="769.05"/> ...                   integer board units, y down

Optional transcriptions ``ascii/a01/a01-000/a01-000u.txt`` (in --data-dir or beside lineStrokes/): the
lines after ``CSR:`` are the form's lines in order, line k of the form being file ``-0k``. With ascii/
the task carries text (``StrokeTask.texts_train``, ``alphabet``): a line without a transcription (its
form has no ascii file, or its CSR line is blank) is skipped, and the description says how many were;
a form's file of n CSR lines must go with line files numbered 1..n (every line file of the form under
lineStrokes/, whether the split reads it or not), else one DataError names both. Without ascii/ every
line is read and the task has no text.

The split. IAM-OnDB's own task folder holds ``trainset.txt``, ``testset_v.txt``, ``testset_t.txt`` and
``testset_f.txt``, one form id per line (``a01-000u``; a line id ``a01-000u-01`` names one line). When
trainset.txt and testset_v.txt lie in --data-dir, in its ``tasks/`` or in a ``tasks/`` beside
lineStrokes/, they are the split: the model trains on trainset's lines and is validated on
testset_v's, so figures compare with published ones; lines of no list there (testset_t's, testset_f's:
the test sets) are not read. Every entry must name line files that exist and no form may be in both
lists (else one DataError that names the list). Without the lists, VAL_FRACTION of the forms, drawn
with a fixed seed, are held out whole (a writer's form never in both splits either way).

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
SPLIT_LISTS = ("trainset.txt", "testset_v.txt")   # IAM-OnDB's task lists used: (training, validation)
MAX_LIST_BYTES = 1 << 20         # a task list is ~10 kB
_ENTRY = re.compile(r"^[A-Za-z0-9]+-[A-Za-z0-9]+(-\d+)?$")   # a01-000u (a form) or a01-000u-01 (a line)
_LINE_NAME = re.compile(r"^(?P<form>.+)-(?P<line>\d+)$")   # a01-000u-01 -> form a01-000u, line 1
_FORBIDDEN = (b"<!DOCTYPE", b"<!ENTITY")


# ---------------------------------------------------------------- safe XML

def read_limited(path, limit=MAX_XML_BYTES, what="file"):
    """The bytes of ``path``, refusing files larger than ``limit`` before reading them, and those that give more
    than ``limit`` all the same (a file growing meanwhile, a device or a pipe, whose size said less): at most
    limit + 1 bytes are read."""
    try:
        size = os.path.getsize(path)
        if size > limit:
            raise DataError(f"{what} {path} is {size:,} bytes, more than the {limit:,} allowed; "
                            "it is not a file of this data set.")
        with open(path, "rb") as f:
            raw = f.read(limit + 1)
    except OSError as e:
        raise DataError(f"cannot read {what} {path}: {e.strerror or e}.") from None
    if len(raw) > limit:
        raise DataError(f"{what} {path} gives more than the {limit:,} bytes allowed (more than its size, "
                        f"{size:,} bytes, said); it is not a file of this data set.")
    return raw


def check_plain_xml(raw, path):
    """Refuse XML that declares a document type or entities (or hides them in a wide encoding)."""
    if b"\x00" in raw:
        raise DataError(f"{path} is not an 8-bit XML file (it holds NUL bytes); refusing to parse it.")
    for token in _FORBIDDEN:
        if token in raw:
            raise DataError(f"{path} declares {token[2:].decode()} in its XML, which a stroke file never "
                            "needs (it could expand entities or fetch external files); refusing to parse it.")


def parse_xml(raw, path):
    """Bytes already checked by ``check_plain_xml`` (or kanjivg.stroke_paths) -> the root Element."""
    try:
        return ET.fromstring(raw)
    except ET.ParseError as e:
        raise DataError(f"{path} is malformed or truncated XML ({e}).") from None
    except LookupError as e:  # an encoding declaration that names no codec Python has
        raise DataError(f"{path} declares an XML encoding Python does not know ({e}).") from None


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
    with np.errstate(over="ignore", invalid="ignore"):               # refused below, without NumPy's warnings
        seq = S.to_stroke3(line_strokes(read_xml(path), path))
    if not np.isfinite(seq).all():
        raise DataError(f"{path}: its points lie so far apart that their offsets overflow a float64; it is not a "
                        "line of handwriting.")
    return seq


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


def form_texts(files, used, line_root, ascii_root):
    """The transcriptions of the lines ``used`` (a subset of ``files``, every line file found) -> one str
    per used line, None where it has none (no ascii file for its form, or a blank CSR line). DataError
    when a form's ascii file and its line files (all of them) do not pair up one to one, 1..n."""
    forms = {}                                                           # (folder, form) -> line numbers
    for p in files:
        form, k = form_of(p)
        forms.setdefault((os.path.dirname(p), form), []).append(k)
    texts, csr = [], {}
    for p in used:
        form, k = form_of(p)
        key = (os.path.dirname(p), form)
        if key not in csr:
            txt = os.path.join(ascii_root, os.path.relpath(key[0], line_root), form + ".txt")
            csr[key] = transcriptions(txt) if os.path.isfile(txt) else None
            numbers = sorted(forms[key])
            if csr[key] is not None and numbers != list(range(1, len(csr[key]) + 1)):
                raise DataError(f"transcription {txt} has {len(csr[key])} line{'s' * (len(csr[key]) != 1)} after "
                                f"CSR: but form {form} has {len(numbers)} line file{'s' * (len(numbers) != 1)} in "
                                f"{key[0]} (numbered {numbers[0]} to {numbers[-1]}); "
                                "they do not belong together: unpack lineStrokes-all.tar.gz and ascii-all.tar.gz "
                                "of one download, or move ascii/ away to train without text.")
        lines = csr[key]
        texts.append(lines[k - 1].strip() or None if lines is not None else None)
    return texts


# ---------------------------------------------------------------- the official split

def find_split_lists(data_dir, line_root):
    """The folder holding IAM-OnDB's trainset.txt and testset_v.txt (--data-dir, its tasks/, or tasks/
    beside lineStrokes/), or None when none holds either; DataError when one holds only one of them."""
    for folder in (data_dir, os.path.join(data_dir, "tasks"),
                   os.path.join(os.path.dirname(os.path.abspath(line_root)), "tasks")):
        have = [os.path.isfile(os.path.join(folder, f)) for f in SPLIT_LISTS]
        if all(have):
            return folder
        if any(have):
            there, absent = (SPLIT_LISTS[0], SPLIT_LISTS[1]) if have[0] else (SPLIT_LISTS[1], SPLIT_LISTS[0])
            raise DataError(f"{folder} holds IAM-OnDB's {there} but not {absent}; copy both from the task "
                            f"folder of the IAM-OnDB download, or remove {there} to split by form at random.")
    return None


def read_split_list(path):
    """One task list -> its entries (form ids a01-000u or line ids a01-000u-01) in order, duplicates once."""
    raw = read_limited(path, MAX_LIST_BYTES, "IAM-OnDB task list")
    entries = []
    for n, text in enumerate(raw.decode("latin-1").splitlines(), 1):
        entry = text.strip()
        if not entry:
            continue
        if not _ENTRY.match(entry):
            raise DataError(f"{path} line {n}: {entry[:40]!r} is not an IAM-OnDB form or line id "
                            "(such as a01-000u or a01-000u-01); is this one of IAM-OnDB's task lists?")
        if entry not in entries:
            entries.append(entry)
    if not entries:
        raise DataError(f"{path} lists no forms; IAM-OnDB's task lists hold one form id (a01-000u) per line.")
    return entries


def official_split(files, folder, line_root):
    """-> (the line files of trainset + testset_v, their (n,) validation mask): each entry of a list
    names a form (all its lines) or one line; DataError for entries without line files or a form in
    both lists."""
    stems = [os.path.splitext(os.path.basename(p))[0] for p in files]
    by_name = {}
    for i, (p, stem) in enumerate(zip(files, stems)):
        by_name.setdefault(form_of(p)[0], []).append(i)
        by_name.setdefault(stem, []).append(i)
    chosen = {}
    for which, name in zip(("train", "val"), SPLIT_LISTS):
        path = os.path.join(folder, name)
        entries = read_split_list(path)
        missing = [e for e in entries if e not in by_name]
        if missing:
            shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
            raise DataError(f"{len(missing)} of the {len(entries)} {'entry' if len(entries) == 1 else 'entries'} "
                            f"of {path} ({shown}) name{'s' * (len(missing) == 1)} no line file "
                            f"under {line_root}; unpack lineStrokes-all.tar.gz whole, or use the task lists that "
                            "came with it.")
        chosen[which] = sorted({i for e in entries for i in by_name[e]})
    both = sorted({form_of(files[i])[0] for i in chosen["train"]} & {form_of(files[i])[0] for i in chosen["val"]})
    if both:
        shown = ", ".join(both[:3]) + (", ..." if len(both) > 3 else "")
        what = f"form {shown} is" if len(both) == 1 else f"{len(both)} forms ({shown}) are"
        raise DataError(f"{what} in both {SPLIT_LISTS[0]} and {SPLIT_LISTS[1]} of {folder}; a form must be in "
                        "one split only (its writer wrote all its lines).")
    order = sorted(chosen["train"] + chosen["val"])
    val = set(chosen["val"])
    return [files[i] for i in order], np.array([i in val for i in order], bool)


def build(spec):
    """strokes: the line files under --data-dir, split by IAM-OnDB's task lists when they are there
    (trainset / testset_v), else by form (VAL_FRACTION of the forms, fixed seed); see the module docstring."""
    data_dir = spec.get("data_dir")
    line_root, files = find_lines(data_dir)
    all_files = files
    lists = find_split_lists(data_dir, line_root)
    if lists is not None:
        files, val = official_split(files, lists, line_root)
        how = f"IAM-OnDB's split: trainset / testset_v of {lists}"
    else:
        val = S.split_groups([form_of(p)[0] for p in files], what="forms (a01-000u, ...)")
        how = "split by form"
    lines = [read_line(p) for p in files]                                # each (N, 3); bad files first
    ascii_root = _ascii_root(data_dir, line_root)
    texts, skipped, with_text = None, 0, "0 with transcriptions: no ascii/ found, the lines carry no text"
    if ascii_root is not None:
        texts = form_texts(all_files, files, line_root, ascii_root)
        keep = [i for i, t in enumerate(texts) if t is not None]
        skipped = len(files) - len(keep)
        if not keep:
            raise DataError(f"{ascii_root} holds no transcription of the {len(files)} line"
                            f"{'s' * (len(files) != 1)} read; unpack ascii-all.tar.gz of the same download there, "
                            "or move it away to train without text.")
        files, lines, val = [files[i] for i in keep], [lines[i] for i in keep], val[keep]
        texts = [texts[i] for i in keep]
        with_text = (f"{len(files)} with transcriptions from {ascii_root}, {skipped} line"
                     f"{'' if skipped == 1 else 's'} without one skipped")
    names = [os.path.splitext(os.path.basename(p))[0] for p in files]
    n_forms = len({form_of(p)[0] for p in files})
    forms = f"{n_forms} form{'s' * (n_forms != 1)}"
    return S.make_task(spec, f"IAM-OnDB lines from {data_dir} ({forms}, {how}; {with_text})",
                       *S.split_raw(lines, val, names, texts),
                       extra={"forms": n_forms, "split": "official" if lists is not None else "by form",
                              "skipped_no_text": skipped})
