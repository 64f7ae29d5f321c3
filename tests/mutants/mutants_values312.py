"""Planted bugs, round 312 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training driver, seventeenth pass (lnrnn/training/train.py, recorder.py, stopping.py, plan.py):
the learning curve drawn at the end of a run only when no epoch is waiting for it; a save that waited for the
loss written at the run's end only once the loss is back in range (never, at the end); the progress bar counting
every batch as a full one (42 of 40 samples); the mid-epoch evaluations' lines printed only when quiet; the
schedule change logged whenever an earlier invocation changed it (a later plain resume fails on a change of
None); a resumed epoch's sums taken from updates.jsonl's window; checkpoints written without the optimizer's
slots; the blow-up streak saved as 0; the curve's loss axis looked up by the task's name; the parameters stored
under 'params/'; refusals of --save-every-seconds and --clip-gates naming another option's value; the
--best-metric refusal naming the value without its quotes.

13 mutants. Against the old targeted files alone: not measured yet. The new value tests on their own (the old files
taken off the lists) catch all 13 (the curve mutant once its test made CURVE_REDRAW_S endless: a cold compile had
outlasted it and the epoch's end drew the picture anyway). The new files: test_values312_loop (TINY of
test_values56_stop_place in batches of 7: nb = ceil(40 / 7) = 6 updates an epoch with a last batch of 5; one epoch
drawing learning_curve.svg with the classifier's axis 'cross-entropy loss (nats)' and the title written out, the
summary naming the curve; a hook raising the blow-up streak to 2 at update 6, the epoch's end: the save waits and is
written when the run ends, the checkpoint at update 6 with streak 2 and the first update's loss of updates.jsonl as
its initial loss; the printed lines of a run not quiet with --eval-every 4 over two epochs: 'update 4: val' and
'update 8: val' and no others (6 and 12 are epoch ends), each epoch's closing line at 40/40; a cut at --max-steps 10
with --log-every 4 (updates.jsonl's window then holds 9 and 10, the epoch's sums 7 to 10) resumed to the end:
parameters, optimizer slots and every metrics row equal to the run never cut, the checkpoint's arrays named
'param/<name>' for each parameter), test_values312_schedule (two epochs at --lr 0.05 and the default decay 0.9,
resumed with --lr 0.02 for a third, then resumed plainly for a fourth: the rows' rates 0.05, 0.045, 0.02, 0.018 from
lr * 0.9 ** (epoch - e0); the change logged once, 'learning rate 0.0405 -> 0.02 from update 12' with 0.0405 = 0.05 *
0.9 ** 2; the plain resume logging none), test_values312_plan (the refusals word for word). Left out as equivalent:
the stop policy's max-steps reason naming t.step instead of cfg.max_steps (the rule fires at step == max_steps; a
resume past it is refused before training); 'if self.signalled(flag)' written 'if flag.requested' (one process: the
same test); draw_curve leaving curve_pending True (the end of the run then redraws the same picture); the step-0
save's condition written with 'or' (a resume at an epoch's end saves again the same state under the same name). Left
out as not cheap or not observable here: the TensorBoard rows (no tensorboard package), the two-process votes (MPI),
a second signal during a save (timing), the compile-time sentences (timing), and the 'no evaluation yet' summary
(every stop that reaches the summary has evaluated).

    python tests/mutants/run.py --only 'v312-*'
"""
TRAIN = "lnrnn/training/train.py"
REC = "lnrnn/training/recorder.py"
PLAN = "lnrnn/training/plan.py"

T_LOOP = "tests/training/test_values312_loop.py::"
T_SCHED = "tests/training/test_values312_schedule.py::"
T_PLAN = "tests/training/test_values312_plan.py::"
OLD_TRAIN = ["tests/training/test_values301_train_loop.py", "tests/training/test_values243_train_policies.py",
             "tests/training/test_values_train_policies.py", "tests/training/test_values274_recorder.py"]
OLD_PLAN = ["tests/training/test_values301_plan_group.py", "tests/training/test_values36_plan.py",
            "tests/training/test_values218_plan.py"]

