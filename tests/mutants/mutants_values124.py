"""Planted bugs, round 124 (format: tests/mutants/mutants.py): single-line slips in the training driver, stopping,
the group's failure path and the resume refusal, on lines no earlier round mutates: the driver's check for a
signal before each batch limited to groups (a SIGTERM during an epoch's evaluation trains one more update), an
--eval-every row inside an epoch written as kind "epoch", history_step reading the first evaluation (a --max-steps
stop right after an evaluation evaluates the same state again), an infinite validation loss at an epoch's end let
through; a second signal aborting with the first one's number, the --state-noise hint given to a BatchNorm run
that has noise, a --time-budget stop recorded as --max-steps, the second signal's line after a save naming the
next update, "nothing to do" naming --epochs as the epochs finished; Group.fail ending a SystemExit with a
message as status 0, rank 0 (not the others) waiting and naming its rank; the resume refusal naming the
setting's field (--batch_size) instead of its option.

12 mutants. Against the existing targeted tests alone (measured on the direct subset listed below with
--no-baseline: the full lists of the driver's, stopping's, the group's and setup's old files ran past 4
minutes for their baseline alone) 5 were caught and 7 missed: the second signal's number, the BN hint, the
time budget's record, the line after a save and the refusal's option were seen; no old test sends a signal
during an evaluation, reads the kind of an --eval-every row, stops by --max-steps right after an --eval-every
evaluation, feeds an infinite validation loss, resumes with fewer --epochs than done, or calls Group.fail. The
new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values124_train_driver (the digits task, 40 samples in batches of 16, 3 updates an epoch with a partial last
batch: a SIGTERM sent from inside the first evaluation, the updates a hook sees, the exit status 128 + 15, the
one line and the checkpoint's update; every evaluation's step, kind and epoch fraction of --eval-every 2 over 2
epochs worked out by hand, the evaluations counted through a wrapped evaluate; --max-steps 4 and 5 with
--eval-every 4, the state reached evaluated only when no evaluation saw it; inf, -inf and nan validation losses
at an epoch's end; resume_config's refusal for four settings, the option spelled from the field by hand, and a
trained run resumed with a changed --batch-size (refused) and a larger --epochs (wins)),
test_values124_stopping (StopFlag's second signal, the budget record after each kind of stop, both second-signal
lines, "nothing to do" for runs past their --epochs, the divergence line for each norm and noise),
test_values124_distributed_group (Group.fail over a recording communicator: every kind of error's status by the module's
rules, the line each rank prints and the waits it makes).
Dropped before the catalogue: the periodic save's ``self.batch_in_epoch < nb`` as ``<=`` (the epoch's end saves
the same state right after: no file tells the two apart); ``elif`` before that save as ``if`` (a stop inside an
epoch breaks out first, and at an epoch's last update the save is not due there either way); evaluate's
``group.allreduce(acc...)`` dropped (the identity in one process; only an MPI launcher could see it, and the
launcher tests are left off).
A 13th, added with a fix in lnrnn/training/stopping.py: a validation loss that is not finite was reported as
"update {step + 1}", the update after the state evaluated; the message now says "after update {step}", and
the mutant that names the next update again is caught by test_values124_train_driver and test_values80_loop.

    python tests/mutants/run.py --only 'v124-*'
"""
TRAIN = "lnrnn/training/train.py"
STOP = "lnrnn/training/stopping.py"
DIST = "lnrnn/training/distributed.py"
SETUP = "lnrnn/training/setup.py"

# existing tests of these modules, the most direct ones (the MPI launcher tests, test_mpi and
# test_reproducible_ranks, are left off: slow, and they skip where no launcher is installed)
TRAIN_OLD = ["tests/training/test_values90_loop.py", "tests/training/test_values47_epoch_end.py",
             "tests/training/test_values47_saves.py"]
STOP_OLD = ["tests/training/test_values114_stopping.py", "tests/training/test_values54_stopping.py",
            "tests/training/test_values56_stop_place.py"]
