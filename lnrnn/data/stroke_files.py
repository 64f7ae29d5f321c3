"""Stroke-3 sequences stored as NumPy files (sketch-rnn's and many handwriting repositories' format).

Layouts read (``--data-dir`` is the file, or a folder holding exactly one .npz/.npy file):
    pickle-free .npz (read directly)
        strokes (S, 3) + lengths (n,)                   one pool; VAL_FRACTION of it held out (fixed seed)
        train_strokes + train_lengths, and val_strokes + val_lengths (or valid_*): the file's own split
    object arrays (need pickle, so only with the spec key "allow_pickle": true)
        .npz with train and valid (or val) arrays of (N_i, 3) sequences (sketch-rnn; test is ignored)
        .npy holding one array of (N_i, 3) sequences: one pool, split as above
Rows are (dx, dy, pen) as stored (pen 1 after the last point of a stroke); no axis is flipped.
Unpickling can run arbitrary code, hence the opt-in; ``save_npz`` writes the pickle-free layout.

``read_lines`` reads the lines a reader (``lnrnn read``) transcribes: one stroke-3 file, never unpickled.
"""
import os

import numpy as np

from lnrnn.data import strokes as S
from lnrnn.errors import DAMAGED_NUMPY_FILE, DataError, too_large

MAX_POINTS = 10000   # a longer sequence is refused (IAM-OnDB's longest lines have ~2,000 points)
PICKLE_HINT = ("re-save it pickle-free as strokes (sum N, 3) + lengths (n,) arrays "
               "(lnrnn.data.stroke_files.save_npz), or, for a file you trust, set the task option allow_pickle")


def save_npz(path, train, val=None):
    """Write lists of (N_i, 3) sequences in the pickle-free layout (strokes + lengths, or per split)."""
    def pack(prefix, seqs):
        return {prefix + "strokes": np.concatenate(seqs), prefix + "lengths": np.array([len(s) for s in seqs])}
    arrays = pack("", train) if val is None else {**pack("train_", train), **pack("val_", val)}
    np.savez_compressed(path, **arrays)


def find_file(data_dir):
    """--data-dir -> the one .npz/.npy file it is or holds."""
    if data_dir is None:
        raise DataError("the strokes-npz task reads a stroke-3 file: "
                        "pass --data-dir FILE.npz (or a folder holding one).")
    if os.path.isfile(data_dir):
        return data_dir
    if not os.path.isdir(data_dir):
        raise DataError(f"stroke file {data_dir} does not exist.")
    found = sorted(f for f in os.listdir(data_dir)
                   if f.endswith((".npz", ".npy")) and os.path.isfile(os.path.join(data_dir, f)))  # not a folder
    if len(found) != 1:
        raise DataError(f"{data_dir} holds {len(found)} .npz/.npy files ({', '.join(found) or 'none'}); "
                        "pass --data-dir with the one file to read.")
    return os.path.join(data_dir, found[0])


def load(path, allow_pickle=False):
    """-> {'train': [...], 'val': [...]} or {'all': [...]}, lists of (N_i, 3) float64 sequences."""
    from lnrnn.data.arrays import numpy_kind

    try:
        kind = numpy_kind(path)
    except OSError as e:
        raise DataError(f"cannot read {path}: {e.strerror or e}.") from None
    if kind not in ("npy", "npz") and not allow_pickle:  # numpy.load would call it pickled data
        raise DataError(f"{path} {kind}; the strokes-npz task reads stroke-3 arrays saved with numpy.savez "
                        "(.npz) or numpy.save (.npy).")
    try:
        data = np.load(path, allow_pickle=allow_pickle)
    except ValueError as e:
        raise _pickle_or_bad(path, e) from None
    except DAMAGED_NUMPY_FILE as e:
        raise DataError(f"{path} is not a readable .npz/.npy file ({e}).") from None
    except MemoryError as e:
        raise DataError(too_large(path, e)) from None
    if isinstance(data, np.ndarray):
        return {"all": _object_sequences(data, path, "the array")}
    with data:
        try:
            return _from_npz(data, path)
        except ValueError as e:
            raise _pickle_or_bad(path, e) from None
        except DAMAGED_NUMPY_FILE as e:
            raise DataError(f"{path} is a damaged .npz file ({e}).") from None
        except MemoryError as e:
            raise DataError(too_large(path, e)) from None


