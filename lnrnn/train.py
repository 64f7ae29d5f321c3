"""Training: the one config dataclass, the train loop, evaluation, checkpoints.

A run lives in ``--out DIR``:
    checkpoint.json + checkpoint-*.npz   the latest checkpoint (see ``lnrnn.checkpoint``)
    metrics.jsonl                        one JSON object per finished epoch: train_<m>, val_<m> for
                                         every metric m the model's head names (loss, acc, ...)
    learning_curve.svg                   every metric against updates, redrawn every epoch

The loop knows nothing of the task's objective: the model (stack + head, ``lnrnn.models``) returns
named metrics, and the optimizer and clipping work on the model's one flat gradient array.

Reproducibility: the model is initialized from ``seed``; each epoch's sample order is a permutation
drawn from one ``numpy.random.Generator(seed)``. A checkpoint stores the generator's state at the
start of the current epoch, how many batches of the epoch are done and the epoch's running sums, so
``--resume`` redraws the same permutation, skips the batches already done and ends with exactly the
parameters and metrics of an uninterrupted run (wall-clock fields aside).

Checkpoints are written at the start (step 0), after every epoch, when ``max_steps`` or
``time_budget`` stops the run, and on Ctrl-C (the first Ctrl-C finishes the current update, saves
and stops; a second one aborts at once). A NaN or infinite loss or gradient stops the run without
saving, so the last good checkpoint stays.
"""
import dataclasses
import json
import math
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from lnrnn import cells
from lnrnn.config import BN_STATE_NOISE
from lnrnn.checkpoint import atomic_write_text, checkpoint_exists, load_checkpoint, save_checkpoint
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import CheckpointError, TrainingDiverged, TrainingInterrupted, UserError
from lnrnn.models import build_model as build_from_config, head_config, upgrade_config
from lnrnn.optim import clip_grad_norm, decayed_lr, make_optimizer, OPTIMIZERS
from lnrnn.progress import Progress, format_seconds

METRICS_FILE = "metrics.jsonl"
CURVE_FILE = "learning_curve.svg"


@dataclass
class TrainConfig:
    cell: str = "ln-lstm"                 # rnn, lstm, ln-rnn, ln-lstm, bn-rnn, bn-lstm
    task: str = "digits"                  # see lnrnn.data.tasks: digits, mnist, pmnist, mnist-rows, adding, copy
    data_dir: Optional[str] = None        # folder with the MNIST-family IDX files (mnist tasks)
    split: Optional[str] = None           # TRAIN/VAL counts carved from the t10k files (or from digits)
    steps: Optional[int] = None           # sequence length of the synthetic tasks (adding: T, copy: blanks)
    hidden: int = 64                      # H, hidden units per layer
    layers: int = 1                       # stacked recurrent layers
    batch_size: int = 16                  # B, sequences per update
    epochs: int = 20                      # passes over the training set
    lr: float = 3e-3                      # learning rate of the first epoch
    lr_decay: float = 0.9                 # lr of epoch e (0-based) is lr * lr_decay**e
    optimizer: str = "adam"               # adam, rmsprop, sgd (momentum 0.9)
    clip: float = 1.0                     # global gradient-norm limit; 0 turns clipping off
    forget_bias: float = 1.0              # initial LSTM forget-gate bias
    seed: int = 0                         # initialization and shuffling
    dtype: str = "float32"                # float32 or float64 parameters and activations
    eval_batch_size: int = 500            # sequences per evaluation batch (memory only)
    max_steps: Optional[int] = None       # stop (with a checkpoint) after this many updates in total
    time_budget: Optional[float] = None   # stop (with a checkpoint) after this many seconds of this invocation
    tbptt: Optional[int] = None           # truncated BPTT: chunks of this many steps (None: whole sequences)
    state_noise: Optional[float] = None   # std of N(0, s^2) initial states; None: 0.1 for BN cells on tasks
                                          # whose first steps are the same in every sequence, else 0
    device: str = "cpu"                   # cpu, or cuda (the numba-cuda twins; parameters stay on the host)
    out: str = "runs/default"             # run directory: checkpoint, metrics.jsonl, learning_curve.svg


