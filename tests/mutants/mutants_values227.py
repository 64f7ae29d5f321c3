"""Planted bugs, round 227 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training policies over non-monotonic histories: stopping.py: a blow-up after 19 updates in a row
above 10x the first loss instead of 20, the blow-up line and a second signal's line naming the epoch from 0, a
run resumed with fewer --epochs than it finished naming the finished count as its --epochs, the early-stop check
of a resumed run inverted. rundir.py: default_folders matching the whole path instead of the folder's name, a new
run without --out given base-(runs + 1) instead of the first free number, a base under a folder named with
brackets read as a glob pattern. checkpoint.py: the arrays saved as one pickled dict, the superseded arrays files
left beside the new one, keeping the copy of an update already kept refused, the version refusal naming the
version refused as the one read, a description given by another file name looked for inside it as a folder, the
shape refusal giving the listed shape as a JSON list.

14 mutants. Against the existing targeted files alone 11 were caught and 3 missed: the unescaped glob (no old
default folder lies under a folder whose name has glob characters), keep_past making the copy's folder without
exist_ok (no old test keeps the same update twice, as a resumed run saving at the update it stopped at does),
and the description path tested with exists instead of isdir (old tests give a folder, or a file named
checkpoint*, which the sibling rule reads anyway). The new value tests catch every mutant on their own (checked
with the old files taken off the lists): test_values227_stopping (a loss history 19 above the level, a dip to
exactly it, 20 above: the streak after every update counted here, the stop at update 41 and not before, its line
word for word; a run resumed with --epochs 2 after 5; a run resumed in the middle with nothing stopping it; the
patience of 2 over validation losses worse, better, worse, better, worse, worse, worked out by hand to stop at
update 70 with the best 1.2 of update 50, and the resumed run's sentence; a second SIGTERM during update 10 of
epoch 1), test_values227_rundir (runs in base, -2, -4, -9, -10, -99, -100 leave -3 free, filled up to -10 the next
is -11; a base under sweep[1]/ with a decoy sweep1/default-5 finds its own numbered folders and resumes the newest
by mtime), test_values227_checkpoint (saves at 9, 10, 99, 100: one arrays file each time, named with the nine-digit
update, read by np.load without pickle to the arrays given; --keep 2 over saves at 9, 10, 10, 99, 100 keeps 99
and 100; the copy of update 10 kept twice is the second save; a copied description under another name loads, a
JSON file that is none refused word for word; version 2 and a listed shape of (3, 2) or (6,) refused word for
word, nothing rewritten). Left out as equivalent: read_jsonl's torn-tail "break" as "continue" (only the last line
may be forgiven), reason()'s "reached --max-steps {cfg.max_steps}" naming t.step (the check runs after every
update, and a resume at or past the limit stops in nothing_left first, so the two are equal), judge's
"return better" as "return b['since'] == 0" (since is 0 exactly when the evaluation was better).

    python tests/mutants/run.py --only 'v227-*'
"""
STOP = "lnrnn/training/stopping.py"
RUNDIR = "lnrnn/training/rundir.py"
CKPT = "lnrnn/training/checkpoint.py"

