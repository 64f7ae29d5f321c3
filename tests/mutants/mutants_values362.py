"""Planted bugs, round 362 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the stop rules (lnrnn/training/stopping.py), the run folder's recorder (lnrnn/training/recorder.py), the run's plan
(lnrnn/training/plan.py) and the output files (lnrnn/files.py), nineteenth pass: SIGTERM left to its default handler
(a preempted run dies without saving); a signal named 'Signals.SIGTERM' in a stopped run's message; the patience
stop inverted (every update of a fresh run reads as stopped early); the resume hint's --time-budget note keyed on
--max-steps; an epoch row's validation metrics written under train_ (overwriting the training means); the learning
curve refusing a torn last line of updates.jsonl; a checkpoint's data record holding the text record; the run's last
line naming files without the run's folder; --allow-pickle off passed to every task (a default run refused); the
window default inverted (a text task gets none, a task without text 10); the model config naming the cell 'ln-lstm'
instead of its kind 'lstm'; the temp file opened in text mode; os.replace's arguments swapped; a Ctrl-C inside a
writer leaving its temp file behind.

14 mutants. Against the old targeted files alone (each mutant's v362 files taken off its list): 6 of 14 caught;
missed: SIGTERM left to its default handler, the signal named 'Signals.SIGTERM', the curve refusing a torn last
line, the data record holding the text record, the last line's files without the run's folder, the window default
inverted, the config naming the cell 'ln-lstm', a Ctrl-C leaving the temp file. The old targeted files are
test_values316_stopping and test_values335_stopping (the stop rules), test_values335_recorder and
test_values274_recorder (metrics, curve, checkpoints), test_values312_plan and test_values239_plan (the plan's
refusals and config), test_values222_files and test_values171_files (output files). The new value tests catch every
mutant on their own (checked with the old files taken off the lists): test_values362_stopping (SIGINT and SIGTERM
both reach the flag and the old handlers come back; the stopped run's messages word for word with exit codes 143 and
130; --patience 2 over losses 1.0 1.2 0.9 1.1 0.8 0.95 0.85 stops only at the last, the evaluations since the best
counted 0 1 0 1 0 1 2; the budget note of each limit alone and both), test_values362_recorder (an epoch row against
means and rates worked by hand; the curve's rows without the torn line and its title; a checkpoint description key
by key; the last line of a run whose loss went down and up, its last and best evaluations apart and its files under
the run's folder), test_values362_plan (task options with and without --allow-pickle; the window's default on tasks
with and without text and a reader; the model config of ln-lstm and bn-rnn, and of a one-Gaussian window) and
test_values362_files (bytes, permissions and a rewrite of an output under missing folders; a KeyboardInterrupt in
the writer). Left out as equivalent: atomic_write's folder taken without abspath (mkstemp's dir '' is the working
folder, the same place), the temp file made without dir= (the tests' folders and the system's temp folder share a
file system, so the rename still works here), the umask line's prefix in the process's status file (the fallback
reads the same mask), the PC_NAME_MAX fallback (pathconf answers on Linux), and os.replace written os.rename (the
same on POSIX). Left out as a hang rather than a value: _os_error_within without its seen set (a cyclic chain of
causes would loop forever).

    python tests/mutants/run.py --only 'v362-*'
"""
STOPPING = "lnrnn/training/stopping.py"
RECORDER = "lnrnn/training/recorder.py"
PLAN = "lnrnn/training/plan.py"
FILES = "lnrnn/files.py"

T_STOP = "tests/training/test_values362_stopping.py::"
T_REC = "tests/training/test_values362_recorder.py::"
T_PLAN = "tests/training/test_values362_plan.py::"
T_FILES = "tests/test_values362_files.py::"
OLD_STOP = ["tests/training/test_values316_stopping.py", "tests/training/test_values335_stopping.py"]
OLD_REC = ["tests/training/test_values335_recorder.py", "tests/training/test_values274_recorder.py"]
OLD_PLAN = ["tests/training/test_values312_plan.py", "tests/training/test_values239_plan.py"]
OLD_FILES = ["tests/test_values222_files.py", "tests/test_values171_files.py"]

