"""Training: the train loop and its checkpoints (settings: ``lnrnn.training.plan``; evaluation: ``lnrnn.training.evaluation``).

A run lives in ``--out DIR``:
    checkpoint.json + checkpoint-*.npz   the latest checkpoint (see ``lnrnn.training.checkpoint``)
    metrics.jsonl                        one JSON object per finished epoch: train_<m>, val_<m> for
                                         every metric m the model's head names (loss, acc, ...)
    updates.jsonl                        every ``log_every`` updates: step, epoch (fractional), lr, time_s,
                                         train_<m> over those updates (``lnrnn.training.rundir.UpdateLog``: exact
                                         across kills and resumes)
    config.json                          the settings it runs with (``lnrnn.training.runconfig``; --config reads it)
    learning_curve.svg                   every metric against updates (matplotlib), redrawn after an epoch
                                         at most every CURVE_REDRAW_S seconds, and when the run returns

The loop knows nothing of the task's objective: the model (stack + head, ``lnrnn.model.models``) returns
named metrics, and the optimizer and clipping work on the model's one flat gradient array.

Reproducibility: the model is initialized from ``seed``; each epoch's sample order is a permutation
drawn from one ``numpy.random.Generator(seed)``. A checkpoint stores the generator's state at the
start of the current epoch, how many batches of the epoch are done and the epoch's running sums, so
``--resume`` redraws the same permutation, skips the batches already done and ends with exactly the
parameters and metrics of an uninterrupted run (wall-clock fields aside).

Checkpoints are written at the start (step 0), after every epoch, every ``save_every`` updates and
every ``save_every_seconds`` (default 10 minutes; mid-epoch checkpoints resume exactly too), when
``max_steps`` or ``time_budget`` stops the run, and on SIGINT (Ctrl-C) or SIGTERM (preemption,
``docker stop``, ``timeout``): the first signal finishes the current update, saves and stops (exit
128 + the signal's number); a second one stops at once, keeping the last checkpoint, except during a
save, which it lets finish first.

Runs that go wrong stop without saving, so the last good checkpoint stays: a NaN or infinite loss,
gradient or activation; or a blow-up: the training loss above BLOWUP_FACTOR times the run's first loss
for BLOWUP_UPDATES updates in a row (an absurd --lr reaches 1e30 and stays there while staying
finite). While the loss is above that level no checkpoint is written (saves wait for it to come back).

Before any work the run folder is checked to be writable, locked for the life of the run
(``lnrnn.training.rundir``), and the memory the configuration needs is estimated and compared with what the
machine has (``lnrnn.training.memory``). Seconds spent compiling kernels are recorded apart (``compile_s``),
not in the training time ``time_s``.
"""
import contextlib
import dataclasses
import json
import math
import os
import signal
import sys
import threading
import time

import numpy as np

from lnrnn.version import __version__ as lnrnn_version
from lnrnn.training.checkpoint import (BEST_DIR, checkpoint_exists, keep_past, load_checkpoint, model_mismatch,
                                       save_checkpoint)
from lnrnn.files import atomic_write_text
from lnrnn.training import distributed, finetune, prewarm
from lnrnn.compiling import CompileClock
from lnrnn.data.strokes import text_record
from lnrnn.data.tasks import load_task
from lnrnn.errors import CheckpointError, DataError, TrainingDiverged, TrainingInterrupted, UserError
from lnrnn.model.models import upgrade_config
from lnrnn.training.optim import clip_grad_norm, make_optimizer
from lnrnn.predict_io import describe_task_data
from lnrnn.training.progress import Progress, format_seconds
from lnrnn.training.logs import CSV_FILE, TensorBoardLog, write_csv
from lnrnn.training.plot import LOSS_LABELS, write_learning_curves
from lnrnn.training.runconfig import TrainConfig, write_run_config
from lnrnn.training.rundir import (CURVE_FILE, METRICS_FILE, UPDATES_FILE, RunLock, UpdateLog, check_writable,
                                   read_jsonl)
from lnrnn.kernels.threads import block_rows
from lnrnn.threadscope import kernel_threads
from lnrnn.training.evaluation import evaluate, format_metrics, model_from_checkpoint, split_arrays, task_batch  # noqa: F401
from lnrnn.training.plan import RESUME_OVERRIDABLE, check_memory_built, model_for, resolve

BLOWUP_FACTOR = 10.0        # a training loss above this many times the run's first loss is out of range...
BLOWUP_UPDATES = 20         # ...and this many updates in a row out of range stop the run as blown up
COMPILE_NOTE_AFTER_S = 2.0  # say that kernels are compiling when the first update is still compiling by then
CURVE_REDRAW_S = 30.0       # redraw learning_curve.svg after an epoch once this many seconds passed since the
                            # last drawing (or the run's start), and when the run returns: a drawing takes
                            # 0.1-0.3 s, 2-6% of a small run's few-second epochs (bench/train_throughput.py)


class _Abort(BaseException):
    """A second SIGINT/SIGTERM: stop at once, keeping the last checkpoint (not an Exception, so that no
    ``except Exception`` on the way swallows it)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


class _StopFlag:
    """SIGINT (Ctrl-C) and SIGTERM (Slurm/Kubernetes preemption, docker stop, timeout) stop a run alike.

    The first sets the flag: the loop finishes the current update, saves and stops. A second raises
    _Abort at once, except inside ``saving()``: there it waits until the save is complete (a checkpoint
    is written atomically either way; this way the one being written is kept), then raises."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.signum = None    # the first signal
        self.deferred = None  # a second signal that arrived during a save
        self.in_save = False
        self.old = {}

    @property
    def requested(self):
        return self.signum is not None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for s in self.SIGNALS:
                self.old[s] = signal.signal(s, self._handler)
        return self

    def _handler(self, signum, frame):
        if self.signum is None:
            self.signum = signum
        elif self.in_save:
            self.deferred = signum
        else:
            raise _Abort(signum)

    @contextlib.contextmanager
    def saving(self):
        self.in_save = True
        try:
            yield
        finally:
            self.in_save = False
        if self.deferred is not None:
            raise _Abort(self.deferred)

    def __exit__(self, *exc):
        for s, handler in self.old.items():
            signal.signal(s, handler)


