"""Planted bugs, round 335 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training policies (lnrnn/training/stopping.py, recorder.py, plan.py), eighteenth pass: a group
that sees only SIGINT votes and misses another rank's SIGTERM; a group that says SIGTERM when no rank voted;
--time-budget used up one step after its exact seconds; the resume hint's budget note testing --time-budget where
it means --max-steps; a resumed run that stopped early told to pass a larger --epochs instead of --patience; other
ranks writing metrics.jsonl while rank 0 writes none; TensorBoard handed the whole history after every
evaluation; the learning curve redrawn one step after its 30 s; the curve's title saying '1 layers'; the curve
drawn from metrics.jsonl in place of updates.jsonl; a resume judging the early stop by the checkpoint's --patience,
not the resumed run's; a resume with the run's own --lr recording a schedule change of None; --clip-gates on an LN
RNN refused naming the registry's cell (rnn) for the one given (ln-rnn); an unknown --head named unquoted.

14 mutants. Against the old targeted files alone: 4 of 14 (missed: --time-budget used up one step late, a resumed
early stop told to raise --epochs, TensorBoard handed the whole history again, the curve redrawn past 30 s not at
it, its '1 layers' title, its points read from metrics.jsonl, a resume judging the checkpoint's --patience, a
schedule change of None on every resume, --clip-gates on ln-rnn naming the registry's cell, an unknown --head
unquoted). (Old targeted files: test_values316_stopping, test_values274_train_policies; test_curve_redraw,
test_values274_recorder; test_values312_plan.) The new value tests catch every mutant on their own (checked with the
old files taken off the lists), on hand-made trainer states: test_values335_stopping (a 60 s budget counted at 59.0,
59.5, 60.0, 60.5 s stopping at exactly 60.0; a group's vote sums [1, 0, 0], [2, 1, 0] and [0, 0, 0] against the
signal each means; the budget note with --max-steps 100 only, a 60 s budget only with 45 s left, both (max-steps
1000), and neither, word for word; the nothing-to-do sentence of a run that stopped early at update 16 word for
word), test_values335_recorder (metrics.jsonl and metrics.csv read back against the three rows written out in the
test, TensorBoard's one newest row, no file at all from a rank other than 0; the redraw at 29.5 s not yet and at
30.0 s; the curve's path, title for 1 and 2 layers, rows and updates.jsonl rows as written by hand; a resume of a
--patience 2 stop at update 12 with --patience 3 trains on and with 2 stays stopped; a resume with the run's own
--lr records no change, with --lr 0.01 at epoch 2 one change of lr 0.1 * 0.5 ** 2 -> 0.01; two refusals of
plan.validate word for word). Left out as equivalent: the first save's test dropping `t.epoch == 0` (step 0 implies
epoch 0); budget_note's `if c.max_steps is not None` made `if c.max_steps` (--max-steps is at least 1); abort's
`saved_step == step` made `>=` (a checkpoint never runs ahead of the step); reason's `--max-steps {cfg.max_steps}`
made `{t.step}` (the stop fires at step == max_steps, a resume past it has nothing left to do). Left out as not
observable in a result: draw_curve leaving curve_pending True (the run's end redraws the same picture once more).
Left out as a crash rather than a value: an inverted `for ok, msg in checks: if not ok` (every run refused).

    python tests/mutants/run.py --only 'v335-*'
"""
STOP = "lnrnn/training/stopping.py"
REC = "lnrnn/training/recorder.py"
PLAN = "lnrnn/training/plan.py"

T_STOP = "tests/training/test_values335_stopping.py::"
T_REC = "tests/training/test_values335_recorder.py::"
OLD_STOP = ["tests/training/test_values316_stopping.py", "tests/training/test_values274_train_policies.py"]
OLD_REC = ["tests/training/test_curve_redraw.py", "tests/training/test_values274_recorder.py"]
OLD_PLAN = ["tests/training/test_values312_plan.py"]

