"""Planted bugs, round 301 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training driver, fifteenth pass (lnrnn/training/train.py, recorder.py, stopping.py, plan.py,
distributed.py): each epoch shuffled by a fresh generator of the seed (every epoch the same order); the epoch
after the first starting at its second batch; a --max-steps stop inside an epoch saved only when a periodic save
is due (the checkpoint stays at the last epoch end); a --save-every save inside an epoch writing RUN/best instead;
a mid-epoch evaluation judged on a copy of its row (the row of the evaluation that spends --patience lacks
early_stop); an epoch's row taking its training means from updates.jsonl's window instead of the epoch's sums;
the checkpoint's stop_eval holding the last scheduled row instead of the stop's own evaluation; a run stopped by
--max-steps as the same evaluation spends --patience summarised as an early stop; a resume on another number of
processes compared with its own size (no note); refusals of --eval-every, --clip-output and --save-every naming
another option's value; a --reproducible split naming its blocks as the batch.

13 mutants. Against the old targeted files alone: 8 of 13 caught (missed: every epoch shuffled by a fresh generator
of the seed, the resume note comparing the process count with itself, and the three plan refusals naming another
option's value). The new value tests catch every mutant on their own (checked with the old files taken off the
lists): test_values301_train_loop (TINY of test_values56_stop_place in batches of 7: nb = ceil(40 / 7) = 6 with a last
batch of 5; the rows of each batch against the permutations numpy.random.default_rng(5) draws in the test, one
generator across two epochs; an epoch row's training means against the batch means of updates.jsonl weighted 7, 7,
7, 7, 7, 5 over 40; --max-steps 10 saved at update 10 = epoch 1, batch 4 with its stop evaluation at epoch 1.666667
and 68 samples, resumed to update 12 with the parameters of the run never cut; --save-every 4 copies at 0, 4, 6, 8,
12, 13; a scripted history worse, better, equal, worse, better under --eval-every 4 --patience 2 stopping at the
evaluation of update 16 with its row marked; --max-steps 12 and --patience 1 spent by the same evaluation named as
the budget's stop), test_values301_plan_group (the refusals word for word; describe_split's sentence for a batch of
100; a checkpoint.json saying 3 ranks resumed by one process: the note word for word). Left out as equivalent: the
stop policy's 'elif t.early_stop is not None' written 'elif t.early_stop' (a recorded early stop is a non-empty
dict); budget_note's 'if c.max_steps is not None' / 'if c.time_budget is not None' written as truthiness (validate
refuses a --max-steps below 1, and a --time-budget of 0 is used up before the first update, so no resume hint holds
it). Left out as not cheap or not observable here: the TensorBoard rows (no tensorboard package), the curve's redraw
clock (timing), the two-process paths of distributed.py (MPI), train()'s describe_split line for a group larger than
one (MPI), a signal arriving during a save (StopFlag, timing).

    python tests/mutants/run.py --only 'v301-*'
"""
TRAIN = "lnrnn/training/train.py"
REC = "lnrnn/training/recorder.py"
PLAN = "lnrnn/training/plan.py"
DIST = "lnrnn/training/distributed.py"

T_LOOP = "tests/training/test_values301_train_loop.py::"
T_PG = "tests/training/test_values301_plan_group.py::"
OLD_TRAIN = ["tests/training/test_values259_train_policies.py", "tests/training/test_values243_train_policies.py",
             "tests/training/test_values274_train_policies.py", "tests/training/test_values274_recorder.py"]
OLD_PLAN = ["tests/training/test_values36_plan.py", "tests/training/test_values218_plan.py",
            "tests/training/test_values21_plan.py"]
OLD_DIST = ["tests/training/test_values70_distributed_group.py", "tests/training/test_values202_distributed_group.py",
            "tests/training/test_values114_distributed.py"]

