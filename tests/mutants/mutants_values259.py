"""Planted bugs, round 259 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the training loop's decisions (lnrnn/training/train.py), what a checkpoint records and how a resume reads it
back (lnrnn/training/recorder.py) and the checkpoint files (lnrnn/training/checkpoint.py): a resumed run redoing
the first batches of the epoch it was cut in; a --max-steps that falls on an epoch's last update breaking out
before the epoch ends (no metrics row, the counters not moved on); one epoch more than --epochs; a run stopped by
--max-steps at the epoch end where --patience also runs out named an early stop; RUN/best rewritten at every
epoch end, not only at a better one; the epoch-end checkpoint always held back as if the loss had blown up (each
written one update late); checkpoints recording epoch + 1; a refused resume of another model naming the folder
the run was saved in, not where it is now; a resume dropping the optimizer's slots; a second save into one
folder deleting the new arrays file instead of the old; --keep's copy left without its arrays file; the copy made
without a hard link written straight to its final name (then refused); a refused save leaving its new arrays
file behind; a missing arrays file refused naming the folder instead of its description.

14 mutants. Against the old targeted files alone: 8 of 14 caught; they missed a step limit reached at an epoch's end
reported as an early stop, a refused resume naming the folder the run was saved in, a resume dropping the
optimizer's slots, a copy without its temporary file where no hard link can be made, a save refused for a full disk
leaving its arrays file, and a missing arrays file refused naming the folder. (Old files:
test_values243_train_policies, test_values243_train_recorder_summary, test_values_train_policies,
test_values56_stop_place for the loop and its policies; test_values209_checkpoint, test_values236_train_resume for
the checkpoint files and resuming.) The new value tests catch every mutant on their own (checked with the old files
taken off the lists): test_values259_train_policies (TINY of test_values56_stop_place, 3 updates an epoch, the
validation loss scripted per epoch end as 0.9, 1.0, 0.8, 0.85, 0.8: the best at update 9, not at the tie of update
15, its arrays --keep's copy of update 9; checkpoints at updates 0, 3, 6, 9, 12 each with its own epoch and batch 0;
--save-every 1 --keep 3 --max-steps 10 leaving updates 8, 9, 10 as (epoch, batch) (2, 2), (3, 0), (3, 1);
--max-steps 3 ending epoch 1 as usual; 2 epochs = 6 updates and two rows; --max-steps 6 and --patience 1 at the same
epoch end named as the budget's stop, the early stop's own sentence without --max-steps; a run cut at update 4 and
resumed making updates 5 and 6 only, ending with the uninterrupted run's parameters, optimizer slots and validation
losses) and test_values259_checkpoint (arrays whose values name their update: --keep 3 over updates 7..11 and
97..101 leaving 9, 10, 11 and 99, 100, 101 each loading its own arrays, with os.link refused too; a second save
keeping only the new arrays; a full disk refused word for word with the 16 KB worked out here and the folder as it
was; a missing arrays file refused naming checkpoint.json; a run moved and described as hidden_size 8 refused word
for word naming where it is now, its files unchanged).

Left out as equivalent: the step-0 checkpoint's condition reduced to t.step == 0 (a run at step 0 is at epoch 0,
batch 0); Trainer._start's saved_step (run() sets it again before any update); the epoch-end save's batch check
in the loop (a save there is overwritten by the epoch's own save of the same update). lnrnn/training/stopping.py
has no mutant this round: its remaining unmutated lines are the signal plumbing (StopFlag's handlers, Abort), a
group's votes and the tails of messages whose counts earlier rounds mutate (judge's rule and patience, stop_place,
nothing_left's numbers are all mutated already). Left out as costly: 100 updates of a real run for 99 -> 100
(keep_past is driven past 99 directly instead).

    python tests/mutants/run.py --only 'v259-*'
"""
TRAIN = "lnrnn/training/train.py"
REC = "lnrnn/training/recorder.py"
CKPT = "lnrnn/training/checkpoint.py"

T_POL = "tests/training/test_values259_train_policies.py::"
T_CK = "tests/training/test_values259_checkpoint.py::"
OLD_POL = ["tests/training/test_values243_train_policies.py", "tests/training/test_values243_train_recorder_summary.py",
           "tests/training/test_values_train_policies.py", "tests/training/test_values56_stop_place.py"]
OLD_CK = ["tests/training/test_values209_checkpoint.py", "tests/training/test_values236_train_resume.py"]

