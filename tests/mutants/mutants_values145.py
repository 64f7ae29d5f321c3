"""Planted bugs, round 145 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the learning-curve figure, the progress bar, fine-tuning's refusals, the run lock and the
diagnostics: the log-axis choice without the per-update rows, a one-epoch panel's lone dots named by the other
split, a panel's title taken from its unit, the legend's per-update entry only when every run has such rows,
the final note quoting the last metric (the loss) instead of the first, the one-x range read from the y
values, an infinite value counted in the span, a run given as a tuple losing its update rows; a finished
bar's time counted from its last line, a terminal's redraws not spaced min_interval apart, the compile note
spoken with no compilation under way; a shape refusal quoting this run's value as the checkpoint's, a
boolean's on/off swapped; a stale lock's takeover note with host and start swapped; per_step's BatchNorm
replay moving the model's own float64 running statistics.

15 mutants. Against the existing targeted tests alone 9 were caught and 6 missed: the log axis without the
update rows (no old test gives update rows a wider span than the epoch means), the panel title from the unit
(no old test reads a title), the infinite value in the span (the figure drops non-finite points before the
check, and no old test calls use_log_scale with one), the tuple run's update rows (old tuple runs carry none),
the compile note whatever the clock (no old test fires the timer) and the BN buffers handed over uncopied (no
old test runs per_step on a BatchNorm model). The new value tests catch every mutant on their own (checked
with the old tests taken off the lists): test_values145_plot (each line's x and y values against the records
written to metrics.jsonl / updates.jsonl and read back, the log-axis choice against the spans computed here,
use_log_scale on finite and infinite values, the lone dots' texts, x range and titles by hand, the legend's
texts against the metric's name and value formatted here), test_values145_progress (a plain line's rate, ETA
and bar and the finished time from a patched clock, computed by hand; a terminal's redraw times against the
min_interval rule replayed here; the compile timer fired by hand for busy, idle and quiet),
test_values145_finetune_lock (check_settings' message against the checkpoint's and the run's values, on/off
for a boolean; the takeover note against the lock file written here), test_values145_diagnostics (a BN-LSTM's
and BN-RNN's running statistics element for element before and after per_step). Dropped as equivalent:
write_csv's repr of a float (str and repr of a float agree) and the lone-x range's max as min (one x: they
agree). Also left out: the IndexError taken off _holder's except (every acquire of a fresh lock file reads its
empty text through it, so every test that takes a lock fails at once).

    python tests/mutants/run.py --only 'v145-*'
"""
PLOT = "lnrnn/training/plot.py"
PROGRESS = "lnrnn/training/progress.py"
FINETUNE = "lnrnn/training/finetune.py"
RUNDIR = "lnrnn/training/rundir.py"
DIAG = "lnrnn/diagnostics.py"

NEW_PLOT = ["tests/training/test_values145_plot.py"]
NEW_PROGRESS = ["tests/training/test_values145_progress.py"]
NEW_FINETUNE = ["tests/training/test_values145_finetune_lock.py"]
NEW_DIAG = ["tests/test_values145_diagnostics.py"]

OLD_PLOT = ["tests/training/test_values118_plot.py", "tests/training/test_values95_plot.py",
            "tests/training/test_values34_plot.py", "tests/training/test_values20_plot.py",
            "tests/training/test_values9_plot.py", "tests/training/test_values_plot.py", "tests/commands/test_plot.py"]
OLD_PROGRESS = ["tests/training/test_values70_progress.py", "tests/training/test_values10_progress.py",
                "tests/training/test_values_progress.py", "tests/training/test_values32_progress_logs.py"]
OLD_FINETUNE = ["tests/training/test_values118_finetune.py", "tests/training/test_values95_finetune.py",
                "tests/training/test_values63_finetune.py", "tests/training/test_values14_finetune.py",
                "tests/training/test_values_finetune.py", "tests/training/test_finetune.py"]
OLD_RUNDIR = ["tests/training/test_values116_rundir.py", "tests/training/test_values91_rundir.py",
              "tests/training/test_values63_rundir.py", "tests/training/test_values40_rundir.py",
              "tests/training/test_values15_rundir.py", "tests/training/test_values_rundir.py"]
OLD_DIAG = ["tests/test_values96_diagnostics.py", "tests/test_values70_diagnostics.py",
            "tests/test_values37_diagnostics.py", "tests/test_values21_diagnostics.py", "tests/test_diagnostics.py",
            "tests/test_values_diagnostics.py"]

