"""Planted bugs, round 352 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in evaluation (lnrnn/training/evaluation.py), fine-tuning (lnrnn/training/finetune.py), the progress bar
(lnrnn/training/progress.py) and the run's logs in other formats (lnrnn/training/logs.py): a group of one rank sent
to the distributed evaluation; the metric line long by default; a source with skip connections refused naming
--skip alone; another text alphabet refused as the task's input size; the window left as the config has it (None
for a plain stack, 'this run None'); the record's update quoted one past the checkpoint's; a checkpoint description
that cannot be read refused without '--init-from PATH:'; a pretrained run's source named by the folder it resolves
to, not pretrained:NAME; a log file's first line 60 s on by default; a terminal redrawn every 0.5 s by default;
the rate in 'sample/s'; a log file also given the terminal's redraw at the total; the bar's start taken from the
wall clock (time.time) while its times are measured with perf_counter; TensorBoard's learning rate read from a key
'learning_rate' that the rows do not have.

14 mutants. Against the old targeted files alone (each mutant's v352 files taken off its list): 7 of 14 caught;
missed: a group of one dealt out, --skip named alone, the alphabet named as an input size, the window not
normalized, an unreadable description without the option, the log written every sixty updates, the progress
line's half-second interval. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values352_evaluation_finetune (a stand-in group of one
rank, which has no allreduce, evaluated in this process over batches of 3, 3 and 1 rows, the loss the mean of the
seven squared errors written out; format_metrics short by default, long when asked, the loss's label and unit;
--init-from's refusals word for word with every parameter left as it was: skip connections named --skip/--no-skip
with on/off, a synthesis network against a plain stack named --window 2 and 0, another alphabet named as the task's
text alphabet; a description of another format quoted after '--init-from PATH:' with nothing written; a synthesis
network of the same shape replacing every parameter, the names listed by hand and Wh (4, 16) from four gates of 4;
pretrained:hershey kept as given in the record, its description at the update read from the shipped
checkpoint.json, and a refusal of another --hidden; the record's description at updates 0, 1, 9, 10, 99, 100),
test_values352_progress_logs (on a stand-in clock with perf_counter alone: a log file's default lines at 30 and 60
s, none at 29.5 and 59.5; a terminal's default redraws after 0.21875 s and not after 0.1875 s, and at the total; a
log file given nothing by update at 10 and 11 of 10, close's line alone; the rate in samples/s from the samples done
at the start, points/s when asked, times by hand; TensorBoard's 'lr' scalar of a row without metrics and of one
with them, through the stand-in package of test_values_logs). Left out as equivalent: the log line's
" ".join(p for p in parts if p) without the filter (no part is ever empty: the first holds the bar's brackets);
model_from_run passing device "cpu" on (the only device a CPU host builds on); check_settings's comparison through
saved[name] instead of saved.get(name) (read_source has refused a checkpoint missing any of SHAPE_SETTINGS).
Left out as not a value: the compile note's timer made a non-daemon thread (a process at exit waits up to 2 s, no
figure or text changes); write_csv's StringIO and atomic write (every slip there is a crash, not a wrong row).

    python tests/mutants/run.py --only 'v352-*'
"""
EVAL = "lnrnn/training/evaluation.py"
FT = "lnrnn/training/finetune.py"
PROG = "lnrnn/training/progress.py"
LOGS = "lnrnn/training/logs.py"

T_EF = "tests/training/test_values352_evaluation_finetune.py::"
T_PL = "tests/training/test_values352_progress_logs.py::"
OLD_EVAL = ["tests/training/test_values326_evaluation_finetune.py", "tests/training/test_values185_evaluation.py",
            "tests/training/test_values248_evaluation_finetune.py"]
OLD_FT = ["tests/training/test_values326_evaluation_finetune.py", "tests/training/test_values278_finetune.py",
          "tests/training/test_values248_evaluation_finetune.py"]
OLD_PROG = ["tests/training/test_values326_progress_logs.py", "tests/training/test_values210_progress.py"]
OLD_LOGS = ["tests/training/test_values326_progress_logs.py", "tests/training/test_values_logs.py"]

