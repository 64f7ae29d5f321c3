"""Fine-tuning: a new run that starts from another run's parameters (``--init-from``), and a resumed run
whose learning-rate schedule changes (``--resume --lr``, ``--lr-decay``).

    source = read_source(cfg.init_from)      # its checkpoint: RUN (the latest), RUN/best, RUN/checkpoints/...
    check_settings(source, cfg)              # the shape options, before the task is built
    load_into(model, source)                 # the model config, then the parameters and BN statistics

A new run from ``--init-from`` is a run like any other (its own --out, step 0, a fresh optimizer and
schedule, its own seed for shuffling); only its parameters and BatchNorm running statistics come from
the source, whose model must have the same shape: cell, hidden, layers, bidirectional, skip, window,
dtype, and the task's input size, head and alphabet. Any difference is refused in one sentence naming the
option, before anything is computed or written. The checkpoint's record (``init_record``) goes into the
new run's checkpoints (``"init_from"``); its config.json keeps ``init-from``.

The learning rate of epoch e (0-based) is ``lr * lr_decay ** (e - e0)``, e0 the epoch of the schedule's
last change (0: none). ``--resume`` with an --lr or --lr-decay other than the run's changes the schedule
from the update it resumes at: the new --lr from there on (without --lr: the rate in effect), multiplied
by the (new) --lr-decay after each later epoch. Each change is kept in the checkpoint (``"lr_changes"``)
and said in the run's log; a resume that changes nothing keeps every bit of the uninterrupted run.
"""
import os

from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.models import upgrade_config
from lnrnn.pretrained import resolve
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.evaluation import split_arrays
from lnrnn.training.optim import decayed_lr

# TrainConfig fields a source run must share with a run that starts from it (the model's shape), and the
# model-config keys checked once the task is built, with the option that sets each
SHAPE_SETTINGS = ("cell", "hidden", "layers", "bidirectional", "dtype")
MODEL_KEYS = {"cell": "--cell", "norm": "--cell", "hidden_size": "--hidden", "num_layers": "--layers",
              "bidirectional": "--bidirectional", "dtype": "--dtype", "skip": "--skip/--no-skip",
              "window": "--window", "input_size": "the task's input size (--task)",
              "head": "the task's head (--task, --head, --objective)",
              "alphabet_size": "the task's text alphabet (--task)"}
HEAD_METRIC_ONLY = ("tolerance",)  # head settings that change a metric, not a parameter


class Source:
    """A checkpoint a new run starts from: where it was given, its description and arrays."""

    def __init__(self, given, meta, arrays):
        self.given, self.meta, self.arrays = given, meta, arrays

    @property
    def record(self):
        """What the new run keeps of where it started (checkpoint.json's ``init_from``)."""
        m = self.meta
        return {"path": str(self.given), "step": int(m.get("step", 0)), "best": bool(m.get("best")),
                "cell": (m.get("train") or {}).get("cell"), "task": (m.get("task") or {}).get("task")}



def describe_record(record):
    """'runs/a (update 1800)' or 'runs/a/best (its best checkpoint, update 1530)' of an ``init_record``."""
    return f"{record['path']} ({'its best checkpoint, ' * record['best']}update {record['step']})"


def read_source(given):
    """The checkpoint of ``--init-from`` -> Source; one-sentence CheckpointError when it is not a run's
    checkpoint (no checkpoint there, corrupt, another format, arrays needing pickle)."""
    path = str(given)
    try:
        where = resolve(path)                  # pretrained:NAME: a run shipped with the package
    except CheckpointError as e:
        raise CheckpointError(f"--init-from {path}: {e}") from None
    if not os.path.exists(where):
        raise CheckpointError(f"--init-from {path}: there is nothing there; give the folder of a run "
                              "(the --out of `lnrnn train`).")
    try:
        meta, arrays = load_checkpoint(path)
    except CheckpointError as e:
        raise CheckpointError(f"--init-from {path}: {e}") from None
    train = meta.get("train")  # the model config is a table: load_checkpoint held it to that
    if not isinstance(train, dict) or not all(k in train for k in SHAPE_SETTINGS):
        raise CheckpointError(f"--init-from {path}: the checkpoint there was not written by `lnrnn train` (it "
                              "names no training settings); give a run folder.")
    if not any(k.startswith("param/") for k in arrays):
        raise CheckpointError(f"--init-from {path}: the checkpoint there holds no model parameters.")
    return Source(path, meta, arrays)


