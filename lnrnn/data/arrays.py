"""Your own sequences: the ``npz`` task (``lnrnn train --task npz --data-dir FILE.npz``) and ``lnrnn.fit``.

The file is a pickle-free ``.npz`` (``np.savez``), read with ``allow_pickle=False``. Its arrays (docs/your_data.md):

    x            (N, T, I) or (N, T) numbers: N sequences of T steps of I inputs (I = 1 for (N, T)),
                 batch-major; right-padded where ``lengths`` says the sequences are shorter
    y            (N,) one target per sequence, or (N, T) one per step:
                 integer dtype -> classes 0..C-1 (softmax cross-entropy; C = the largest label + 1;
                 per step, -1 marks a step that is not scored); float dtype -> regression (squared error)
    lengths      optional (N,) integers in 1..T: sequence n is x[n, :lengths[n]] (the rest is padding)
    x_val, y_val, lengths_val   optional: the validation set, same layout (same I; T may differ)

Without x_val/y_val the validation set is held out from x, y: ``--split A/B`` takes A training and B
validation sequences (a fixed seed's permutation), the default holds out VAL_FRACTION. ``objective``
("ce" or "mse", ``--objective``) overrides what the labels' dtype says. Every malformed file or array is
one ``DataError`` sentence naming the array and what to fix; nothing is trained on data that fail a check.
"""
import os
from dataclasses import dataclass
from typing import Optional

import numpy as np

from lnrnn.data.splits import parse_split
from lnrnn.data.taskdata import TaskData
from lnrnn.errors import DAMAGED_NUMPY_FILE, DataError, UserError, too_large

KEYS = ("x", "y", "lengths", "x_val", "y_val", "lengths_val")
OBJECTIVES = ("ce", "mse")   # classes (softmax cross-entropy) | regression (squared error)
VAL_FRACTION = 0.1           # held out for validation when the file has no x_val and no --split is given
SPLIT_SEED = 0               # the permutation the held-out split draws (lnrnn.data.tasks.DATA_SEED)
REGRESSION_TOLERANCE = 0.04  # a regression "accuracy" counts predictions within this of the target


NPY_MAGIC = b"\x93NUMPY"                       # how a .npy file begins
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")    # how an .npz (a zip file; an empty one) begins
MAX_CLASSES = 100_000                          # labels 0..C-1 beyond this are taken for a mistake, not classes


def numpy_kind(path):
    """'npy' or 'npz' by a file's first bytes, or the phrase saying what it is instead ('is empty (0
    bytes)', 'is not a NumPy .npy or .npz (zip) file'). numpy.load tries pickle on anything it does not
    recognize, so its own message ("contains pickled data") would name the wrong problem."""
    with open(path, "rb") as f:
        head = f.read(6)
    if head == NPY_MAGIC:
        return "npy"
    if head[:4] in ZIP_MAGICS:
        return "npz"
    if not head:
        return "is empty (0 bytes)"
    text = head.isascii() and all(c >= 32 or c in b"\t\r\n" for c in head)
    return (f"is not a NumPy .npy or .npz (zip) file ({'text' if text else 'it begins with bytes'} "
            f"{head!r}{'...' if len(head) == 6 else ''})")


def check_objective(value):
    if value not in OBJECTIVES:
        raise UserError(f"--objective must be ce (classes) or mse (regression), not {value!r}.")
    return value


def read_file(path):
    """The arrays of a pickle-free .npz -> {key: ndarray}; DataError for anything else."""
    if path is None:
        raise DataError("the npz task reads your arrays from a file: pass --data-dir FILE.npz "
                        "(x, y and optionally lengths; see docs/your_data.md).")
    path = str(path)
    if os.path.isdir(path):
        raise DataError(f"--data-dir {path} is a folder; the npz task reads one .npz file: pass its path.")
    if not os.path.isfile(path):
        raise DataError(f"data file {path} does not exist.")
    try:
        kind = numpy_kind(path)
    except OSError as e:
        raise DataError(f"cannot read {path}: {e.strerror or e}.") from None
    if kind not in ("npy", "npz"):
        raise DataError(f"{path} {kind}; the npz task reads an .npz (zip) file of named arrays: save them with "
                        "numpy.savez(path, x=..., y=...).")
    try:
        data = np.load(path, allow_pickle=False)
    except ValueError as e:
        raise DataError(f"{path} is not an .npz file lnrnn can read without pickle ({e}); save it with "
                        "numpy.savez(path, x=..., y=...).") from None
    except DAMAGED_NUMPY_FILE as e:
        raise DataError(f"{path} is not a readable .npz file ({e}); save it with numpy.savez(path, x=..., "
                        "y=...).") from None
    except MemoryError as e:
        raise DataError(too_large(path, e)) from None
    if isinstance(data, np.ndarray):
        raise DataError(f"{path} holds a single array (.npy); the npz task needs named arrays x and y: save "
                        "them with numpy.savez(path, x=..., y=...).")
    with data:
        unknown = sorted(set(data.files) - set(KEYS))
        if unknown:
            raise DataError(f"{path} has arrays {', '.join(unknown)} the npz task does not read; name them "
                            f"{', '.join(KEYS)} (see docs/your_data.md).")
        arrays = {}
        for k in data.files:
            try:
                arrays[k] = data[k]
            except ValueError as e:
                if "pickle" in str(e).lower():
                    raise DataError(f"{path}: array {k} is an object array (it would need pickle, which can run "
                                    "code); store numbers in a regular array, padding sequences to one length "
                                    "with lengths beside them.") from None
                raise DataError(f"{path}: array {k} cannot be read ({e}).") from None
            except DAMAGED_NUMPY_FILE as e:
                raise DataError(f"{path} is a damaged .npz file ({e}).") from None
            except MemoryError as e:
                raise DataError(too_large(f"{path}: array {k}", e)) from None
    return arrays


