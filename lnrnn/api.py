"""The Python entry points behind the CLI: load a run folder, evaluate it, predict with it, sample from
it, export its weights. The commands in ``lnrnn/commands/`` are thin wrappers over these, so a script
gets the same checks and the same numbers as ``lnrnn eval/predict/sample/export``.

    run = lnrnn.load_run("runs/default")                 # the model, the task it was trained on, its settings
    lnrnn.evaluate_run(run).metrics                      # {'loss': ..., 'acc': ...} on the validation set
    p = lnrnn.predict(run, x)                            # x (N,T) or (N,T,I): p.classes (N,), p.probabilities (N,C)
    lines = lnrnn.sample_run(run, steps=700, count=4)    # handwriting: [(700,3) stroke-3 arrays]
    texts = lnrnn.read(run, "line.npy")                  # a reader (--head ctc): one str per line
    lnrnn.export_run(run, "weights.safetensors")         # documented names, PyTorch's nn.LSTM ones included
    run = lnrnn.fit(x, y, cell="ln-lstm", out="runs/mine", epochs=5)   # train on your own arrays (docs/your_data.md)

Every call runs inside ``lnrnn.kernel_threads()`` (single-threaded BLAS under the kernels' threads) and
with the batch blocks the run was trained with (its --block-rows: the same numbers as the run reported),
and every problem a user can cause is a ``lnrnn.errors.UserError`` with a one-sentence message.
"""
from dataclasses import dataclass, field

import numpy as np

from lnrnn.config import BLOCK_ROWS
from lnrnn.data.tasks import load_task
from lnrnn.errors import CheckpointError, UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.threadscope import scoped


@dataclass
class Run:
    """A trained run, loaded: ``model`` (a ``lnrnn.model.models.SequenceModel``, inference-ready), ``meta`` (the
    checkpoint's description: settings, task spec, metrics history) and where it came from."""

    path: str
    meta: dict = field(repr=False)
    model: object = field(repr=False)

    def __repr__(self):
        return f"Run({self.path!r}: {self.describe()})"

    @property
    def config(self):
        """The model config (cell, norm, sizes, head)."""
        return self.model.config

    @property
    def task_spec(self):
        """How the run's task is rebuilt (``lnrnn.data.tasks.load_task``)."""
        return dict(self.meta.get("task") or {})

    @property
    def train_config(self):
        """The settings the run was trained with (``TrainConfig`` fields)."""
        return dict(self.meta.get("train") or {})

    @property
    def block_rows(self):
        """The rows a batch block held at least when the run trained (its --block-rows; runs saved before
        the setting existed get config.BLOCK_ROWS)."""
        return int(self.train_config.get("block_rows") or BLOCK_ROWS)

    @property
    def step(self):
        return self.meta.get("step")

    @property
    def epoch(self):
        return self.meta.get("epoch")

    def describe(self):
        m = self.config
        named = m['cell'] if m['norm'] == "none" else f"{m['norm']}-{m['cell']}"  # the --cell spelling
        cell = self.train_config.get("cell", named)
        return (f"{cell} (hidden {m['hidden_size']}, {m['num_layers']} layer{'s' * (m['num_layers'] > 1)}) after "
                f"{self.epoch} finished epoch{'s' * (self.epoch != 1)}, {self.step} update{'s' * (self.step != 1)}")


def load_run(path, device="cpu"):
    """A run folder (``lnrnn train --out DIR``) or its checkpoint.json -> ``Run``. The checkpoint is
    verified (hash, names, shapes) and the model rebuilt from its own description."""
    from lnrnn.backend import DEVICES
    from lnrnn.training.evaluation import model_from_run

    if device not in DEVICES:  # the caller's argument, not the checkpoint's description, is wrong
        raise UserError(f"device must be one of {', '.join(map(repr, DEVICES))}, not {device!r}.")
    meta, model = model_from_run(path, device)
    return Run(str(path), meta, model)


