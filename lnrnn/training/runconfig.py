"""A training run's settings: ``TrainConfig``, one field per ``lnrnn train`` option (None: the task's default,
filled by ``lnrnn.training.plan.resolve``), and the same settings in a file: ``lnrnn train --config FILE``
reads them, and every run folder keeps the ones it ran with in ``config.json``, which ``--config`` accepts back.

A config file is TOML (``.toml``, read with the standard library's ``tomllib``, Python 3.11+) or JSON
(``.json``): one table/object of ``lnrnn train``'s options under their option names, ``batch-size = 32``
(``batch_size`` is accepted too). Options given on the command line override the file. An unknown key or a
value the option refuses is one sentence naming the file and the key. Values go through the same click
types as the command line (choices, numbers, flags), so a file can say nothing the CLI could not.

The run folder's ``config.json`` holds the settings that define the run, task defaults resolved (hidden
size, layers, ...), and leaves out where it was written (``out``) and the stop conditions of one
invocation (``max-steps``, ``time-budget``): ``lnrnn train --config runs/a/config.json --out runs/b``
trains the same run again.
"""
import dataclasses
import json
import os
import typing
from dataclasses import dataclass
from typing import Optional

from lnrnn.config import BLOCK_ROWS
from lnrnn.errors import UserError


@dataclass
class TrainConfig:
    cell: str = "ln-lstm"                 # rnn, lstm, ln-rnn, ln-lstm, bn-rnn, bn-lstm
    task: str = "digits-binary"           # see lnrnn.data.tasks: digits-binary, digits, mnist, pmnist, adding, ...
    data_dir: Optional[str] = None        # folder with the MNIST-family IDX files (mnist tasks)
    split: Optional[str] = None           # TRAIN/VAL counts carved from the t10k files (or from digits)
    steps: Optional[int] = None           # sequence length of the synthetic tasks (adding: T, copy: blanks)
    hidden: Optional[int] = None          # H, hidden units per layer (None: the task's default, TASK_DEFAULTS)
    layers: Optional[int] = None          # stacked recurrent layers (None: the task's default)
    skip: Optional[bool] = None           # Graves's skip connections: input to every layer, every layer to the head
    bidirectional: bool = False           # every layer also runs each sequence backward; the head reads both
    window: Optional[int] = None          # Gaussians of the synthesis network's attention window over each line's
                                          # text (Graves 2013, sec. 5); None: 10 on tasks whose lines carry text,
                                          # else 0 (no window: the unconditional model)
    window_norm: Optional[str] = None     # the norm of the window's layer (layer 1 of the synthesis network):
                                          # "none", "ln" or "bn"; None: config.WINDOW_NORM_DEFAULT
    head: Optional[str] = None            # strokes tasks: None or "mdn", the task's own (next-point prediction);
                                          # "ctc": read each whole line, its text the target (strokes.ReadingTask)
    batch_size: int = 16                  # B, sequences per update
    epochs: int = 20                      # passes over the training set
    lr: float = 3e-3                      # learning rate of the first epoch
    lr_decay: float = 0.9                 # lr of epoch e (0-based) is lr * lr_decay**e
    optimizer: str = "adam"               # adam, rmsprop, sgd (momentum 0.9)
    clip: float = 1.0                     # global gradient-norm limit; 0 turns clipping off
    clip_output: Optional[float] = None   # mixture density head: clip each point's dL/d(outputs) to +-this
    clip_gates: float = 0.0               # LSTM cells: clip dL/d(gate preactivations) to +-this in BPTT; 0: off
    forget_bias: float = 1.0              # initial LSTM forget-gate bias
    init: str = "orthogonal"              # recurrent weights: orthogonal blocks, or identity (Cooijmans et al.)
    seed: int = 0                         # initialization and shuffling
    dtype: str = "float32"                # float32 or float64 parameters and activations
    block_rows: int = BLOCK_ROWS          # rows a batch block holds at least: threads take whole blocks, so
                                          # results are the same on any thread count, not with another value
    reproducible: bool = False            # the same bits on any number of MPI ranks too: every block of a batch
                                          # runs as its own forward and backward, blocks added in block order
    eval_batch_size: Optional[int] = None # sequences per evaluation batch (memory only; None: the task's default)
    charset: Optional[str] = None         # strokes-kanjivg: latin (default), kana or kanji
    allow_pickle: bool = False            # strokes-npz: read object arrays (unpickling runs code: trusted files only)
    objective: Optional[str] = None       # npz: ce (classes) or mse (regression); None: by the labels' dtype
    max_steps: Optional[int] = None       # stop (with a checkpoint) after this many updates in total
    time_budget: Optional[float] = None   # stop (with a checkpoint) after this many seconds of training (a
                                          # resume that does not give it again gets what is left of it)
    eval_every: Optional[int] = None      # also evaluate every this many updates (besides epoch ends)
    best_metric: str = "loss"             # keep RUN/best/ by this validation metric (loss: lowest; acc:
                                          # highest); "none": no best checkpoint
    keep: int = 0                         # also keep the last this many checkpoints in RUN/checkpoints/
    patience: Optional[int] = None        # stop after this many evaluations without a better best_metric
    save_every: Optional[int] = None      # also save a checkpoint every this many updates (mid-epoch too)
    save_every_seconds: float = 600.0     # ...and when this many seconds passed since the last save; 0: off
    tbptt: Optional[int] = None           # truncated BPTT: chunks of this many steps (None: whole sequences)
    state_noise: Optional[float] = None   # std of N(0, s^2) initial states; None: 0.1 for BN cells on tasks
                                          # whose first steps are the same in every sequence, else 0
    device: str = "cpu"                   # cpu, or cuda (the numba-cuda twins; parameters stay on the host)
    out: str = "runs/default"             # run directory: checkpoint, metrics.jsonl, learning_curve.svg
    log_every: int = 10                   # a row of training metrics in updates.jsonl every this many updates
    init_from: Optional[str] = None       # a new run starting from this run's checkpoint (its parameters and
                                          # BN statistics; lnrnn.training.finetune); None: fresh initialization


