"""The task registry: every sequence task lnrnn trains on, built deterministically from a spec.

A task spec is a small JSON-able dict (``{"task": "mnist", "data_dir": ..., "split": "8000/2000"}``)
saved in checkpoints, so that ``lnrnn eval`` and ``--resume`` rebuild exactly the same data.

Tasks (x is presented time-major (T, B, I); labels per sample unless said otherwise)
    digits      scikit-learn's bundled 8x8 handwritten digits (1797 images, no download), read pixel by
                pixel: T=64, I=1, values scaled to [0, 1]; 10 classes; 1437 train / 360 validation,
                or ``--split A/B`` of the 1797.
    digits-binary  as digits, each pixel 1 (ink: 8 or more of 16) or 0; the default task. With one input
                per step the LN-LSTM's LN(x Wx) keeps only whether a pixel is zero, not its value, so on
                gray digits the plain LSTM sees more than it does; on ink-or-not pixels both cells see the
                same sequence, and LN's faster training shows (docs/results.md, "The default run").
    mnist       MNIST from --data-dir, pixel by pixel: T=784, I=1, scaled to [0, 1]; 10 classes.
    pmnist      as mnist, pixels in one fixed permutation (seed 0) that moves every pixel.
    mnist-rows  as mnist, one image row per step: T=28, I=28.
                The same loader reads Fashion-MNIST (identical file names and format): point
                --data-dir at its files. Train/validation: the train files / the t10k files; or, with
                ``--split A/B``, A training and B validation images drawn (fixed seed 0) from the t10k
                files alone (e.g. 8000/2000 when only the 10k test split is at hand).
    adding      the adding problem (Hochreiter & Schmidhuber 1997): I=2 (a value in [0,1), a marker
                that is 1 at two positions, one in each half), T=--steps (default 100); target: the
                sum of the two marked values; regression (mean squared error, a single output).
                "Accuracy" is the fraction of predictions within 0.04 of the target. Predicting 1
                always scores an MSE of about 0.167.
    copy        copy memory (Arjovsky et al. 2016): 10 symbols from an alphabet of 8, then
                --steps (default 50) blanks with a delimiter on the last of them, then 10 blanks;
                inputs are one-hot over 10 codes (0 blank, 1-8 symbols, 9 delimiter), T=steps+20.
                The model must output the 10 symbols during the last 10 steps: a per-step head,
                scored on those 10 steps only (labels are -1, i.e. not scored, elsewhere); 8 classes.
                Chance accuracy is 1/8.
The synthetic tasks draw 10000 training and 1000 validation sequences from a fixed seed.

Stroke tasks (online handwriting, ``lnrnn.data.strokes``): variable-length lines of stroke-3 points
(dx, dy, pen), I=3, next-point prediction on every step with a mixture density head; a built stroke task
is a ``strokes.StrokeTask`` (same attributes where they apply, batches with lengths).
    strokes            IAM-OnDB from --data-dir (the folder holding lineStrokes/, or lineStrokes/ itself;
                       optional ascii/ transcriptions beside it); train/validation split by form.
    strokes-kanjivg    KanjiVG characters (the optional ``kanjivg`` package, or --data-dir: a folder of
                       its SVG files), spec key "charset" latin (default: digits, A-Z, a-z) | kana | kanji,
                       augmented and joined into lines; split by character design; --split A/B lines
                       (default 2000/200).
    strokes-npz        stroke-3 arrays from --data-dir: an .npz/.npy file, or a folder holding one;
                       object arrays (pickle) only with the spec key "allow_pickle": true.
    strokes-synthetic  generated handwriting-like lines (no download), --split A/B lines (default 2000/200).
    The stroke tasks whose lines can carry text (strokes with ascii/, strokes-kanjivg, strokes-hershey) take the
    spec key "head": "ctc" (``lnrnn train --head ctc``): read each whole line with a CTC head, its text the
    target (``strokes.ReadingTask``), instead of predicting the next point.

Your own data (``lnrnn.data.arrays``, docs/your_data.md):
    npz         arrays x (N, T, I) or (N, T), y (N,) or (N, T), optional lengths (N,) and x_val, y_val from
                the .npz file --data-dir; classes or regression by y's dtype (spec key "objective"
                overrides); --split A/B counts, or 10% held out (fixed seed) when the file has no x_val.
"""
from typing import Callable, NamedTuple, Optional