def _sequences(x, name, where):
    try:
        x = np.asarray(x)
    except (ValueError, TypeError):
        raise DataError(f"{where}: {name} is not an array of numbers (ragged lists? pad them to one length "
                        "and give lengths).") from None
    if x.dtype.kind not in "biuf":
        raise DataError(f"{where}: {name} must hold numbers, not {x.dtype} (object or text arrays are refused).")
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise DataError(f"{where}: {name} must be (N, T, I) or (N, T), not an array of shape {x.shape}.")
    if 0 in x.shape:
        raise DataError(f"{where}: {name} is empty (shape {x.shape}).")
    if x.dtype.kind == "b":
        x = x.astype(np.uint8)
    if x.dtype.kind == "f" and not np.isfinite(x).all():
        raise DataError(f"{where}: {name} holds NaN or infinite values; replace them (padding included).")
    return np.ascontiguousarray(x)


def _lengths(lengths, name, N, T, where):
    if lengths is None:
        return None
    lengths = np.asarray(lengths)
    if lengths.dtype.kind not in "iu" or lengths.shape != (N,):
        raise DataError(f"{where}: {name} must be {N} integers (one per sequence), not {lengths.dtype} "
                        f"of shape {lengths.shape}.")
    if lengths.min() < 1 or lengths.max() > T:
        bad = int(lengths.min()) if lengths.min() < 1 else int(lengths.max())
        raise DataError(f"{where}: {name} must lie between 1 and T={T}, but one is {bad}.")
    return lengths.astype(np.int64)


def _targets(y, name, N, T, where):
    try:
        y = np.asarray(y)
    except (ValueError, TypeError):
        raise DataError(f"{where}: {name} is not an array of numbers.") from None
    if y.dtype.kind not in "biuf":
        raise DataError(f"{where}: {name} must hold numbers, not {y.dtype}.")
    if y.shape not in ((N,), (N, T)):
        raise DataError(f"{where}: {name} must be ({N},) (one target per sequence) or ({N}, {T}) (one per step) "
                        f"to match x, not shape {y.shape}.")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise DataError(f"{where}: {name} holds NaN or infinite values.")
    return y