def _pickle_or_bad(path, e):
    if "allow_pickle" in str(e) or "pickle" in str(e).lower():
        return DataError(f"{path} holds object arrays that need pickle, which can run arbitrary code; {PICKLE_HINT}.")
    return DataError(f"{path} is not a valid .npy/.npz file ({e}).")


def _from_npz(data, path):
    keys = set(data.files)
    if {"strokes", "lengths"} <= keys:
        return {"all": _packed(data["strokes"], data["lengths"], path, "strokes")}
    val = next((v for v in ("val", "valid") if {v + "_strokes", v + "_lengths"} <= keys), None)
    if {"train_strokes", "train_lengths"} <= keys and val:
        return {w: _packed(data[k + "_strokes"], data[k + "_lengths"], path, k + "_strokes")
                for w, k in (("train", "train"), ("val", val))}
    val = next((v for v in ("valid", "val") if v in keys), None)
    if "train" in keys and val:
        return {"train": _object_sequences(data["train"], path, "train"),
                "val": _object_sequences(data[val], path, val)}
    raise DataError(f"{path} has arrays {', '.join(sorted(keys)) or 'none'}; expected strokes + lengths, "
                    "train_/val_strokes + train_/val_lengths, or sketch-rnn's train + valid.")


def _packed(strokes, lengths, path, name):
    """(S, 3) numeric + (n,) integer lengths -> list of (N_i, 3) sequences (views)."""
    strokes = _check_rows(strokes, path, name)
    lengths = np.asarray(lengths)
    if lengths.ndim != 1 or lengths.dtype.kind not in "iu":
        raise DataError(f"{path}: lengths beside {name} must be a 1-D integer array, "
                        f"not {lengths.dtype} {lengths.shape}.")
    if (lengths < 0).any():
        i = int(np.argmax(lengths < 0))
        raise DataError(f"{path}: the lengths beside {name} include {int(lengths[i])} (entry {i}); a sequence's "
                        "length is a count of rows, 0 or more.")
    if int(lengths.sum()) != len(strokes):
        raise DataError(f"{path}: the lengths beside {name} add up to {int(lengths.sum())} but it has "
                        f"{len(strokes)} row{'s' * (len(strokes) != 1)}; the arrays do not belong together.")
    seqs = np.split(strokes, np.cumsum(lengths)[:-1])
    return [_check_length(s, path, name, i) for i, s in enumerate(seqs)]


def _object_sequences(arr, path, name):
    if arr.dtype != object:
        raise DataError(f"{path}: {name} is a {arr.dtype} array of shape {arr.shape}, not a list of (N, 3) "
                        "sequences; store several sequences as strokes + lengths in an .npz.")
    return [_check_length(_check_rows(s, path, f"{name}[{i}]"), path, name, i) for i, s in enumerate(arr.ravel())]


def _check_rows(a, path, name):
    try:
        a = np.asarray(a)
    except (ValueError, TypeError):
        raise DataError(f"{path}: {name} is not a numeric array.") from None
    if a.ndim != 2 or a.shape[1] != 3 or a.dtype.kind not in "iuf":
        raise DataError(f"{path}: {name} must be a numeric (N, 3) array of (dx, dy, pen), not {a.dtype} {a.shape}.")
    a = a.astype(np.float64)
    if not np.isfinite(a).all():
        raise DataError(f"{path}: {name} holds NaN or infinite values.")
    if not np.isin(a[:, 2], (0.0, 1.0)).all():
        raise DataError(f"{path}: the pen column of {name} holds values other than 0 and 1.")
    return a


