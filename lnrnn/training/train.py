"""Training: the train loop (settings: ``lnrnn.training.plan``; evaluation: ``lnrnn.training.evaluation``).

The loop calls four helpers, each in its own module: the run's setup (``lnrnn.training.setup``: a resumed
checkpoint's settings, the plan, the task, the model and optimizer, built and checked once into a
``RunSetup``), the update (``lnrnn.training.update``: forward, backward, clipping and the optimizer step on
the host or the device), a run recorder (``lnrnn.training.recorder``: checkpoints, ``best/``, ``--keep``,
metrics.jsonl/.csv, updates.jsonl, TensorBoard, the learning curve) and a stop policy
(``lnrnn.training.stopping``: signals, MPI votes, budgets, patience, NaNs and blow-ups).
Fine-tuning (``--init-from``, a resume's new schedule) is ``lnrnn.training.finetune``; what a run leaves in
its ``--out DIR`` is listed in ``lnrnn.training.recorder``.

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

Before any work the run folder is checked to be writable and locked for the life of the run
(``lnrnn.training.rundir``). Seconds spent compiling kernels are recorded apart (``compile_s``), not in the
training time ``time_s``.
"""
import math
import os
import sys
import time

import numpy as np

from lnrnn.compiling import CompileClock
from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.threadscope import kernel_threads
from lnrnn.training import distributed, finetune, setup, stopping
from lnrnn.training.checkpoint import checkpoint_exists
from lnrnn.training.evaluation import evaluate, format_metrics, task_batch
from lnrnn.training.progress import Progress, compile_note
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.rundir import RunLock, check_writable
from lnrnn.training.stopping import Abort, StopFlag, StopPolicy
from lnrnn.training.update import make_update, nonfinite