def check_arrays(arrays, where="the arrays", objective=None):
    """Every check of the npz task on {key: array} (KEYS) -> dict(x, y, lengths, x_val, y_val, lengths_val,
    objective, num_classes, per_step), x (N,T,I), y int64 classes or float32 targets. DataError otherwise."""
    missing = [k for k in ("x", "y") if arrays.get(k) is None]
    if missing:
        raise DataError(f"{where} lacks {' and '.join(missing)}: the npz task needs x (N, T, I) or (N, T) and "
                        "y (N,) or (N, T).")
    has_val = {k: arrays.get(k) is not None for k in ("x_val", "y_val", "lengths_val")}
    if has_val["x_val"] != has_val["y_val"]:
        raise DataError(f"{where} has {'x_val' if has_val['x_val'] else 'y_val'} without "
                        f"{'y_val' if has_val['x_val'] else 'x_val'}; give both, or neither (a held-out split).")
    if has_val["lengths_val"] and not has_val["x_val"]:
        raise DataError(f"{where} has lengths_val but no x_val, y_val.")
    sets = [("", "train")] + ([("_val", "validation")] if has_val["x_val"] else [])
    out = {}
    for suffix, _ in sets:
        x = _sequences(arrays["x" + suffix], "x" + suffix, where)
        N, T = x.shape[0], x.shape[1]
        y = _targets(arrays["y" + suffix], "y" + suffix, N, T, where)
        out["x" + suffix], out["y" + suffix] = x, y
        out["lengths" + suffix] = _lengths(arrays.get("lengths" + suffix), "lengths" + suffix, N, T, where)
    if has_val["x_val"]:
        if out["x_val"].shape[2] != out["x"].shape[2]:
            n = out["x"].shape[2]
            raise DataError(f"{where}: x has {n} input{'s' * (n != 1)} per step but x_val has "
                            f"{out['x_val'].shape[2]}; they must match.")
        if (out["y"].ndim == 2) != (out["y_val"].ndim == 2):
            raise DataError(f"{where}: y and y_val must both be per sequence or both per step, not "
                            f"{out['y'].shape} and {out['y_val'].shape}.")
    per_step = out["y"].ndim == 2
    if objective is None:
        objective = "mse" if out["y"].dtype.kind == "f" else "ce"
    check_objective(objective)
    ys = [out["y"]] + ([out["y_val"]] if "y_val" in out else [])
    if objective == "ce":
        for y, name in zip(ys, ("y", "y_val")):
            if y.dtype.kind == "f" and not np.array_equal(y, np.round(y)):
                raise DataError(f"{where}: {name} holds fractional values; classes are integers 0..C-1 (store y "
                                "with an integer dtype), or pass --objective mse for regression.")
            low = -1 if per_step else 0
            if y.min() < low:
                raise DataError(f"{where}: {name} holds the label {int(y.min())}; classes are 0..C-1"
                                f"{' (and -1 for a step that is not scored)' if per_step else ''}.")
        top = max(ys, key=lambda y: y.max())
        if top.max() + 1 > MAX_CLASSES:
            name = "y" if top is ys[0] else "y_val"
            distinct = len(np.unique(np.concatenate([y.ravel() for y in ys])))
            raise DataError(f"{where}: {name} holds the label {int(top.max())}, out of range: classes are numbered "
                            f"0..C-1, so it would make {int(top.max()) + 1:,} classes (at most {MAX_CLASSES:,}) "
                            f"where y holds {distinct:,} distinct labels; renumber them (numpy.unique(y, "
                            "return_inverse=True)), or pass --objective mse for regression.")
        ys = [y.astype(np.int64) for y in ys]
        num_classes = max(int(y.max()) for y in ys) + 1
        if num_classes < 2:
            raise DataError(f"{where}: y holds {num_classes} class{'es' * (num_classes != 1)}; a classifier needs "
                            "at least 2 (labels 0..C-1), or pass --objective mse for regression.")
        if per_step and not (ys[0] >= 0).any():
            raise DataError(f"{where}: every step of y is -1 (not scored); nothing would be learned.")
    else:
        ys = [y.astype(np.float32) for y in ys]
        num_classes = 1
    out["y"] = ys[0]
    if "y_val" in out:
        out["y_val"] = ys[1]
    out.update(objective=objective, num_classes=num_classes, per_step=per_step)
    return out


def held_out(N, split, path):
    """(train indices, validation indices) of N sequences: ``--split A/B`` counts, or VAL_FRACTION held out."""
    if split is None:
        if N < 2:
            raise DataError(f"{path} holds {N} sequence; holding some out for validation needs at least 2 "
                            "(or give x_val, y_val).")
        b = max(1, int(round(N * VAL_FRACTION)))
        a = N - b
    else:
        a, b = split
        if a + b > N:
            raise UserError(f"--split {a}/{b} asks for {a + b} sequences but {path} holds only {N}.")
    perm = np.random.default_rng(SPLIT_SEED).permutation(N)
    return perm[:a], perm[a:a + b]


@dataclass
class LengthsTask(TaskData):
    """A TaskData whose sequences may be right-padded: batches carry each set's lengths when it has them."""
    lengths_train: Optional[np.ndarray] = None  # (N,) or None (every sequence is T long)
    lengths_val: Optional[np.ndarray] = None

    def batch(self, which, idx, dtype=np.float32):
        xb, yb = super().batch(which, idx, dtype)
        L = self.lengths_train if which == "train" else self.lengths_val
        return (xb, yb) if L is None else (xb, yb, L[idx])


def build(spec):
    """The npz task of a spec (data_dir: the file; split; objective) -> a TaskData with lengths."""
    path = spec.get("data_dir")
    d = check_arrays(read_file(path), str(path), spec.get("objective"))
    if "x_val" in d:
        if spec.get("split") is not None:
            raise UserError(f"{path} has its own validation set (x_val, y_val); drop --split.")
        xt, yt, lt, xv, yv, lv = (d[k] for k in ("x", "y", "lengths", "x_val", "y_val", "lengths_val"))
        how = "validation from x_val"
    else:
        tr, va = held_out(len(d["x"]), parse_split(spec.get("split")), path)
        x, y, L = d["x"], d["y"], d["lengths"]
        xt, yt, xv, yv = x[tr], y[tr], x[va], y[va]
        lt, lv = (None, None) if L is None else (L[tr], L[va])
        how = "held out from x by a fixed seed"
    T, I = xt.shape[1], xt.shape[2]
    what = (f"{d['num_classes']} classes" if d["objective"] == "ce" else "regression (squared error)") + \
           (" on every step" if d["per_step"] else "")
    return LengthsTask(spec, f"your sequences from {path}: {T} steps of {I} input{'s' * (I != 1)}, {what}; "
                       f"{len(xt)} train / {len(xv)} validation ({how})", xt, yt, xv, yv,
                       num_classes=d["num_classes"], objective=d["objective"], per_step=d["per_step"],
                       extra={"tolerance": REGRESSION_TOLERANCE}, lengths_train=lt, lengths_val=lv)