MUTANTS = [
    # ---- evaluation: lnrnn/training/evaluation.py ----
    dict(name="v352-eval-group-of-one-dealt-out", file=EVAL,
         old="    if group is not None and group.size > 1:",
         new="    if group is not None and group.size >= 1:",
         tests=[T_EF + "test_a_group_of_one_rank_is_evaluated_in_this_process"] + OLD_EVAL,
         why="a group of one rank goes through the distributed evaluation (an allreduce over nobody) instead of "
             "the model's own"),
    dict(name="v352-eval-metric-line-long-by-default", file=EVAL,
         old="def format_metrics(means, long=False, loss_label=None):",
         new="def format_metrics(means, long=True, loss_label=None):",
         tests=[T_EF + "test_the_metric_line_is_short_by_default_and_long_when_asked"] + OLD_EVAL,
         why="the metric line is long by default: 'loss 0.4123, accuracy 87.20%' where the bar and logs want "
             "'loss 0.4123 acc 87.20%'"),
    # ---- fine-tuning: lnrnn/training/finetune.py ----
    dict(name="v352-ft-skip-named-skip-alone", file=FT,
         old='"skip": "--skip/--no-skip",',
         new='"skip": "--skip",',
         tests=[T_EF + "test_skip_connections_are_refused_naming_both_forms_of_the_option"] + OLD_FT,
         why="a source with skip connections is refused naming --skip alone: 'give --skip off' is no option"),
    dict(name="v352-ft-alphabet-named-input-size", file=FT,
         old="""              "alphabet_size": "the task's text alphabet (--task)"}""",
         new="""              "alphabet_size": "the task's input size (--task)"}""",
         tests=[T_EF + "test_another_text_alphabet_is_refused_as_the_tasks"] + OLD_FT,
         why="another text alphabet is refused as another input size: the refusal names the wrong difference"),
    dict(name="v352-ft-window-not-normalized", file=FT,
         old='            "window": int(config.get("window") or 0)}',
         new='            "window": config.get("window")}',
         tests=[T_EF + "test_a_synthesis_network_against_a_plain_stack_names_the_window_and_zero"] + OLD_FT,
         why="a plain stack's missing window stays None: a synthesis source is refused with 'this run None'"),
    dict(name="v352-ft-record-update-one-past", file=FT,
         old="""'its best checkpoint, ' * record['best']}update {record['step']})\"""",
         new="""'its best checkpoint, ' * record['best']}update {record['step'] + 1})\"""",
         tests=[T_EF + "test_the_record_quotes_the_update_the_checkpoint_names"] + OLD_FT,
         why="the source's description quotes one update past the checkpoint's (update 1801 for 1800)"),
    dict(name="v352-ft-unreadable-description-without-option", file=FT,
         old="        meta, arrays = load_checkpoint(path)\n"
             "    except CheckpointError as e:\n"
             '        raise CheckpointError(f"--init-from {path}: {e}") from None',
         new="        meta, arrays = load_checkpoint(path)\n"
             "    except CheckpointError as e:\n"
             "        raise CheckpointError(str(e)) from None",
         tests=[T_EF + "test_a_description_of_another_format_is_refused_after_the_option"] + OLD_FT,
         why="a checkpoint that cannot be read is refused without saying it came from --init-from PATH"),
    dict(name="v352-ft-source-named-by-resolved-folder", file=FT,
         old="    return Source(path, meta, arrays)",
         new="    return Source(where, meta, arrays)",
         tests=[T_EF + "test_a_pretrained_run_keeps_the_name_it_was_given"] + OLD_FT,
         why="a pretrained:NAME source is recorded and refused under the folder it resolves to, not its name"),
    # ---- the progress bar: lnrnn/training/progress.py ----
    dict(name="v352-progress-log-every-sixty", file=PROG,
         old="LOG_EVERY_S = 30.0  # seconds",
         new="LOG_EVERY_S = 60.0  # seconds",
         tests=[T_PL + "test_a_log_file_by_default_gets_a_line_every_thirty_seconds"] + OLD_PROG,
         why="a log file gets a progress line every 60 s by default, not every 30 s"),
    dict(name="v352-progress-min-interval-half-second", file=PROG,
         old="min_interval=0.2, done=0,",
         new="min_interval=0.5, done=0,",
         tests=[T_PL + "test_a_terminal_by_default_redrawn_after_a_fifth_of_a_second_and_at_the_total"] + OLD_PROG,
         why="a terminal is redrawn at most every 0.5 s by default, not 0.2 s"),
    dict(name="v352-progress-unit-singular", file=PROG,
         old='                 unit="samples"):',
         new='                 unit="sample"):',
         tests=[T_PL + "test_the_rate_counts_samples_by_default_from_the_start_done"] + OLD_PROG,
         why="the rate reads 'sample/s' by default, not the documented samples/s"),
    dict(name="v352-progress-log-file-falls-through", file=PROG,
         old="                self.stream.flush()\n            return\n        if now - self.last_draw",
         new="                self.stream.flush()\n            pass\n        if now - self.last_draw",
         tests=[T_PL + "test_a_log_file_gets_no_line_from_update_at_or_past_the_total"] + OLD_PROG,
         why="a log file also gets the terminal's redraw (a carriage return and an erase) at and past the total"),
    dict(name="v352-progress-start-on-wall-clock", file=PROG,
         old="        self.t0 = time.perf_counter()",
         new="        self.t0 = time.time()",
         tests=[T_PL + "test_the_rate_counts_samples_by_default_from_the_start_done"] + OLD_PROG,
         why="the bar's start is read from the wall clock while its times use perf_counter: rate and times wrong"),
    # ---- logs: lnrnn/training/logs.py ----
    dict(name="v352-logs-lr-wrong-key", file=LOGS,
         old='                elif k == "lr":',
         new='                elif k == "learning_rate":',
         tests=[T_PL + "test_tensorboard_gets_the_learning_rate_of_every_row"] + OLD_LOGS,
         why="TensorBoard's learning rate is read from a key the rows do not have: no 'lr' scalar at all"),
]