def _as_run(run):
    return run if isinstance(run, Run) else load_run(run)


@dataclass
class Evaluation:
    """What ``evaluate_run`` measured: the head's metrics (loss, acc, ...) over ``sequences`` sequences."""

    metrics: dict
    sequences: int
    which: str
    task: object = field(repr=False)  # the built task (lnrnn.data.tasks.TaskData or a stroke task)


@scoped
def evaluate_run(run, which="val", data_dir=None, split=None, batch_size=None):
    """The head's metrics of a run (a ``Run`` or a run folder) on its task's 'val' or 'train' set.

    The task is rebuilt from the checkpoint; ``data_dir`` and ``split`` override where its data come from
    (the data must still fit the model: same inputs, same head). Handwriting is read as the run read its own:
    offsets divided by the run's offset scale, texts in the run's alphabet (``StrokeTask.as_trained``)."""
    from lnrnn.config import task_defaults
    from lnrnn.training.evaluation import evaluate
    from lnrnn.training.plan import task_head

    run = _as_run(run)
    spec = run.task_spec
    if "task" not in spec:
        raise CheckpointError(f"checkpoint {run.path} does not say which task it was trained on; it is corrupt.")
    if which not in ("val", "train"):
        raise UserError(f"which must be 'val' or 'train', not {which!r}.")
    if batch_size is not None:
        _count(batch_size, "batch_size")
    if data_dir is not None:
        spec["data_dir"] = str(data_dir)
    if split is not None:
        spec["split"] = split
    task = load_task(spec)  # every option the run was trained with (charset, ...), the overrides applied
    m = run.config
    if hasattr(task, "as_trained") and "scale" in m["head"]:  # other data read in the run's units and alphabet
        from lnrnn.sample import writer_alphabet
        alphabet = (require_reader(run)[0] if m["head"]["kind"] == "ctc" else
                    writer_alphabet(run.model, run.meta.get("text"), f"the run in {run.path}")
                    if run.model.conditioned else None)
        task = task.as_trained(m["head"]["scale"], alphabet)
    head, want = m["head"], task_head(task)
    if m["input_size"] != task.input_size or head != want:
        raise CheckpointError(f"checkpoint {run.path} expects {_how_many(m['input_size'], 'input')} and a "
                              f"{_head_words(head)}, but {task.spec['task']} has "
                              f"{_how_many(task.input_size, 'input')} and needs a {_head_words(want)}.")
    # the run's own evaluation batch size by default: BN state noise is drawn per batch, so its figures
    # reproduce the run's only when batched as the run was
    batch_size = batch_size or run.train_config.get("eval_batch_size") or task_defaults(spec["task"])["eval_batch_size"]
    with block_rows(run.block_rows):
        means = evaluate(run.model, task, which, batch_size)
    return Evaluation(means, task.size(which), which, task)


def _count(value, name, hint="", least=1):
    """value as an int of at least ``least`` (a batch size, a beam; a seed from 0); UserError naming it otherwise
    (a bool, a float, a smaller number)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise UserError(f"{name} must be a whole number of at least {least}{hint}, not {value!r}.")
    return int(value)


def _how_many(n, noun):
    """'1 input', '3 inputs'."""
    return f"{n} {noun}{'s' * (n != 1)}"


def _head_words(head):
    """'classifier head with 10 outputs', 'regression head with 1 output', 'mdn head with 20 components'."""
    if "outputs" in head:
        return f"{head['kind']} head with {_how_many(head['outputs'], 'output')}"
    return f"{head['kind']} head with {_how_many(head.get('components', '?'), 'component')}"


@dataclass
class Predictions:
    """``classes`` (N,) int64: the most probable class of each sequence; ``probabilities`` (N,C) float64:
    the softmax of the head's outputs. ``probability`` (N,): that of the predicted class."""

    classes: np.ndarray
    probabilities: np.ndarray

    @property
    def probability(self):
        return self.probabilities[np.arange(len(self.classes)), self.classes]