def _refuse(source, what, theirs, ours):
    theirs, ours = ({True: "on", False: "off"}.get(v, v) if isinstance(v, bool) else v for v in (theirs, ours))
    fix = f"give {what} {theirs}" if what.startswith("--") else "train on a task of the same shape"
    raise UserError(f"--init-from {source.given}: its model has {what} {theirs}, this run {ours}; the shapes must "
                    f"match: {fix}, or start without --init-from.")


def check_settings(source, cfg):
    """The shape options of a resolved TrainConfig against the source run's (before any data are read)."""
    saved = source.meta["train"]
    for name in SHAPE_SETTINGS:
        if saved.get(name) != getattr(cfg, name):
            _refuse(source, "--" + name, saved.get(name), getattr(cfg, name))


def _shape_of(config):
    config = upgrade_config(config)
    head = config.get("head")                                 # a damaged description's: refused as another head
    head = {k: v for k, v in head.items() if k not in HEAD_METRIC_ONLY} if isinstance(head, dict) else head
    return {**{k: config.get(k) for k in MODEL_KEYS}, "head": head,
            "skip": bool(config.get("skip")), "bidirectional": bool(config.get("bidirectional")),
            "window": int(config.get("window") or 0)}


def load_into(model, source):
    """The source's parameters and BatchNorm statistics into a freshly built model of the same shape
    (its model config compared first, the option of any difference named)."""
    theirs, ours = _shape_of(source.meta["model"]), _shape_of(model.config)
    for key, what in MODEL_KEYS.items():
        if theirs[key] != ours[key]:
            _refuse(source, what, theirs[key], ours[key])
    try:
        model.load_arrays(split_arrays(source.arrays)[0])
    except ValueError as e:
        raise CheckpointError(f"--init-from {source.given}: its arrays do not fit this model ({e}).") from None


# ---- the learning-rate schedule ----
def scheduled_lr(lr, lr_decay, epoch, changes):
    """The learning rate of a (0-based) epoch: lr * lr_decay**(epoch - e0), e0 the last change's epoch."""
    return decayed_lr(lr, lr_decay, epoch - (changes[-1]["epoch"] if changes else 0))


def schedule_change(saved, cfg, epoch, step, changes):
    """A resume's schedule change: None when --lr and --lr-decay are the run's, else the change record
    {step, epoch, lr: [before, after], lr_decay: [before, after]}; sets cfg.lr to the rate from here on
    (the new --lr, or without one the rate in effect)."""
    lr, decay = float(saved["lr"]), float(saved["lr_decay"])
    if cfg.lr == lr and cfg.lr_decay == decay:
        return None
    now = scheduled_lr(lr, decay, epoch, changes)
    new = cfg.lr if cfg.lr != lr else now
    cfg.lr = new
    return {"step": step, "epoch": epoch, "lr": [now, new], "lr_decay": [decay, cfg.lr_decay]}


def describe_change(change):
    """'learning rate 0.003 -> 0.0003 from update 40' (and the decay when it changed: 'learning rate 0.0027
    from update 6, decay 0.9 -> 0.5 per epoch')."""
    (a, b), (da, db) = change["lr"], change["lr_decay"]
    text = f"learning rate {a:g}{f' -> {b:g}' if b != a else ''} from update {change['step']}"
    if da != db:
        text += f", decay {da:g} -> {db:g} per epoch"
    return text