MUTANTS = [
    # ---- the loop: lnrnn/training/train.py ----
    dict(name="v301-train-each-epoch-a-fresh-generator", file=TRAIN,
         old="                perm = self.rng.permutation(n)\n",
         new="                perm = np.random.default_rng(cfg.seed).permutation(n)\n",
         tests=[T_LOOP + "test_two_epochs_draw_two_permutations_in_batches_of_seven"] + OLD_TRAIN,
         why="every epoch is shuffled by a new generator of the seed: each epoch sees the batches of the first"),
    dict(name="v301-train-next-epoch-from-second-batch", file=TRAIN,
         old="        self.batch_in_epoch = 0\n        self.sums = self._new_sums()\n",
         new="        self.batch_in_epoch = 1\n        self.sums = self._new_sums()\n",
         tests=[T_LOOP + "test_two_epochs_draw_two_permutations_in_batches_of_seven"] + OLD_TRAIN,
         why="an epoch's end leaves the batch counter at 1: every later epoch skips its first batch"),
    dict(name="v301-train-stop-saved-only-when-due", file=TRAIN,
         old="                    self._evaluate_at_stop(nb)  # the summary and the checkpoint report the state "
             "reached\n                self.save()\n",
         new="                    self._evaluate_at_stop(nb)  # the summary and the checkpoint report the state "
             "reached\n                self.recorder.save_due() and self.save()\n",
         tests=[T_LOOP + "test_a_stop_at_update_ten_saves_and_evaluates_the_state_reached"] + OLD_TRAIN,
         why="a --max-steps stop inside an epoch is saved only when a periodic save is due: the checkpoint "
             "stays at the last epoch's end and the state reached is lost"),
    dict(name="v301-train-periodic-save-writes-best", file=TRAIN,
         old="                    elif self.batch_in_epoch < nb and self.recorder.save_due():\n"
             "                        self.save()\n",
         new="                    elif self.batch_in_epoch < nb and self.recorder.save_due():\n"
             "                        self.recorder.save_best()\n",
         tests=[T_LOOP + "test_save_every_four_writes_mid_epoch_checkpoints_past_nine"] + OLD_TRAIN,
         why="a --save-every save inside an epoch writes RUN/best instead of the checkpoint and its --keep copy"),
    dict(name="v301-train-mid-epoch-judged-on-a-copy", file=TRAIN,
         old='            bar.note(f"update {self.step}: val " + format_metrics(val))\n'
             '        better = self._judge(rec)\n',
         new='            bar.note(f"update {self.step}: val " + format_metrics(val))\n'
             '        better = self._judge(dict(rec))\n',
         tests=[T_LOOP + "test_patience_two_fires_at_the_evaluation_of_update_sixteen"] + OLD_TRAIN,
         why="an --eval-every evaluation is judged on a copy of its row: the row that spends --patience is "
             "written without early_stop"),
    # ---- the recorder: lnrnn/training/recorder.py ----
    dict(name="v301-rec-epoch-row-from-log-window", file=REC,
         old='        s = t.sums\n        train = t.model.head.mean(s["sums"], s["count"])\n',
         new='        s = t.log_window\n        train = t.model.head.mean(s["sums"], s["count"])\n',
         tests=[T_LOOP + "test_epoch_rows_train_means_are_the_sample_weighted_batch_means"] + OLD_TRAIN,
         why="an epoch's row takes its training means from the updates since updates.jsonl's last row, not "
             "from the whole epoch"),
    dict(name="v301-rec-stop-eval-is-last-row", file=REC,
         old='            meta["stop_eval"] = t.stop_eval\n',
         new='            meta["stop_eval"] = t.history[-1]\n',
         tests=[T_LOOP + "test_a_stop_at_update_ten_saves_and_evaluates_the_state_reached"] + OLD_TRAIN,
         why="the checkpoint's stop_eval holds the last scheduled evaluation instead of the stop's own"),
    dict(name="v301-rec-summary-early-by-record", file=REC,
         old='        if stop_reason == "early":\n',
         new='        if t.early_stop is not None:\n',
         tests=[T_LOOP + "test_max_steps_and_patience_at_update_twelve_name_the_budget"] + OLD_TRAIN,
         why="a --max-steps stop whose last evaluation also spent --patience is summarised as an early stop"),
    dict(name="v301-rec-resume-note-own-size", file=REC,
         old='        note = distributed.resume_note(int(meta.get("ranks", 1)), t.group.size, t.cfg.batch_size,\n',
         new='        note = distributed.resume_note(t.group.size, t.group.size, t.cfg.batch_size,\n',
         tests=[T_PG + "test_a_resume_on_one_process_of_a_run_of_three_says_so"] + OLD_TRAIN,
         why="a resume compares the number of processes with itself: a run of 3 resumed by 1 says nothing"),
    # ---- the plan: lnrnn/training/plan.py ----
    dict(name="v301-plan-eval-every-names-log-every", file=PLAN,
         old='                   f"--eval-every must be at least 1 update, not {cfg.eval_every}."))',
         new='                   f"--eval-every must be at least 1 update, not {cfg.log_every}."))',
         tests=[T_PG + "test_eval_every_zero_is_named_not_log_every"] + OLD_PLAN,
         why="--eval-every 0 is refused naming --log-every's value"),
    dict(name="v301-plan-clip-output-names-clip-gates", file=PLAN,
         old='                   f"--clip-output must be a positive number, not {cfg.clip_output}."))',
         new='                   f"--clip-output must be a positive number, not {cfg.clip_gates}."))',
         tests=[T_PG + "test_clip_output_negative_is_named_not_clip_gates"] + OLD_PLAN,
         why="--clip-output -2.5 is refused naming --clip-gates's value"),
    dict(name="v301-plan-save-every-names-eval-every", file=PLAN,
         old='                   f"--save-every must be at least 1 update, not {cfg.save_every}."))',
         new='                   f"--save-every must be at least 1 update, not {cfg.eval_every}."))',
         tests=[T_PG + "test_save_every_zero_is_named_not_eval_every"] + OLD_PLAN,
         why="--save-every 0 is refused naming --eval-every's value"),
    # ---- the group: lnrnn/training/distributed.py ----
    dict(name="v301-dist-reproducible-batch-named-blocks", file=DIST,
         old='reproducible: each batch of {B} is {nb} blocks',
         new='reproducible: each batch of {nb} is {nb} blocks',
         tests=[T_PG + "test_a_reproducible_split_names_the_batch_and_its_blocks"] + OLD_DIST,
         why="a --reproducible group's line names its block count as the batch size"),
]