# Fields a resumed run may change; every other field must match the checkpoint. max_steps and
# time_budget are not inherited from the interrupted invocation.
RESUME_OVERRIDABLE = {"epochs", "max_steps", "time_budget", "eval_batch_size", "device", "out", "data_dir"}


def validate(cfg):
    """One-sentence UserError for every nonsensical setting (the task's size is checked later)."""
    cells.get(cfg.cell)
    checks = [
        (cfg.hidden >= 1, f"--hidden must be at least 1, not {cfg.hidden}."),
        (cfg.layers >= 1, f"--layers must be at least 1, not {cfg.layers}."),
        (cfg.batch_size >= 1, f"--batch-size must be at least 1, not {cfg.batch_size}."),
        (cfg.epochs >= 1, f"--epochs must be at least 1, not {cfg.epochs}."),
        (cfg.lr > 0 and math.isfinite(cfg.lr), f"--lr must be a positive number, not {cfg.lr}."),
        (cfg.lr_decay > 0 and math.isfinite(cfg.lr_decay), f"--lr-decay must be positive, not {cfg.lr_decay}."),
        (cfg.clip >= 0 and math.isfinite(cfg.clip), f"--clip must be 0 (off) or positive, not {cfg.clip}."),
        (cfg.optimizer in OPTIMIZERS, f"unknown optimizer {cfg.optimizer!r}; choose one of {', '.join(OPTIMIZERS)}."),
        (cfg.dtype in ("float32", "float64"), f"--dtype must be float32 or float64, not {cfg.dtype}."),
        (cfg.eval_batch_size >= 1, f"--eval-batch-size must be at least 1, not {cfg.eval_batch_size}."),
        (cfg.max_steps is None or cfg.max_steps >= 1, f"--max-steps must be at least 1, not {cfg.max_steps}."),
        (cfg.time_budget is None or cfg.time_budget > 0, f"--time-budget must be positive, not {cfg.time_budget}."),
    ]
    checks.append((cfg.tbptt is None or cfg.tbptt >= 1, f"--tbptt must be at least 1 step, not {cfg.tbptt}."))
    checks.append((cfg.state_noise is None or (cfg.state_noise >= 0 and math.isfinite(cfg.state_noise)),
                   f"--state-noise must be 0 (off) or a positive standard deviation, not {cfg.state_noise}."))
    for ok, msg in checks:
        if not ok:
            raise UserError(msg)
    from lnrnn import backend
    try:
        backend.check_device(cfg.device)
    except ValueError as e:
        raise UserError(f"{e}.") from None
    except backend.CudaUnavailable:
        raise UserError(f"--device cuda: CUDA is not usable here ({backend.cuda_usable()[1]}); "
                        "train with --device cpu.") from None


def task_head(task):
    """The head config a task asks for: its own ``head`` when it names one (a density head, say),
    else the one its objective, classes and per-step scoring imply."""
    if getattr(task, "head", None) is not None:
        return dict(task.head)
    return head_config(task.objective, task.num_classes, task.per_step, task.extra.get("tolerance", 0.04))


def state_noise(cfg, task):
    """--state-noise, or its default: BN_STATE_NOISE for BN cells on tasks whose sequences all begin
    with the same inputs (their per-step batch variance would be zero there), else 0."""
    if cfg.state_noise is not None:
        return float(cfg.state_noise)
    bn = cells.get(cfg.cell).norm == "bn"
    return BN_STATE_NOISE if bn and task.extra.get("constant_prefix", False) else 0.0


