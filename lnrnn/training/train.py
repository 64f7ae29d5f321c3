"""Training: the train loop (settings: ``lnrnn.training.plan``; evaluation: ``lnrnn.training.evaluation``).

The loop calls two helpers, each in its own module: a run recorder (``lnrnn.training.recorder``:
checkpoints, ``best/``, ``--keep``, metrics.jsonl/.csv, updates.jsonl, TensorBoard, the learning curve)
and a stop policy (``lnrnn.training.stopping``: signals, MPI votes, budgets, patience, NaNs and blow-ups).
Fine-tuning (``--init-from``, a resume's new schedule) is ``lnrnn.training.finetune``.

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
``max_steps`` or ``time_budget`` stops the run, and on the first SIGINT or SIGTERM (``lnrnn.training.stopping``).
Runs that go wrong stop without saving, so the last good checkpoint stays; while the loss is above the
blow-up level no checkpoint is written (saves wait for it to come back).

Before any work the run folder is checked to be writable, locked for the life of the run
(``lnrnn.training.rundir``), and the memory the configuration needs is estimated and compared with what the
machine has (``lnrnn.training.memory``). Seconds spent compiling kernels are recorded apart (``compile_s``),
not in the training time ``time_s``.
"""
import math
import os
import sys
import threading
import time

import numpy as np

from lnrnn.training.checkpoint import checkpoint_exists, load_checkpoint
from lnrnn.training import distributed, finetune, prewarm
from lnrnn.compiling import CompileClock
from lnrnn.data.strokes import text_record
from lnrnn.data.tasks import load_task
from lnrnn.errors import CheckpointError, DataError, TrainingDiverged, UserError  # noqa: F401 (TrainingDiverged: re-exported)
from lnrnn.training.optim import clip_grad_norm, make_optimizer
from lnrnn.predict_io import describe_task_data
from lnrnn.training.progress import Progress
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import RunLock, check_writable
from lnrnn.training import stopping
from lnrnn.training.stopping import (BLOWUP_FACTOR, BLOWUP_UPDATES, Abort, StopFlag, StopPolicy,  # noqa: F401
                                     interrupted, signal_name)
from lnrnn.kernels.threads import block_rows
from lnrnn.threadscope import kernel_threads
from lnrnn.training.evaluation import evaluate, format_metrics, model_from_checkpoint, split_arrays, task_batch  # noqa: F401
from lnrnn.training.plan import RESUME_OVERRIDABLE, check_memory_built, model_for, resolve

