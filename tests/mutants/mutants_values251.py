"""Planted bugs, round 251 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in what a run leaves and shows: the run folder (lnrnn/training/rundir.py), the learning curves
(lnrnn/training/plot.py), the progress lines (lnrnn/training/progress.py) and the memory plan
(lnrnn/training/memory.py): --resume without --out under another base refused naming runs/default; the update
log written to metrics.jsonl; an --out under a file refused naming the --out as the file; a picture name given as a
pathlib.Path quoted as PosixPath(...); write_learning_curves dropping --x; the legend's final value of the loss
instead of the first metric, or with its '(%)' kept; a lone epoch beside per-update rows taking the lone-dot x
range; the rate's unit always 'samples'; plain progress lines timed from the start instead of the last line; the
activations counted at the evaluation batch size, or with the cell's row and constant swapped; a refusal's parts
smallest first; the --steps hint put first exactly when it was not asked for.

14 mutants. Against the old targeted files alone (the OLD_* lists): 9 caught; missed were --resume's refusal naming
runs/default, a Path quoted as PosixPath(...), write_learning_curves dropping --x, the per-update x values not
counted, and plain progress lines timed from the start. The new value tests catch every mutant on their own (checked
with the old files taken off the lists): test_values251_rundir (the update log read back from updates.jsonl by name,
cut at the checkpoint's update 9 of 3, 6, 9, 12 and appended after it, nothing else in the folder; the --resume and
file-in-the-way refusals word for word with nothing written), test_values251_plot (the SVG file's own text: the x
label asked for under each panel and the other absent, each run's 'final validation accuracy' at its last val_acc
formatted here; a lone epoch at update 10 beside updates 3, 6, 10 keeping matplotlib's 5% margins around 3 .. 10; a
.jpg pathlib.Path refused as typed, nothing written), test_values251_progress_memory (plain lines on a clock set by
hand at 10, 20 and 31 s of updates at 10, 15, 20, 25, 29, 31 s with log_every 10, the rate in points/s; a two-layer
LSTM's activations at T 7, I 3, H 5, B 3, Be 11, 4 outputs per step written out term by term, with and without
--tbptt 4, in float32 and float64; a refusal of 2 + 5 (+1 not counted) + 3 MB word for word, with and without the
--steps hint).

Left out: lnrnn/training/logs.py (its unmutated lines are the TensorBoard writer, whose events cannot be read back
without the optional tensorboard package, which the test environment lacks; write_csv's remaining lines are its
buffer and atomic write, whose slips crash rather than change a row); read_jsonl's torn-tail break made continue
(equivalent: it is the last line); the cgroup loop's break made continue (equivalent when one cgroup version is
mounted, and the test cannot choose which); RunLock's no-flock paths (they need a file system without flock).
The naming of default folders past 9 and 99 (default_folders, fresh_default) and the update log's cut are
mutated by earlier rounds.

    python tests/mutants/run.py --only 'v251-*'
"""
RUNDIR = "lnrnn/training/rundir.py"
PLOT = "lnrnn/training/plot.py"
PROGRESS = "lnrnn/training/progress.py"
MEMORY = "lnrnn/training/memory.py"

T_RUNDIR = "tests/training/test_values251_rundir.py::"
T_PLOT = "tests/training/test_values251_plot.py::"
T_PM = "tests/training/test_values251_progress_memory.py::"
OLD_RUNDIR = ["tests/training/test_values_rundir.py", "tests/training/test_values91_rundir.py",
              "tests/training/test_values63_rundir.py"]
OLD_PLOT = ["tests/training/test_values222_plot.py", "tests/training/test_values_plot.py"]
OLD_PROGRESS = ["tests/training/test_values95_progress.py", "tests/training/test_values118_progress_memory.py"]
OLD_MEMORY = ["tests/training/test_values157_memory.py", "tests/training/test_values118_progress_memory.py"]