import numpy as np

from lnrnn.data.splits import parse_split  # noqa: F401  (re-exported)
from lnrnn.data.taskdata import TaskData  # noqa: F401  (re-exported: the readers' result)
from lnrnn.errors import DataError, UserError

DATA_SEED = 0            # seed of synthetic data, of train/validation splits and of the pmnist permutation
SYNTHETIC_TRAIN = 10000  # training sequences of the synthetic tasks
SYNTHETIC_VAL = 1000     # validation sequences of the synthetic tasks
ADDING_TOLERANCE = 0.04  # an adding-problem prediction within this of the target counts as correct
COPY_SYMBOLS = 10        # symbols to remember in the copy task
COPY_ALPHABET = 8        # distinct symbols
DIGITS_SPLIT = (1437, 360)  # train/validation images of the 1797 digits without --split
DIGITS_INK = 8.0  # digits-binary: a pixel of at least this (of 16) is ink, 1; below it, 0
MNIST_SPLIT = (60000, 10000)  # the train files / the t10k files without --split


def _split_pool(x, y, split, what):
    a, b = split
    if a + b > len(x):
        raise UserError(f"--split {a}/{b} asks for {a + b} samples but {what} holds only {len(x)}.")
    perm = np.random.default_rng(DATA_SEED).permutation(len(x))
    return x[perm[:a]], y[perm[:a]], x[perm[a:a + b]], y[perm[a:a + b]]


def _digits(spec):
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise UserError("the digits task needs scikit-learn: pip install scikit-learn.") from None
    d = load_digits()
    x = d.images.reshape(len(d.images), 64, 1).astype(np.float32)  # pixel values 0..16
    binary = spec["task"] == "digits-binary"
    x = (x >= DIGITS_INK).astype(np.float32) if binary else x / 16.0
    y = d.target.astype(np.int64)
    split = parse_split(spec.get("split")) or DIGITS_SPLIT
    xt, yt, xv, yv = _split_pool(x, y, split, "the digits data set")
    pixels = f"1 where a pixel is {DIGITS_INK:g} or more of 16, else 0" if binary else "values in [0, 1]"
    return TaskData(spec, f"scikit-learn 8x8 digits read pixel by pixel (64 steps of 1 input, {pixels}), "
                    f"{len(xt)} train / {len(xv)} validation images, 10 classes",
                    xt, yt, xv, yv, num_classes=10, extra={"constant_prefix": True})


def pmnist_permutation(n=784):
    """The fixed pmnist pixel order: a seeded random permutation redrawn until it moves every pixel."""
    rng = np.random.default_rng(DATA_SEED)
    while True:
        perm = rng.permutation(n)
        if not np.any(perm == np.arange(n)):
            return perm


def _mnist_family(spec):
    from lnrnn.data.idx import load_mnist_split, mnist_files_present, MNIST_FILES, GET_DATA_HINT
    data_dir, split = spec.get("data_dir"), parse_split(spec.get("split"))
    if split is not None:
        xi, yi = load_mnist_split(data_dir, "t10k")
        xt, yt, xv, yv = _split_pool(xi, yi, split, "the t10k files")
        origin = f"{len(xt)} train / {len(xv)} validation images split from the t10k files"
    else:
        if data_dir is not None and not mnist_files_present(data_dir, "train") \
                and mnist_files_present(data_dir, "t10k"):
            raise DataError(f"{data_dir} has only the t10k files (no {MNIST_FILES['train'][0]}[.gz]); "
                            f"pass --split 8000/2000 to train on part of them, or {GET_DATA_HINT}.")
        xt, yt = load_mnist_split(data_dir, "train")
        xv, yv = load_mnist_split(data_dir, "t10k")
        origin = f"{len(xt)} train images, {len(xv)} t10k images for validation"
    n, rows, cols = xt.shape
    if xv.shape[1:] != (rows, cols):
        raise DataError(f"train images are {rows}x{cols} but validation images are "
                        f"{xv.shape[1]}x{xv.shape[2]}; the files do not belong together.")
    task = spec["task"]
    if task == "mnist-rows":
        xt, xv = xt.reshape(-1, rows, cols), xv.reshape(-1, rows, cols)
        how = f"row by row ({rows} steps of {cols})"
    else:
        xt, xv = xt.reshape(-1, rows * cols, 1), xv.reshape(-1, rows * cols, 1)
        how = f"pixel by pixel ({rows * cols} steps of 1)"
        if task == "pmnist":
            perm = pmnist_permutation(rows * cols)
            xt, xv = xt[:, perm], xv[:, perm]
            how = "pixel by pixel in a fixed permutation " + how[len("pixel by pixel "):]
    return TaskData(spec, f"{task} from {data_dir} read {how}, {origin}, 10 classes",
                    np.ascontiguousarray(xt), yt, np.ascontiguousarray(xv), yv,
                    num_classes=10, scale=1.0 / 255.0, extra={"constant_prefix": task != "pmnist"})


