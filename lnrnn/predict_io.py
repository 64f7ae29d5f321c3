"""Inputs and outputs of ``lnrnn predict`` (``lnrnn.predict``, the function, runs the model): the user's sequences in,
the run's outputs for them out, as its head gives them.

Inputs (``read_inputs``), each path one of
    an IDX images file (MNIST family, gzip or raw, magic 2051)   read the way the run's task reads its own
        images: pixel by pixel (mnist; pmnist in its fixed permutation) or row by row (mnist-rows), scaled
        to [0, 1]; only for runs of those tasks
    a folder                                                     every IDX images file in it, by name
    a .npy file of sequences, (N,T) or (N,T,I)                  the model's inputs as they are (uint8
        values are scaled as the task scales its own, 1/255 for the MNIST family); no pickle
The input width I must be the model's; anything else (an .npz, a text file, an empty file) is refused in
one sentence before any work, naming what the file is and what predict reads.

What the model was trained on (``describe_training_data``, ``training_record``, ``check_like_training``):
the length of its training sequences and the range of their values, as the model read them, kept in the
checkpoint's metadata under "data" ({"steps": T or [min, max], "min": ..., "max": ...}); for a run
saved without it, what the task spec can say (the tasks that need no files are built again). ``lnrnn
predict`` refuses sequences of another length or with values outside that range, or warns with --force.

Outputs (``write_predictions``, ``prediction_columns``), by the extension of ``--out``: ``.csv`` with a
header, or ``.npy`` holding a structured array with the same fields (loads without pickle):
    a sequence classifier     index, class, probability                  one row per sequence
    a per-step classifier     index, step, class, probability            one row per step
    regression, last step     index, value (value_0, value_1, ... for several outputs)
    regression, every step    index, step, value (...)                   one row per step
    a CTC head                index, labels (space-separated)            one row per sequence
index counts sequences over all inputs, in the order given; step counts from 0.
"""
import glob
import os

import numpy as np

from lnrnn.errors import DataError, UserError, too_large

OUT_FORMATS = (".csv", ".npy")
MNIST_TASKS = ("mnist", "pmnist", "mnist-rows")


def softmax(z):
    """Row-wise softmax of (N,C) logits, computed in float64."""
    z = np.asarray(z, np.float64)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def check_inputs(x, input_size, where="the run"):
    """x (N,T) or (N,T,I) numeric and finite, with I the model's input width -> float array (N,T,I)."""
    x = np.asarray(x)
    if x.dtype == object or not (np.issubdtype(x.dtype, np.number) or x.dtype == bool):
        raise UserError(f"the sequences must be numbers, not {x.dtype} values.")
    if np.issubdtype(x.dtype, np.complexfloating):  # a cast to the model's dtype would drop the imaginary parts
        raise UserError(f"the sequences must be real numbers, not {x.dtype} values.")
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise UserError(f"the sequences must be an array of shape (N,T) or (N,T,I), not {x.shape}.")
    N, T, I = x.shape
    if I != input_size:
        raise UserError(f"the sequences have {I} input{'s' * (I != 1)} per step but the model of {where} reads "
                        f"{input_size}; shape {x.shape} does not fit it (expected (N,T,{input_size})"
                        f"{' or (N,T)' if input_size == 1 else ''}).")
    if N == 0 or T == 0:
        raise UserError(f"there are no sequences to predict (shape {x.shape}).")
    if np.issubdtype(x.dtype, np.floating) and not np.all(np.isfinite(x)):
        raise UserError("the sequences hold NaN or infinite values.")
    return x


def describe_training_data(x, lengths=None, scale=1.0):
    """The record of a training set that ``check_like_training`` compares inputs with: x (N,T,I) as
    stored, ``scale`` what the task multiplies it by when batching, ``lengths`` (N,) for padded sets ->
    {"steps": T (all alike) or [shortest, longest], "min": .., "max": ..} (the values the model read)."""
    x = np.asarray(x)
    if lengths is not None and len(lengths) and int(np.min(lengths)) != int(np.max(lengths)):
        steps = [int(np.min(lengths)), int(np.max(lengths))]
    else:
        steps = int(x.shape[1]) if lengths is None or not len(lengths) else int(lengths[0])
    lo, hi = (float(v) * float(scale) for v in (x.min(), x.max()))
    return {"steps": steps, "min": min(lo, hi), "max": max(lo, hi)}


def describe_task_data(task):
    """``describe_training_data`` of a built task's training set; None for tasks without one array of
    sequences (the stroke tasks' variable-length lines)."""
    if not hasattr(task, "x_train"):
        return None
    return describe_training_data(task.x_train, scale=getattr(task, "scale", 1.0))