class Trainer:
    """One run: its parts (``setup``, a ``lnrnn.training.setup.RunSetup``), its loop state, the update it calls
    (``lnrnn.training.update``), its recorder and stop policy; ``run()`` trains until done or stopped."""

    def __init__(self, cfg, resume=False, explicit=(), quiet=False, log=None, stream=None, hook=None, group=None):
        # group: the MPI ranks of a data-parallel run (lnrnn.training.distributed); rank 0 alone logs and writes
        self.group = group or distributed.SINGLE
        root = self.group.root
        self.log = (log or (lambda msg: print(msg, file=sys.stderr))) if root else (lambda msg: None)
        self.quiet, self.stream, self.hook = quiet or not root, stream, hook
        self.resumed = resume
        self.stopping, self.recorder = StopPolicy(self), RunRecorder(self)  # when it stops; what it writes
        if root:
            check_writable(cfg.out)
        self.lock = RunLock(cfg.out)
        if root and os.path.isdir(cfg.out):  # else run() creates the folder and locks it before writing anything
            self.lock.acquire()
        try:
            self.setup = setup.build(cfg, resume, explicit, self.group)
            self.update = make_update(self)  # the loop's one call per batch, on the host or the device
            self._start()
        except BaseException:
            self.lock.release()
            raise

    def _start(self):
        """The loop's state: a new run's, or the resumed checkpoint's (the recorder's ``meta`` and ``restore``)."""
        s = self.setup
        self.rng = np.random.default_rng(s.cfg.seed)
        self.epoch, self.batch_in_epoch, self.step = 0, 0, 0
        self.epoch_rng = self.rng.bit_generator.state   # generator state at the start of self.epoch
        self.sums = self._new_sums()                     # the epoch's running metric sums, count, samples
        self.log_window = self._new_sums()               # the update sums since updates.jsonl's last row
        self.history, self.train_time = [], 0.0          # metrics rows of the scheduled evaluations; seconds
        self.compile_s = 0.0                             # seconds of compiling kernels, all invocations
        self.initial_loss, self.high_streak = None, 0    # the run's first loss; updates in a row above the
                                                         # blow-up level (BLOWUP_FACTOR x initial_loss)
        # the best validation metric so far (scheduled evaluations: epoch ends and --eval-every) and how
        # many evaluations since it improved (--patience); the evaluation where a budget stopped the run
        self.best = {"metric": s.cfg.best_metric, "value": None, "step": None, "epoch": None, "since": 0}
        self.stop_eval, self.early_stop, self.reached = None, None, None
        self.lr_changes, self.lr_change = [], None       # the schedule's changes (--resume --lr); this invocation's
        self.budget_used, self.t_start = s.budget_used, None  # seconds counted against --time-budget
        # this invocation's
        self.first_update_s = None  # wall seconds to the first update (includes compiling)
        self.votes = np.zeros(3)    # a group's stop votes of the last update: signalled, by SIGINT, over budget
        self.saved_step = None      # the update of the last checkpoint
        self.save_pending = False   # a save waiting for the loss to come back in range
        self.flag = self.clock = None  # run()'s stop flag and compile clock while it runs
        if s.checkpoint is not None:
            self.recorder.restore(*s.checkpoint)
            self.saved_step = self.step
            nb = self.batches_per_epoch  # a run saves within an epoch before its last batch: 0 to nb - 1 done
            if self.batch_in_epoch >= nb:
                raise setup.damaged(s.cfg.out, f"batch_in_epoch {self.batch_in_epoch} (an epoch of the "
                                    f"{self.task.size('train')} training sequences it resumes with is {nb} batches "
                                    f"of {s.cfg.batch_size}, so at most {nb - 1} of them are done when a run saves)")

    # the run's settings, task, model and optimizer (``setup``): what train()'s callers, a hook, the recorder
    # and the stop policy read
    cfg = property(lambda self: self.setup.cfg)
    task = property(lambda self: self.setup.task)
    model = property(lambda self: self.setup.model)
    opt = property(lambda self: self.setup.opt)
    # the updates of one epoch: the training sequences in batches of --batch-size, the last one partial
    batches_per_epoch = property(lambda self: -(-self.task.size("train") // self.cfg.batch_size))

    def close(self):
        """Release the run folder (train() does; the lock also goes when the process ends)."""
        self.recorder.close()
        self.lock.release()

    def _new_sums(self):
        return {"sums": dict.fromkeys(self.model.head.sum_keys, 0.0), "count": 0, "samples": 0}

    # ---- checkpoint state ----
    def compile_total(self):
        return self.compile_s + (self.clock.seconds() if self.clock is not None else 0.0)

    def save(self):
        """Write the checkpoint (``RunRecorder.save``)."""
        return self.recorder.save()

    _judge, _diverged, _blown_up = stopping.judge, stopping.diverged, stopping.blown_up  # the stop rules
    # ---- the loop ----
    def run(self):
        """Train until done or stopped -> None (done) or the reason it stopped (saved, resumable)."""
        with StopFlag() as flag, CompileClock() as clock:
            self.flag, self.clock = flag, clock
            try:
                return self._run(flag, clock)
            finally:
                self.update.sync_host()
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
        n, B, nb = task.size("train"), cfg.batch_size, self.batches_per_epoch
        t_start = self.t_start = time.perf_counter()
        stop_reason = None
        note = compile_note(clock, self.stream, self.quiet)  # "Compiling kernels..." while the first update compiles
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
                    self.update(x, y, lengths, *text)  # forward, backward, clip, step; its checks
                    self.step += 1
                    if self.first_update_s is None:  # compile time made visible: the first update compiles
                        self.first_update_s = time.perf_counter() - t_start
                        note.cancel()
                    self.batch_in_epoch = b + 1
                    s = self.sums
                    for m in s["sums"]:
                        s["sums"][m] += model.last_sums[m]
                    s["count"] += model.last_count  # scored units (sequences or steps) of this batch
                    s["samples"] += len(idx)
                    self.train_time += time.perf_counter() - t0 - (clock.seconds() - c0)  # compiling apart
                    self.recorder.log_update(nb)
                    bar.update(len(idx), **model.head.mean(s["sums"], s["count"]))
                    if self.hook is not None:
                        self.update.sync_host()
                        self.hook(self)
                    if cfg.eval_every is not None and self.step % cfg.eval_every == 0 and self.batch_in_epoch < nb:
                        self._evaluate_mid_epoch(nb, bar)
                    stop_reason = self.stopping.reason(flag)  # signals, votes, patience, budgets
                    if stop_reason is not None:
                        if self.batch_in_epoch < nb:
                            break
                    elif self.batch_in_epoch < nb and self.recorder.save_due():
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
        if self.recorder.curve_pending:  # the epochs since the last drawing (recorder.CURVE_REDRAW_S)
            self.recorder.draw_curve()
        return stop_reason

    def _validate(self):
        """The head's metrics on the validation set; its seconds count as training time (compiling apart). A NaN
        or infinite activation inside the stack (a layer's input after the first, which the layers refuse with a
        ValueError) is a diverged run, as a NaN validation loss is (``_finite``)."""
        self.update.sync_host()
        t0, c0 = time.perf_counter(), self.compile_total()
        try:
            val = evaluate(self.model, self.task, "val", self.cfg.eval_batch_size, self.group)
        except ValueError as e:
            nonfinite(self, e)
        self.train_time += time.perf_counter() - t0 - (self.compile_total() - c0)
        return val

    def _finite(self, val):
        """``val`` (an evaluation's metrics), or a diverged run when its loss is NaN or infinite."""
        if not math.isfinite(val["loss"]):
            self._diverged("validation loss", val["loss"], evaluated=True)
        return val

    def history_step(self):
        """The update of the last scheduled evaluation (None before any)."""
        return self.history[-1]["step"] if self.history else None

    def _evaluate_mid_epoch(self, nb, bar):
        """--eval-every: a row in metrics.jsonl, the best checkpoint and patience, mid-epoch."""
        val = self._finite(self._validate())
        rec = self.recorder.eval_row(val, nb, "update")
        if not self.quiet:
            bar.note(f"update {self.step}: val " + format_metrics(val))
        better = self._judge(rec)
        self.history.append(rec)
        if better:
            self.recorder.save_best()
        self.recorder.write_metrics(draw=False)

    def _evaluate_at_stop(self, nb):
        """A run stopped by its budget mid-epoch: evaluate the state reached. Kept in the checkpoint
        ("stop_eval"), the summary and TensorBoard, not in metrics.jsonl nor in the best checkpoint or patience:
        a resumed run then continues exactly as an uninterrupted one."""
        self.stop_eval = self.recorder.eval_row(self._finite(self._validate()), nb, "stop")
        if self.recorder.tb is not None:
            self.recorder.tb.add([self.stop_eval])

    def _end_epoch(self, bar, epoch_wall):
        val = self._validate()
        rec = self.recorder.epoch_row(val, epoch_wall)
        bar.close("| val " + format_metrics(val))
        self._finite(val)
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
        self.recorder.write_metrics()


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
        trainer.log(("Resuming. " if resume else "") + setup.describe(trainer.setup))
        if trainer.group.size > 1:
            trainer.log(distributed.describe_split(trainer.group.size, trainer.cfg.batch_size, trainer.cfg.reproducible,
                                                  trainer.cfg.block_rows))
        try:
            # single-threaded BLAS under the kernels' threads, and the run's batch blocks, for this run only
            with kernel_threads(), block_rows(trainer.cfg.block_rows):
                stop = trainer.run()
        except Abort as a:  # a second signal
            raise trainer.stopping.abort(a.signum) from None
        if stop == "interrupted":
            raise trainer.stopping.interruption(trainer.flag_signum)
        trainer.log(trainer.recorder.summary(stop))
        return trainer
    finally:
        trainer.close()
