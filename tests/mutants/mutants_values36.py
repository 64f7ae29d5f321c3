"""Planted bugs, round 36 (format: tests/mutants/mutants.py): single-line slips in the training policies, on
lines no earlier round mutated: the early stop's record (its best update), the blow-up rule's first loss when it
is 0, the --time-budget that earlier invocations used and the limit a stop lifts; a failed save's
size and --keep's pruning order; the recorder's saves by the clock (--save-every-seconds 0 is off), an epoch
row's means over the scored units, updates.jsonl's window count and a resumed epoch's samples; the schedule's
change (the rate in effect, the epoch it counts from); the optimizer's state after a reload (its lr, RMSProp's
alpha and momentum, loaded slots that must be its own copy); the memory estimate's head bias, layers and
last-step head; a resume given the run's own value again; the plan's data bytes and --lr-decay 0.

21 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 14 were
caught and 7 missed: a first loss of 0 taken for "none yet", --save-every-seconds 0 saving after every update,
an epoch row's training means over the sequences instead of the scored units, loaded optimizer slots sharing
the given state's arrays, the activations part counting one layer whatever --layers, the plan's estimate
without the task's data, and --lr-decay 0 taken. The new value tests catch every mutant:
test_values36_stopping (blown_up over hand-made histories: a first loss of 0 or -2 kept through later losses
and putting nothing out of range, a first loss of 2 kept through a dip to 0), test_values36_recorder (epoch_row
of a per-step classifier's sums over 15 scored steps of 3 sequences and of a density head's points and
sequences; save_due on a stand-in clock at --save-every-seconds 0, 5 and 2.5), test_values36_optim (a
state_dict is a snapshot; two optimizers loaded from one state step alike and leave it as it was; a loaded
Adam's step against the paper's rule from the saved moments), test_values36_memory (the activation and
evaluation parts by hand for 2-4 layers, both directions and --tbptt; each layer adds one layer's keep; digits'
data bytes equal to the built task's arrays and the plan's check refusing at one byte short), test_values36_plan
(--lr-decay's edges: the smallest positive factors taken; 0, -0, negative, inf and NaN refused). No mutant
written was dropped; not written: split_arrays splitting slot names at their last "/" (equivalent: parameter
names hold none, 'rnn.l0.Wx'), the arrays file's name padded to fewer digits (equivalent: the description
names the file and nothing sorts them), and judge's higher-is-better test for cer (its line is mutated twice
already). Found on the way: memory.estimate counted 2 optimizer slots for rmsprop-graves (a table by kind had
no entry for it; the default was 2), which keeps 3 (sq, avg, v), so its parameters part was one parameter copy
short. Fixed: the count comes from the optimizers themselves (Optimizer.slots_kept, memory.slots), checked
against the slots a real step leaves behind for every kind; two mutants of those counts. And lnrnn train took
--forget-bias nan or inf (a model of NaN or saturated gates, a run that diverges at its first update): now
refused by plan.validate, with a mutant of the check (24 in all).

    python tests/mutants/run.py --only 'v36-*'
"""
STOP = "lnrnn/training/stopping.py"
CKPT = "lnrnn/training/checkpoint.py"
REC = "lnrnn/training/recorder.py"
FINE = "lnrnn/training/finetune.py"
OPTIM = "lnrnn/training/optim.py"
MEM = "lnrnn/training/memory.py"
SETUP = "lnrnn/training/setup.py"
PLAN = "lnrnn/training/plan.py"

# existing tests of these modules
STOP_OLD = ["tests/training/test_values12_stopping.py", "tests/training/test_values21_stopping.py",
            "tests/training/test_values9_stopping.py", "tests/training/test_values_train_policies.py",
            "tests/training/test_stopping_recorder_parts.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values14_checkpoint.py",
            "tests/training/test_values19_checkpoint.py", "tests/training/test_values20_recorder_keep.py",
            "tests/training/test_values_train_policies.py::test_keep_holds_the_newest_checkpoints_past_powers_of_ten"]
SAVE_ERROR_OLD = ["tests/training/test_edges.py::test_a_checkpoint_that_cannot_be_saved_keeps_the_previous_one"]
REC_OLD = ["tests/training/test_values10_recorder.py", "tests/training/test_values12_recorder.py",
           "tests/training/test_values20_recorder.py", "tests/training/test_values21_recorder.py",
           "tests/training/test_values_train_policies.py", "tests/training/test_stopping_recorder_parts.py"]
FINE_OLD = ["tests/training/test_values_finetune.py", "tests/training/test_values14_finetune.py",
            "tests/training/test_finetune.py"]
OPTIM_OLD = ["tests/training/test_optim.py","tests/training/test_values_optim.py",
             "tests/training/test_values9_optim.py",
             "tests/training/test_values13_optim.py", "tests/training/test_values19_optim.py",
             "tests/training/test_schedule.py"]
MEM_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values10_memory.py",
           "tests/training/test_plan.py"]