@dataclass
class StepPredictions:
    """A per-step classifier's outputs: ``classes`` (N,T) int64, the most probable class at each step (-1
    past a sequence's length); ``probabilities`` (N,T,C) float64; ``lengths`` (N,) the steps of each."""

    classes: np.ndarray
    probabilities: np.ndarray
    lengths: np.ndarray

    @property
    def probability(self):
        """(N,T): that of the predicted class at each step (NaN past a sequence's length)."""
        p = np.take_along_axis(self.probabilities, np.maximum(self.classes, 0)[..., None], axis=-1)[..., 0]
        return np.where(self.classes >= 0, p, np.nan)


@dataclass
class Values:
    """A regression head's outputs: ``values`` (N,O) float64 at the last step, or (N,T,O) at every step
    (NaN past a sequence's length); ``lengths`` (N,) the steps of each."""

    values: np.ndarray
    lengths: np.ndarray


@dataclass
class Labels:
    """A CTC head's outputs: ``labels``, per sequence the list of its labels (the best path, collapsed)."""

    labels: list


def require_predictable(run):
    """UserError (one sentence, naming what to use instead) for a run whose head predicts nothing per
    sequence or step that ``predict`` could write: the mixture density head draws handwriting."""
    head = run.model.head
    if head.kind == "mdn":
        raise UserError(f"the run in {run.path} draws handwriting (a mixture density head, "
                        f"{run.task_spec.get('task', '?')}): use lnrnn sample to draw it, or lnrnn eval for its "
                        "likelihood.")
    if head.kind == "ctc" and getattr(head, "scale", None) is not None:
        raise UserError(f"the run in {run.path} reads handwriting ({run.task_spec.get('task', '?')} --head ctc): use "
                        "lnrnn read, which normalizes each line as the run's training lines were.")



@scoped
def predict(run, x, lengths=None, batch_size=500, progress=None):
    """The outputs of a run for new sequences, as its head gives them:

        classifier, last step     ``Predictions``: the class of each sequence and the probabilities
        classifier, every step    ``StepPredictions``: the class of each step (-1 past a sequence's length)
        regression                ``Values``: (N,O) at the last step, or (N,T,O) at every step
        ctc                       ``Labels``: each sequence's label sequence (best path)

    x: (N,T) for one input per step, or (N,T,I), batch-major, already scaled as the run's task presents
    its data (pixels in [0, 1] for the MNIST family); lengths: (N,) for right-padded sequences, or None.
    The model runs in inference mode (BatchNorm's population statistics) with the initial states
    ``evaluate_run`` uses, so predictions and evaluated metrics agree. ``progress``: a
    ``lnrnn.training.progress.Progress`` over N sequences, updated after every batch. A mixture density
    run is refused (``lnrnn.sample_run`` draws it)."""
    from lnrnn.predict_io import check_inputs, softmax

    run = _as_run(run)
    model = run.model
    head = model.head
    require_predictable(run)
    batch_size = _count(batch_size, "batch_size")
    x = check_inputs(x, model.config["input_size"], run.path)
    N, T = x.shape[0], x.shape[1]
    if lengths is not None:
        lengths = np.asarray(lengths)
        if lengths.shape != (N,) or not np.issubdtype(lengths.dtype, np.integer) or \
                np.any(lengths < 1) or np.any(lengths > T):
            raise UserError(f"lengths must be N={N} integers between 1 and T={T}.")
    L = np.full(N, T, np.int64) if lengths is None else lengths.astype(np.int64)
    every = head.per_step or head.kind == "ctc"
    out = np.empty((N, T, head.O) if every else (N, head.O))                     # the head's outputs
    with block_rows(run.block_rows):
        for i, s in enumerate(range(0, N, batch_size)):
            e = min(s + batch_size, N)
            xb = np.ascontiguousarray(x[s:e].transpose(1, 0, 2), dtype=model.dtype)  # (T,B,I)
            lb = None if lengths is None else L[s:e]
            state = model.noise_state(e - s, (2, i))  # evaluate's draw for batch i
            y, _, _ = model._run(xb, state, False, lb, 0)
            if every:
                out[s:e] = np.swapaxes(head.linear(y), 0, 1).astype(np.float64)   # (B,T,O)
            else:
                out[s:e] = head.linear(model._select(y, T, L[s:e], 0)[0]).astype(np.float64)  # each row's last
            if progress is not None:
                progress.update(e - s)
    past = np.arange(T)[None, :] >= L[:, None] if every else None                # (N,T) steps after the end
    if head.kind == "ctc":
        from lnrnn.model.decode import best_path
        return Labels(best_path(np.swapaxes(out, 0, 1), L))
    if head.kind == "regression":
        if every:
            out[past] = np.nan
        return Values(out, L)
    probs = softmax(out)
    if not every:
        return Predictions(probs.argmax(1).astype(np.int64), probs)
    classes = probs.argmax(-1).astype(np.int64)
    classes[past] = -1
    return StepPredictions(classes, probs, L)