def build_model(cfg, task):
    spec = cells.get(cfg.cell)
    config = dict(cell=spec.cell, norm=spec.norm, input_size=task.input_size, hidden_size=cfg.hidden,
                  num_layers=cfg.layers, dtype=cfg.dtype, forget_bias=float(cfg.forget_bias), head=task_head(task),
                  state_noise=state_noise(cfg, task))
    return build_from_config(config, seed=cfg.seed, device=cfg.device)


def split_arrays(arrays):
    """A checkpoint's arrays -> ({model array name: array}, {slot: {name: array}})."""
    model, slots = {}, {}
    for k, v in arrays.items():
        kind, _, name = k.partition("/")
        if kind == "param" or kind == "buffer":
            model[name] = v
        elif kind == "optim":
            slot, _, pname = name.partition("/")
            slots.setdefault(slot, {})[pname] = v
    return model, slots


def model_from_checkpoint(meta, arrays, device="cpu"):
    """Rebuild the model a checkpoint describes and load its parameters and buffers."""
    model = build_from_config(upgrade_config(meta["model"]), seed=0, device=device)
    model.load_arrays(split_arrays(arrays)[0])
    return model


def task_batch(task, which, idx, dtype):
    """-> (x (T,B,I), targets, lengths or None) of samples idx."""
    b = task.batch(which, idx, dtype)
    return (b[0], b[1], b[2] if len(b) > 2 else None)


def evaluate(model, task, which="val", batch_size=500):
    """{metric: mean} of the model on the task's 'train' or 'val' set (training=False)."""
    n = task.size(which)
    return model.evaluate(task_batch(task, which, np.arange(s, min(s + batch_size, n)), model.dtype)
                          for s in range(0, n, batch_size))


class _StopFlag:
    """First SIGINT sets the flag (the loop saves and stops); a second raises KeyboardInterrupt."""

    def __init__(self):
        self.requested = False
        self.old = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGINT, self._handler)
        return self

    def _handler(self, signum, frame):
        self.requested = True
        signal.signal(signal.SIGINT, signal.default_int_handler)

    def __exit__(self, *exc):
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)


def _resume_config(saved, given, explicit):
    """The checkpoint's config, with the options the user gave explicitly where that is allowed."""
    try:
        cfg = TrainConfig(**saved)
    except TypeError as e:
        raise CheckpointError(f"the checkpoint in {given.out} holds training settings this lnrnn does not "
                              f"know ({e}).") from None
    cfg.max_steps = cfg.time_budget = None  # stop conditions belong to one invocation, not to the run
    for name in explicit:
        new, old = getattr(given, name), saved.get(name)
        if name in RESUME_OVERRIDABLE:
            setattr(cfg, name, new)
        elif new != old:
            flag = "--" + name.replace("_", "-")
            raise CheckpointError(f"the run in {given.out} was trained with {flag} {old}, not {new}; "
                                  f"drop {flag} to resume it, or start a new run with another --out.")
    return cfg