def _adding_sequences(rng, n, T):
    x = np.zeros((n, T, 2), np.float32)
    x[:, :, 0] = rng.random((n, T), dtype=np.float32)
    half = T // 2
    first = rng.integers(0, half, n)
    second = rng.integers(half, T, n)
    rows = np.arange(n)
    x[rows, first, 1] = 1.0
    x[rows, second, 1] = 1.0
    y = (x[rows, first, 0] + x[rows, second, 0]).astype(np.float32)
    return x, y


def _steps(spec, default, least, task):
    """The task's --steps (``default`` when not given; 0 is a value, refused like any below ``least``)."""
    T = default if spec.get("steps") is None else int(spec["steps"])
    if T < least:
        raise UserError(f"the {task} needs --steps of at least {least}, not {T}.")
    return T


def _adding_steps(spec):
    return _steps(spec, 100, 2, "adding problem")


def _copy_delay(spec):
    return _steps(spec, 50, 1, "copy task")


def _adding(spec):
    T = _adding_steps(spec)
    rng = np.random.default_rng(DATA_SEED)
    xt, yt = _adding_sequences(rng, SYNTHETIC_TRAIN, T)
    xv, yv = _adding_sequences(rng, SYNTHETIC_VAL, T)
    return TaskData(spec, f"adding problem with {T} steps of 2 inputs (regression, accuracy = within "
                    f"{ADDING_TOLERANCE}), {len(xt)} train / {len(xv)} validation sequences",
                    xt, yt, xv, yv, num_classes=1, objective="mse",
                    extra={"tolerance": ADDING_TOLERANCE})


def _copy_sequences(rng, n, delay):
    K = COPY_SYMBOLS
    T = delay + 2 * K
    symbols = rng.integers(1, COPY_ALPHABET + 1, (n, K))
    codes = np.zeros((n, T), np.int64)          # 0 blank
    codes[:, :K] = symbols
    codes[:, K + delay - 1] = COPY_ALPHABET + 1  # delimiter: "now repeat"
    x = np.zeros((n, T, COPY_ALPHABET + 2), np.uint8)
    np.put_along_axis(x, codes[:, :, None], 1, axis=2)
    y = np.full((n, T), -1, np.int64)
    y[:, T - K:] = symbols - 1                   # classes 0..7 on the last K steps
    return x, y


def _copy(spec):
    delay = _copy_delay(spec)
    rng = np.random.default_rng(DATA_SEED)
    xt, yt = _copy_sequences(rng, SYNTHETIC_TRAIN, delay)
    xv, yv = _copy_sequences(rng, SYNTHETIC_VAL, delay)
    return TaskData(spec, f"copy memory: recall {COPY_SYMBOLS} symbols after {delay} blank{'s' * (delay != 1)} "
                    f"({delay + 2 * COPY_SYMBOLS} steps, per-step head scored on the last {COPY_SYMBOLS}), "
                    f"{len(xt)} train / {len(xv)} validation sequences",
                    xt, yt, xv, yv, num_classes=COPY_ALPHABET, per_step=True)