# existing tests of these modules (the most direct files)
STOP_OLD = ["tests/training/test_values209_stopping.py", "tests/training/test_values180_stopping.py",
            "tests/training/test_values124_stopping.py", "tests/training/test_values12_stopping.py",
            "tests/training/test_values9_stopping.py", "tests/training/test_values_train_policies.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values63_rundir.py",
              "tests/training/test_values91_rundir.py", "tests/training/test_values116_rundir.py",
              "tests/training/test_values209_rundir.py", "tests/training/test_values222_rundir.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values209_checkpoint.py",
            "tests/training/test_values222_checkpoint.py", "tests/training/test_values122_checkpoint.py",
            "tests/training/test_values102_checkpoint.py", "tests/training/test_values_train_policies.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
S = "tests/training/test_values227_stopping.py::"
R = "tests/training/test_values227_rundir.py::"
C = "tests/training/test_values227_checkpoint.py::"
BLOWUP = [S + "test_the_blow_up_stops_at_the_twentieth_update_in_a_row_and_not_before"]
EPOCHS = [S + "test_a_run_resumed_with_fewer_epochs_than_it_finished_names_the_epochs_asked"]
RESUMED = [S + "test_a_run_resumed_in_the_middle_has_something_left",
           S + "test_a_run_whose_patience_ran_out_over_a_non_monotonic_history_has_nothing_left"]
ABORT = [S + "test_a_second_signal_during_update_ten_of_the_first_epoch"]
GAP = [R + "test_a_gap_below_runs_past_9_and_99_is_the_next_folder"]
BRACKETS = [R + "test_a_base_under_a_folder_named_with_brackets"]
SAVES = [C + "test_saves_past_9_and_99_leave_one_arrays_file_named_by_the_update"]
KEEP = [C + "test_keep_two_over_saves_at_9_10_10_99_100",
        C + "test_the_copy_of_an_update_kept_twice_is_the_second_save"]
NAMED = [C + "test_a_description_under_another_name_loads_and_a_json_that_is_none_is_refused"]
VERSION = [C + "test_another_format_version_is_refused_naming_both"]
SHAPE = [C + "test_an_array_of_another_shape_is_refused_with_both_shapes_written_alike"]

MUTANTS = [
    # ---- stopping.py: the blow-up streak, a resumed run with nothing left, a second signal ----
    dict(name="v227-blowup-one-update-early", file=STOP,
         old="BLOWUP_UPDATES = 20 ",
         new="BLOWUP_UPDATES = 19 ",
         tests=BLOWUP + STOP_OLD,
         why="a run whose loss stays above 10x its first is stopped after 19 updates in a row, not 20"),
    dict(name="v227-blowup-line-epoch-zero-based", file=STOP,
         old='f"{t.high_streak} updates in a row (now {loss:.3g}) at epoch {t.epoch + 1}, update "',
         new='f"{t.high_streak} updates in a row (now {loss:.3g}) at epoch {t.epoch}, update "',
         tests=BLOWUP + STOP_OLD,
         why="the blow-up line names the epoch counted from 0 (epoch 0 for the first)"),
    dict(name="v227-nothing-left-names-the-epochs-done", file=STOP,
         old='f"(--epochs {c.epochs}); pass a larger --epochs to train it further.")',
         new='f"(--epochs {trainer.epoch}); pass a larger --epochs to train it further.")',
         tests=EPOCHS + STOP_OLD,
         why="a run resumed with fewer --epochs than it finished names the finished count as its --epochs"),
    dict(name="v227-nothing-left-early-stop-inverted", file=STOP,
         old="        if e is not None:\n            since = trainer.best['since']",
         new="        if e is None:\n            since = trainer.best['since']",
         tests=RESUMED + STOP_OLD,
         why="a run that stopped early is resumed as if it had not (and one that did not fails on None)"),
    dict(name="v227-abort-epoch-zero-based", file=STOP,
         old='f"{t.epoch + 1}; the last checkpoint (update {t.saved_step}) is kept in {out}; {again}.")',
         new='f"{t.epoch}; the last checkpoint (update {t.saved_step}) is kept in {out}; {again}.")',
         tests=ABORT + STOP_OLD,
         why="a second signal mid-update names the epoch counted from 0"),
    # ---- rundir.py: default folders past powers of ten, a gap, a base with brackets ----
    dict(name="v227-default-folders-match-whole-path", file=RUNDIR,
         old="        m = pat.match(os.path.basename(p))",
         new="        m = pat.match(p)",
         tests=GAP + BRACKETS + RUNDIR_OLD,
         why="default_folders matches the pattern against the whole path: no base-N folder is ever found"),
    dict(name="v227-fresh-default-count-plus-one", file=RUNDIR,
         old='    return base if n == 1 else f"{base}-{n}"',
         new='    return base if n == 1 else f"{base}-{len(taken) + 1}"',
         tests=GAP + RUNDIR_OLD,
         why="a new run gets base-(runs + 1), not the first free number: with a gap it lands on a folder "
             "that holds a run"),
    dict(name="v227-default-folders-glob-unescaped", file=RUNDIR,
         old='    for p in glob.glob(glob.escape(base) + "-*"):',
         new='    for p in glob.glob(base + "-*"):',
         tests=BRACKETS + RUNDIR_OLD,
         why="a base under a folder named with brackets (sweep[1]/default) is read as a glob pattern: its "
             "numbered folders are never found"),
    # ---- checkpoint.py: the arrays file, superseded files, kept copies, refusals ----
    dict(name="v227-savez-positional-dict", file=CKPT,
         old="atomic_write(npz_path, lambda f: np.savez(f, **arrays))",
         new="atomic_write(npz_path, lambda f: np.savez(f, arrays))",
         tests=SAVES + CKPT_OLD,
         why="the arrays are saved as one pickled object array (arr_0): a file that needs pickle, refused "
             "on load"),
    dict(name="v227-superseded-arrays-kept", file=CKPT,
         old="    _drop_other_arrays(directory, name)\n    return os.path.join(directory, DESCRIPTION)",
         new="    return os.path.join(directory, DESCRIPTION)",
         tests=SAVES + CKPT_OLD,
         why="each save leaves the previous arrays files beside the new one: the run folder grows by a "
             "checkpoint per save"),
    dict(name="v227-keep-past-same-update-twice", file=CKPT,
         old="        os.makedirs(dest, exist_ok=True)",
         new="        os.makedirs(dest)",
         tests=KEEP + CKPT_OLD,
         why="keeping the copy of an update already kept (a resumed run saving at the same update) fails "
             "and removes the copy"),
    dict(name="v227-version-refusal-names-the-found-version", file=CKPT,
         old='f"this lnrnn reads version {VERSION}.")',
         new='f"this lnrnn reads version {meta.get(\'version\')}.")',
         tests=VERSION + CKPT_OLD,
         why="the refusal of another format version says this lnrnn reads the version it refuses"),
    dict(name="v227-description-path-exists-not-isdir", file=CKPT,
         old="    desc = os.path.join(path, DESCRIPTION) if os.path.isdir(path) else path",
         new="    desc = os.path.join(path, DESCRIPTION) if os.path.exists(path) else path",
         tests=NAMED + CKPT_OLD,
         why="a description given by its file name (not checkpoint*) is looked for inside it as a folder"),
    dict(name="v227-shape-refusal-names-a-list", file=CKPT,
         old='f"not {dtype} {tuple(shape)} as {desc} says.")',
         new='f"not {dtype} {shape} as {desc} says.")',
         tests=SHAPE + CKPT_OLD,
         why="the refusal of an array of another shape gives the listed shape as a JSON list, not as "
             "the array's own shape is written"),
]