CONFIG_FILE = "config.json"
NOT_KEPT = ("out", "max_steps", "time_budget")  # where, and when one invocation stops: not the run's settings


def option_name(field_name):
    return field_name.replace("_", "-")


def mistyped(cfg):
    """The first field of ``cfg`` whose value is not of the type TrainConfig declares (None only where Optional;
    a bool is no number), as "hidden 'x' (not an int)"; None when every field is. Settings from a file lnrnn wrote
    (a checkpoint's) go through this: a damaged or hand-edited one fails here, not deep inside the run."""
    for f in dataclasses.fields(TrainConfig):
        value, kind = getattr(cfg, f.name), f.type
        optional = type(None) in typing.get_args(kind)
        if optional:
            kind = next(k for k in typing.get_args(kind) if k is not type(None))
        if value is None and optional:
            continue
        ok = isinstance(value, (int, float) if kind is float else kind)
        if not ok or (kind is not bool and isinstance(value, bool)):
            return f"{option_name(f.name)} {value!r} (not a{'n' if kind is int else ''} {kind.__name__})"
    return None


def write_run_config(out, cfg):
    """Write DIR/config.json from a TrainConfig (task defaults already resolved); None values left out."""
    from lnrnn.files import atomic_write_text
    values = {option_name(k): v for k, v in dataclasses.asdict(cfg).items() if k not in NOT_KEPT and v is not None}
    atomic_write_text(os.path.join(out, CONFIG_FILE), json.dumps(values, indent=2) + "\n")


def read_config_file(path):
    """The {key: value} table of a .toml or .json config file; UserError for anything unreadable."""
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in (".toml", ".json"):
        raise UserError(f"--config {path}: name a .toml or .json file.")
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise UserError(f"--config {path} does not exist.") from None
    except OSError as e:
        raise UserError(f"--config {path} cannot be read ({e.strerror or e}).") from None
    if ext == ".json":
        try:
            table = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise UserError(f"--config {path} is not valid JSON ({e}).") from None
    else:
        try:
            import tomllib
        except ImportError:  # Python 3.10
            raise UserError(f"--config {path}: reading TOML needs Python 3.11 or later; write the file as "
                            "JSON.") from None
        try:
            table = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise UserError(f"--config {path} is not valid TOML ({e}).") from None
    if not isinstance(table, dict):
        raise UserError(f"--config {path} must hold one table of options, not a {type(table).__name__}.")
    return table


def apply_config_file(ctx, path, options, settable):
    """Fill ``options`` (the command's keyword arguments) from the file for every key the command line
    did not give. ``settable``: the option (parameter) names a file may set. -> the names it set."""
    import click
    from click.core import ParameterSource

    params = {p.name: p for p in ctx.command.params}
    given = set()
    for key, value in read_config_file(path).items():
        name = str(key).replace("-", "_")
        if name not in settable or name not in params:
            known = ", ".join(sorted(option_name(n) for n in settable))
            raise UserError(f"--config {path}: unknown key {key!r}; the keys are lnrnn train's options: {known}.")
        if value is None:
            continue
        param = params[name]
        kind = param.type
        bad = ((isinstance(value, bool) != isinstance(kind, click.types.BoolParamType))
               or isinstance(value, (list, dict))
               or (isinstance(kind, click.types.IntParamType) and isinstance(value, float) and not value.is_integer()))
        try:  # every value is checked, also one the command line overrides: the file is wrong either way
            if bad:
                raise click.BadParameter(f"{value!r} is not a valid {kind.name}")
            value = param.type_cast_value(ctx, value)
        except click.BadParameter as e:
            why = e.format_message().rstrip(".")
            raise UserError(f"--config {path}: bad value for {option_name(name)!r}: {why}.") from None
        if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
            continue  # the command line wins
        options[name] = value
        given.add(name)
    return given