# The stroke readers are imported when one of their tasks is built (plain imports inside the builders).
def _iamondb(spec):
    from lnrnn.data import iamondb
    return iamondb.build(spec)


def _kanjivg(spec):
    from lnrnn.data import kanjivg
    return kanjivg.build(spec)


def _stroke_file(spec):
    from lnrnn.data import stroke_files
    return stroke_files.build(spec)


def _arrays(spec):
    from lnrnn.data import arrays
    return arrays.build(spec)


def _check_objective(value):
    from lnrnn.data import arrays
    return arrays.check_objective(value)


def _strokes_synthetic(spec):
    from lnrnn.data import strokes
    return strokes.build_synthetic(spec)


def _strokes_hershey(spec):
    from lnrnn.data import hershey
    return hershey.build(spec)


def _check_charset(value):
    from lnrnn.data import kanjivg
    return kanjivg.check_charset(value)


TEXT_TASKS = ("strokes", "strokes-kanjivg", "strokes-hershey")  # stroke tasks whose lines can carry text


def _check_head(value):
    if value != "ctc":
        raise UserError(f"task option head must be ctc (read each line's text with a CTC head), not {value!r}; "
                        "leave it out for the task's own head.")
    return value


def check_reading(task):
    """UserError unless ``task`` is a stroke task whose lines can carry text (what --head ctc reads)."""
    if task not in TEXT_TASKS:
        raise UserError(f"--head ctc reads each handwriting line's text as its labels, and the sequences of task "
                        f"{task} carry none; use {', '.join(TEXT_TASKS[::-1])} (IAM-OnDB with its ascii/ "
                        "transcriptions).")


def _check_flag(key, value):
    if not isinstance(value, bool):
        raise UserError(f"task option {key} must be true or false, not {value!r}.")
    return value


class TaskShape(NamedTuple):
    """What a task's spec says of its data before they are built (the memory check runs on it: a
    --steps of ten million is refused before anything is allocated)."""
    steps: int           # T
    inputs: int          # I
    outputs: int         # head outputs
    per_step: bool       # the head scores every step
    n_train: int
    n_val: int
    data_bytes: int      # the sequences and labels in memory (synthetic ones while they are drawn too)


def _digits_shape(spec):
    nt, nv = parse_split(spec.get("split")) or DIGITS_SPLIT
    return TaskShape(64, 1, 10, False, nt, nv, (nt + nv) * (4 * 64 + 8))


def _mnist_shape(spec):
    T, I = (28, 28) if spec["task"] == "mnist-rows" else (784, 1)
    nt, nv = parse_split(spec.get("split")) or MNIST_SPLIT
    return TaskShape(T, I, 10, False, nt, nv, (nt + nv) * (784 + 8))


def _adding_shape(spec):
    T, I = _adding_steps(spec), 2
    per = 2 * (T * I * 4) + 4 + 2 * T * 8  # float32 x, random draws while building
    return TaskShape(T, I, 1, False, SYNTHETIC_TRAIN, SYNTHETIC_VAL, (SYNTHETIC_TRAIN + SYNTHETIC_VAL) * per)


def _copy_shape(spec):
    T, I = _copy_delay(spec) + 2 * COPY_SYMBOLS, COPY_ALPHABET + 2
    per = T * I + 2 * T * 8  # uint8 one-hot, int64 codes and labels
    return TaskShape(T, I, COPY_ALPHABET, True, SYNTHETIC_TRAIN, SYNTHETIC_VAL,
                     (SYNTHETIC_TRAIN + SYNTHETIC_VAL) * per)


class Task(NamedTuple):
    """One row of the registry."""
    build: Callable                   # spec -> TaskData (or StrokeTask)
    help: str                         # one line for --help
    reads: set                        # spec options it takes
    shape: Optional[Callable] = None  # spec -> TaskShape before building; None: known once built (strokes)


