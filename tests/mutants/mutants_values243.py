"""Planted bugs, round 243 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training policies over non-monotonic histories (lnrnn/training/stopping.py, train.py), what a
run records and says (lnrnn/training/recorder.py) and --keep's copies (lnrnn/training/checkpoint.py): an early
stop found by a mid-epoch evaluation that only stops the run at the epoch's end; a tie counted as a new best
(RUN/best rewritten with a later update); every mid-epoch evaluation rewriting RUN/best; the evaluation at a
--max-steps stop made a scheduled one (a metrics.jsonl row, the best and patience); a resume after an early
stop with the same --patience that trains on (nothing_left reading stop_eval; the checkpoint's early_stop
written from t.reached); --keep N keeping N + 1 copies; the summary of a stopped run said as 'Done', naming the
last metrics row instead of the stop's evaluation, the run folder for best/, the short metric names, 'updates'
pluralized by --epochs, the best value for the metric's name; keep_past's refusal naming checkpoints/ and not
the update's folder.

14 mutants. Against the old targeted files alone (the OLD list): 9 caught, every policy slip among them; missed were
four slips of the run's closing summary (short metric names, the run folder named as the best checkpoint,
'update(s)' by the number of epochs, the best value where an early stop names its metric) and keep_past's refusal
naming checkpoints/ (no old file reads the summary of a stopped run word for word). The new value tests catch every
mutant on their own (checked with the old files taken off the lists): test_values243_train_policies (a scripted
validation loss by update, worse/better/worse/better with a tie, and the best, the count since it and the stop
worked out by hand in its docstring: --patience 3 stops at update 7 inside epoch 3; a resume with the same
--patience has nothing to do, word for word and nothing written, one with --patience 4 goes on from the restored
best and count to stop at update 12; a resume cut at update 5 stops at 7 like the whole run; RUN/best at update 8,
the first of two tied bests, its parameters equal to --keep's copy of update 8; --keep 3 leaving updates 10, 11, 12;
Trainer._judge on ties of a loss and of an accuracy) and test_values243_train_recorder_summary (the last line of a
finished run, of --max-steps 5 and 1 and of --patience 3 written out word for word; metrics.jsonl's rows counted;
keep_past's refusal word for word with the file in the way left as it was). Left out as equivalent: stopping.judge's
`return better` made `return b["since"] == 0` (the count is reset exactly when better); the summary's `--patience
{e['patience']}` or `{e['metric']}` read from cfg (a resume clears early_stop when --patience changes, and the best
metric of a run is fixed); Trainer.history.append(dict(rec)) (judge marks the row before it is appended);
keep_past's temporary name made the final name (os.replace onto itself: only the atomicity is lost). Left out as
hard to reach cheaply: Trainer's `saved_step = self.step` after a restore (it shows only in the messages of a
divergence or of a second signal right after a resume).

    python tests/mutants/run.py --only 'v243-*'
"""
TRAIN = "lnrnn/training/train.py"
REC = "lnrnn/training/recorder.py"
STOP = "lnrnn/training/stopping.py"
CKPT = "lnrnn/training/checkpoint.py"

T_POL = "tests/training/test_values243_train_policies.py::"
T_SUM = "tests/training/test_values243_train_recorder_summary.py::"
OLD = ["tests/training/test_values_train_policies.py", "tests/training/test_values47_stopping_judge.py",
       "tests/training/test_values56_stop_place.py", "tests/training/test_values20_recorder_keep.py",
       "tests/training/test_values134_recorder_resume.py"]