def require_reader(run):
    """-> (alphabet, scale) of a handwriting reader (``lnrnn train --head ctc`` on a stroke task with text);
    a UserError naming what the run is instead for any other run; a CheckpointError for a reader whose alphabet
    is missing, repeats a character or disagrees with its CTC classes."""
    head = run.model.head
    record = run.meta.get("text")
    alphabet = record.get("alphabet") if isinstance(record, dict) else None
    if head.kind != "ctc" or getattr(head, "scale", None) is None:
        raise UserError(f"the run in {run.path} is not a handwriting reader (it has a {head.kind} head on "
                        f"{run.task_spec.get('task', '?')}); train one with lnrnn train --task strokes-hershey "
                        "--head ctc.")
    from lnrnn.data.strokes import CTC_SHIFT
    if not isinstance(alphabet, str) or not alphabet or len(set(alphabet)) != len(alphabet):
        raise CheckpointError(f"the run in {run.path} reads handwriting, but its checkpoint does not record the "
                              "alphabet of its training texts (distinct characters, one per CTC class); it is "
                              "corrupt.")
    if len(alphabet) + CTC_SHIFT != head.O:
        raise CheckpointError(f"the run in {run.path} has {head.O} CTC classes but an alphabet of {len(alphabet)} "
                              "characters; its checkpoint is corrupt.")
    return alphabet, head.scale