def _check_length(seq, path, name, i):
    if len(seq) > MAX_POINTS:
        raise DataError(f"{path}: sequence {i} of {name} has {len(seq):,} points, more than the limit of "
                        f"{MAX_POINTS:,}; split it or drop it.")
    return seq


def build(spec):
    path = find_file(spec.get("data_dir"))
    parts = load(path, bool(spec.get("allow_pickle", False)))
    if "all" in parts:
        seqs = parts["all"]
        train, val = S.split_raw(seqs, S.split_groups(list(range(len(seqs))), what="sequences"))
        how = f"{len(seqs)} sequences, {S.VAL_FRACTION:.0%} held out"
    else:
        train, val = S.RawSplit(parts["train"]), S.RawSplit(parts["val"])
        how = "the file's own train/validation split"
    return S.make_task(spec, f"stroke-3 sequences from {path} ({how})", train, val)


LINE_FILES = (".npy", ".npz", ".xml")   # what read_lines reads


def read_lines(path):
    """The handwriting lines of one file -> list of (N_i, 3) float64 stroke-3 in its own units (N_i >= 1):
        .npy  one (N, 3) numeric array: one line
        .npz  ``points`` (what ``lnrnn sample --npz`` writes) or ``strokes``, (S, 3); with ``lengths`` (n,)
              n lines end to end, else one line
        .xml  an IAM-OnDB line file (``iamondb.read_line``: board units, y up)
    Nothing is unpickled; a file of another kind, shape or content (NaN, pen values other than 0 and 1,
    an empty line) is a DataError naming it."""
    text = str(path)
    ext = os.path.splitext(text)[1].lower()
    if ext not in LINE_FILES:
        raise DataError(f"{text} is not a stroke file lnrnn reads: give a .npy (N, 3) stroke-3 array, a .npz with "
                        "points (or strokes) and lengths arrays, or an IAM-OnDB line .xml.")
    if not os.path.isfile(text):
        raise DataError(f"{text}: no such file.")
    if ext == ".xml":
        from lnrnn.data.iamondb import read_line
        return [read_line(text)]
    from lnrnn.data.arrays import numpy_kind

    try:
        kind = numpy_kind(text)
    except OSError as e:
        raise DataError(f"cannot read {text}: {e.strerror or e}.") from None
    if kind != ext[1:]:
        what = f"is a .{kind} file" if kind in ("npy", "npz") else kind
        raise DataError(f"{text} {what}; expected a {ext} holding stroke-3 (dx, dy, pen) points.")
    try:
        data = np.load(text, allow_pickle=False)
        if isinstance(data, np.ndarray):
            return [_line(_check_rows(data, text, "the array"), text, 0)]
        with data:
            name = next((k for k in ("points", "strokes") if k in data.files), None)
            if name is None:
                raise DataError(f"{text} has arrays {', '.join(sorted(data.files)) or 'none'}; expected points (or "
                                "strokes), (S, 3) stroke-3, with lengths (n,) for several lines.")
            if "lengths" not in data.files:
                return [_line(_check_rows(data[name], text, name), text, 0)]
            return [_line(seq, text, i) for i, seq in enumerate(_packed(data[name], data["lengths"], text, name))]
    except ValueError as e:
        if "pickle" in str(e).lower():
            raise DataError(f"{text} holds object arrays, which need pickle and are not read; save the lines as "
                            "points (S, 3) and lengths (n,) arrays in an .npz.") from None
        raise DataError(f"{text} is not a valid .npy/.npz file ({e}).") from None
    except DAMAGED_NUMPY_FILE as e:
        raise DataError(f"{text} is not a readable .npz/.npy file ({e}).") from None
    except MemoryError as e:
        raise DataError(too_large(text, e)) from None


def _line(seq, path, i):
    if len(seq) == 0:
        raise DataError(f"{path}: line {i + 1} has no point; every line needs at least one.")
    return _check_length(seq, path, "the lines", i)