COMPILE_NOTE_AFTER_S = 2.0  # say that kernels are compiling when the first update is still compiling by then
CURVE_REDRAW_S = 30.0       # redraw learning_curve.svg after an epoch once this many seconds passed since the
                            # last drawing (or the run's start), and when the run returns: a drawing takes
                            # 0.1-0.3 s, 2-6% of a small run's few-second epochs (bench/train_throughput.py)


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
        self.stopping, self.recorder = StopPolicy(self), RunRecorder(self)  # when it stops; what it writes
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
        self.recorder.close()
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
        self.log_window = self._new_sums()               # the update sums since updates.jsonl's last row
        self.curve_t, self.curve_pending = None, False   # when learning_curve.svg was last drawn; epochs not in it
        # the best validation metric so far (scheduled evaluations: epoch ends and --eval-every) and how
        # many evaluations since it improved (--patience); the evaluation where a budget stopped the run
        self.best = {"metric": cfg.best_metric, "value": None, "step": None, "epoch": None, "since": 0}
        self.stop_eval, self.early_stop, self.reached = None, None, None
        self.budget_used, self.t_start = 0.0, None      # seconds counted against --time-budget
        if cfg.best_metric != "none" and cfg.best_metric not in self.model.metrics:
            raise UserError(f"--best-metric {cfg.best_metric}: the {self.model.head.kind} head of {cfg.task} "
                            f"reports {', '.join(self.model.metrics)}; choose one of them, or none.")
        if resume:
            self.recorder.restore(meta, arrays)
            self.saved_step = self.step
            if "time_budget" not in explicit:  # an inherited budget: what is left of it
                self.budget_used = float((meta.get("budget") or {}).get("used_s", 0.0))

    def _new_sums(self):
        return {"sums": dict.fromkeys(self.model.head.sum_keys, 0.0), "count": 0, "samples": 0}

    # ---- checkpoint state ----
    def compile_total(self):
        return self.compile_s + (self.clock.seconds() if self.clock is not None else 0.0)

    def _write_metrics(self, draw=True):
        """The metrics files after every evaluation; the picture after an epoch when CURVE_REDRAW_S have passed
        since its last drawing."""
        if not self.group.root:
            return
        self.recorder.write_metrics()
        if not draw:
            return
        self.curve_pending = True
        if time.perf_counter() - self.curve_t >= CURVE_REDRAW_S:
            self._draw_curve()

    def _draw_curve(self):
        """Redraw learning_curve.svg (rank 0) and restart CURVE_REDRAW_S's clock."""
        self.recorder.draw_curve()
        self.curve_t, self.curve_pending = time.perf_counter(), False

    def save(self):
        """Write the checkpoint (``RunRecorder.save``)."""
        return self.recorder.save()

    _judge, _diverged, _blown_up = stopping.judge, stopping.diverged, stopping.blown_up  # the stop rules
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
                f"{c.epochs} epoch{'s' * (c.epochs != 1)}, seed {c.seed}; "
                + (f"starting from {finetune.describe_record(self.init_record)}; " if self.init_record else "")
                + f"writing to {c.out}.")

    def _loss_and_grad(self, x, y, lengths, text=None):
        """The model's forward and backward on one batch; a NaN or infinite activation or gradient
        inside the stack (which the layers refuse with a ValueError) is a diverged run."""
        try:
            if self.group.size > 1 or self.cfg.reproducible:
                # this rank's shard (or, --reproducible, its blocks); gradients, sums and stop votes combined
                c = self.cfg
                self.stopping.cast_votes()
                run = distributed.loss_and_grad_blocks if c.reproducible else distributed.loss_and_grad
                with prewarm.armed(self.first_update_s is None and self.group.size == 1):
                    return run(self.group, self.model, x, y, lengths, c.tbptt, self.step, self.votes, text)
            # the first update of a process on a cold cache compiles the backward loops in a second
            # process meanwhile (lnrnn.training.prewarm; layers on other devices start none)
            with prewarm.armed(self.first_update_s is None):
                return self.model.loss_and_grad(x, y, lengths, tbptt=self.cfg.tbptt, noise_key=self.step, text=text)
        except ValueError as e:
            self._nonfinite(e, x)

    def _nonfinite(self, e, x):
        """A layer's ValueError for a NaN or infinite array (on either path): the data's fault when the batch
        itself holds one (a DataError), else a diverged run; any other ValueError goes on."""
        if "NaN or infinite" not in str(e):
            raise e
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
        try:
            model.loss_and_grad_on_device(x, y, metrics[:2], noise_key=self.step, lengths=lengths, tbptt=cfg.tbptt,
                                          text=text)
        except ValueError as e:
            self._nonfinite(e, x)
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
        with StopFlag() as flag, CompileClock() as clock:
            self.flag, self.clock = flag, clock
            try:
                return self._run(flag, clock)
            finally:
                self.sync_host()
                self.flag_signum = flag.signum or self.stopping.voted_signal()
                self.compile_this = clock.seconds()  # this invocation's compile seconds
                self.compile_s += self.compile_this
                self.flag = self.clock = None

    def _run(self, flag, clock):
        cfg, task, model = self.cfg, self.task, self.model
        if self.group.root and not self.lock.held:  # a new folder: created and locked before anything is written
            os.makedirs(cfg.out, exist_ok=True)
            self.lock.acquire()
            if self.lock.note:
                self.log(self.lock.note)
            if not self.resumed and checkpoint_exists(cfg.out):
                raise UserError(f"{cfg.out} already holds a run; pass --resume to continue it, or choose another --out.")
        self.recorder.open()  # config.json, updates.jsonl, TensorBoard; a new run's step-0 checkpoint
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
                    self.recorder.log_update(nb)
                    bar.update(len(idx), **model.head.mean(s["sums"], s["count"]))
                    if self.hook is not None:
                        self.sync_host()
                        self.hook(self)
                    if cfg.eval_every is not None and self.step % cfg.eval_every == 0 and self.batch_in_epoch < nb:
                        self._evaluate_mid_epoch(nb, bar)
                    stop_reason = self.stopping.reason(flag)  # signals, votes, patience, budgets
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
            self.recorder.save_best()
        self._write_metrics(draw=False)

    def _evaluate_at_stop(self, nb):
        """A run stopped by its budget mid-epoch: evaluate the state reached. Kept in the checkpoint
        ("stop_eval"), the summary and TensorBoard, not in metrics.jsonl nor in the best checkpoint or patience:
        a resumed run then continues exactly as an uninterrupted one."""
        self.stop_eval = self._eval_record(self._validate(), nb, "stop")
        if self.recorder.tb is not None:
            self.recorder.tb.add([self.stop_eval])

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
            self.recorder.save_best()
        if self.high_streak > 0:
            self.save_pending = True  # the loss is above the blow-up level: keep the last good checkpoint
        else:
            self.save()
        self._write_metrics()

def train(cfg, resume=False, explicit=(), quiet=False, log=None, stream=None, hook=None, group=None):
    """Train (or resume) a run; returns the Trainer. Raises UserError subclasses for every bad input.
    group: the MPI ranks of a data-parallel run (``lnrnn.training.distributed.init()``); None: this process alone."""
    trainer = Trainer(cfg, resume=resume, explicit=explicit, quiet=quiet, log=log, stream=stream, hook=hook,
                      group=group)
    try:
        if trainer.lock.note:
            trainer.log(trainer.lock.note)
        idle = trainer.stopping.nothing_left() if resume else None
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
        except Abort as a:
            sig, again = signal_name(a.signum), f"continue with `lnrnn train --out {out} --resume`{trainer.stopping.budget_note()}"
            if trainer.saved_step == trainer.step:  # it came during the save, which finished first
                msg = (f"stopped by a second {sig} at epoch {trainer.epoch + 1}, update {trainer.step}; the state "
                       f"reached is saved in {out}; {again}.")
            else:
                msg = (f"stopped at once by a second {sig} during update {trainer.step + 1} of epoch "
                       f"{trainer.epoch + 1}; the last checkpoint (update {trainer.saved_step}) is kept in {out}; "
                       f"{again}.")
            raise interrupted(msg, a.signum) from None
        if stop == "interrupted":
            signum = trainer.flag_signum
            raise interrupted(f"interrupted ({signal_name(signum)}) at epoch {trainer.epoch + 1}, update "
                               f"{trainer.step}; the state reached is saved in {out}; continue with "
                               f"`lnrnn train --out {out} --resume`{trainer.stopping.budget_note()}.", signum)
        trainer.log(trainer.recorder.summary(stop))
        return trainer
    finally:
        trainer.close()