MUTANTS = [
    # ---- the learning-curve figure ----
    dict(name="v145-plot-log-scale-ignores-the-update-rows", file=PLOT,
         old="            seen += [p[1] for p in upd]\n",
         new="",
         tests=NEW_PLOT + OLD_PLOT,
         why="the log-axis choice reads the epoch means only: a loss whose per-update rows span 100x but whose "
             "epoch means span 3x is drawn on a linear axis"),
    dict(name="v145-plot-lone-dot-names-swapped", file=PLOT,
         old='name = "validation" if split == "val" else "training"',
         new='name = "training" if split == "val" else "validation"',
         tests=NEW_PLOT + OLD_PLOT,
         why="a one-epoch run's lone dots carry each other's name: the validation value is labelled training"),
    dict(name="v145-plot-title-from-the-units", file=PLOT,
         old='ax.set_title(ylabel.replace(" (%)", "").split(" (")[0], fontsize=11)',
         new='ax.set_title(ylabel.replace(" (%)", "").split(" (")[-1], fontsize=11)',
         tests=NEW_PLOT + OLD_PLOT,
         why="a panel's title is the unit in its label's brackets ('nats)') instead of the quantity's name"),
    dict(name="v145-plot-updates-legend-only-when-every-run-has-them", file=PLOT,
         old="    if any(run.updates for run in runs):\n",
         new="    if all(run.updates for run in runs):\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="the legend's 'training (every few updates)' entry is left out when one run of two has no "
             "per-update rows, though the other's thin line is drawn"),
    dict(name="v145-plot-final-note-of-the-last-metric", file=PLOT,
         old="label=run.label + _final_note(run, metrics[0]))",
         new="label=run.label + _final_note(run, metrics[-1]))",
         tests=NEW_PLOT + OLD_PLOT,
         why="each run's legend entry quotes its final validation loss (metric_names puts loss last) instead "
             "of the first metric, the accuracy"),
    dict(name="v145-plot-x-range-from-the-y-values", file=PLOT,
         old="                xs |= {p[0] for p in pts}\n",
         new="                xs |= {p[1] for p in pts}\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="the x values gathered for the one-x range are the y values: a one-epoch panel's x axis runs "
             "from 0 to 1.6 times the metric's value instead of past the lone x"),
    dict(name="v145-plot-infinite-loss-counts-for-the-span", file=PLOT,
         old="    vals = [v for v in values if math.isfinite(v)]\n",
         new="    vals = [v for v in values if not math.isnan(v)]\n",
         tests=NEW_PLOT + OLD_PLOT,
         why="an infinite value (a diverged update) enters the span check: any loss with one inf row goes "
             "to a log axis"),
    dict(name="v145-plot-tuple-runs-lose-their-updates", file=PLOT,
         old="list(run[2]) if len(run) > 2 else []",
         new="list(run[2]) if len(run) > 3 else []",
         tests=NEW_PLOT + OLD_PLOT,
         why="a run given as (label, records, updates) is read without its per-update rows"),
    # ---- progress ----
    dict(name="v145-progress-elapsed-since-the-last-line", file=PROGRESS,
         old="            parts.append(f\"{format_seconds(time.perf_counter() - self.t0)}\")",
         new="            parts.append(f\"{format_seconds(time.perf_counter() - self.last_draw)}\")",
         tests=NEW_PROGRESS + OLD_PROGRESS,
         why="a finished bar's time is counted from its last drawn line instead of from its start"),
    dict(name="v145-progress-tty-redraws-every-update", file=PROGRESS,
         old="            self.last_draw = now\n            self.stream.write(\"\\r\"",
         new="            self.stream.write(\"\\r\"",
         tests=NEW_PROGRESS + OLD_PROGRESS,
         why="on a terminal the time of the last redraw is never kept: after the first, every update redraws"),
    dict(name="v145-progress-compile-note-whatever-the-clock", file=PROGRESS,
         old="        if clock.busy and not quiet:",
         new="        if not quiet:",
         tests=NEW_PROGRESS + OLD_PROGRESS,
         why="'Compiling kernels...' is printed when the timer fires even though no compilation is under way"),
    # ---- fine-tuning and the run lock ----
    dict(name="v145-finetune-refusal-swaps-checkpoint-and-run", file=FINETUNE,
         old='its model has {what} {theirs}, this run {ours};',
         new='its model has {what} {ours}, this run {theirs};',
         tests=NEW_FINETUNE + OLD_FINETUNE,
         why="a shape refusal quotes this run's setting as the checkpoint's and the checkpoint's as this run's"),
    dict(name="v145-finetune-on-off-swapped", file=FINETUNE,
         old='{True: "on", False: "off"}',
         new='{True: "off", False: "on"}',
         tests=NEW_FINETUNE + OLD_FINETUNE,
         why="a boolean setting's refusal says 'off' for True: 'give --bidirectional off' for a bidirectional "
             "checkpoint"),
    dict(name="v145-rundir-takeover-note-host-and-start-swapped", file=RUNDIR,
         old="(pid {pid} on \"\n                         f\"host {host}, started {started}).\")",
         new="(pid {pid} on \"\n                         f\"host {started}, started {host}).\")",
         tests=NEW_FINETUNE + OLD_RUNDIR,
         why="taking over a stale lock names the dead run's start time as its host and its host as its start"),
    # ---- diagnostics ----
    dict(name="v145-diagnostics-bn-buffers-not-copied", file=DIAG,
         old="bufs = {k: np.array(v, np.float64) for k, v in layer.buffers.items()}",
         new="bufs = {k: np.asarray(v, np.float64) for k, v in layer.buffers.items()}",
         tests=NEW_DIAG + OLD_DIAG,
         why="a float64 BN layer's running statistics are handed to the training-mode replay as they are: "
             "per_step moves the model's running means and variances"),
]