@scoped
def read(run, strokes, beam=1, batch_size=None, progress=None):
    """Transcribe handwriting with a reader run (``lnrnn train --head ctc``) -> one str per line.

    strokes: an (N,3) stroke-3 array (one line), a list of them, or a file (``lnrnn.data.stroke_files.read_lines``:
    .npy, .npz of points and lengths, IAM-OnDB line .xml), in the units of the run's data (what its task read,
    before normalization). Each line is normalized as the training lines were (glitch steps dropped, offsets
    divided by the run's scale) and read whole. beam 1: the best path; N > 1: prefix beam search of width N
    (``lnrnn.model.decode``). Lines are batched ``batch_size`` at a time (None: the run's evaluation batch)
    with evaluation's initial states, so the run's own validation lines read as its cer was measured.
    ``progress``: a ``lnrnn.training.progress.Progress`` over the lines."""
    import os

    from lnrnn.config import task_defaults
    from lnrnn.data.stroke_files import read_lines
    from lnrnn.data.strokes import classes_to_text, normalize_line
    from lnrnn.model.decode import beam_search, best_path
    from lnrnn.sample import check_stroke3

    run = _as_run(run)
    alphabet, scale = require_reader(run)
    _count(beam, "beam", " (1: best path)")
    if isinstance(strokes, (str, os.PathLike)):
        lines = read_lines(strokes)
    elif isinstance(strokes, np.ndarray) and strokes.ndim == 2:
        lines = [check_stroke3(strokes, "strokes")]
    else:
        lines = [check_stroke3(s, f"line {i + 1} of strokes") for i, s in enumerate(strokes)]
    if batch_size is not None:
        _count(batch_size, "batch_size")
    batch_size = int(batch_size or run.train_config.get("eval_batch_size")
                     or task_defaults(run.task_spec.get("task"))["eval_batch_size"])
    model, head = run.model, run.model.head
    lines = [normalize_line(ln, scale) for ln in lines]
    if beam > 1 and lines:  # the longest line's search, before any is read
        from lnrnn.model.beam import search_bytes
        from lnrnn.training.memory import refuse_beyond
        T = max(len(ln) for ln in lines)
        refuse_beyond(search_bytes(T, head.O, beam), f"a beam of {beam:,} prefixes over a line of {T:,} steps",
                      "a smaller beam (1: the best path)")
    out = []
    with block_rows(run.block_rows):
        for i, s in enumerate(range(0, len(lines), batch_size)):
            part = lines[s:s + batch_size]
            lengths = np.array([len(p) for p in part], np.int64)                    # (B,)
            x = np.zeros((int(lengths.max()), len(part), 3), model.dtype)          # (T,B,3)
            for b, p in enumerate(part):
                x[:len(p), b] = p
            state = model.noise_state(len(part), (2, i))  # evaluate's draw for batch i
            y = np.concatenate([y for _, _, y in model._infer_chunks(x, state, lengths)])   # (T,B,H)
            logp = head.log_probs(y, lengths)                                       # (T,B,C)
            labels = best_path(logp, lengths) if beam == 1 else beam_search(logp, int(beam), lengths)
            out += [classes_to_text(row, alphabet) for row in labels]
            if progress is not None:
                progress.update(len(part))
    return out


@scoped
def sample_run(run, steps=700, count=1, bias=0.0, seed=0, progress=None, text=None, prime_strokes=None,
               prime_text=None):
    """Handwriting from a run of a strokes task: ``count`` lists of ``steps`` stroke-3 points -> list of
    (steps, 3) float64 arrays (dx, dy in the data's units, pen). Same seed, same samples; ``bias`` is
    Graves's sampling bias (0: the trained distribution, larger: neater). ``progress``: a
    ``lnrnn.training.progress.Progress`` over steps * count points, updated after every step.

    A synthesis run (trained with an attention window) writes ``text``, a str or a list of str (one line,
    one sample each; ``count`` must then be 1 or their number) -> list of ``lnrnn.sample.Written``: each
    line's points, its alignment phi (points x characters), whether it reached ``steps`` (the cap) before
    Graves's stop rule ended it. Every character must be in the run's alphabet. ``prime_strokes``: a
    stroke-3 array (P,3) in data units, or a .npz/.npy file of one (``lnrnn.sample.read_stroke3``), with
    ``prime_text``, the text it writes: the lines are written in its style (``lnrnn.sample``)."""
    import os

    from lnrnn.sample import check_stroke3, read_stroke3, sample_strokes, text_inputs

    for what, v in (("steps", steps), ("count", count)):
        if int(v) < 1:
            raise UserError(f"{what} must be at least 1, not {v}.")
    if not (bias >= 0 and np.isfinite(bias)):
        raise UserError(f"bias must be 0 or positive, not {bias}.")
    _count(seed, "seed", least=0)
    run = _as_run(run)
    lines = [text] if isinstance(text, str) else (None if text is None else list(text))
    if isinstance(prime_strokes, (str, os.PathLike)):
        prime_strokes = read_stroke3(prime_strokes)
    elif prime_strokes is not None:
        prime_strokes = check_stroke3(prime_strokes, "prime_strokes")
    codes, prime, alphabet = text_inputs(run.model, run.meta.get("text"), lines, prime_strokes, prime_text,
                                         source=f"the run in {run.path}")
    if codes is not None:
        if int(count) not in (1, len(codes)):
            raise UserError(f"count is {count} but text holds {len(codes)} line{'s' * (len(codes) != 1)}: each line "
                            "is one sample (leave count at 1).")
        count = len(codes)
    with block_rows(run.block_rows):
        return sample_strokes(run.model, int(steps), int(count), float(bias), int(seed), progress=progress,
                              text=codes, prime=prime, alphabet=alphabet)