def _resume_config(saved, given, explicit, budget=None):
    """The checkpoint's config, with the options the user gave explicitly where that is allowed."""
    try:
        cfg = TrainConfig(**saved)
    except TypeError as e:
        raise CheckpointError(f"the checkpoint in {given.out} holds training settings this lnrnn does not "
                              f"know ({e}).") from None
    # the run's budget as its last invocation left it (one it reached is lifted); None before budgets were kept
    budget = budget or {}
    cfg.max_steps, cfg.time_budget = budget.get("max_steps"), budget.get("time_budget")
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

    def __init__(self, cfg, resume=False, explicit=(), quiet=False, log=None, stream=None, hook=None, group=None):
        # group: the MPI ranks of a data-parallel run (lnrnn.training.distributed); rank 0 alone logs and writes
        self.group = group or distributed.SINGLE
        root = self.group.root
        self.log = (log or (lambda msg: print(msg, file=sys.stderr))) if root else (lambda msg: None)
        self.quiet, self.stream, self.hook = quiet or not root, stream, hook
        self.first_update_s = None  # wall seconds to this invocation's first update (includes compiling)
        self.resumed = resume
        self.votes = np.zeros(3)    # a group's stop votes of the last update: signalled, by SIGINT, over budget
        if root:
            check_writable(cfg.out)
        self.lock = RunLock(cfg.out)
        if root and os.path.isdir(cfg.out):  # else run() creates the folder and locks it before writing anything
            self.lock.acquire()
        try:
            self._setup(cfg, resume, explicit)
        except BaseException:
            self.lock.release()
            raise

    def close(self):
        """Release the run folder (train() does; the lock also goes when the process ends)."""
        if getattr(self, "update_log", None) is not None:
            self.update_log.close()
        if getattr(self, "tb", None) is not None:
            self.tb.close()
            self.tb = None
        self.lock.release()

    def _setup(self, cfg, resume, explicit):
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
            if meta.get("best"):
                raise CheckpointError(f"{out} holds the best checkpoint of a run, not a run to resume; resume "
                                      f"the run folder above it (--out {os.path.dirname(os.path.normpath(out))}).")
            if "init_from" in explicit and cfg.init_from != meta["train"].get("init_from"):
                raise UserError(f"--init-from starts a new run from another run's checkpoint; {out} holds a run "
                                "of its own: drop --init-from to resume it, or choose another --out.")
            cfg = _resume_config(meta["train"], cfg, explicit, meta.get("budget"))
            cfg.out = out  # the run may have been moved since it was saved
        elif self.group.root and checkpoint_exists(out):
            raise UserError(f"{out} already holds a run; pass --resume to continue it, "
                            "or choose another --out.")
        self.plan = plan = resolve(cfg)  # defaults, checks, cell row, task spec, memory (lnrnn.training.plan)
        cfg = plan.cfg
        source = None  # --init-from: the checkpoint a new run starts from, its shape checked before any data
        if cfg.init_from is not None and not resume:
            source = finetune.read_source(cfg.init_from)
            finetune.check_settings(source, cfg)
        distributed.check_config(cfg, self.group.size)
        self.cfg = cfg
        self.task = load_task(plan.task_spec)
        n = self.task.size("train")
        if cfg.batch_size > n:
            raise UserError(f"--batch-size {cfg.batch_size} is larger than the {n} training sequences of {cfg.task}.")
        check_memory_built(plan, self.task)
        # the training data's length and value range, kept with the run: predict refuses input unlike it
        self.data_record = describe_task_data(self.task)
        self.text_record = text_record(self.task)  # a text task's alphabet, kept with the run
        self.model = model_for(plan, self.task)
        if source is not None:
            finetune.load_into(self.model, source)
        self.init_record = source.record if source is not None else None  # where the run started from
        self.lr_changes, self.lr_change = [], None  # the schedule's changes (--resume --lr); this invocation's
        if self.model.conditioned and plan.cell.norm == "bn" and (self.group.size > 1 or cfg.reproducible):
            raise UserError(f"the synthesis network's {cfg.cell} layers keep their BatchNorm statistics to one "
                            "process and one block: train it without --reproducible and without an MPI launcher, "
                            "or use --cell ln-lstm.")
        if self.group.size > 1:  # BatchNorm statistics of the global batch (LN and plain cells ignore it)
            self.model.stack.set_batch_reduce(self.group.allreduce)
        self.opt = make_optimizer(cfg.optimizer, cfg.lr)
        # --device cuda: the whole update on the device where the model allows it (``_update_on_device``)
        self.on_device = (cfg.device == "cuda" and self.group.size == 1 and not cfg.reproducible
                          and self.model.device_refusal() is None)
        self.host_stale, self._metrics_dev = False, None  # host parameters behind the device's; the metrics buffer
        self.rng = np.random.default_rng(cfg.seed)
        self.epoch, self.batch_in_epoch, self.step = 0, 0, 0
        self.epoch_rng = self.rng.bit_generator.state   # generator state at the start of self.epoch
        self.sums = self._new_sums()                     # the epoch's running metric sums, count, samples
        self.history, self.train_time = [], 0.0
        self.compile_s = 0.0                             # seconds of compiling kernels, all invocations
        self.initial_loss, self.high_streak = None, 0    # the run's first loss; updates in a row above the
                                                         # blow-up level (BLOWUP_FACTOR x initial_loss)
        self.saved_step, self.save_pending = None, False  # the update of the last checkpoint; a save waiting
        self.flag = self.clock = None                    # for the loss to come back in range
        self.update_log, self.log_window = None, self._new_sums()  # updates.jsonl; sums since its last row
        self.curve_t, self.curve_pending = None, False   # when learning_curve.svg was last drawn; epochs not in it
        # the best validation metric so far (scheduled evaluations: epoch ends and --eval-every) and how
        # many evaluations since it improved (--patience); the evaluation where a budget stopped the run
        self.best = {"metric": cfg.best_metric, "value": None, "step": None, "epoch": None, "since": 0}
        self.stop_eval, self.early_stop, self.reached = None, None, None
        self.budget_used, self.t_start, self.tb = 0.0, None, None  # seconds counted against --time-budget
        if cfg.best_metric != "none" and cfg.best_metric not in self.model.metrics:
            raise UserError(f"--best-metric {cfg.best_metric}: the {self.model.head.kind} head of {cfg.task} "
                            f"reports {', '.join(self.model.metrics)}; choose one of them, or none.")
        if resume:
            self._restore(meta, arrays)
            self.saved_step = self.step
            if "time_budget" not in explicit:  # an inherited budget: what is left of it
                self.budget_used = float((meta.get("budget") or {}).get("used_s", 0.0))

    def _new_sums(self):
        return {"sums": dict.fromkeys(self.model.head.sum_keys, 0.0), "count": 0, "samples": 0}

    # ---- checkpoint state ----
    def _model_arrays(self):
        """The model's parameters and buffers under their checkpoint names (``evaluation.split_arrays`` reads them)."""
        arrays = {"param/" + k: v for k, v in self.model.params.items()}
        arrays.update({"buffer/" + k: v for k, v in self.model.buffers.items()})
        return arrays

    def _arrays(self):
        """Everything a checkpoint holds: the model's arrays and the optimizer's slots."""
        arrays = self._model_arrays()
        st = self.opt.state_dict(self.model.flat[0])
        for slot, d in st["slots"].items():
            arrays.update({f"optim/{slot}/{k}": v for k, v in d.items()})
        return arrays

    def _budget_seconds(self):
        """Seconds counted against --time-budget: earlier invocations' (when inherited) and this one's."""
        return self.budget_used + (time.perf_counter() - self.t_start if self.t_start is not None else 0.0)

    def _budget_record(self):
        """The run's budget as a resume inherits it: a limit this invocation reached is lifted."""
        c = self.cfg
        return {"max_steps": None if self.reached == "max_steps" else c.max_steps,
                "time_budget": None if self.reached == "time_budget" else c.time_budget,
                "used_s": 0.0 if self.reached == "time_budget" else round(self._budget_seconds(), 3)}

    def save(self):
        """Write the checkpoint (and the --keep copy); a second SIGINT/SIGTERM waits until it is complete."""
        self.sync_host()
        with (self.flag.saving() if self.flag is not None else contextlib.nullcontext()):
            if self.update_log is not None:
                self.update_log.sync()  # the rows this checkpoint covers are on disk before it is
            meta = self._meta()
            path = save_checkpoint(self.cfg.out, self._arrays(), meta) if self.group.root else None
            if self.group.root and self.cfg.keep > 0:
                keep_past(self.cfg.out, self.cfg.keep)
            self.saved_step, self.save_pending, self.last_save_t = self.step, False, time.perf_counter()
        return path

    def save_best(self):
        """RUN/best/: the model as it is now (arrays of the model only), with the best record in its description."""
        if not self.group.root:
            return
        self.sync_host()
        with (self.flag.saving() if self.flag is not None else contextlib.nullcontext()):
            best = {k: self.best[k] for k in ("metric", "value", "step", "epoch")}
            save_checkpoint(os.path.join(self.cfg.out, BEST_DIR), self._model_arrays(), {**self._meta(), "best": best})

    def _meta(self):
        """The checkpoint description of the state reached (JSON-able)."""
        st = self.opt.state_dict(self.model.flat[0])
        meta = {"model": self.model.config, "task": self.task.spec, "train": dataclasses.asdict(self.cfg),
                "optimizer": {"kind": st["kind"], "hyper": st["hyper"], "step": st["step"]},
                "epoch": self.epoch, "batch_in_epoch": self.batch_in_epoch, "step": self.step,
                "rng": self.epoch_rng, "epoch_sums": self.sums, "train_time_s": self.train_time,
                "compile_time_s": self.compile_total(),
                "blowup": {"initial_loss": self.initial_loss, "streak": self.high_streak},
                "metrics": self.history, "log_window": self.log_window, "lnrnn_version": lnrnn_version,
                "best_state": self.best, "budget": self._budget_record()}
        if self.init_record is not None:
            meta["init_from"] = self.init_record
        if self.lr_changes:
            meta["lr_changes"] = self.lr_changes
        if self.stop_eval is not None:
            meta["stop_eval"] = self.stop_eval
        if self.early_stop is not None:
            meta["early_stop"] = self.early_stop
        if self.data_record is not None:
            meta["data"] = self.data_record
        if self.text_record is not None:
            meta["text"] = self.text_record
        meta["ranks"] = self.group.size  # MPI processes the run trains on (lnrnn.training.distributed)
        return meta

    def compile_total(self):
        return self.compile_s + (self.clock.seconds() if self.clock is not None else 0.0)

    def _restore(self, meta, arrays):
        saved = upgrade_config(meta["model"])
        if saved != self.model.config:
            raise CheckpointError(f"the checkpoint in {self.cfg.out} does not match the model its own settings "
                                  f"build ({model_mismatch(saved, self.model.config)}).")
        named, slots = split_arrays(arrays)
        try:
            self.model.load_arrays(named)
            self.opt.load_state_dict({**meta["optimizer"], "slots": slots}, self.model.flat[0])
        except ValueError as e:
            raise CheckpointError(f"the checkpoint in {self.cfg.out} does not fit the model ({e}).") from None
        self.epoch, self.batch_in_epoch, self.step = meta["epoch"], meta["batch_in_epoch"], meta["step"]
        note = distributed.resume_note(int(meta.get("ranks", 1)), self.group.size, self.cfg.batch_size,
                                       self.cfg.reproducible)
        if note:
            self.log(note)
        self.epoch_rng = meta["rng"]
        sums = meta["epoch_sums"]
        if isinstance(sums, list):  # lnrnn 0.1: [loss_sum, correct, count, samples] of a classifier
            sums = {"sums": {"loss": sums[0], "acc": sums[1]}, "count": sums[2], "samples": sums[3]}
        self.sums = {"sums": {**self._new_sums()["sums"], **sums["sums"]}, "count": int(sums["count"]),
                     "samples": int(sums["samples"])}
        self.history, self.train_time = list(meta["metrics"]), float(meta["train_time_s"])
        self.compile_s = float(meta.get("compile_time_s", 0.0))
        window = meta.get("log_window") or {}
        self.log_window = {"sums": {**self._new_sums()["sums"], **window.get("sums", {})},
                           "count": int(window.get("count", 0)), "samples": int(window.get("samples", 0))}
        blowup = meta.get("blowup") or {}
        self.initial_loss, self.high_streak = blowup.get("initial_loss"), int(blowup.get("streak", 0))
        best = meta.get("best_state")
        if best and best.get("metric") == self.cfg.best_metric:
            self.best = dict(best)
        self.early_stop = meta.get("early_stop")
        self.init_record = meta.get("init_from")
        self.lr_changes = list(meta.get("lr_changes", []))
        self.lr_change = finetune.schedule_change(meta["train"], self.cfg, self.epoch, self.step, self.lr_changes)
        if self.lr_change is not None:
            self.lr_changes.append(self.lr_change)
        p = self.cfg.patience
        if self.early_stop is not None and (p is None or self.best["since"] < p):
            self.early_stop = None  # resumed with a larger --patience: it trains on

    def _write_metrics(self, draw=True):
        """metrics.jsonl and metrics.csv after every evaluation (TensorBoard gets the new row); the picture
        after an epoch when CURVE_REDRAW_S have passed since its last drawing."""
        if not self.group.root:
            return
        out = self.cfg.out
        atomic_write_text(os.path.join(out, METRICS_FILE), "".join(json.dumps(r) + "\n" for r in self.history))
        write_csv(os.path.join(out, CSV_FILE), self.history)
        if self.tb is not None:
            self.tb.add(self.history[-1:])
        if not draw:
            return
        self.curve_pending = True
        if time.perf_counter() - self.curve_t >= CURVE_REDRAW_S:
            self._draw_curve()

    def _draw_curve(self):
        """Redraw learning_curve.svg from the epochs' metrics and updates.jsonl (rank 0)."""
        out, c = self.cfg.out, self.cfg
        label = f"{c.cell} H={c.hidden} on {c.task}"
        path = os.path.join(out, UPDATES_FILE)
        updates = read_jsonl(path, torn_tail_ok=True) if os.path.exists(path) else []
        write_learning_curves(os.path.join(out, CURVE_FILE), [(label, self.history, updates)],
                              title=f"{label} ({c.layers} layer{'s' * (c.layers > 1)}, {c.optimizer} lr {c.lr:g}, "
                                    f"batch {c.batch_size}, seed {c.seed})",
                              loss_label=LOSS_LABELS.get(self.model.head.kind))
        self.curve_t, self.curve_pending = time.perf_counter(), False

    def _log_update(self, nb):
        """Add this update's sums to the window; every log_every updates write its means to updates.jsonl."""
        w, m = self.log_window, self.model
        for k in w["sums"]:
            w["sums"][k] += m.last_sums[k]
        w["count"] += m.last_count
        w["samples"] += 1  # updates in the window
        if self.step % self.cfg.log_every == 0:
            means = m.head.mean(w["sums"], w["count"])
            self.update_log.append({"step": self.step, "epoch": round(self.epoch + self.batch_in_epoch / nb, 6),
                                    "lr": self.opt.lr, **{f"train_{k}": v for k, v in means.items()},
                                    "updates": w["samples"], "time_s": round(self.train_time, 3)})
            self.log_window = self._new_sums()

    # ---- the loop ----
    def describe(self):
        c, m = self.cfg, self.model
        graves = "".join(f" {flag} {v:g}" for flag, v in (("clip-output", c.clip_output), ("clip-gates", c.clip_gates))
                         if v)  # Graves's derivative clips, when on
        window = m.config.get("window")
        writes = (f", writing each line's text through an attention window of {window} Gaussians over "
                  f"{m.config['alphabet_size']} characters" if window else "")
        return (f"Training {c.cell} (hidden {c.hidden}, {c.layers}{' bidirectional' * c.bidirectional} "
                f"layer{'s' * (c.layers > 1)}, "
                f"{m.num_params():,} parameters, {c.dtype}{writes}) on {self.task.description}; {c.optimizer} lr {c.lr:g}"
                f"{f' decay {c.lr_decay:g}/epoch' if c.lr_decay != 1 else ''}, clip {c.clip:g}{graves}, "
                f"batch {c.batch_size}, "
                f"{c.epochs} epochs, seed {c.seed}; "
                + (f"starting from {finetune.describe_record(self.init_record)}; " if self.init_record else "")
                + f"writing to {c.out}.")

    def _diverged(self, what, value):
        hint = "try a lower --lr or a --clip"
        if self.plan.cell.norm == "bn" and not self.model.state_noise:
            # the likely cause (Cooijmans et al. sec. 5.1): sequences that begin alike and zero initial states
            # give every row of the batch the same state, a zero batch variance, and a backward that
            # multiplies by gamma/sqrt(eps) at each such step
            hint = ("BatchNorm cells overflow when every sequence of a batch has the same early steps and zero "
                    "initial states (zero batch variance): try --state-noise 0.1, or " + hint[4:])
        raise TrainingDiverged(
            f"the {what} became {value} at epoch {self.epoch + 1}, update {self.step + 1}; training stopped and "
            f"the last good checkpoint (update {self.saved_step}) is kept in {self.cfg.out}; {hint}.")

    def _blown_up(self, loss):
        """Count updates in a row whose loss is above the blow-up level; stop after BLOWUP_UPDATES."""
        if self.initial_loss is None:
            self.initial_loss = loss
        level = BLOWUP_FACTOR * self.initial_loss
        self.high_streak = self.high_streak + 1 if self.initial_loss > 0 and loss > level else 0
        if self.high_streak >= BLOWUP_UPDATES:
            raise TrainingDiverged(
                f"the training loss blew up: above {BLOWUP_FACTOR:g}x its starting value {self.initial_loss:.4g} for "
                f"{self.high_streak} updates in a row (now {loss:.3g}) at epoch {self.epoch + 1}, update "
                f"{self.step + 1}; training stopped and the last good checkpoint (update {self.saved_step}) is kept "
                f"in {self.cfg.out}; start again with a lower --lr than {self.cfg.lr:g}.")

    def _loss_and_grad(self, x, y, lengths, text=None):
        """The model's forward and backward on one batch; a NaN or infinite activation or gradient
        inside the stack (which the layers refuse with a ValueError) is a diverged run."""
        try:
            if self.group.size > 1 or self.cfg.reproducible:
                # this rank's shard (or, --reproducible, its blocks); gradients, sums and stop votes combined
                flag, c = self.flag, self.cfg
                self.votes[:] = (flag is not None and flag.requested, flag is not None and flag.signum == signal.SIGINT,
                                 self.group.root and c.time_budget is not None
                                 and self._budget_seconds() >= c.time_budget)
                run = distributed.loss_and_grad_blocks if c.reproducible else distributed.loss_and_grad
                with prewarm.armed(self.first_update_s is None and self.group.size == 1):
                    return run(self.group, self.model, x, y, lengths, c.tbptt, self.step, self.votes, text)
            # the first update of a process on a cold cache compiles the backward loops in a second
            # process meanwhile (lnrnn.training.prewarm; layers on other devices start none)
            with prewarm.armed(self.first_update_s is None):
                return self.model.loss_and_grad(x, y, lengths, tbptt=self.cfg.tbptt, noise_key=self.step, text=text)
        except ValueError as e:
            if "NaN or infinite" not in str(e):
                raise
            if not np.all(np.isfinite(x)):
                raise DataError(f"the training data of {self.cfg.task} hold NaN or infinite values (batch "
                                f"{self.batch_in_epoch + 1} of epoch {self.epoch + 1}); fix the data.") from None
            self._diverged("gradient from the head" if str(e).startswith("dy") else "recurrent activations",
                           "NaN or infinite")

    # ---- the update on the device (--device cuda) ----
    def _update_on_device(self, x, y, lengths, text=None):
        """One update with the parameters, gradients and optimizer state on the device (``self.on_device``):
        the stack, the head and its loss (``SequenceModel.loss_and_grad_on_device``: every batch kind, ragged,
        in truncated-BPTT chunks, with a text), the clipping and the optimizer run there, and one copy comes
        back: the metrics (the head's sums, the gradient norm). Checks as the host path makes them, once the
        metrics are here (a diverged run stops without saving, so the update already made is dropped)."""
        from lnrnn.kernels import arrays_cuda, optim_cuda
        model, cfg = self.model, self.cfg
        p, g = model.device_buffers()
        if self._metrics_dev is None:
            self._metrics_dev = arrays_cuda.zeros((3,), np.float64)      # (3,) the head's 2 sums, gradient norm
        metrics = self._metrics_dev
        model.loss_and_grad_on_device(x, y, metrics[:2], noise_key=self.step, lengths=lengths, tbptt=cfg.tbptt,
                                      text=text)
        optim_cuda.clip_grad_norm(g.data, cfg.clip, metrics[2:])
        self.opt.step(p.data, g.data)
        self.host_stale = True
        first, second, norm = metrics.copy_to_host()                     # the update's one copy to the host
        # the head's two metrics' sums (loss, acc; the mixture density's loss, nats_seq), sequences with a step
        seqs = x.shape[1] if lengths is None else np.count_nonzero(np.asarray(lengths) > 0)
        model.last_sums = {**dict(zip(model.head.metrics, (float(first), float(second)))), "seqs": float(seqs)}
        loss = model.head.mean(model.last_sums, model.last_count)["loss"]
        if not math.isfinite(loss):
            self._diverged("training loss", loss)
        if not math.isfinite(norm):
            self._diverged("gradient norm", norm)
        self._blown_up(loss)

    def sync_host(self):
        """Bring the host parameters up to date with the device ones (``_update_on_device``) before anything
        reads them: evaluation, checkpoints, a hook, the caller of ``train``."""
        if self.host_stale:
            self.model.pull_params()
            self.host_stale = False

    def _save_due(self):
        """A periodic checkpoint (--save-every, --save-every-seconds), or one that waited, is due now;
        while the loss is above the blow-up level the save waits (the last good checkpoint stays)."""
        c = self.cfg
        due = (self.save_pending or (c.save_every is not None and self.step % c.save_every == 0)
               or (c.save_every_seconds > 0 and time.perf_counter() - self.last_save_t >= c.save_every_seconds))
        if due and self.high_streak > 0:
            self.save_pending = True
            return False
        return due

    def _compile_note(self):
        if self.clock is not None and self.clock.busy and not self.quiet:
            stream = self.stream if self.stream is not None else sys.stderr
            stream.write("Compiling kernels (once per install; later runs load them from Numba's cache)...\n")
            stream.flush()

    def run(self):
        """Train until done or stopped -> None (done) or the reason it stopped (saved, resumable)."""
        with _StopFlag() as flag, CompileClock() as clock:
            self.flag, self.clock = flag, clock
            try:
                return self._run(flag, clock)
            finally:
                self.sync_host()
                self.flag_signum = flag.signum or self._voted_signal()
                self.compile_this = clock.seconds()  # this invocation's compile seconds
                self.compile_s += self.compile_this
                self.flag = self.clock = None

    def _stop_signalled(self, flag):
        """A signal asks to stop: this process's, or in a group, any rank's as of the last update's votes."""
        return flag.requested if self.group.size == 1 else self.votes[0] > 0

    def _voted_signal(self):
        """The signal a group stopped for when this rank got none (SIGINT if any rank got one)."""
        if self.group.size == 1 or self.votes[0] == 0:
            return None
        return signal.SIGINT if self.votes[1] > 0 else signal.SIGTERM

    def _over_budget(self):
        """--time-budget is used up: by this process's clock, or in a group by rank 0's (voted)."""
        if self.group.size > 1:
            return self.votes[2] > 0
        return self.cfg.time_budget is not None and self._budget_seconds() >= self.cfg.time_budget

    def _run(self, flag, clock):
        cfg, task, model = self.cfg, self.task, self.model
        if self.group.root and not self.lock.held:  # a new folder: created and locked before anything is written
            os.makedirs(cfg.out, exist_ok=True)
            self.lock.acquire()
            if self.lock.note:
                self.log(self.lock.note)
            if not self.resumed and checkpoint_exists(cfg.out):
                raise UserError(f"{cfg.out} already holds a run; pass --resume to continue it, or choose another --out.")
        if self.group.root:  # rank 0 alone writes the run folder
            write_run_config(cfg.out, cfg)
        self.update_log = UpdateLog(cfg.out).start(self.step) if self.group.root else distributed.NullLog()
        if self.group.root:
            self.tb = TensorBoardLog.open(cfg.out)  # None without the tensorboard package
        if self.step == 0 and self.batch_in_epoch == 0 and self.epoch == 0:
            self.save()
        self.saved_step, self.last_save_t = self.step, time.perf_counter()
        n, B = task.size("train"), cfg.batch_size
        nb = -(-n // B)
        t_start = self.t_start = self.curve_t = time.perf_counter()
        stop_reason = None
        note = threading.Timer(COMPILE_NOTE_AFTER_S, self._compile_note)
        note.daemon = True
        note.start()
        try:
            while self.epoch < cfg.epochs and stop_reason is None:
                self.rng.bit_generator.state = self.epoch_rng
                perm = self.rng.permutation(n)
                self.opt.lr = finetune.scheduled_lr(cfg.lr, cfg.lr_decay, self.epoch, self.lr_changes)
                bar = Progress(n, f"epoch {self.epoch + 1}/{cfg.epochs}", stream=self.stream, quiet=self.quiet,
                               done=min(self.batch_in_epoch * B, n))
                t_epoch = time.perf_counter()
                for b in range(self.batch_in_epoch, nb):
                    if flag.requested and self.group.size == 1:  # a signal during the last evaluation or save
                        stop_reason = "interrupted"
                        break
                    t0, c0 = time.perf_counter(), clock.seconds()
                    idx = perm[b * B:(b + 1) * B]
                    x, y, lengths, *text = task_batch(task, "train", idx, model.dtype, model.conditioned)
                    if self.on_device:
                        self._update_on_device(x, y, lengths, *text)
                    else:
                        means = self._loss_and_grad(x, y, lengths, *text)
                        loss = means["loss"]
                        if not math.isfinite(loss):
                            self._diverged("training loss", loss)
                        params, grads = model.flat[0].data, model.flat[1].data
                        norm = clip_grad_norm(grads, cfg.clip)
                        if not math.isfinite(norm):
                            self._diverged("gradient norm", norm)
                        self._blown_up(loss)
                        self.opt.step(params, grads)
                    self.step += 1
                    if self.first_update_s is None:  # compile time made visible: the first update compiles
                        self.first_update_s = time.perf_counter() - t_start
                        note.cancel()
                    self.batch_in_epoch = b + 1
                    count = model.last_count  # scored units (sequences or steps) of this batch
                    s = self.sums
                    for m in s["sums"]:
                        s["sums"][m] += model.last_sums[m]
                    s["count"] += count
                    s["samples"] += len(idx)
                    self.train_time += time.perf_counter() - t0 - (clock.seconds() - c0)  # compiling apart
                    self._log_update(nb)
                    bar.update(len(idx), **model.head.mean(s["sums"], s["count"]))
                    if self.hook is not None:
                        self.sync_host()
                        self.hook(self)
                    if cfg.eval_every is not None and self.step % cfg.eval_every == 0 and self.batch_in_epoch < nb:
                        self._evaluate_mid_epoch(nb, bar)
                    if self._stop_signalled(flag):
                        stop_reason = "interrupted"
                    elif self.early_stop is not None:
                        stop_reason = "early"
                    elif cfg.max_steps is not None and self.step >= cfg.max_steps:
                        stop_reason, self.reached = f"reached --max-steps {cfg.max_steps}", "max_steps"
                    elif self._over_budget():
                        stop_reason, self.reached = f"used the --time-budget of {cfg.time_budget:g} s", "time_budget"
                    if stop_reason is not None:
                        if self.batch_in_epoch < nb:
                            break
                    elif self.batch_in_epoch < nb and self._save_due():
                        self.save()
                else:
                    self._end_epoch(bar, time.perf_counter() - t_epoch)
                    if stop_reason is None and self.early_stop is not None:
                        stop_reason = "early"
                    continue
                bar.close()
                if self.reached is not None and self.history_step() != self.step:
                    self._evaluate_at_stop(nb)  # the summary and the checkpoint report the state reached
                self.save()
            if self.save_pending:  # the end of the run came while a save waited for the loss: save it now
                self.save()
        finally:
            note.cancel()
        if self.curve_pending:  # the epochs since the last drawing (CURVE_REDRAW_S)
            self._draw_curve()
        return stop_reason

    def _validate(self):
        """The head's metrics on the validation set; its seconds count as training time (compiling apart)."""
        self.sync_host()
        t0, c0 = time.perf_counter(), self.compile_total()
        val = evaluate(self.model, self.task, "val", self.cfg.eval_batch_size, self.group)
        self.train_time += time.perf_counter() - t0 - (self.compile_total() - c0)
        return val

    def history_step(self):
        """The update of the last scheduled evaluation (None before any)."""
        return self.history[-1]["step"] if self.history else None

    def _eval_record(self, val, nb, kind):
        """A metrics row of an evaluation outside an epoch end (kind 'update': --eval-every; 'stop')."""
        return {"epoch": round(self.epoch + self.batch_in_epoch / nb, 6), "step": self.step,
                "samples": self.epoch * self.task.size("train") + self.sums["samples"], "lr": self.opt.lr,
                **{f"val_{m}": v for m, v in val.items()}, "time_s": round(self.train_time, 3),
                "compile_s": round(self.compile_total(), 3), "eval": kind}

    def _judge(self, rec):
        """A scheduled evaluation: a better --best-metric is the new best (RUN/best is written by the caller,
        once the state is consistent); otherwise one more evaluation without improvement (--patience)."""
        b, p = self.best, self.cfg.patience
        if b["metric"] == "none":
            return False
        v = rec["val_" + b["metric"]]
        better = b["value"] is None or (v > b["value"] if b["metric"] == "acc" else v < b["value"])
        if better:
            b.update(value=v, step=self.step, epoch=rec["epoch"], since=0)
        else:
            b["since"] += 1
            if p is not None and b["since"] >= p:
                self.early_stop = {"patience": p, "metric": b["metric"], "best": b["value"], "best_step": b["step"],
                                   "step": self.step}
                rec["early_stop"] = True
        return better

    def _evaluate_mid_epoch(self, nb, bar):
        """--eval-every: a row in metrics.jsonl, the best checkpoint and patience, mid-epoch."""
        val = self._validate()
        if not math.isfinite(val["loss"]):
            self._diverged("validation loss", val["loss"])
        rec = self._eval_record(val, nb, "update")
        if not self.quiet:
            bar.note(f"update {self.step}: val " + format_metrics(val))
        better = self._judge(rec)
        self.history.append(rec)
        if better:
            self.save_best()
        self._write_metrics(draw=False)

    def _evaluate_at_stop(self, nb):
        """A run stopped by its budget mid-epoch: evaluate the state reached. Kept in the checkpoint
        ("stop_eval"), the summary and TensorBoard, not in metrics.jsonl nor in the best checkpoint or patience:
        a resumed run then continues exactly as an uninterrupted one."""
        self.stop_eval = self._eval_record(self._validate(), nb, "stop")
        if self.tb is not None:
            self.tb.add([self.stop_eval])

    def _end_epoch(self, bar, epoch_wall):
        s = self.sums
        val = self._validate()
        train = self.model.head.mean(s["sums"], s["count"])
        rec = {"epoch": self.epoch + 1, "step": self.step, "samples": (self.epoch + 1) * self.task.size("train"),
               "lr": self.opt.lr, **{f"train_{m}": v for m, v in train.items()},
               **{f"val_{m}": v for m, v in val.items()}, "time_s": round(self.train_time, 3),
               "compile_s": round(self.compile_total(), 3),
               "samples_per_s": round(s["samples"] / max(epoch_wall, 1e-9), 1)}
        bar.close("| val " + format_metrics(val))
        if not math.isfinite(val["loss"]):
            self._diverged("validation loss", val["loss"])
        better = self._judge(rec)
        self.history.append(rec)
        self.epoch += 1
        self.batch_in_epoch = 0
        self.sums = self._new_sums()
        self.epoch_rng = self.rng.bit_generator.state
        if better:
            self.save_best()
        if self.high_streak > 0:
            self.save_pending = True  # the loss is above the blow-up level: keep the last good checkpoint
        else:
            self.save()
        self._write_metrics()

    def summary(self, stop_reason):
        c = self.cfg
        last = self.history[-1] if self.history else None
        if self.stop_eval is not None and self.stop_eval["step"] == self.step:
            last = self.stop_eval
        # the files written so far: a run stopped within its first epoch has no metrics and no curve yet
        files = (("checkpoint", "checkpoint.json"), ("metrics", METRICS_FILE), ("curve", CURVE_FILE))
        where = ", ".join(f"{what} {os.path.join(c.out, name)}" for what, name in files
                          if os.path.exists(os.path.join(c.out, name)))
        if last is None:
            res = "no evaluation yet"
        else:
            when = (f"after epoch {last['epoch']}" if "eval" not in last
                    else f"at update {last['step']} (epoch {last['epoch']:.2f})")
            res = f"validation {format_metrics({m: last['val_' + m] for m in self.model.metrics}, long=True)} {when}"
        b = self.best
        if b["value"] is not None:
            res += (f"; best checkpoint {os.path.join(c.out, BEST_DIR)} (validation "
                    f"{format_metrics({b['metric']: b['value']}, long=True)} at update {b['step']})")
        done = f"{self.step} updates in {format_seconds(self.train_time)} of training"
        if getattr(self, "compile_this", 0.0) >= 0.5:
            done += f" (plus {self.compile_this:.1f} s compiling kernels, once per install: later runs load them)"
        if stop_reason is None:
            return f"Done: {c.epochs} epoch{'s' * (c.epochs != 1)}, {done}; {res}; {where}."
        if stop_reason == "early":
            e = self.early_stop
            return (f"Stopped early (--patience {e['patience']}: no better validation {e['metric']} in "
                    f"{e['patience']} evaluation{'s' * (e['patience'] != 1)} since update {e['best_step']}) at epoch "
                    f"{self.epoch + 1}, {done}; {res}; {where}; to train further, resume with a larger --patience.")
        flag = "--max-steps" if self.reached == "max_steps" else "--time-budget"
        return (f"Stopped ({stop_reason}) at epoch {self.epoch + 1}, {done}; {res}; {where}; "
                f"continue with `lnrnn train --out {c.out} --resume` (without {flag} it trains on to --epochs "
                f"{c.epochs}; give {flag} again for a new limit).")

    def budget_note(self):
        """' (its --max-steps 200 and --time-budget 60 s still hold)' for a resume hint, or ''."""
        c, parts = self.cfg, []
        if c.max_steps is not None:
            parts.append(f"--max-steps {c.max_steps}")
        if c.time_budget is not None:
            left = max(c.time_budget - self._budget_seconds(), 0.0)
            parts.append(f"--time-budget {c.time_budget:g} s ({left:.0f} s left)")
        return f" (the run's {' and '.join(parts)} still hold{'s' * (len(parts) == 1)})" if parts else ""


def _signal_name(signum):
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _interrupted(msg, signum):
    err = TrainingInterrupted(msg)
    err.exit_code = 128 + signum  # what the shell reports for a process the signal ended: 130, 143
    return err


def nothing_left(trainer):
    """A sentence when a resumed run has nothing left to do under its --epochs / --max-steps, else None."""
    c = trainer.cfg
    if trainer.epoch >= c.epochs:
        return (f"Nothing to do: the run in {c.out} has finished {trainer.epoch} epoch{'s' * (trainer.epoch != 1)} "
                f"(--epochs {c.epochs}); pass a larger --epochs to train it further.")
    if c.max_steps is not None and trainer.step >= c.max_steps:
        return (f"Nothing to do: the run in {c.out} has made {trainer.step} updates (--max-steps {c.max_steps}); "
                "pass a larger --max-steps, or none, to train it further.")
    if c.time_budget is not None and trainer._budget_seconds() >= c.time_budget:
        return (f"Nothing to do: the run in {c.out} has used its --time-budget of {c.time_budget:g} s; pass "
                "--time-budget again for more time.")
    e = trainer.early_stop  # kept on resume only while --patience is not larger
    if e is not None:
        return (f"Nothing to do: the run in {c.out} stopped early at update {e['step']} (no better validation "
                f"{e['metric']} in {trainer.best['since']} evaluations, --patience {c.patience}); pass a larger "
                "--patience to train it further.")
    return None


def train(cfg, resume=False, explicit=(), quiet=False, log=None, stream=None, hook=None, group=None):
    """Train (or resume) a run; returns the Trainer. Raises UserError subclasses for every bad input.
    group: the MPI ranks of a data-parallel run (``lnrnn.training.distributed.init()``); None: this process alone."""
    trainer = Trainer(cfg, resume=resume, explicit=explicit, quiet=quiet, log=log, stream=stream, hook=hook,
                      group=group)
    try:
        if trainer.lock.note:
            trainer.log(trainer.lock.note)
        idle = nothing_left(trainer) if resume else None
        if idle:
            trainer.log(idle)
            return trainer
        if trainer.lr_change is not None:
            trainer.log(f"Changing the schedule: {finetune.describe_change(trainer.lr_change)}.")
        trainer.log(("Resuming. " if resume else "") + trainer.describe())
        if trainer.group.size > 1:
            trainer.log(distributed.describe_split(trainer.group.size, trainer.cfg.batch_size, trainer.cfg.reproducible,
                                                  trainer.cfg.block_rows))
        out = trainer.cfg.out
        try:
            # single-threaded BLAS under the kernels' threads, and the run's batch blocks, for this run only
            with kernel_threads(), block_rows(trainer.cfg.block_rows):
                stop = trainer.run()
        except _Abort as a:
            sig, again = _signal_name(a.signum), f"continue with `lnrnn train --out {out} --resume`{trainer.budget_note()}"
            if trainer.saved_step == trainer.step:  # it came during the save, which finished first
                msg = (f"stopped by a second {sig} at epoch {trainer.epoch + 1}, update {trainer.step}; the state "
                       f"reached is saved in {out}; {again}.")
            else:
                msg = (f"stopped at once by a second {sig} during update {trainer.step + 1} of epoch "
                       f"{trainer.epoch + 1}; the last checkpoint (update {trainer.saved_step}) is kept in {out}; "
                       f"{again}.")
            raise _interrupted(msg, a.signum) from None
        if stop == "interrupted":
            signum = trainer.flag_signum
            raise _interrupted(f"interrupted ({_signal_name(signum)}) at epoch {trainer.epoch + 1}, update "
                               f"{trainer.step}; the state reached is saved in {out}; continue with "
                               f"`lnrnn train --out {out} --resume`{trainer.budget_note()}.", signum)
        trainer.log(trainer.summary(stop))
        return trainer
    finally:
        trainer.close()