DIST_OLD = ["tests/training/test_values70_distributed_group.py", "tests/training/test_values90_distributed_group.py"]
SETUP_OLD = ["tests/training/test_values114_setup.py", "tests/training/test_values63_setup.py",
             "tests/training/test_values47_resume.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TRAIN_NEW = ["tests/training/test_values124_train_driver.py"]
STOP_NEW = ["tests/training/test_values124_stopping.py"]
DIST_NEW = ["tests/training/test_values124_distributed_group.py"]
SETUP_NEW = ["tests/training/test_values124_train_driver.py"]

MUTANTS = [
    # ---- the driver: when it stops, evaluates, diverges ----
    dict(name="v124-train-signal-before-batch-only-in-groups", file=TRAIN,
         old="if flag.requested and self.group.size == 1:  # a signal",
         new="if flag.requested and self.group.size > 1:  # a signal",
         tests=TRAIN_NEW + TRAIN_OLD,
         why="a signal that arrives during an epoch's evaluation is not seen before the next batch in one "
             "process: the run trains one more update after Ctrl-C / SIGTERM"),
    dict(name="v124-train-mid-epoch-row-kind-epoch", file=TRAIN,
         old='eval_row(val, nb, "update")',
         new='eval_row(val, nb, "epoch")',
         tests=TRAIN_NEW + TRAIN_OLD,
         why="an --eval-every evaluation inside an epoch is written to metrics.jsonl as an epoch-end row"),
    dict(name="v124-train-history-step-of-first-row", file=TRAIN,
         old='return self.history[-1]["step"] if self.history else None',
         new='return self.history[0]["step"] if self.history else None',
         tests=TRAIN_NEW + TRAIN_OLD,
         why="history_step reads the first evaluation: a --max-steps stop right after an --eval-every "
             "evaluation evaluates the same state again as a 'stop' row"),
    dict(name="v124-train-epoch-end-inf-val-loss-passes", file=TRAIN,
         old='bar.close("| val " + format_metrics(val))\n        self._finite(val)\n',
         new='bar.close("| val " + format_metrics(val))\n        if not math.isinf(val["loss"]):\n            self._finite(val)\n',
         tests=TRAIN_NEW + TRAIN_OLD,
         why="an infinite validation loss at an epoch end is let through: the run goes on instead of stopping "
             "as diverged"),
    # ---- stopping: the flag, the divergence hint, budgets, messages ----
    dict(name="v124-stop-abort-names-first-signal", file=STOP,
         old="            raise Abort(signum)",
         new="            raise Abort(self.signum)",
         tests=STOP_NEW + STOP_OLD,
         why="a second signal aborts naming the first one: Ctrl-C then SIGTERM exits 130, not 143"),
    dict(name="v124-stop-bn-hint-when-noise-on", file=STOP,
         old='if t.setup.plan.cell.norm == "bn" and not t.model.state_noise:',
         new='if t.setup.plan.cell.norm == "bn" and t.model.state_noise:',
         tests=STOP_NEW + STOP_OLD,
         why="the divergence hint suggests --state-noise to a BN run that already has it, and not to one without"),
    dict(name="v124-stop-time-budget-recorded-as-max-steps", file=STOP,
         old='            t.reached = "time_budget"',
         new='            t.reached = "max_steps"',
         tests=STOP_NEW + STOP_OLD,
         why="a run stopped by its --time-budget records the budget as still holding (and --max-steps as "
             "spent): a resume stops again at once"),
    dict(name="v124-stop-second-signal-after-save-update-plus-one", file=STOP,
         old='msg = (f"stopped by a second {sig} {stop_place(t)}, update {t.step}; the state "',
         new='msg = (f"stopped by a second {sig} {stop_place(t)}, update {t.step + 1}; the state "',
         tests=STOP_NEW + STOP_OLD,
         why="the second signal's line after a finished save names the update after the one saved"),
    dict(name="v124-stop-nothing-left-names-epochs-asked", file=STOP,
         old="has finished {trainer.epoch} epoch{'s' * (trainer.epoch != 1)} ",
         new="has finished {c.epochs} epoch{'s' * (trainer.epoch != 1)} ",
         tests=STOP_NEW + STOP_OLD,
         why="'Nothing to do' names --epochs as the epochs finished when a resume asks for fewer than done"),
    # ---- the group: exit codes and lines ----
    dict(name="v124-dist-fail-systemexit-message-code-0", file=DIST,
         old="exc.code if isinstance(exc.code, int) else 1",
         new="exc.code if isinstance(exc.code, int) else 0",
         tests=DIST_NEW + DIST_OLD,
         why="a SystemExit with a message (sys.exit('...')) ends the group with status 0, as a success"),
    dict(name="v124-dist-fail-root-waits-and-prefixes", file=DIST,
         old="        if not self.root:\n            time.sleep(MPI_FAIL_GRACE_S)",
         new="        if self.root:\n            time.sleep(MPI_FAIL_GRACE_S)",
         tests=DIST_NEW + DIST_OLD,
         why="rank 0 waits and names its rank while the other ranks print a plain line at once: every rank's "
             "copy of a shared error is printed, rank 0's last"),
    # ---- setup: resume with changed options ----
    dict(name="v124-setup-refusal-names-field-not-flag", file=SETUP,
         old='flag = "--" + name.replace("_", "-")',
         new='flag = "--" + name',
         tests=SETUP_NEW + SETUP_OLD,
         why="a refused resume names --batch_size, an option the command line does not have"),
    # ---- the divergence message of an evaluation (fixed with this round: it named the update after it) ----
    dict(name="v124-diverged-evaluation-names-the-next-update", file=STOP,
         old='where = f"after update {t.step}" if evaluated else f"update {t.step + 1}"',
         new='where = f"after update {t.step + 1}" if evaluated else f"update {t.step + 1}"',
         tests=TRAIN_NEW + ["tests/training/test_values80_loop.py"],
         why="a validation loss that is not finite is reported after the update that follows the evaluated state"),
]