MUTANTS = [
    # ---- lnrnn/training/stopping.py ----
    dict(name="v335-stop-group-sees-sigint-votes-only", file=STOP,
         old="        return flag.requested if t.group.size == 1 else t.votes[0] > 0",
         new="        return flag.requested if t.group.size == 1 else t.votes[1] > 0",
         tests=[T_STOP + "test_another_ranks_sigterm_vote_stops_this_rank"] + OLD_STOP,
         why="a group stops on SIGINT votes only: another rank's SIGTERM (preemption) does not stop this rank"),
    dict(name="v335-stop-voted-signal-without-votes", file=STOP,
         old="        if t.group.size == 1 or t.votes[0] == 0:",
         new="        if t.group.size == 1:",
         tests=[T_STOP + "test_a_group_says_sigint_when_any_rank_got_one_and_nothing_when_none_voted"] + OLD_STOP,
         why="a group names SIGTERM as the signal it stopped for when no rank got any signal"),
    dict(name="v335-stop-time-budget-one-step-late", file=STOP,
         old="        return c.time_budget is not None and self.budget_seconds() >= c.time_budget",
         new="        return c.time_budget is not None and self.budget_seconds() > c.time_budget",
         tests=[T_STOP + "test_a_time_budget_is_used_up_at_exactly_its_seconds"] + OLD_STOP,
         why="--time-budget is used up only past its seconds, not at exactly them: the stop fires one step late"),
    dict(name="v335-stop-budget-note-tests-time-budget", file=STOP,
         old='        if c.max_steps is not None:\n            parts.append(f"--max-steps',
         new='        if c.time_budget is not None:\n            parts.append(f"--max-steps',
         tests=[T_STOP + "test_the_budget_note_names_only_the_limits_given"] + OLD_STOP,
         why="the resume hint's note leaves out --max-steps when it is the only limit and names '--max-steps None' "
             "beside a time budget alone"),
    dict(name="v335-stop-nothing-left-names-epochs", file=STOP,
         old='                    "larger --patience to train it further.")',
         new='                    "larger --epochs to train it further.")',
         tests=[T_STOP + "test_a_resumed_run_that_stopped_early_asks_for_a_larger_patience"] + OLD_STOP,
         why="a resumed run that stopped early is told to pass a larger --epochs, which does not train it further"),
    # ---- lnrnn/training/recorder.py ----
    dict(name="v335-rec-other-ranks-write-metrics", file=REC,
         old="        if not t.group.root:\n            return\n        out = t.cfg.out\n        atomic_write_text(",
         new="        if t.group.root:\n            return\n        out = t.cfg.out\n        atomic_write_text(",
         tests=[T_REC + "test_rank_zero_writes_the_rows_and_the_newest_to_tensorboard",
                T_REC + "test_other_ranks_write_no_metrics"] + OLD_REC,
         why="rank 0 writes no metrics.jsonl and the other ranks of a group write theirs into the same folder"),
    dict(name="v335-rec-tensorboard-gets-the-whole-history", file=REC,
         old="            self.tb.add(t.history[-1:])",
         new="            self.tb.add(t.history)",
         tests=[T_REC + "test_rank_zero_writes_the_rows_and_the_newest_to_tensorboard"] + OLD_REC,
         why="every evaluation hands TensorBoard every row again: each earlier point is logged once more"),
    dict(name="v335-rec-redraw-one-step-late", file=REC,
         old="            if time.perf_counter() - self.curve_t >= CURVE_REDRAW_S:",
         new="            if time.perf_counter() - self.curve_t > CURVE_REDRAW_S:",
         tests=[T_REC + "test_the_curve_is_redrawn_at_exactly_thirty_seconds"] + OLD_REC,
         why="the learning curve is redrawn only past 30 s since its last drawing, not at exactly 30 s"),
    dict(name="v335-rec-title-says-one-layers", file=REC,
         old="""({c.layers} layer{'s' * (c.layers > 1)}""",
         new="""({c.layers} layer{'s' * (c.layers >= 1)}""",
         tests=[T_REC + "test_the_curve_is_drawn_from_updates_jsonl_with_its_title"] + OLD_REC,
         why="the learning curve's title says '1 layers'"),
    dict(name="v335-rec-curve-reads-metrics-as-updates", file=REC,
         old="        path = os.path.join(out, UPDATES_FILE)",
         new="        path = os.path.join(out, METRICS_FILE)",
         tests=[T_REC + "test_the_curve_is_drawn_from_updates_jsonl_with_its_title"] + OLD_REC,
         why="the curve's per-update training points are read from metrics.jsonl's epoch rows"),
    dict(name="v335-rec-resume-patience-from-checkpoint", file=REC,
         old="        p = t.cfg.patience\n        if t.early_stop is not None",
         new='        p = meta["train"]["patience"]\n        if t.early_stop is not None',
         tests=[T_REC + "test_a_larger_patience_on_resume_trains_on"] + OLD_REC,
         why="a run that stopped early and resumes with a larger --patience stays stopped: the checkpoint's "
             "--patience is judged, not the resumed run's"),
    dict(name="v335-rec-resume-records-no-change", file=REC,
         old="        if t.lr_change is not None:\n            t.lr_changes.append(t.lr_change)",
         new="        if t.lr_changes is not None:\n            t.lr_changes.append(t.lr_change)",
         tests=[T_REC + "test_a_resume_records_a_schedule_change_only_for_a_new_lr"] + OLD_REC,
         why="every resume appends a schedule change, None when --lr and --lr-decay are the run's"),
    # ---- lnrnn/training/plan.py ----
    dict(name="v335-plan-clip-gates-names-registry-cell", file=PLAN,
         old="--cell {cfg.cell} has no gates.",
         new="--cell {cell.cell} has no gates.",
         tests=[T_REC + "test_clip_gates_on_an_ln_rnn_is_refused_naming_the_cell_given"] + OLD_PLAN,
         why="--clip-gates on an ln-rnn is refused naming --cell rnn, the registry's cell, not the one given"),
    dict(name="v335-plan-unknown-head-unquoted", file=PLAN,
         old="not {cfg.head!r}.",
         new="not {cfg.head}.",
         tests=[T_REC + "test_an_unknown_head_is_refused_quoting_it"] + OLD_PLAN,
         why="an unknown --head is named unquoted, unlike every other refusal of a name"),
]
