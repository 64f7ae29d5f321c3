"""When a run stops: signals, the MPI ranks' stop votes, budgets, patience, and runs that go wrong.

The loop (``lnrnn.training.train``) asks its ``StopPolicy`` after every update (``reason``); the rules of
a scheduled evaluation (``judge``) and of every loss and gradient norm (``diverged``, ``blown_up``) are
functions of the run's state, which the trainer binds as methods (``Trainer._judge``, ...). The state
judged lives on the trainer and travels in its checkpoints: the best metric and the evaluations since it
improved (``best``, ``early_stop``), the blow-up streak (``initial_loss``, ``high_streak``), the budget
(``budget_used``, ``t_start``, ``reached``) and a group's votes (``votes``).

- Signals: SIGINT (Ctrl-C) and SIGTERM (preemption, ``docker stop``, ``timeout``) alike (``StopFlag``): the first
  finishes the current update, saves and stops (exit 128 + the signal's number); a second one stops at once
  (``Abort``), keeping the last checkpoint, except during a save, which it lets finish first. In an MPI group
  every rank votes after each update (``cast_votes``), so all ranks stop at the same update.
- Budgets: ``--max-steps`` (updates in total), ``--time-budget`` (seconds, earlier invocations' counted when a
  resume inherits the budget); a limit the run reached is lifted for the next resume (``budget_record``).
- Patience: ``--patience N`` evaluations in a row without a better ``--best-metric``.
- Runs that go wrong stop without saving: a NaN or infinite loss, gradient or activation, or a training loss
  above BLOWUP_FACTOR times the run's first loss for BLOWUP_UPDATES updates in a row.
"""
import contextlib
import signal
import threading
import time

from lnrnn.errors import TrainingDiverged, TrainingInterrupted

BLOWUP_FACTOR = 10.0        # a training loss above this many times the run's first loss is out of range...
BLOWUP_UPDATES = 20         # ...and this many updates in a row out of range stop the run as blown up


