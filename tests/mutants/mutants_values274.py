"""Planted bugs, round 274 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training driver's policies, thirteenth pass (lnrnn/training/train.py, stopping.py, recorder.py,
checkpoint.py, progress.py): updates counted from 1, so a --max-steps run makes one update fewer and writes no
update-0 checkpoint; a signal's and a second signal's resume hints dropping the --max-steps that still holds; a
--time-budget stop naming the budget rounded to whole seconds; a resume with nothing left under --max-steps
pointing to --epochs; an evaluation's row keeping one decimal of training time; an epoch's row counting only
earlier invocations' compile seconds; the compile seconds said only above half a second; a max-steps stop as an
epoch ends said 'at epoch N+1'; a resume of a description saying another model not refused (it compares the
saved config with itself); load_checkpoint's refusals naming the folder instead of the description
(an empty folder, another program's description, a listing the arrays file does not hold); format_seconds taking
minutes from the whole seconds instead of the rest of the hour.

14 mutants. Against the old targeted files alone: 3 of 14 caught (missed: the resume hint after one signal without
its --max-steps note, a --time-budget of 2.5 s said as 2 s, a resume with nothing left pointed at --epochs, an
--eval-every row's seconds to one decimal, an epoch row's compile seconds of earlier invocations only, half a second
of compiling unsaid, a stop as an epoch ends naming the next epoch, three checkpoint refusals naming the folder for
the file, 3725 s read as 1:62:05). The new value tests catch every mutant on their own (checked with the old files
taken off the lists): test_values274_train_policies (the signal, abort and nothing-left sentences word for word on a
trainer made by hand; a 2.5 s budget after 3.0 s used; TINY with --max-steps 4: nb = ceil(40/16) = 3, one metrics
row at update 3, --keep copies of updates 0, 3 and 4), test_values274_recorder (an evaluation's and an epoch's rows
written out by hand: epoch 1 + 2/3, 56 and 80 samples, means 3/16 and 12/16, 12.3456 s kept as 12.346, compiling
1.25 + 0.5 s; the summary at 0.5 and 0.49 s of compiling; a stop after epoch 1; the refusal of a description saying
hidden_size 6 and num_layers 2 word for word), test_values274_checkpoint_progress (the refusals word for word with
nothing written; format_seconds against h:mm:ss computed in the test, past 59:59 and past ten hours). Left out as
equivalent: the loop's 'elif self.batch_in_epoch < nb and save_due()' without its first condition (the save at an
epoch's last update is written again, same update, as the epoch ends; the final files are the same); a --max-steps
stop naming t.step for cfg.max_steps (the rule fires at step == max_steps exactly, and a resume already past it has
nothing to do); recorder.open's step-0 save without 'and t.epoch == 0' (step 0 means epoch 0). Left out as not cheap
or not observable here: the TensorBoard row (tb.add(t.history[-1:])) without the tensorboard package; the curve's
redraw clock (CURVE_REDRAW_S, timing); Progress's min_interval (a terminal only). The run folders' names and
numbering (rundir.default_folders, fresh_default) and the checkpoint names past powers of ten are mutated by earlier
rounds; their remaining unmutated lines are definitions and messages without a value.

    python tests/mutants/run.py --only 'v274-*'
"""
TRAIN = "lnrnn/training/train.py"
STOP = "lnrnn/training/stopping.py"
REC = "lnrnn/training/recorder.py"
CKPT = "lnrnn/training/checkpoint.py"
PROG = "lnrnn/training/progress.py"

T_POL = "tests/training/test_values274_train_policies.py::"
T_REC = "tests/training/test_values274_recorder.py::"
T_CP = "tests/training/test_values274_checkpoint_progress.py::"
OLD_STOP = ["tests/training/test_values56_stop_place.py", "tests/training/test_values227_stopping.py"]
OLD_TRAIN = ["tests/training/test_values259_train_policies.py", "tests/training/test_values243_train_policies.py"]
OLD_REC = ["tests/training/test_values243_train_recorder_summary.py", "tests/training/test_values122_recorder.py",
           "tests/training/test_values259_checkpoint.py"]
OLD_CKPT = ["tests/training/test_values259_checkpoint.py", "tests/training/test_values227_checkpoint.py"]
OLD_PROG = ["tests/training/test_values210_progress.py", "tests/training/test_values243_train_recorder_summary.py"]