MUTANTS = [
    # ---- the loop: lnrnn/training/train.py ----
    dict(name="v312-train-curve-drawn-only-when-nothing-pending", file=TRAIN,
         old="        if self.recorder.curve_pending:  # the epochs since the last drawing",
         new="        if not self.recorder.curve_pending:  # the epochs since the last drawing",
         tests=[T_LOOP + "test_one_epoch_draws_the_curve_with_its_loss_axis_and_title"] + OLD_TRAIN,
         why="a run shorter than CURVE_REDRAW_S ends without learning_curve.svg; the summary names no curve"),
    dict(name="v312-train-pending-save-waits-for-the-streak", file=TRAIN,
         old="            if self.save_pending:  # the end of the run came while a save waited",
         new="            if self.save_pending and self.high_streak == 0:  # the end of the run came while a save waited",
         tests=[T_LOOP + "test_a_save_waiting_for_the_loss_is_written_when_the_run_ends"] + OLD_TRAIN,
         why="a save that waited for the loss is never written when the run ends during the streak: the checkpoint "
             "stays at update 0"),
    dict(name="v312-train-progress-counts-full-batches", file=TRAIN,
         old='                    bar.update(len(idx), **model.head.mean(s["sums"], s["count"]))',
         new='                    bar.update(B, **model.head.mean(s["sums"], s["count"]))',
         tests=[T_LOOP + "test_printed_lines_name_the_mid_epoch_evaluations_and_forty_of_forty"] + OLD_TRAIN,
         why="the progress bar counts the last short batch as a full one: 42/40 samples at the epoch's end"),
    dict(name="v312-train-eval-note-only-when-quiet", file=TRAIN,
         old="        if not self.quiet:\n",
         new="        if self.quiet:\n",
         tests=[T_LOOP + "test_printed_lines_name_the_mid_epoch_evaluations_and_forty_of_forty"] + OLD_TRAIN,
         why="the mid-epoch evaluations' lines are never printed to a run that is not quiet"),
    dict(name="v312-train-schedule-change-logged-for-old-changes", file=TRAIN,
         old="        if trainer.lr_change is not None:",
         new="        if trainer.lr_changes:",
         tests=[T_SCHED + "test_a_changed_rate_then_a_plain_resume_follow_the_formula"] + OLD_TRAIN,
         why="a plain resume of a run whose schedule an earlier invocation changed logs a change of None (fails)"),
    # ---- the recorder: lnrnn/training/recorder.py ----
    dict(name="v312-rec-resume-sums-from-the-log-window", file=REC,
         old='        sums = meta["epoch_sums"]',
         new='        sums = meta["log_window"]',
         tests=[T_LOOP + "test_a_resume_at_update_ten_equals_the_run_never_cut"] + OLD_TRAIN,
         why="a run resumed mid-epoch starts the epoch's sums from updates.jsonl's window: its row's training "
             "means differ from the uninterrupted run's"),
    dict(name="v312-rec-checkpoint-without-optimizer-slots", file=REC,
         old="            path = save_checkpoint(t.cfg.out, self.arrays(), meta) if t.group.root else None",
         new="            path = save_checkpoint(t.cfg.out, self.model_arrays(), meta) if t.group.root else None",
         tests=[T_LOOP + "test_a_resume_at_update_ten_equals_the_run_never_cut"] + OLD_TRAIN,
         why="the checkpoint keeps no optimizer moments: a resumed Adam run does not continue the one cut"),
    dict(name="v312-rec-blowup-streak-saved-as-zero", file=REC,
         old='                "blowup": {"initial_loss": t.initial_loss, "streak": t.high_streak},',
         new='                "blowup": {"initial_loss": t.initial_loss, "streak": 0},',
         tests=[T_LOOP + "test_a_save_waiting_for_the_loss_is_written_when_the_run_ends"] + OLD_TRAIN,
         why="the checkpoint forgets the updates in a row above the blow-up level: a resume counts them again "
             "from 0"),
    dict(name="v312-rec-curve-loss-label-by-task", file=REC,
         old="                              loss_label=LOSS_LABELS.get(t.model.head.kind))",
         new="                              loss_label=LOSS_LABELS.get(c.task))",
         tests=[T_LOOP + "test_one_epoch_draws_the_curve_with_its_loss_axis_and_title"] + OLD_TRAIN,
         why="the curve's loss axis is looked up by the task's name: a plain 'loss' instead of the head's unit"),
    dict(name="v312-rec-params-stored-as-params", file=REC,
         old='        arrays = {"param/" + k: v for k, v in model.params.items()}',
         new='        arrays = {"params/" + k: v for k, v in model.params.items()}',
         tests=[T_LOOP + "test_a_resume_at_update_ten_equals_the_run_never_cut"] + OLD_TRAIN,
         why="the checkpoint's parameters are stored under 'params/': nothing a loader reads as a parameter"),
    # ---- the plan: lnrnn/training/plan.py ----
    dict(name="v312-plan-save-every-seconds-names-save-every", file=PLAN,
         old='f"--save-every-seconds must be 0 (off) or positive, not {cfg.save_every_seconds}."))',
         new='f"--save-every-seconds must be 0 (off) or positive, not {cfg.save_every}."))',
         tests=[T_PLAN + "test_save_every_seconds_negative_is_named_not_save_every"] + OLD_PLAN,
         why="a negative --save-every-seconds is refused naming --save-every's value"),
    dict(name="v312-plan-clip-gates-names-clip", file=PLAN,
         old='f"--clip-gates must be 0 (off) or a positive number, not {cfg.clip_gates}."))',
         new='f"--clip-gates must be 0 (off) or a positive number, not {cfg.clip}."))',
         tests=[T_PLAN + "test_clip_gates_negative_is_named_not_clip"] + OLD_PLAN,
         why="a negative --clip-gates is refused naming the gradient-norm limit --clip"),
    dict(name="v312-plan-best-metric-unquoted", file=PLAN,
         old="""f"--best-metric must be one of {', '.join(BEST_METRICS)}, not {cfg.best_metric!r}."))""",
         new="""f"--best-metric must be one of {', '.join(BEST_METRICS)}, not {cfg.best_metric}."))""",
         tests=[T_PLAN + "test_an_unknown_best_metric_is_quoted"] + OLD_PLAN,
         why="an unknown --best-metric is named without its quotes (an empty one reads as nothing)"),
]