SETUP_OLD = ["tests/training/test_values_setup.py", "tests/training/test_values9_setup.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py", "tests/training/test_values21_plan.py",
            "tests/training/test_values_memory.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
STOP_NEW = ["tests/training/test_values36_stopping.py"]
REC_NEW = ["tests/training/test_values36_recorder.py"]
OPTIM_NEW = ["tests/training/test_values36_optim.py"]
MEM_NEW = ["tests/training/test_values36_memory.py"]
PLAN_NEW = ["tests/training/test_values36_plan.py",
            "tests/training/test_values36_memory.py::test_the_plans_estimate_counts_the_tasks_data"]

MUTANTS = [
    # ---- stopping: patience's record, the blow-up's first loss, the budget ----
    dict(name="v36-stop-early-record-best-step-is-now", file=STOP,
         old='"best": b["value"], "best_step": b["step"],',
         new='"best": b["value"], "best_step": t.step,',
         tests=STOP_NEW + STOP_OLD,
         why="the early stop's record names the update it stopped at as the best one's: the summary says 'no "
             "better ... since update N' with N the stopping update"),
    dict(name="v36-stop-zero-first-loss-replaced", file=STOP,
         old="    if t.initial_loss is None:\n        t.initial_loss = loss",
         new="    if not t.initial_loss:\n        t.initial_loss = loss",
         tests=STOP_NEW + STOP_OLD,
         why="a first loss of exactly 0 is taken for 'none yet': a later loss becomes the run's first, and the "
             "blow-up level is counted from it"),
    dict(name="v36-stop-budget-forgets-earlier-invocations", file=STOP,
         old="return t.budget_used + (time.perf_counter()",
         new="return (time.perf_counter()",
         tests=STOP_NEW + STOP_OLD,
         why="an inherited --time-budget counts this invocation's seconds only: each resume gets the whole budget "
             "again"),
    dict(name="v36-stop-max-steps-reached-lifts-time-budget", file=STOP,
         old='"time_budget": None if t.reached == "time_budget" else c.time_budget,',
         new='"time_budget": None if t.reached else c.time_budget,',
         tests=STOP_NEW + STOP_OLD,
         why="a run that stopped at --max-steps hands its resume no --time-budget either: reaching one limit "
             "lifts the other"),
    # ---- checkpoint: a failed save's size, --keep's pruning ----
    dict(name="v36-ckpt-save-error-size-in-elements", file=CKPT,
         old="size = format_bytes(sum(v.nbytes for v in arrays.values()))",
         new="size = format_bytes(sum(v.size for v in arrays.values()))",
         tests=SAVE_ERROR_OLD + CKPT_OLD,
         why="a save that cannot be written says it needs the arrays' element count in bytes: 4x (float32) or "
             "8x (float64) too little"),
    dict(name="v36-ckpt-keep-prunes-in-listing-order", file=CKPT,
         old='kept = sorted(d for d in os.listdir(past) if d.startswith("update-") and '
             'os.path.isdir(os.path.join(past, d)))',
         new='kept = [d for d in os.listdir(past) if d.startswith("update-") and os.path.isdir(os.path.join(past, d))]',
         tests=CKPT_OLD,
         why="--keep prunes the past checkpoints in the order the folder lists them, not oldest first: it may "
             "delete the newest"),
    # ---- recorder: saves, averages over the right count, a resume's sums ----
    dict(name="v36-recorder-save-every-seconds-zero-saves-always", file=REC,
         old="(c.save_every_seconds > 0 and",
         new="(c.save_every_seconds >= 0 and",
         tests=REC_NEW + REC_OLD,
         why="--save-every-seconds 0 (off) makes a save due after every update"),
    dict(name="v36-recorder-epoch-means-per-sequence", file=REC,
         old='train = t.model.head.mean(s["sums"], s["count"])',
         new='train = t.model.head.mean(s["sums"], s["samples"])',
         tests=REC_NEW + REC_OLD,
         why="an epoch row's training means divide by the sequences trained on, not the scored units (steps, "
             "rows): a per-step head's loss is T times too large"),
    dict(name="v36-recorder-update-window-count-last-only", file=REC,
         old='        w["count"] += m.last_count\n',
         new='        w["count"] = m.last_count\n',
         tests=REC_NEW + REC_OLD,
         why="updates.jsonl's means divide the window's sums by the last update's scored count only"),
    dict(name="v36-recorder-resume-forgets-the-epochs-samples", file=REC,
         old='"samples": int(sums["samples"])}',
         new='"samples": 0}',
         tests=REC_NEW + REC_OLD,
         why="a run resumed in the middle of an epoch forgets the sequences that epoch had trained on: its "
             "--eval-every rows count fewer samples than the uninterrupted run's"),
    # ---- finetune: the schedule's change ----
    dict(name="v36-finetune-rate-in-effect-from-new-settings", file=FINE,
         old="    now = scheduled_lr(lr, decay, epoch, changes)",
         new="    now = scheduled_lr(cfg.lr, cfg.lr_decay, epoch, changes)",
         tests=FINE_OLD,
         why="the rate in effect at the change is computed with the new --lr/--lr-decay: a decay-only change "
             "starts from a rate the run never had"),
    dict(name="v36-finetune-change-fires-an-epoch-late", file=FINE,
         old='return {"step": step, "epoch": epoch, "lr"',
         new='return {"step": step, "epoch": epoch + 1, "lr"',
         tests=FINE_OLD,
         why="the change counts its decay from the next epoch: the rest of the epoch it was made in runs at "
             "the new rate divided by the decay"),
    # ---- optim: a reloaded state ----
    dict(name="v36-optim-loaded-lr-left-in-hyper", file=OPTIM,
         old='self.lr = float(hyper.pop("lr"))',
         new='self.lr = float(hyper["lr"])',
         tests=OPTIM_NEW + OPTIM_OLD,
         why="a loaded state leaves its lr among the hyper-parameters: state_dict then saves the loaded rate "
             "over the one in effect (the schedule's)"),
    dict(name="v36-optim-rmsprop-alpha-momentum-swapped", file=OPTIM,
         old='h["alpha"], h["momentum"], h["eps"])',
         new='h["momentum"], h["alpha"], h["eps"])',
         tests=OPTIM_NEW + OPTIM_OLD,
         why="RMSProp with momentum passes momentum as alpha and alpha as momentum: the same for "
             "rmsprop-momentum (0.9, 0.9), wrong for rmsprop-graves (0.95, 0.9)"),
    dict(name="v36-optim-loaded-slots-alias-the-state", file=OPTIM,
         old="{k: np.array(v) for k, v in",
         new="{k: np.asarray(v) for k, v in",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="loaded slots (named, without a layout) are the given state's arrays: the next steps overwrite the "
             "state it was loaded from"),
    # ---- memory: what the estimate claims to count ----
    dict(name="v36-memory-head-bias-not-counted", file=MEM,
         old="    params = (W * L if skip else W) * outputs + outputs",
         new="    params = (W * L if skip else W) * outputs",
         tests=MEM_NEW + MEM_OLD,
         why="the parameters part leaves out the head's bias"),
    dict(name="v36-memory-activations-of-one-layer", file=MEM,
         old="    per_row_step = D * L * (a * H + c)",
         new="    per_row_step = D * (a * H + c)",
         tests=MEM_NEW + MEM_OLD,
         why="the activations part counts what one layer saves, whatever --layers"),
    dict(name="v36-memory-head-outputs-on-every-step", file=MEM,
         old="    head = outputs * (T if per_step else 1)",
         new="    head = outputs * T",
         tests=MEM_NEW + MEM_OLD,
         why="a head that scores the last step only is counted as if it output on every step"),
    # ---- setup and plan: a resume's settings, the plan's estimate, --lr-decay ----
    dict(name="v36-setup-same-value-given-again-refused", file=SETUP,
         old="        elif new != old:",
         new="        else:",
         tests=SETUP_OLD,
         why="a resume refuses a setting it may not change even when it is given again with the run's own value"),
    dict(name="v36-plan-data-not-counted", file=PLAN,
         old="shape.per_step, shape.data_bytes)",
         new="shape.per_step)",
         tests=PLAN_NEW + PLAN_OLD,
         why="the plan's estimate leaves out the task's data (the synthetic sequences built in memory)"),
    dict(name="v36-plan-lr-decay-zero-taken", file=PLAN,
         old="(cfg.lr_decay > 0 and math.isfinite(cfg.lr_decay)",
         new="(cfg.lr_decay >= 0 and math.isfinite(cfg.lr_decay)",
         tests=PLAN_NEW + PLAN_OLD,
         why="--lr-decay 0 is taken: the rate is 0 from the second epoch on"),
    dict(name="v36-memory-uncentred-slots-counted-three", file="lnrnn/training/optim.py",
         old='        return 3 if self.hyper["centred"] else 2  # avg only when centred',
         new='        return len(self.slot_names)',
         tests=MEM_NEW,
         why="rmsprop-momentum (not centred) counted with an avg slot it never keeps"),
    dict(name="v36-memory-sgd-slot-without-momentum", file="lnrnn/training/optim.py",
         old='        return 1 if self.hyper["momentum"] else 0  # momentum 0: plain SGD keeps nothing',
         new='        return 1',
         tests=MEM_NEW,
         why="plain SGD (momentum 0) counted with a momentum slot it never keeps"),
    dict(name="v36-plan-forget-bias-nan-taken", file="lnrnn/training/plan.py",
         old='        (math.isfinite(cfg.forget_bias), f"--forget-bias must be a finite number, not {cfg.forget_bias}."),',
         new='        (cfg.forget_bias == cfg.forget_bias or True, f"--forget-bias must be a finite number, not {cfg.forget_bias}."),',
         tests=["tests/training/test_values36_plan.py"],
         why="--forget-bias nan builds a model of NaN gates: the run diverges at its first update instead of a refusal"),
]