def training_record(meta):
    """What a run's checkpoint metadata says of its training data: its "data" record; for a run saved
    without one, the record of the task rebuilt from its spec when the task needs no files (digits, adding,
    copy), the value range alone for the MNIST family (pixels scaled to [0, 1]); else None (no check)."""
    record = meta.get("data")
    if isinstance(record, dict):
        return record
    spec = dict(meta.get("task") or {})
    task = spec.get("task")
    from lnrnn.data.tasks import TASKS, load_task

    if task in MNIST_TASKS:
        return {"min": 0.0, "max": 1.0}
    if task not in TASKS or "data_dir" in TASKS[task][2] or str(task).startswith("strokes"):
        return None
    try:
        return describe_task_data(load_task(spec))
    except UserError:
        return None


def check_like_training(x, record, slack=None):
    """The ways x (N,T,I) departs from a training record (``describe_training_data``) -> list of phrases,
    empty when it does not: another sequence length, or values beyond the training range by more than
    ``slack`` (config.PREDICT_RANGE_SLACK) of its width."""
    from lnrnn.config import PREDICT_RANGE_SLACK

    if not record:
        return []
    slack = PREDICT_RANGE_SLACK if slack is None else slack
    differs = []
    T, steps = x.shape[1], record.get("steps")
    if isinstance(steps, int) and T != steps:
        differs.append(f"they have {T} step{'s' * (T != 1)} where the training sequences had {steps}")
    elif isinstance(steps, (list, tuple)) and len(steps) == 2 and not steps[0] <= T <= steps[1]:
        differs.append(f"they have {T} step{'s' * (T != 1)} where the training sequences had {steps[0]} to {steps[1]}")
    if "min" in record and "max" in record:
        lo, hi = float(record["min"]), float(record["max"])
        margin = slack * (hi - lo)
        xlo, xhi = float(np.min(x)), float(np.max(x))
        if xlo < lo - margin or xhi > hi + margin:
            differs.append(f"their values span {xlo:g} to {xhi:g} where the training data's spanned {lo:g} "
                           f"to {hi:g}")
    return differs


def _task_scale(task):
    return 1.0 / 255.0 if task in MNIST_TASKS else 1.0


def _images_as_sequences(images, task, path):
    """uint8 (N,R,C) images -> (N,T,I) float32 sequences, as the run's task presents its own."""
    from lnrnn.data.tasks import pmnist_permutation

    if task not in MNIST_TASKS:
        raise UserError(f"{path} holds IDX images, which only runs of {', '.join(MNIST_TASKS)} read; this run was "
                        f"trained on {task}: pass a .npy of sequences instead.")
    n, rows, cols = images.shape
    if task == "mnist-rows":
        x = images.reshape(n, rows, cols)
    else:
        x = images.reshape(n, rows * cols, 1)
        if task == "pmnist":
            x = x[:, pmnist_permutation(rows * cols)]
    return x.astype(np.float32) * np.float32(1.0 / 255.0)


INPUTS = ("a .npy of sequences, (N,T) or (N,T,I) (numpy.save), an MNIST-family IDX images file (gzip or raw), or "
          "a folder of them")


def _read_one(path, task):
    from lnrnn.data.arrays import numpy_kind
    from lnrnn.data.idx import IMAGES_MAGIC, read_idx

    try:
        kind = numpy_kind(path)
    except FileNotFoundError:
        raise DataError(f"{path} does not exist.") from None
    except OSError as e:
        raise DataError(f"cannot read {path}: {e.strerror or e}.") from None
    if kind == "npz":
        raise DataError(f"{path} is an .npz file, which predict does not read; it reads {INPUTS}: save the "
                        "sequences with numpy.save('x.npy', x).")
    if kind == "npy":
        try:
            x = np.load(path, allow_pickle=False)
        except ValueError as e:  # object arrays (pickle), a damaged header, ...
            raise DataError(f"{path} is not a .npy array lnrnn reads without pickle ({e}).") from None
        except (OSError, EOFError) as e:
            raise DataError(f"{path} is a damaged .npy file ({e}).") from None
        except MemoryError as e:
            raise DataError(too_large(path, e)) from None
        if x.dtype == np.uint8:
            x = x.astype(np.float32) * np.float32(_task_scale(task))
        return x
    if str(path).lower().endswith((".npy", ".npz")):
        raise DataError(f"{path} {kind}; predict reads {INPUTS}.")
    try:
        images = read_idx(path, IMAGES_MAGIC)
    except DataError as e:
        if "magic number" not in str(e) and "too short" not in str(e):
            raise
        raise DataError(f"{path} is neither a .npy nor an IDX images file (its first bytes say neither); predict "
                        f"reads {INPUTS}.") from None
    if images.ndim != 3 or images.dtype != np.uint8:
        raise DataError(f"{path} should hold uint8 images (N, rows, cols), not {images.dtype} {images.shape}.")
    return _images_as_sequences(images, task, path)