class Trainer:
    """Holds one run's model, optimizer and loop state; ``run()`` trains until done or stopped."""

    def __init__(self, cfg, resume=False, explicit=(), quiet=False, log=None, stream=None, hook=None):
        self.log = log or (lambda msg: print(msg, file=sys.stderr))
        self.quiet, self.stream, self.hook = quiet, stream, hook
        self.first_update_s = None  # wall seconds to this invocation's first update (includes compiling)
        out = cfg.out
        if resume:
            if not checkpoint_exists(out):
                raise CheckpointError(f"--resume: there is no checkpoint in {out} to resume; "
                                      "drop --resume to start a new run there.")
            meta, arrays = load_checkpoint(out)
            missing = [k for k in ("train", "optimizer", "epoch", "batch_in_epoch", "step", "rng", "epoch_sums",
                                   "train_time_s", "metrics") if k not in meta]
            if missing:
                raise CheckpointError(f"the checkpoint in {out} lacks {', '.join(missing)}; it cannot be resumed.")
            cfg = _resume_config(meta["train"], cfg, explicit)
            cfg.out = out  # the run may have been moved since it was saved
        elif checkpoint_exists(out):
            raise UserError(f"{out} already holds a run; pass --resume to continue it, "
                            "or choose another --out.")
        validate(cfg)
        self.cfg = cfg
        spec = task_spec(cfg.task, cfg.data_dir, cfg.split, cfg.steps)
        self.task = load_task(spec)
        n = self.task.size("train")
        if cfg.batch_size > n:
            raise UserError(f"--batch-size {cfg.batch_size} is larger than the {n} training sequences of {cfg.task}.")
        self.model = build_model(cfg, self.task)
        self.opt = make_optimizer(cfg.optimizer, cfg.lr)
        self.rng = np.random.default_rng(cfg.seed)
        self.epoch, self.batch_in_epoch, self.step = 0, 0, 0
        self.epoch_rng = self.rng.bit_generator.state   # generator state at the start of self.epoch
        self.sums = self._new_sums()                     # the epoch's running metric sums, count, samples
        self.history, self.train_time = [], 0.0
        if resume:
            self._restore(meta, arrays)

    def _new_sums(self):
        return {"sums": dict.fromkeys(self.model.head.sum_keys, 0.0), "count": 0, "samples": 0}

    # ---- checkpoint state ----
    def _arrays(self):
        arrays = {"param/" + k: v for k, v in self.model.params.items()}
        arrays.update({"buffer/" + k: v for k, v in self.model.buffers.items()})
        st = self.opt.state_dict(self.model.flat[0])
        for slot, d in st["slots"].items():
            arrays.update({f"optim/{slot}/{k}": v for k, v in d.items()})
        return arrays

    def save(self):
        st = self.opt.state_dict(self.model.flat[0])
        meta = {"model": self.model.config, "task": self.task.spec, "train": dataclasses.asdict(self.cfg),
                "optimizer": {"kind": st["kind"], "hyper": st["hyper"], "step": st["step"]},
                "epoch": self.epoch, "batch_in_epoch": self.batch_in_epoch, "step": self.step,
                "rng": self.epoch_rng, "epoch_sums": self.sums, "train_time_s": self.train_time,
                "metrics": self.history, "lnrnn_version": __import__("lnrnn").__version__}
        return save_checkpoint(self.cfg.out, self._arrays(), meta)

    def _restore(self, meta, arrays):
        saved = upgrade_config(meta["model"])
        if saved != self.model.config:
            from lnrnn.checkpoint import model_mismatch
            raise CheckpointError(f"the checkpoint in {self.cfg.out} does not match the model its own settings "
                                  f"build ({model_mismatch(saved, self.model.config)}).")
        named, slots = split_arrays(arrays)
        try:
            self.model.load_arrays(named)
            self.opt.load_state_dict({**meta["optimizer"], "slots": slots}, self.model.flat[0])
        except ValueError as e:
            raise CheckpointError(f"the checkpoint in {self.cfg.out} does not fit the model ({e}).") from None
        self.epoch, self.batch_in_epoch, self.step = meta["epoch"], meta["batch_in_epoch"], meta["step"]
        self.epoch_rng = meta["rng"]
        sums = meta["epoch_sums"]
        if isinstance(sums, list):  # lnrnn 0.1: [loss_sum, correct, count, samples] of a classifier
            sums = {"sums": {"loss": sums[0], "acc": sums[1]}, "count": sums[2], "samples": sums[3]}
        self.sums = {"sums": {**self._new_sums()["sums"], **sums["sums"]}, "count": int(sums["count"]),
                     "samples": int(sums["samples"])}
        self.history, self.train_time = list(meta["metrics"]), float(meta["train_time_s"])

    def _write_metrics(self):
        from lnrnn.plot import write_learning_curves
        out = self.cfg.out
        atomic_write_text(os.path.join(out, METRICS_FILE), "".join(json.dumps(r) + "\n" for r in self.history))
        c = self.cfg
        label = f"{c.cell} H={c.hidden} on {c.task}"
        write_learning_curves(os.path.join(out, CURVE_FILE), [(label, self.history)],
                              title=f"{label} ({c.layers} layer{'s' * (c.layers > 1)}, {c.optimizer} lr {c.lr:g}, "
                                    f"batch {c.batch_size}, seed {c.seed})")

    # ---- the loop ----
    def describe(self):
        c, m = self.cfg, self.model
        return (f"Training {c.cell} (hidden {c.hidden}, {c.layers} layer{'s' * (c.layers > 1)}, "
                f"{m.num_params():,} parameters, {c.dtype}) on {self.task.description}; {c.optimizer} lr {c.lr:g}"
                f"{f' decay {c.lr_decay:g}/epoch' if c.lr_decay != 1 else ''}, clip {c.clip:g}, batch {c.batch_size}, "
                f"{c.epochs} epochs, seed {c.seed}; writing to {c.out}.")

    def _diverged(self, what, value):
        raise TrainingDiverged(
            f"the {what} became {value} at epoch {self.epoch + 1}, update {self.step + 1}; training stopped and "
            f"the last good checkpoint (update {self.saved_step}) is kept in {self.cfg.out}; "
            "try a lower --lr or a --clip.")

    def run(self):
        cfg, task, model = self.cfg, self.task, self.model
        os.makedirs(cfg.out, exist_ok=True)
        if self.step == 0 and self.batch_in_epoch == 0 and self.epoch == 0:
            self.save()
        self.saved_step = self.step
        n, B = task.size("train"), cfg.batch_size
        nb = -(-n // B)
        t_start = time.perf_counter()
        stop_reason = None
        with _StopFlag() as flag:
            while self.epoch < cfg.epochs and stop_reason is None:
                self.rng.bit_generator.state = self.epoch_rng
                perm = self.rng.permutation(n)
                self.opt.lr = decayed_lr(cfg.lr, cfg.lr_decay, self.epoch)
                bar = Progress(n, f"epoch {self.epoch + 1}/{cfg.epochs}", stream=self.stream, quiet=self.quiet,
                               done=min(self.batch_in_epoch * B, n))
                t_epoch = time.perf_counter()
                for b in range(self.batch_in_epoch, nb):
                    t0 = time.perf_counter()
                    idx = perm[b * B:(b + 1) * B]
                    x, y, lengths = task_batch(task, "train", idx, model.dtype)
                    means = model.loss_and_grad(x, y, lengths, tbptt=cfg.tbptt, noise_key=self.step)
                    loss = means["loss"]
                    if not math.isfinite(loss):
                        self._diverged("training loss", loss)
                    params, grads = model.flat[0].data, model.flat[1].data
                    norm = clip_grad_norm(grads, cfg.clip)
                    if not math.isfinite(norm):
                        self._diverged("gradient norm", norm)
                    self.opt.step(params, grads)
                    self.step += 1
                    if self.first_update_s is None:  # compile time made visible: the first update compiles
                        self.first_update_s = time.perf_counter() - t_start
                    self.batch_in_epoch = b + 1
                    count = model.last_count  # scored units (sequences or steps) of this batch
                    s = self.sums
                    for m in s["sums"]:
                        s["sums"][m] += model.last_sums[m]
                    s["count"] += count
                    s["samples"] += len(idx)
                    self.train_time += time.perf_counter() - t0
                    bar.update(len(idx), **model.head.mean(s["sums"], s["count"]))
                    if self.hook is not None:
                        self.hook(self)
                    if flag.requested:
                        stop_reason = "interrupted"
                    elif cfg.max_steps is not None and self.step >= cfg.max_steps:
                        stop_reason = f"reached --max-steps {cfg.max_steps}"
                    elif cfg.time_budget is not None and time.perf_counter() - t_start >= cfg.time_budget:
                        stop_reason = f"used the --time-budget of {cfg.time_budget:g} s"
                    if stop_reason is not None and self.batch_in_epoch < nb:
                        break
                else:
                    self._end_epoch(bar, time.perf_counter() - t_epoch)
                    continue
                bar.close()
                self.save()
                self.saved_step = self.step
        return stop_reason

    def _end_epoch(self, bar, epoch_wall):
        cfg, s = self.cfg, self.sums
        t0 = time.perf_counter()
        val = evaluate(self.model, self.task, "val", cfg.eval_batch_size)
        self.train_time += time.perf_counter() - t0
        train = self.model.head.mean(s["sums"], s["count"])
        rec = {"epoch": self.epoch + 1, "step": self.step, "samples": (self.epoch + 1) * self.task.size("train"),
               "lr": self.opt.lr, **{f"train_{m}": v for m, v in train.items()},
               **{f"val_{m}": v for m, v in val.items()}, "time_s": round(self.train_time, 3),
               "samples_per_s": round(s["samples"] / max(epoch_wall, 1e-9), 1)}
        bar.close("| val " + format_metrics(val))
        if not math.isfinite(val["loss"]):
            self._diverged("validation loss", val["loss"])
        self.history.append(rec)
        self.epoch += 1
        self.batch_in_epoch = 0
        self.sums = self._new_sums()
        self.epoch_rng = self.rng.bit_generator.state
        self.save()
        self.saved_step = self.step
        self._write_metrics()

    def summary(self, stop_reason):
        c = self.cfg
        last = self.history[-1] if self.history else None
        where = (f"checkpoint {os.path.join(c.out, 'checkpoint.json')}, metrics {os.path.join(c.out, METRICS_FILE)}, "
                 f"curve {os.path.join(c.out, CURVE_FILE)}")
        res = (f"validation {format_metrics({m: last['val_' + m] for m in self.model.metrics}, long=True)} "
               f"after epoch {last['epoch']}" if last else "no epoch finished yet")
        done = f"{self.step} updates in {format_seconds(self.train_time)} of training"
        if self.first_update_s is not None:
            done += f" (the first took {self.first_update_s:.1f} s: kernels compile once, then load from cache)"
        if stop_reason is None:
            return f"Done: {c.epochs} epoch{'s' * (c.epochs != 1)}, {done}; {res}; {where}."
        return (f"Stopped ({stop_reason}) at epoch {self.epoch + 1}, {done}; {res}; {where}; "
                f"continue with `lnrnn train --out {c.out} --resume`.")


def format_metrics(means, long=False):
    """'loss 0.4123 acc 87.20%' (long: 'loss 0.4123, accuracy 87.20%')."""
    from lnrnn.heads import METRIC_INFO
    parts = []
    for m, v in means.items():
        label, percent = METRIC_INFO.get(m, (m, False))
        name = label.replace(" (%)", "") if long else m
        parts.append(f"{name} {100 * v:.2f}%" if percent else f"{name} {v:.4f}")
    return (", " if long else " ").join(parts)


def train(cfg, resume=False, explicit=(), quiet=False, log=None, stream=None, hook=None):
    """Train (or resume) a run; returns the Trainer. Raises UserError subclasses for every bad input."""
    trainer = Trainer(cfg, resume=resume, explicit=explicit, quiet=quiet, log=log, stream=stream, hook=hook)
    trainer.log(("Resuming. " if resume else "") + trainer.describe())
    stop = trainer.run()
    if stop == "interrupted":
        out = trainer.cfg.out
        raise TrainingInterrupted(f"interrupted at epoch {trainer.epoch + 1}, update {trainer.step}; the state "
                                  f"reached is saved in {out}; continue with `lnrnn train --out {out} --resume`.")
    trainer.log(trainer.summary(stop))
    return trainer