MUTANTS = [
    # ---- the run folder: lnrnn/training/rundir.py ----
    dict(name="v251-rundir-resume-names-default-base", file=RUNDIR,
         old="resumes the newest run under {base}[-N], and there is none",
         new="resumes the newest run under {DEFAULT_OUT}[-N], and there is none",
         tests=[T_RUNDIR + "test_resume_without_runs_names_the_base_asked_for_and_creates_nothing"] + OLD_RUNDIR,
         why="--resume without --out under another base is refused naming runs/default, where nobody looked"),
    dict(name="v251-rundir-update-log-in-metrics-file", file=RUNDIR,
         old="        self.path = os.path.join(out, UPDATES_FILE)",
         new="        self.path = os.path.join(out, METRICS_FILE)",
         tests=[T_RUNDIR + "test_the_update_log_is_updates_jsonl_and_a_resume_appends_after_its_step"] + OLD_RUNDIR,
         why="the per-update rows go to metrics.jsonl, mixed with (and cut along with) the epoch rows"),
    dict(name="v251-rundir-file-in-the-way-names-out", file=RUNDIR,
         old='        raise UserError(f"{what} is a file, not a folder; choose another --out.")',
         new='        raise UserError(f"{out} is a file, not a folder; choose another --out.")',
         tests=[T_RUNDIR + "test_an_out_under_a_file_names_the_file_and_the_out"] + OLD_RUNDIR,
         why="an --out under a file is refused calling the --out itself a file, not the file in its way"),
    # ---- learning curves: lnrnn/training/plot.py ----
    dict(name="v251-plot-refusal-quotes-path-repr", file=PLOT,
         old="(the picture's format), not {str(path)!r}.\")",
         new="(the picture's format), not {path!r}.\")",
         tests=[T_PLOT + "test_a_path_without_a_picture_suffix_is_refused_as_typed"] + OLD_PLOT,
         why="a picture name given as a pathlib.Path is quoted as PosixPath('...') in the refusal"),
    dict(name="v251-plot-write-drops-x", file=PLOT,
         old="    fig = learning_curve_figure(runs, x=x, title=title, loss_label=loss_label)",
         new="    fig = learning_curve_figure(runs, title=title, loss_label=loss_label)",
         tests=[T_PLOT + "test_the_x_axis_asked_for_is_the_one_written"] + OLD_PLOT,
         why="write_learning_curves ignores --x: every file is drawn against updates"),
    dict(name="v251-plot-legend-notes-last-metric", file=PLOT,
         old="label=run.label + _final_note(run, metrics[0]))",
         new="label=run.label + _final_note(run, metrics[-1]))",
         tests=[T_PLOT + "test_the_legend_gives_the_first_metrics_last_validation_value_without_its_percent_sign"]
         + OLD_PLOT,
         why="the legend gives the final validation loss instead of the first metric (accuracy)"),
    dict(name="v251-plot-final-note-keeps-percent", file=PLOT,
         old="    return f\" (final validation {label.replace(' (%)', '')} {value})\"",
         new="    return f\" (final validation {label} {value})\"",
         tests=[T_PLOT + "test_the_legend_gives_the_first_metrics_last_validation_value_without_its_percent_sign"]
         + OLD_PLOT,
         why="the legend reads 'final validation accuracy (%) 75.00%', the percent said twice"),
    dict(name="v251-plot-xs-from-epoch-points", file=PLOT,
         old="            xs |= {p[0] for p in upd}",
         new="            xs |= {p[0] for p in pts}",
         tests=[T_PLOT + "test_one_epoch_beside_update_rows_keeps_the_updates_x_range"] + OLD_PLOT,
         why="the per-update x values are not counted: one epoch beside update rows gets the lone-dot range 0..1.6x"),
    # ---- progress lines: lnrnn/training/progress.py ----
    dict(name="v251-progress-unit-not-kept", file=PROGRESS,
         old="self.width, self.unit = total, label, quiet, width, unit",
         new="self.width, self.unit = total, label, quiet, width, \"samples\"",
         tests=[T_PM + "test_plain_lines_every_log_every_seconds_from_the_last_line"] + OLD_PROGRESS,
         why="the rate is always in samples/s: sampling's points/s is lost"),
    dict(name="v251-progress-plain-line-time-not-kept", file=PROGRESS,
         old="                self.last_draw = now\n                self.stream.write(self.line() + \"\\n\")",
         new="                self.last_draw = self.t0\n                self.stream.write(self.line() + \"\\n\")",
         tests=[T_PM + "test_plain_lines_every_log_every_seconds_from_the_last_line"] + OLD_PROGRESS,
         why="plain lines are timed from the start, not the last line: after log_every every update writes one"),
    # ---- the memory plan: lnrnn/training/memory.py ----
    dict(name="v251-memory-train-rows-eval-batch", file=MEMORY,
         old="    B = cfg.batch_size\n",
         new="    B = cfg.eval_batch_size\n",
         tests=[T_PM + "test_activations_of_a_two_layer_lstm_by_hand"] + OLD_MEMORY,
         why="the activations kept for BPTT are counted at --eval-batch-size rows, not --batch-size"),
    dict(name="v251-memory-activation-row-swapped", file=MEMORY,
         old="    a, c = spec.activations",
         new="    c, a = spec.activations",
         tests=[T_PM + "test_activations_of_a_two_layer_lstm_by_hand"] + OLD_MEMORY,
         why="the cell's kept row is read as constant + units of H swapped: the LSTM's 11 H becomes 11"),
    dict(name="v251-memory-parts-smallest-first", file=MEMORY,
         old="    big = sorted(counted, key=counted.get, reverse=True)",
         new="    big = sorted(counted, key=counted.get)",
         tests=[T_PM + "test_a_refusal_word_for_word_largest_part_first"] + OLD_MEMORY,
         why="a refusal names its parts and hints smallest first"),
    dict(name="v251-memory-steps-hint-inverted", file=MEMORY,
         old="    if steps_option:\n        hints",
         new="    if not steps_option:\n        hints",
         tests=[T_PM + "test_a_refusal_word_for_word_largest_part_first"] + OLD_MEMORY,
         why="the --steps hint is put first when the length did not come from --steps, and not when it did"),
]