MUTANTS = [
    # ---- the stop policy and the best: lnrnn/training/stopping.py, train.py ----
    dict(name="v243-stop-early-waits-for-epoch-end", file=STOP,
         old='            return "early"\n',
         new='            return None\n',
         tests=[T_POL + "test_patience_stops_at_the_evaluation_inside_the_epoch",
                T_SUM + "test_an_early_stop_inside_an_epoch"] + OLD,
         why="an early stop found by a mid-epoch evaluation (--eval-every) stops the run only when the epoch "
             "ends: updates 8 and 9 are trained and evaluated past it"),
    dict(name="v243-stop-tie-is-better", file=STOP,
         old="        rec[\"early_stop\"] = True\n    return better\n",
         new="        rec[\"early_stop\"] = True\n    return better or v == b[\"value\"]\n",
         tests=[T_POL + "test_ties_are_not_better_for_either_direction",
                T_POL + "test_best_is_the_first_of_two_tied_updates"] + OLD,
         why="an evaluation that ties the best is reported as better: RUN/best is rewritten with the later "
             "update's parameters while its record names the earlier one"),
    dict(name="v243-stop-nothing-left-reads-stop-eval", file=STOP,
         old="        e = trainer.early_stop  # kept on resume",
         new="        e = trainer.stop_eval  # kept on resume",
         tests=[T_POL + "test_a_resume_after_an_early_stop"] + OLD,
         why="a resume after an early stop with the same --patience finds nothing to refuse and trains on"),
    dict(name="v243-train-mid-epoch-best-always-saved", file=TRAIN,
         old="        if better:\n            self.recorder.save_best()\n        self.recorder.write_metrics(draw=False)",
         new="        if better is not None:\n            self.recorder.save_best()\n        self.recorder.write_metrics(draw=False)",
         tests=[T_POL + "test_best_is_the_first_of_two_tied_updates"] + OLD,
         why="every mid-epoch evaluation rewrites RUN/best, worse ones included (judge returns False, not None)"),
    dict(name="v243-train-stop-eval-made-scheduled", file=TRAIN,
         old="                    self._evaluate_at_stop(nb)",
         new="                    self._evaluate_mid_epoch(nb, bar)",
         tests=[T_SUM + "test_a_max_steps_stop_inside_an_epoch"] + OLD,
         why="the evaluation at a --max-steps stop becomes a metrics.jsonl row that counts for the best and "
             "--patience: a resumed run no longer goes on as the uninterrupted one"),
    dict(name="v243-train-summary-without-stop-reason", file=TRAIN,
         old="        trainer.log(trainer.recorder.summary(stop))",
         new="        trainer.log(trainer.recorder.summary(None))",
         tests=[T_SUM + "test_a_max_steps_stop_inside_an_epoch", T_SUM + "test_an_early_stop_inside_an_epoch"] + OLD,
         why="a stopped run's last line says 'Done: 4 epochs' without why or where it stopped"),
    # ---- what the run records and says: lnrnn/training/recorder.py ----
    dict(name="v243-rec-keep-one-more", file=REC,
         old="                keep_past(t.cfg.out, t.cfg.keep)",
         new="                keep_past(t.cfg.out, t.cfg.keep + 1)",
         tests=[T_POL + "test_keep_three_past_update_nine"] + OLD,
         why="--keep N leaves N + 1 past checkpoints"),
    dict(name="v243-rec-early-stop-not-recorded", file=REC,
         old='            meta["early_stop"] = t.early_stop',
         new='            meta["early_stop"] = t.reached',
         tests=[T_POL + "test_patience_stops_at_the_evaluation_inside_the_epoch",
                T_POL + "test_a_resume_after_an_early_stop"] + OLD,
         why="the checkpoint of an early-stopped run records no early stop: a resume with the same --patience "
             "trains on"),
    dict(name="v243-rec-summary-last-row-not-stop-eval", file=REC,
         old="            last = t.stop_eval\n",
         new="            last = t.history[-1]\n",
         tests=[T_SUM + "test_a_max_steps_stop_inside_an_epoch", T_SUM + "test_a_max_steps_stop_after_one_update"]
         + OLD,
         why="a run stopped mid-epoch reports the last epoch row's validation, not the state it stopped at "
             "(and fails with no row yet)"),
    dict(name="v243-rec-summary-short-metric-names", file=REC,
         old="for m in t.model.metrics}, long=True)} {when}\"",
         new="for m in t.model.metrics}, long=False)} {when}\"",
         tests=[T_SUM + "test_a_finished_run_of_one_epoch", T_SUM + "test_a_max_steps_stop_inside_an_epoch"] + OLD,
         why="the summary's last evaluation reads 'loss 0.8500 acc 50.00%' instead of 'loss 0.8500, accuracy "
             "50.00%'"),
    dict(name="v243-rec-summary-best-path-is-run", file=REC,
         old='            res += (f"; best checkpoint {os.path.join(c.out, BEST_DIR)} (validation "',
         new='            res += (f"; best checkpoint {c.out} (validation "',
         tests=[T_SUM + "test_a_finished_run_of_one_epoch", T_SUM + "test_a_max_steps_stop_inside_an_epoch"] + OLD,
         why="the summary names the run folder (its latest checkpoint) as the best checkpoint"),
    dict(name="v243-rec-summary-updates-plural-by-epochs", file=REC,
         old="""        done = f"{t.step} update{'s' * (t.step != 1)} in""",
         new="""        done = f"{t.step} update{'s' * (c.epochs != 1)} in""",
         tests=[T_SUM + "test_a_finished_run_of_one_epoch", T_SUM + "test_a_max_steps_stop_after_one_update"] + OLD,
         why="'update(s)' follows the number of epochs: '1 updates', '3 update'"),
    dict(name="v243-rec-summary-early-names-best-value", file=REC,
         old="""no better validation {e['metric']} in \"""",
         new="""no better validation {e['best']} in \"""",
         tests=[T_SUM + "test_an_early_stop_inside_an_epoch"] + OLD,
         why="an early stop's line names the best value where the metric's name belongs"),
    # ---- --keep's copies: lnrnn/training/checkpoint.py ----
    dict(name="v243-ckpt-keep-refusal-names-past-dir", file=CKPT,
         old="""raise CheckpointError(f"cannot keep a copy of the checkpoint of update {meta['step']} in {dest} \"""",
         new="""raise CheckpointError(f"cannot keep a copy of the checkpoint of update {meta['step']} in {past} \"""",
         tests=[T_SUM + "test_keep_past_refused_where_checkpoints_is_a_file"] + OLD,
         why="keep_past's refusal names the checkpoints/ folder, not the update's folder it could not make"),
]