MUTANTS = [
    # ---- the loop: lnrnn/training/train.py ----
    dict(name="v274-train-steps-counted-from-one", file=TRAIN,
         old="        self.epoch, self.batch_in_epoch, self.step = 0, 0, 0\n",
         new="        self.epoch, self.batch_in_epoch, self.step = 0, 0, 1\n",
         tests=[T_POL + "test_max_steps_four_counts_updates_from_zero"] + OLD_TRAIN,
         why="a new run's update counter starts at 1: --max-steps N makes N - 1 updates, epoch rows name an update "
             "one too late, and no update-0 checkpoint is written"),
    # ---- the stop policy: lnrnn/training/stopping.py ----
    dict(name="v274-stop-interruption-drops-budget-note", file=STOP,
         old='                           f"{self.budget_note()}.", signum)',
         new='                           f".", signum)',
         tests=[T_POL + "test_an_interruption_says_the_max_steps_still_holds"] + OLD_STOP,
         why="a signal's resume hint no longer says that the run's --max-steps / --time-budget still hold"),
    dict(name="v274-stop-abort-drops-budget-note", file=STOP,
         old='f"continue with `lnrnn train --out {out} --resume`{self.budget_note()}"\n',
         new='f"continue with `lnrnn train --out {out} --resume`"\n',
         tests=[T_POL + "test_an_abort_after_the_save_says_the_max_steps_still_holds"] + OLD_STOP,
         why="a second signal's resume hint no longer says that the run's budgets still hold"),
    dict(name="v274-stop-time-budget-named-rounded", file=STOP,
         old='            return f"used the --time-budget of {cfg.time_budget:g} s"',
         new='            return f"used the --time-budget of {cfg.time_budget:.0f} s"',
         tests=[T_POL + "test_a_time_budget_stop_names_the_budget_given_not_rounded"] + OLD_STOP,
         why="a --time-budget 2.5 stop says 'of 2 s': the budget given is rounded to whole seconds"),
    dict(name="v274-stop-nothing-left-points-to-epochs", file=STOP,
         old='(--max-steps {c.max_steps}); pass a larger --max-steps, or none, to train',
         new='(--max-steps {c.max_steps}); pass a larger --epochs, or none, to train',
         tests=[T_POL + "test_nothing_left_under_max_steps_points_to_max_steps"] + OLD_STOP,
         why="a resume with nothing left under --max-steps tells the user to raise --epochs"),
    # ---- the recorder: lnrnn/training/recorder.py ----
    dict(name="v274-rec-eval-row-time-one-decimal", file=REC,
         old='**{f"val_{m}": v for m, v in val.items()}, "time_s": round(t.train_time, 3),\n'
             '                "compile_s": round(t.compile_total(), 3), "eval": kind}',
         new='**{f"val_{m}": v for m, v in val.items()}, "time_s": round(t.train_time, 1),\n'
             '                "compile_s": round(t.compile_total(), 3), "eval": kind}',
         tests=[T_REC + "test_an_evaluations_row_keeps_three_decimals_of_training_time"] + OLD_REC,
         why="an --eval-every row keeps one decimal of the training seconds instead of three (epoch rows three)"),
    dict(name="v274-rec-epoch-row-compile-earlier-only", file=REC,
         old='                "compile_s": round(t.compile_total(), 3),\n                "samples_per_s"',
         new='                "compile_s": round(t.compile_s, 3),\n                "samples_per_s"',
         tests=[T_REC + "test_an_epochs_row_counts_all_compiling_and_its_own_means"] + OLD_REC,
         why="an epoch's row counts only earlier invocations' compile seconds, not this invocation's clock"),
    dict(name="v274-rec-compile-said-above-half", file=REC,
         old='        if getattr(t, "compile_this", 0.0) >= 0.5:',
         new='        if getattr(t, "compile_this", 0.0) > 0.5:',
         tests=[T_REC + "test_compile_seconds_are_said_from_half_a_second"] + OLD_REC,
         why="exactly half a second of compiling is not said in the summary (the rule is from 0.5 s)"),
    dict(name="v274-rec-stop-place-epoch-plus-one", file=REC,
         old='        return (f"Stopped ({stop_reason}) {stop_place(t)}, {done}; {res}; {where}; "',
         new='        return (f"Stopped ({stop_reason}) at epoch {t.epoch + 1}, {done}; {res}; {where}; "',
         tests=[T_REC + "test_a_max_steps_stop_as_an_epoch_ends_says_after_that_epoch"] + OLD_REC,
         why="a budget stop as an epoch ends names the next epoch, one that never started"),
    dict(name="v274-rec-model-compared-with-itself", file=REC,
         old="        if saved != t.model.config:\n",
         new='        if saved != upgrade_config(meta["model"]):\n',
         tests=[T_REC + "test_a_resume_of_another_models_checkpoint_is_refused_word_for_word"] + OLD_REC,
         why="a resume compares the checkpoint's model with itself: a description saying another model is "
             "resumed without a word"),
    # ---- checkpoint files: lnrnn/training/checkpoint.py ----
    dict(name="v274-ckpt-none-expects-the-folder", file=CKPT,
         old='raise CheckpointError(f"no checkpoint at {path} (expected {desc}); train one with "',
         new='raise CheckpointError(f"no checkpoint at {path} (expected {path}); train one with "',
         tests=[T_CP + "test_an_empty_folder_names_the_description_it_expected"] + OLD_CKPT,
         why="an empty folder's refusal says it expected the folder, not its checkpoint.json"),
    dict(name="v274-ckpt-other-format-names-folder", file=CKPT,
         old='raise CheckpointError(f"{desc} is not an lnrnn checkpoint description.")',
         new='raise CheckpointError(f"{path} is not an lnrnn checkpoint description.")',
         tests=[T_CP + "test_another_programs_description_is_named_not_its_folder"] + OLD_CKPT,
         why="another program's description is refused naming the folder given, not the file read"),
    dict(name="v274-ckpt-listing-names-folder", file=CKPT,
         old="does not hold the arrays {desc} lists.",
         new="does not hold the arrays {path} lists.",
         tests=[T_CP + "test_a_listing_of_an_array_the_file_lacks_names_the_description"] + OLD_CKPT,
         why="an arrays file short of its listing is refused naming the folder as the description"),
    # ---- progress: lnrnn/training/progress.py ----
    dict(name="v274-progress-minutes-from-all-seconds", file=PROG,
         old="    m, sec = divmod(rem, 60)\n",
         new="    m, sec = divmod(s, 60)\n",
         tests=[T_CP + "test_format_seconds_is_hours_minutes_seconds"] + OLD_PROG,
         why="past an hour the minutes count every minute of the run: 3725 s reads 1:62:05"),
]
