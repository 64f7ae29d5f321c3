"""Planted bugs in the trainer's parts: fine-tuning (lnrnn/training/finetune.py), the stop policy
(lnrnn/training/stopping.py) and the run recorder (lnrnn/training/recorder.py) (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'trainer-*'
"""

FT = "tests/training/test_finetune.py"
INIT = f"{FT}::test_init_from_starts_at_the_sources_parameters_and_evaluation"
SHAPE = f"{FT}::test_a_model_of_another_shape_is_refused_before_anything_is_written"
NEW_LR = f"{FT}::test_resume_with_a_new_lr_changes_the_update_rule_from_there_on"
DECAY = f"{FT}::test_a_new_decay_counts_from_the_epoch_of_the_change"
SAME_LR = f"{FT}::test_resume_with_the_runs_own_lr_is_the_uninterrupted_run"
PARTS = "tests/training/test_stopping_recorder_parts.py"
REASON = f"{PARTS}::test_the_first_reason_to_stop_wins_and_a_reached_budget_is_named"
VOTES = f"{PARTS}::test_a_groups_votes_stop_every_rank_alike"
CAST = f"{PARTS}::test_cast_votes_are_this_ranks_flag_and_clock"
RESTORE = f"{PARTS}::test_a_checkpoints_description_restores_the_state_it_was_written_from"

MUTANTS = [
    dict(name="trainer-init-from-loads-nothing", file="lnrnn/training/finetune.py",
         old="        model.load_arrays(split_arrays(source.arrays)[0])\n",
         new="        pass\n",
         tests=[INIT],
         why="--init-from checks the source's shape and then trains from a fresh initialization"),
    dict(name="trainer-init-from-without-bn-statistics", file="lnrnn/training/finetune.py",
         old="        model.load_arrays(split_arrays(source.arrays)[0])\n",
         new="        model.load_arrays({**split_arrays(source.arrays)[0], **model.buffers})\n",
         tests=[INIT],
         why="the parameters come from the source but the BN running statistics stay the fresh ones: the "
             "evaluation at step 0 is not the source's"),
    dict(name="trainer-init-from-input-size-unchecked", file="lnrnn/training/finetune.py",
         old='"window": "--window", "input_size": "the task\'s input size (--task)",',
         new='"window": "--window",',
         tests=[SHAPE],
         why="a task of another input size is refused only by the arrays' shapes, without naming what differs"),
    dict(name="trainer-schedule-change-epoch-ignored", file="lnrnn/training/finetune.py",
         old='    return decayed_lr(lr, lr_decay, epoch - (changes[-1]["epoch"] if changes else 0))',
         new="    return decayed_lr(lr, lr_decay, epoch)",
         tests=[DECAY],
         why="a resume's new schedule decays as if it had started at the run's first epoch"),
    dict(name="trainer-schedule-keeps-the-given-lr-only", file="lnrnn/training/finetune.py",
         old="    cfg.lr = new\n",
         new="",
         tests=[DECAY],
         why="a resume with only --lr-decay restarts from the run's first learning rate, not the one in effect"),
    dict(name="trainer-schedule-change-forgotten", file="lnrnn/training/recorder.py",
         old="            t.lr_changes.append(t.lr_change)",
         new="            pass",
         tests=[NEW_LR],
         why="the new --lr is decayed from the run's first epoch: the resumed update rule is not the one asked"),
    dict(name="trainer-schedule-changes-on-equal-values", file="lnrnn/training/finetune.py",
         old="    if cfg.lr == lr and cfg.lr_decay == decay:\n        return None\n",
         new="",
         tests=[SAME_LR],
         why="a resume that repeats the run's own --lr reports and records a schedule change"),
    dict(name="trainer-lr-changes-not-saved", file="lnrnn/training/recorder.py",
         old='            meta["lr_changes"] = t.lr_changes',
         new="            pass",
         tests=[NEW_LR],
         why="the checkpoint does not keep the schedule's changes: a later resume decays from the wrong epoch"),
    dict(name="trainer-resume-forgets-init-from", file="lnrnn/training/setup.py",
         old='        init_record = meta.get("init_from")',
         new="        init_record = None",
         tests=[f"{FT}::test_a_resumed_fine_tuned_run_still_says_where_it_started"],
         why="a resumed fine-tuned run forgets where it started: its start line and later checkpoints lose it"),
    dict(name="trainer-second-signal-in-the-save-says-lost", file="lnrnn/training/stopping.py",
         old="        if t.saved_step == t.step:",
         new="        if False:",
         tests=["tests/training/test_runs.py::test_second_signal_during_the_save_waits_for_it"],
         why="a second signal during the save is told as a lost update though the state reached was saved"),
    dict(name="trainer-init-from-not-recorded", file="lnrnn/training/recorder.py",
         old='            meta["init_from"] = t.setup.init_record',
         new="            pass",
         tests=[INIT],
         why="a fine-tuned run's checkpoints do not say where it started"),
    dict(name="trainer-group-votes-ignored", file="lnrnn/training/stopping.py",
         old="        return flag.requested if t.group.size == 1 else t.votes[0] > 0",
         new="        return flag.requested",
         tests=[VOTES],
         why="a rank stops for its own signal only: the other ranks wait in the next update's allreduce"),
    dict(name="trainer-every-rank-votes-its-clock", file="lnrnn/training/stopping.py",
         old="t.group.root and self.clock_over())",
         new="self.clock_over())",
         tests=[CAST],
         why="each rank votes on the budget by its own clock, not rank 0's"),
    dict(name="trainer-reached-max-steps-not-kept", file="lnrnn/training/stopping.py",
         old='            t.reached = "max_steps"\n',
         new="",
         tests=[REASON],
         why="a run stopped by --max-steps keeps the limit for its resume, which then has nothing to do"),
    dict(name="trainer-restore-drops-the-epoch-sums", file="lnrnn/training/recorder.py",
         old='        t.sums = {"sums": {**t._new_sums()["sums"], **sums["sums"]}, "count": int(sums["count"]),',
         new='        t.sums = {"sums": t._new_sums()["sums"], "count": int(sums["count"]),',
         tests=[RESTORE],
         why="a resumed run's epoch metrics count only the batches since the resume"),
]