class Abort(BaseException):
    """A second SIGINT/SIGTERM: stop at once, keeping the last checkpoint (not an Exception, so that no
    ``except Exception`` on the way swallows it)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


class StopFlag:
    """SIGINT (Ctrl-C) and SIGTERM (Slurm/Kubernetes preemption, docker stop, timeout) stop a run alike.

    The first sets the flag: the loop finishes the current update, saves and stops. A second raises
    Abort at once, except inside ``saving()``: there it waits until the save is complete (a checkpoint
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
            raise Abort(signum)

    @contextlib.contextmanager
    def saving(self):
        self.in_save = True
        try:
            yield
        finally:
            self.in_save = False
        if self.deferred is not None:
            raise Abort(self.deferred)

    def __exit__(self, *exc):
        for s, handler in self.old.items():
            signal.signal(s, handler)


def signal_name(signum):
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def interrupted(msg, signum):
    err = TrainingInterrupted(msg)
    err.exit_code = 128 + signum  # what the shell reports for a process the signal ended: 130, 143
    return err


# ---- the rules, functions of the run's state (the trainer binds them: Trainer._judge, ...) ----
def judge(t, rec):
    """A scheduled evaluation of the run ``t`` (a trainer, or anything holding best, cfg.patience, step and
    early_stop): a better --best-metric is the new best (RUN/best is written by the caller,
    once the state is consistent); otherwise one more evaluation without improvement (--patience)."""
    b, p = t.best, t.cfg.patience
    if b["metric"] == "none":
        return False
    v = rec["val_" + b["metric"]]
    better = b["value"] is None or (v > b["value"] if b["metric"] == "acc" else v < b["value"])
    if better:
        b.update(value=v, step=t.step, epoch=rec["epoch"], since=0)
    else:
        b["since"] += 1
        if p is not None and b["since"] >= p:
            t.early_stop = {"patience": p, "metric": b["metric"], "best": b["value"], "best_step": b["step"],
                            "step": t.step}
            rec["early_stop"] = True
    return better

def diverged(t, what, value, evaluated=False):
    """Stop the run ``t`` (the trainer) that went wrong: a NaN or infinite loss, gradient or activation, during
    update t.step + 1, or (evaluated) in the evaluation of the state after update t.step."""
    hint = "try a lower --lr or a --clip"
    if t.setup.plan.cell.norm == "bn" and not t.model.state_noise:
        # the likely cause (Cooijmans et al. sec. 5.1): sequences that begin alike and zero initial states
        # give every row of the batch the same state, a zero batch variance, and a backward that
        # multiplies by gamma/sqrt(eps) at each such step
        hint = ("BatchNorm cells overflow when every sequence of a batch has the same early steps and zero "
                "initial states (zero batch variance): try --state-noise 0.1, or " + hint[4:])
    where = f"after update {t.step}" if evaluated else f"update {t.step + 1}"
    raise TrainingDiverged(
        f"the {what} became {value} at epoch {t.epoch + 1}, {where}; training stopped and "
        f"the last good checkpoint (update {t.saved_step}) is kept in {t.cfg.out}; {hint}.")

def blown_up(t, loss):
    """Count updates in a row whose loss is above the blow-up level; stop after BLOWUP_UPDATES (``t``: the
    trainer, or anything holding initial_loss, high_streak, epoch, step, saved_step and cfg)."""
    if t.initial_loss is None:
        t.initial_loss = loss
    level = BLOWUP_FACTOR * t.initial_loss
    t.high_streak = t.high_streak + 1 if t.initial_loss > 0 and loss > level else 0
    if t.high_streak >= BLOWUP_UPDATES:
        raise TrainingDiverged(
            f"the training loss blew up: above {BLOWUP_FACTOR:g}x its starting value {t.initial_loss:.4g} for "
            f"{t.high_streak} updates in a row (now {loss:.3g}) at epoch {t.epoch + 1}, update "
            f"{t.step + 1}; training stopped and the last good checkpoint (update {t.saved_step}) is kept "
            f"in {t.cfg.out}; start again with a lower --lr than {t.cfg.lr:g}.")


class StopPolicy:
    """Whether, and why, one trainer's run stops (module docstring)."""

    def __init__(self, trainer):
        self.trainer = trainer

    # ---- after every update ----
    def reason(self, flag):
        """None, or why the run stops after this update (a budget reached is kept in ``trainer.reached``)."""
        t, cfg = self.trainer, self.trainer.cfg
        if self.signalled(flag):
            return "interrupted"
        elif t.early_stop is not None:
            return "early"
        elif cfg.max_steps is not None and t.step >= cfg.max_steps:
            t.reached = "max_steps"
            return f"reached --max-steps {cfg.max_steps}"
        elif self.over_budget():
            t.reached = "time_budget"
            return f"used the --time-budget of {cfg.time_budget:g} s"
        return None

    def cast_votes(self):
        """This rank's stop votes for a group's update: signalled, by SIGINT, over budget (rank 0's clock)."""
        t = self.trainer
        flag = t.flag
        t.votes[:] = (flag is not None and flag.requested, flag is not None and flag.signum == signal.SIGINT,
                      t.group.root and self.clock_over())

    def signalled(self, flag):
        """A signal asks to stop: this process's, or in a group, any rank's as of the last update's votes."""
        t = self.trainer
        return flag.requested if t.group.size == 1 else t.votes[0] > 0

    def voted_signal(self):
        """The signal a group stopped for when this rank got none (SIGINT if any rank got one)."""
        t = self.trainer
        if t.group.size == 1 or t.votes[0] == 0:
            return None
        return signal.SIGINT if t.votes[1] > 0 else signal.SIGTERM

    # ---- budgets ----
    def budget_seconds(self):
        """Seconds counted against --time-budget: earlier invocations' (when inherited) and this one's."""
        t = self.trainer
        return t.budget_used + (time.perf_counter() - t.t_start if t.t_start is not None else 0.0)

    def over_budget(self):
        """--time-budget is used up: by this process's clock, or in a group by rank 0's (voted)."""
        t = self.trainer
        if t.group.size > 1:
            return t.votes[2] > 0
        return self.clock_over()

    def clock_over(self):
        """--time-budget is used up by this process's clock: at exactly its seconds, not only past them."""
        c = self.trainer.cfg
        return c.time_budget is not None and self.budget_seconds() >= c.time_budget

    def budget_record(self):
        """The run's budget as a resume inherits it: a limit this invocation reached is lifted."""
        t, c = self.trainer, self.trainer.cfg
        return {"max_steps": None if t.reached == "max_steps" else c.max_steps,
                "time_budget": None if t.reached == "time_budget" else c.time_budget,
                "used_s": 0.0 if t.reached == "time_budget" else round(self.budget_seconds(), 3)}

    def budget_note(self):
        """' (its --max-steps 200 and --time-budget 60 s still hold)' for a resume hint, or ''."""
        c, parts = self.trainer.cfg, []
        if c.max_steps is not None:
            parts.append(f"--max-steps {c.max_steps}")
        if c.time_budget is not None:
            left = max(c.time_budget - self.budget_seconds(), 0.0)
            parts.append(f"--time-budget {c.time_budget:g} s ({left:.0f} s left)")
        return f" (the run's {' and '.join(parts)} still hold{'s' * (len(parts) == 1)})" if parts else ""

    # ---- what a stopped run says ----
    def interruption(self, signum):
        """The TrainingInterrupted of a run that a signal stopped after saving the state reached."""
        t = self.trainer
        out = t.cfg.out
        return interrupted(f"interrupted ({signal_name(signum)}) {stop_place(t)}, update {t.step}; the state "
                           f"reached is saved in {out}; continue with `lnrnn train --out {out} --resume`"
                           f"{self.budget_note()}.", signum)

    def abort(self, signum):
        """The TrainingInterrupted of a run that a second signal stopped at once (``Abort``): the state reached
        when it came during the save, which finished first, else the last checkpoint."""
        t = self.trainer
        out = t.cfg.out
        sig, again = signal_name(signum), f"continue with `lnrnn train --out {out} --resume`{self.budget_note()}"
        if t.saved_step == t.step:
            msg = (f"stopped by a second {sig} {stop_place(t)}, update {t.step}; the state "
                   f"reached is saved in {out}; {again}.")
        else:
            msg = (f"stopped at once by a second {sig} during update {t.step + 1} of epoch "
                   f"{t.epoch + 1}; the last checkpoint (update {t.saved_step}) is kept in {out}; {again}.")
        return interrupted(msg, signum)

    # ---- before a resumed run starts ----
    def nothing_left(self):
        """A sentence when a resumed run has nothing left to do under its --epochs / --max-steps, else None."""
        trainer = self.trainer
        c = trainer.cfg
        if trainer.epoch >= c.epochs:
            return (f"Nothing to do: the run in {c.out} has finished {trainer.epoch} epoch{'s' * (trainer.epoch != 1)} "
                    f"(--epochs {c.epochs}); pass a larger --epochs to train it further.")
        if c.max_steps is not None and trainer.step >= c.max_steps:
            return (f"Nothing to do: the run in {c.out} has made {trainer.step} update{'s' * (trainer.step != 1)} "
                    f"(--max-steps {c.max_steps}); pass a larger --max-steps, or none, to train it further.")
        if self.clock_over():
            return (f"Nothing to do: the run in {c.out} has used its --time-budget of {c.time_budget:g} s; pass "
                    "--time-budget again for more time.")
        e = trainer.early_stop  # kept on resume only while --patience is not larger
        if e is not None:
            since = trainer.best['since']
            return (f"Nothing to do: the run in {c.out} stopped early at update {e['step']} (no better validation "
                    f"{e['metric']} in {since} evaluation{'s' * (since != 1)}, --patience {c.patience}); pass a "
                    "larger --patience to train it further.")
        return None


def stop_place(t):
    """Where in the run a stop came, for what a stopped run says (Trainer t): "after epoch N" where it came as
    epoch N ended (the loop has already moved its counter on: ``Trainer.batch_in_epoch`` 0), else "at epoch
    N" (1-based, the epoch it came in)."""
    if t.batch_in_epoch == 0 and t.epoch > 0:
        return f"after epoch {t.epoch}"
    return f"at epoch {t.epoch + 1}"