def export_run(run, path, fmt="safetensors"):
    """Write the run's weights to ``path`` in ``fmt`` (safetensors) under the names ``lnrnn.interop.export``
    documents (PyTorch's nn.LSTM/nn.RNN names for plain cells, lnrnn's for the rest). -> {name: shape}."""
    from lnrnn.interop.export import export_weights

    return export_weights(_as_run(run), path, fmt)


DATA_FILE = "data.npz"  # what ``fit`` writes into the run folder: the arrays its task (npz) reads back
FIT_FIXED = ("task", "data_dir", "charset", "allow_pickle", "steps", "out", "cell", "objective")


def fit(x, y, cell="ln-lstm", out=None, lengths=None, x_val=None, y_val=None, lengths_val=None, objective=None,
        quiet=True, **train_options):
    """Train a model on your own arrays -> the trained ``Run``: ``lnrnn train --task npz`` in Python.

    x (N,T,I) or (N,T); y (N,) integer classes or float targets, or (N,T) per step (classes: -1 not scored);
    lengths (N,) for right-padded sequences; x_val, y_val (and lengths_val): the validation set (else 10%
    held out by a fixed seed; ``split="A/B"`` for counts). ``objective`` 'ce' or 'mse' overrides y's dtype.
    ``train_options``: any other ``lnrnn train`` option by its TrainConfig name (epochs=5, hidden=128,
    eval_every=50, patience=3, ...). The arrays are checked as the npz task checks a file (one-sentence
    ``DataError``), then written pickle-free to ``out``/data.npz, which the run's task reads (``lnrnn eval``,
    ``--resume``). ``out`` None: runs/default, or the first free runs/default-N. Progress bars are off unless
    ``quiet=False``; the summary line goes to stderr."""
    import dataclasses
    import os

    from lnrnn.data.arrays import check_arrays
    from lnrnn.files import atomic_write
    from lnrnn.training.checkpoint import checkpoint_exists
    from lnrnn.training.plan import resolve_defaults, validate
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.rundir import check_writable, fresh_default

    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    for name in train_options:
        if name in FIT_FIXED or name not in fields:
            known = ", ".join(sorted(fields - set(FIT_FIXED)))
            raise UserError(f"fit() takes no training option {name!r}; the options are: {known}.")
    given = {"x": x, "y": y, "lengths": lengths, "x_val": x_val, "y_val": y_val, "lengths_val": lengths_val}
    checked = check_arrays(given, "fit()", objective)  # every check of the npz task, before anything is written
    arrays = {k: checked[k] for k in ("x", "y", "lengths", "x_val", "y_val", "lengths_val") if checked.get(k) is not None}
    out = str(out) if out is not None else fresh_default()
    check_writable(out)
    if checkpoint_exists(out):
        raise UserError(f"{out} already holds a run; choose another out (or resume it with lnrnn train --out {out} "
                        "--resume).")
    path = os.path.join(out, DATA_FILE)
    cfg = TrainConfig(cell=cell, task="npz", data_dir=path, out=out, objective=objective, **train_options)
    validate(resolve_defaults(cfg))  # a nonsensical option is refused before the data are written
    from lnrnn.data.tasks import parse_split
    if parse_split(cfg.split) is not None and x_val is not None:
        raise UserError("fit() got both x_val and split; give one way of choosing the validation set.")
    os.makedirs(out, exist_ok=True)
    atomic_write(path, lambda f: np.savez(f, **arrays))
    from lnrnn.training.train import train
    train(cfg, quiet=quiet)
    return load_run(out)