MUTANTS = [
    # ---- the loop: lnrnn/training/train.py ----
    dict(name="v259-train-resume-redoes-the-epochs-first-batches", file=TRAIN,
         old="                for b in range(self.batch_in_epoch, nb):",
         new="                for b in range(nb):",
         tests=[T_POL + "test_a_resume_mid_epoch_runs_only_the_rest_of_it",
                T_POL + "test_a_resume_mid_epoch_ends_where_the_uninterrupted_run_ends"] + OLD_POL,
         why="a run resumed in the middle of an epoch starts that epoch over: its first batches are trained twice"),
    dict(name="v259-train-max-steps-at-epoch-end-breaks-out", file=TRAIN,
         old="                        if self.batch_in_epoch < nb:\n                            break",
         new="                        if self.batch_in_epoch <= nb:\n                            break",
         tests=[T_POL + "test_max_steps_at_an_epoch_end_finishes_that_epoch"] + OLD_POL,
         why="a --max-steps on an epoch's last update breaks out before the epoch ends: no row, counters not moved"),
    dict(name="v259-train-one-epoch-more", file=TRAIN,
         old="            while self.epoch < cfg.epochs and stop_reason is None:",
         new="            while self.epoch <= cfg.epochs and stop_reason is None:",
         tests=[T_POL + "test_two_epochs_are_six_updates_and_two_rows"] + OLD_POL,
         why="the run trains one epoch more than --epochs"),
    dict(name="v259-train-early-overrides-max-steps", file=TRAIN,
         old="                    if stop_reason is None and self.early_stop is not None:",
         new="                    if self.early_stop is not None:",
         tests=[T_POL + "test_max_steps_and_patience_at_the_same_epoch_end"] + OLD_POL,
         why="a run that reached --max-steps as an epoch ended is reported as an early stop when patience ran out there"),
    dict(name="v259-train-best-written-every-epoch", file=TRAIN,
         old="        if better:\n            self.recorder.save_best()\n        if self.high_streak > 0:",
         new="        if better is not None:\n            self.recorder.save_best()\n        if self.high_streak > 0:",
         tests=[T_POL + "test_best_is_update_nine_over_worse_better_worse_tie"] + OLD_POL,
         why="RUN/best is rewritten as every epoch ends: it holds the last epoch, not the best one"),
    dict(name="v259-train-epoch-save-always-held-back", file=TRAIN,
         old="        if self.high_streak > 0:\n            self.save_pending = True",
         new="        if self.high_streak >= 0:\n            self.save_pending = True",
         tests=[T_POL + "test_checkpoints_written_exactly_as_each_epoch_ends"] + OLD_POL,
         why="the epoch-end checkpoint always waits as if the loss had blown up: it is written one update late"),
    # ---- what a checkpoint records and a resume reads: lnrnn/training/recorder.py ----
    dict(name="v259-rec-meta-epoch-plus-one", file=REC,
         old='"epoch": t.epoch, "batch_in_epoch": t.batch_in_epoch, "step": t.step,',
         new='"epoch": t.epoch + 1, "batch_in_epoch": t.batch_in_epoch, "step": t.step,',
         tests=[T_POL + "test_keep_three_every_update_past_nine",
                T_POL + "test_checkpoints_written_exactly_as_each_epoch_ends"] + OLD_POL,
         why="every checkpoint records one epoch more than the run has finished (a resume skips an epoch)"),
    dict(name="v259-rec-mismatch-names-the-saved-folder", file=REC,
         old='            raise CheckpointError(f"the checkpoint in {t.cfg.out} does not match the model its own settings "',
         new='''            raise CheckpointError(f"the checkpoint in {meta['train']['out']} does not match the model its own settings "''',
         tests=[T_CK + "test_a_moved_run_of_another_model_is_refused_naming_where_it_is_now"] + OLD_CK,
         why="a refused resume names the folder the run was saved in, not the one it is in now"),
    dict(name="v259-rec-resume-drops-optimizer-slots", file=REC,
         old='            t.opt.load_state_dict({**meta["optimizer"], "slots": slots}, t.model.flat[0])',
         new='            t.opt.load_state_dict({**meta["optimizer"], "slots": {}}, t.model.flat[0])',
         tests=[T_POL + "test_a_resume_mid_epoch_ends_where_the_uninterrupted_run_ends"] + OLD_CK,
         why="a resume starts the optimizer's moments from zero: it no longer continues the run it resumes"),
    # ---- checkpoint files: lnrnn/training/checkpoint.py ----
    dict(name="v259-ckpt-drop-deletes-the-new-arrays", file=CKPT,
         old="                os.unlink(os.path.join(directory, old))",
         new="                os.unlink(os.path.join(directory, name))",
         tests=[T_CK + "test_a_second_save_keeps_the_new_arrays_and_drops_the_old",
                T_CK + "test_keep_three_counted_past_a_power_of_ten"] + OLD_CK,
         why="a second save into one folder deletes its new arrays file and keeps the superseded one"),
    dict(name="v259-ckpt-keep-copy-without-arrays", file=CKPT,
         old="        if not os.path.exists(os.path.join(dest, name)):",
         new="        if os.path.exists(os.path.join(dest, name)):",
         tests=[T_CK + "test_keep_three_counted_past_a_power_of_ten"] + OLD_CK,
         why="--keep's copy gets the description but not the arrays file: it cannot be loaded"),
    dict(name="v259-ckpt-copy-fallback-skips-tmp", file=CKPT,
         old="                shutil.copyfile(os.path.join(directory, name), tmp)",
         new="                shutil.copyfile(os.path.join(directory, name), os.path.join(dest, name))",
         tests=[T_CK + "test_keep_copies_the_arrays_where_no_hard_link_can_be_made"] + OLD_CK,
         why="where no hard link can be made the copy goes straight to its name, and the move of the temporary "
             "file that was never made refuses the copy"),
    dict(name="v259-ckpt-failed-save-leaves-arrays", file=CKPT,
         old="        if os.path.exists(npz_path):",
         new="        if not os.path.exists(npz_path):",
         tests=[T_CK + "test_a_full_disk_refused_word_for_word_and_nothing_left"] + OLD_CK,
         why="a save refused by a full disk leaves its new arrays file in the folder"),
    dict(name="v259-ckpt-missing-arrays-names-the-folder", file=CKPT,
         old='named by {desc} is missing.")',
         new='named by {path} is missing.")',
         tests=[T_CK + "test_a_missing_arrays_file_is_refused_naming_its_description"] + OLD_CK,
         why="a missing arrays file is refused naming the folder given, not the description that names the file"),
]