MUTANTS = [
    # ---- the stop rules: lnrnn/training/stopping.py ----
    dict(name="v362-stopping-sigterm-not-caught", file=STOPPING,
         old="    SIGNALS = (signal.SIGINT, signal.SIGTERM)",
         new="    SIGNALS = (signal.SIGINT,)",
         tests=[T_STOP + "test_sigint_and_sigterm_alike_reach_the_flag_and_the_old_handlers_come_back"] + OLD_STOP,
         why="SIGTERM keeps its default handler: a preempted run (docker stop, Slurm) dies without saving"),
    dict(name="v362-stopping-signal-name-str", file=STOPPING,
         old="        return signal.Signals(signum).name",
         new="        return str(signal.Signals(signum))",
         tests=[T_STOP + "test_a_signal_is_named_as_the_shell_names_it"] + OLD_STOP,
         why="a stopped run says 'interrupted (Signals.SIGTERM)' instead of 'interrupted (SIGTERM)'"),
    dict(name="v362-stopping-early-stop-inverted", file=STOPPING,
         old="        elif t.early_stop is not None:",
         new="        elif t.early_stop is None:",
         tests=[T_STOP + "test_patience_over_a_history_that_goes_down_and_up",
                T_STOP + "test_no_stop_rule_fires_on_a_fresh_run_state"] + OLD_STOP,
         why="the patience rule inverted: a run without a patience stop stops 'early' after its first update"),
    dict(name="v362-stopping-budget-note-wrong-limit", file=STOPPING,
         old="        if c.time_budget is not None:\n            left",
         new="        if c.max_steps is not None:\n            left",
         tests=[T_STOP + "test_a_time_budget_given_alone_is_named_with_the_seconds_left"] + OLD_STOP,
         why="the resume hint's --time-budget part is keyed on --max-steps: a budget given alone is not named, "
             "--max-steps alone fails formatting None"),
    # ---- the run folder: lnrnn/training/recorder.py ----
    dict(name="v362-recorder-epoch-row-val-as-train", file=RECORDER,
         old='**{f"train_{m}": v for m, v in train.items()},\n                **{f"val_{m}": v',
         new='**{f"train_{m}": v for m, v in train.items()},\n                **{f"train_{m}": v',
         tests=[T_REC + "test_an_epoch_row_keeps_the_training_means_and_the_validation_metrics_apart"] + OLD_REC,
         why="an epoch's validation metrics are written under train_, overwriting the training means; no val_ "
             "columns"),
    dict(name="v362-recorder-curve-torn-tail-refused", file=RECORDER,
         old="updates = read_jsonl(path, torn_tail_ok=True) if os.path.exists(path) else []",
         new="updates = read_jsonl(path, torn_tail_ok=False) if os.path.exists(path) else []",
         tests=[T_REC + "test_the_curve_is_drawn_from_the_updates_without_a_torn_last_line"] + OLD_REC,
         why="the learning curve of a run killed mid-row refuses updates.jsonl's torn last line (a UserError)"),
    dict(name="v362-recorder-meta-data-record-wrong", file=RECORDER,
         old='            meta["data"] = t.setup.data_record',
         new='            meta["data"] = t.setup.text_record',
         tests=[T_REC + "test_a_checkpoint_description_names_each_record_under_its_own_key"] + OLD_REC,
         why="a checkpoint's data record holds the text record: the data the run trained on go unrecorded"),
    dict(name="v362-recorder-summary-files-without-folder", file=RECORDER,
         old='where = ", ".join(f"{what} {os.path.join(c.out, name)}" for what, name in files',
         new='where = ", ".join(f"{what} {name}" for what, name in files',
         tests=[T_REC + "test_the_last_line_gives_the_last_evaluation_and_the_best_apart"] + OLD_REC,
         why="the run's last line names 'checkpoint checkpoint.json' without the run's folder"),
    # ---- the plan: lnrnn/training/plan.py ----
    dict(name="v362-plan-allow-pickle-false-passed", file=PLAN,
         old='"allow_pickle": cfg.allow_pickle or None,',
         new='"allow_pickle": cfg.allow_pickle,',
         tests=[T_PLAN + "test_task_options_pass_allow_pickle_only_where_it_is_given"] + OLD_PLAN,
         why="--allow-pickle off (False, not None) counts as given: every task but strokes-npz refuses a default "
             "run"),
    dict(name="v362-plan-has-text-inverted", file=PLAN,
         old='    has_text = getattr(task, "alphabet", None) is not None',
         new='    has_text = getattr(task, "alphabet", None) is None',
         tests=[T_PLAN + "test_the_window_default_follows_the_task_lines_text",
                T_PLAN + "test_the_model_config_names_the_cell_kind_and_a_one_gaussian_window"] + OLD_PLAN,
         why="the window default inverted: a task whose lines carry text gets no window, one without text 10"),
    dict(name="v362-plan-config-cell-name", file=PLAN,
         old="    config = dict(cell=spec.cell, norm=spec.norm,",
         new="    config = dict(cell=spec.name, norm=spec.norm,",
         tests=[T_PLAN + "test_the_model_config_names_the_cell_kind_and_a_one_gaussian_window"] + OLD_PLAN,
         why="the model config names the registry row ('ln-lstm') where build_model reads the cell's kind ('lstm')"),
    # ---- output files: lnrnn/files.py ----
    dict(name="v362-files-temp-text-mode", file=FILES,
         old='    return os.fdopen(fd, "wb")',
         new='    return os.fdopen(fd, "w")',
         tests=[T_FILES + "test_an_output_under_missing_folders_holds_the_bytes_written"] + OLD_FILES,
         why="the temp file is opened in text mode: every writer's bytes fail with a TypeError"),
    dict(name="v362-files-replace-swapped", file=FILES,
         old="        os.replace(tmp, path)",
         new="        os.replace(path, tmp)",
         tests=[T_FILES + "test_an_output_under_missing_folders_holds_the_bytes_written"] + OLD_FILES,
         why="os.replace's arguments swapped: a new file fails to write, an old one is moved onto the temp name"),
    dict(name="v362-files-interrupt-leaves-temp", file=FILES,
         old="    except BaseException as e:",
         new="    except Exception as e:",
         tests=[T_FILES + "test_a_ctrl_c_inside_the_writer_keeps_the_old_file_and_no_temp_file"] + OLD_FILES,
         why="a Ctrl-C (KeyboardInterrupt) inside a writer leaves its .tmp- file beside the target"),
]