TASKS = {
    "digits": Task(_digits, "scikit-learn 8x8 digits pixel by pixel (64 steps, bundled)", {"split"}, _digits_shape),
    "digits-binary": Task(_digits, "the same digits, each pixel ink (1) or not (0): the default", {"split"},
                          _digits_shape),
    "mnist": Task(_mnist_family, "MNIST pixel by pixel (784 steps) from --data-dir", {"data_dir", "split"},
                  _mnist_shape),
    "pmnist": Task(_mnist_family, "permuted-pixel MNIST (784 steps) from --data-dir", {"data_dir", "split"},
                   _mnist_shape),
    "mnist-rows": Task(_mnist_family, "MNIST row by row (28 steps of 28) from --data-dir", {"data_dir", "split"},
                       _mnist_shape),
    "adding": Task(_adding, "adding problem, --steps long (regression)", {"steps"}, _adding_shape),
    "copy": Task(_copy, "copy memory, --steps blanks (per-step head)", {"steps"}, _copy_shape),
    "npz": Task(_arrays, "your own sequences: arrays x, y (optionally lengths, x_val, y_val) in an .npz file "
                "(--data-dir; docs/your_data.md)", {"data_dir", "split", "objective"}),
    "strokes": Task(_iamondb, "IAM-OnDB online handwriting lines from --data-dir (stroke-3, "
                    "mixture density head)", {"data_dir", "head"}),
    "strokes-kanjivg": Task(_kanjivg, "KanjiVG characters joined into handwriting lines "
                            "(pip install 'lnrnn[kanjivg]', or --data-dir of its SVGs)",
                            {"data_dir", "split", "charset", "head"}),
    "strokes-npz": Task(_stroke_file, "stroke-3 sequences from an .npz/.npy file (--data-dir)",
                        {"data_dir", "allow_pickle"}),
    "strokes-synthetic": Task(_strokes_synthetic, "generated handwriting-like strokes (no download)", {"split"}),
    "strokes-hershey": Task(_strokes_hershey, "lines of words in the Hershey single-stroke fonts, with their text "
                            "(pip install 'lnrnn[hershey]')", {"split", "head"}),
}
# Task options beyond the CLI's --data-dir/--split/--steps: spec key -> (default put in the spec or None, check).
OPTIONS = {"charset": ("latin", _check_charset),
           "allow_pickle": (None, lambda v: _check_flag("allow_pickle", v)),
           "objective": (None, _check_objective),
           "head": (None, _check_head)}


def task_spec(task, data_dir=None, split=None, steps=None, **options):
    """Normalized spec of a task; raises UserError for unknown tasks or options it does not take.

    ``options``: the keys of OPTIONS (charset, allow_pickle, objective, head); None means not given. A task
    that reads an option with a default gets it written into its spec, so a checkpoint names it."""
    if not isinstance(task, str) or task not in TASKS:
        raise UserError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}.")
    reads = TASKS[task].reads
    spec = {"task": task}
    for key, val, flag in (("data_dir", data_dir, "--data-dir"), ("split", split, "--split"),
                           ("steps", steps, "--steps")):
        if val is None:
            continue
        if key not in reads:
            raise UserError(f"task {task} does not take {flag}.")
        spec[key] = str(val) if key == "data_dir" else val
    if "split" in spec:
        parse_split(spec["split"])
    for key, val in options.items():
        if key not in OPTIONS:
            raise TypeError(f"task_spec() got an unknown option {key!r}")
        if val is not None and key not in reads:
            if key == "head":
                check_reading(task)
            raise UserError(f"task {task} does not take the option {key}.")
    for key in sorted(reads & set(OPTIONS)):
        default, check = OPTIONS[key]
        val = options.get(key)
        val = default if val is None else val
        if val is not None:
            spec[key] = check(val)
    return spec


def load_task(spec):
    """Build the task of a spec (see ``task_spec``); keys it does not know are ignored."""
    spec = task_spec(spec["task"], spec.get("data_dir"), spec.get("split"), spec.get("steps"),
                     **{k: spec.get(k) for k in OPTIONS})
    return TASKS[spec["task"]].build(spec)


def task_shape(spec):
    """The TaskShape of a spec before its data are built, or None for a task whose shape is known only
    once built (the stroke tasks)."""
    shape = TASKS[spec["task"]].shape
    return None if shape is None else shape(spec)