def input_files(path):
    """The files an --input names: itself, or a folder's IDX images files (sorted by name)."""
    if os.path.isdir(path):
        found = sorted(p for p in glob.glob(os.path.join(path, "*")) if os.path.isfile(p)
                       and ("images-idx3-ubyte" in os.path.basename(p) or "images.idx3-ubyte" in os.path.basename(p)))
        if not found:
            raise DataError(f"{path} holds no IDX images file (*-images-idx3-ubyte[.gz]); pass the file, or a "
                            ".npy of sequences.")
        return found
    if not os.path.exists(path):
        raise DataError(f"{path} does not exist.")
    return [path]


def read_inputs(paths, task, input_size):
    """Every sequence the paths hold, in order -> (x (N,T,I), [(path, first index, count)])."""
    parts, where, start = [], [], 0
    for path in paths:
        for f in input_files(str(path)):
            data = _read_one(f, task)
            try:
                x = check_inputs(data, input_size, "this run")
            except UserError as e:                      # which of several inputs: the file named first
                raise type(e)(f"{f}: {e}") from None
            if parts and x.shape[1] != parts[0].shape[1]:
                raise DataError(f"{f} holds sequences of {x.shape[1]} step{'s' * (x.shape[1] != 1)} but "
                                f"{where[0][0]} holds {parts[0].shape[1]}; predict them in separate calls.")
            parts.append(x)
            where.append((f, start, len(x)))
            start += len(x)
    if not parts:
        raise UserError("no input given; pass --input FILE_OR_FOLDER.")
    return np.concatenate(parts), where


def check_out(path):
    """UserError unless ``path`` is a .csv/.npy file name that can be written (``lnrnn.files.check_output_file``)."""
    from lnrnn.files import check_output_file, named_suffix

    # first: a name ending in a separator is a folder, not a name without suffix
    check_output_file(path)
    if named_suffix(path, OUT_FORMATS) is None:
        raise UserError(f"--out must end in {' or '.join(OUT_FORMATS)}, not {path!r}.")


def prediction_columns(predictions):
    """The table ``write_predictions`` writes, by what the predictions hold -> [(name, dtype, (rows,) array)]:

        a class per sequence (``classes`` (N,), ``probability``)      index, class, probability
        a class per step (``classes`` (N,T), -1 past the end)        index, step, class, probability
        values (``values`` (N,O) last step, (N,T,O) every step)      index[, step], value (value_0.. for O > 1)
        labels (``labels``, a list per sequence: a CTC head)         index, labels (space-separated)
    Per-step tables hold one row per step of each sequence, up to its length."""
    if hasattr(predictions, "labels"):
        text = [" ".join(map(str, row)) for row in predictions.labels]
        width = max([len(t) for t in text] + [1])
        return [("index", "<i8", np.arange(len(text))), ("labels", f"<U{width}", np.array(text, dtype=f"<U{width}"))]
    if hasattr(predictions, "values"):
        v = np.asarray(predictions.values, np.float64)
        per_step = v.ndim == 3
        if per_step:
            N, T, O = v.shape
            keep = ~np.isnan(v).all(axis=2)                                   # (N,T) steps up to each length
            n, t = np.nonzero(keep)
            cols = [("index", "<i8", n), ("step", "<i8", t)]
            v = v[keep]                                                       # (rows,O)
        else:
            cols = [("index", "<i8", np.arange(len(v)))]
        names = ["value"] if v.shape[1] == 1 else [f"value_{k}" for k in range(v.shape[1])]
        return cols + [(name, "<f8", v[:, k]) for k, name in enumerate(names)]
    classes = np.asarray(predictions.classes)
    prob = np.asarray(predictions.probability, np.float64)
    if classes.ndim == 2:
        n, t = np.nonzero(classes >= 0)
        return [("index", "<i8", n), ("step", "<i8", t), ("class", "<i8", classes[n, t]),
                ("probability", "<f8", prob[n, t])]
    return [("index", "<i8", np.arange(len(classes))), ("class", "<i8", classes), ("probability", "<f8", prob)]


def write_predictions(path, predictions):
    """Write the table of ``prediction_columns`` to ``path`` (.csv with a header, or .npy holding a structured
    array with the same fields; no pickle), atomically. -> the number of rows."""
    from lnrnn.files import write_output_file

    check_out(path)
    cols = prediction_columns(predictions)
    rows = len(cols[0][2])
    if str(path).lower().endswith(".npy"):
        table = np.empty(rows, dtype=[(name, dt) for name, dt, _ in cols])
        for name, _, a in cols:
            table[name] = a
        write_output_file(path, lambda f: np.save(f, table, allow_pickle=False))
    else:
        fmt = [(lambda v: f"{v:.6g}") if dt == "<f8" else str for _, dt, _ in cols]
        lines = [",".join(name for name, _, _ in cols)]
        lines += [",".join(f(a[i]) for f, (_, _, a) in zip(fmt, cols)) for i in range(rows)]
        text = ("\n".join(lines) + "\n").encode("utf-8")
        write_output_file(path, lambda f: f.write(text))
    return rows
