"""Planted bugs, round 185 (format: tests/mutants/mutants.py): single-line slips on lines of the training
side's plots, run folder, logs, memory plan and evaluation that no earlier catalogue touches: the loss axis
turning logarithmic at a span of 10, each run's lines drawn in the next run's colour, the y axis labelled with the
metric's key, a lone point at x = 0 given the empty range (0, 0), a legend as many columns wide as it has handles,
a metric's panel listing runs that never logged it; a stale lock's new line written after the old text's end
(NUL bytes first), UpdateLog.close leaving the closed file for a later sync; TensorBoard scalars leaving out
int values and placed at the epoch instead of the update; format_bytes' KB of 1000 bytes, the parameter part
without layer 0; split_arrays looking for an 'optimizer/' prefix, evaluate reading the validation split whatever
it is asked.

14 mutants. Against the existing targeted tests alone (the two to four most direct files per module, in the
*_OLD lists) 9 were caught and 5 missed: the runs' colours (no old test matched a line to its legend patch), the
lone point at x = 0 (the old one-epoch test had x > 0), the legend's column count, a sync after UpdateLog.close,
and int values in the TensorBoard scalars (the old stand-in test gave floats only). The new value tests catch
every mutant on their own (checked with the old tests taken off the lists): test_values185_plot (records written
to metrics.jsonl and read back, the figure read through matplotlib's objects: the log axis by the definition
max/min > 20 at spans 15 and 25, each line matched to its run by its data and its colour compared with that run's
legend patch, the y labels, the x range (0, 1) at x 0 and (0, 8) at x 5, the legend's columns min(3, handles),
panels' members by hand), test_values185_rundir (a stale lock's file holds exactly one line: this pid, this host,
a parsable start time; rows read back and a sync and close after close), test_values185_logs (a stand-in
tensorboard package, the events written out by hand), test_values185_memory (a hand count of every weight of a
one- and a three-layer LSTM at I 3, H 5 times the arrays Adam really allocates on a step; KB as n // 1024),
test_values185_evaluation (split_arrays by hand; a stand-in task and model, the mean squared error over the
whole split in NumPy and the batches' rows, 4 at a time with a partial last one). Dropped as equivalent:
1.6 * min(xs) for max(xs) in the lone-x range (there is one x, so both are the same).

    python tests/mutants/run.py --only 'v185-*'
"""
PLOT = "lnrnn/training/plot.py"
RUNDIR = "lnrnn/training/rundir.py"
LOGS = "lnrnn/training/logs.py"
MEMORY = "lnrnn/training/memory.py"
EVAL = "lnrnn/training/evaluation.py"

# existing tests of these modules (the most direct ones)
PLOT_OLD = ["tests/training/test_values_plot.py", "tests/training/test_values145_plot.py",
            "tests/training/test_values118_plot.py", "tests/commands/test_plot.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values116_rundir.py",
              "tests/training/test_values145_finetune_lock.py", "tests/training/test_values91_rundir.py"]
LOGS_OLD = ["tests/training/test_values_logs.py", "tests/training/test_values157_evaluation_logs.py"]
MEMORY_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values157_memory.py",
              "tests/training/test_values118_progress_memory.py", "tests/training/test_values95_memory.py"]
EVAL_OLD = ["tests/training/test_values_evaluation.py", "tests/training/test_values157_evaluation_logs.py",
            "tests/training/test_values130_evaluation.py", "tests/training/test_values64_evaluation.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
PLOT_NEW = ["tests/training/test_values185_plot.py"]
RUNDIR_NEW = ["tests/training/test_values185_rundir.py"]
LOGS_NEW = ["tests/training/test_values185_logs.py"]
MEMORY_NEW = ["tests/training/test_values185_memory.py"]
EVAL_NEW = ["tests/training/test_values185_evaluation.py"]

MUTANTS = [
    # ---- plot.py: the log-axis threshold, run colours, y labels, a lone x at 0, legend columns, panel members ----
    dict(name="v185-plot-log-span-ten", file=PLOT,
         old="LOG_SPAN = 20.0   #", new="LOG_SPAN = 10.0   #",
         tests=PLOT_NEW + PLOT_OLD,
         why="the loss axis turns logarithmic at a span of 10 instead of the documented 20: a loss from 1.5 to "
             "0.1 (a factor of 15) is drawn on a log axis"),
    dict(name="v185-plot-run-colour-shifted", file=PLOT,
         old="            color = COLORS[k % len(COLORS)]\n",
         new="            color = COLORS[(k + 1) % len(COLORS)]\n",
         tests=PLOT_NEW + PLOT_OLD,
         why="each run's lines take the next run's colour while its legend patch keeps its own: the legend names "
             "the wrong curves"),
    dict(name="v185-plot-ylabel-is-the-metric-key", file=PLOT,
         old="        ax.set_ylabel(ylabel)", new="        ax.set_ylabel(m)",
         tests=PLOT_NEW + PLOT_OLD,
         why="the y axis is labelled with the metric's key (loss, acc) instead of what it measures (cross-entropy "
             "loss (nats), accuracy (%))"),
    dict(name="v185-plot-lone-x-at-zero-empty-range", file=PLOT,
         old="ax.set_xlim(0, 1.6 * max(xs) if max(xs) > 0 else 1)",
         new="ax.set_xlim(0, 1.6 * max(xs) if max(xs) >= 0 else 1)",
         tests=PLOT_NEW + PLOT_OLD,
         why="a panel whose one x is 0 gets the empty range (0, 0), which matplotlib widens to a sliver around 0 "
             "instead of (0, 1)"),
    dict(name="v185-plot-legend-columns-max", file=PLOT,
         old="ncol=min(3, len(handles))", new="ncol=max(3, len(handles))",
         tests=PLOT_NEW + PLOT_OLD,
         why="the legend lays every handle in one row (as many columns as handles) instead of at most three"),
    dict(name="v185-plot-panel-members-ignore-the-metric", file=PLOT,
         old="[k for k, run in enumerate(runs) if _has(run, m)]", new="[k for k, run in enumerate(runs)]",
         tests=PLOT_NEW + PLOT_OLD,
         why="a metric's panel lists every run, also the ones that never logged the metric (a density run in "
             "the accuracy panel)"),
    # ---- rundir.py: the lock's own line, the update log after close ----
    dict(name="v185-lock-line-after-the-old-text", file=RUNDIR,
         old="os.lseek(fd, 0, os.SEEK_SET)", new="os.lseek(fd, 0, os.SEEK_END)",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="taking over a stale lock writes the new holder's line at the old text's end after truncating: "
             "the file starts with NUL bytes and its holder reads as no pid"),
    dict(name="v185-updatelog-close-keeps-the-file", file=RUNDIR,
         old="            self.f.close()\n            self.f = None\n",
         new="            self.f.close()\n",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="UpdateLog.close leaves the closed file in place: a sync after close (the last checkpoint of a "
             "run that ended) fsyncs a closed file and raises ValueError"),
    # ---- logs.py: TensorBoard scalars ----
    dict(name="v185-tensorboard-int-values-dropped", file=LOGS,
         old="isinstance(v, (int, float))", new="isinstance(v, float)",
         tests=LOGS_NEW + LOGS_OLD,
         why="a metric that JSON gave back as an int (a loss of exactly 0 or 2) is left out of the scalars"),
    dict(name="v185-tensorboard-step-from-epoch", file=LOGS,
         old="step=int(r[\"step\"])", new="step=int(r[\"epoch\"])",
         tests=LOGS_NEW + LOGS_OLD,
         why="the scalars are placed at the row's epoch, not its update: every row of one epoch lands on one x"),
    # ---- memory.py: the KB unit, the layers counted ----
    dict(name="v185-format-bytes-kilobyte-is-1000", file=MEMORY,
         old="max(n, 0) / (1 << 10)", new="max(n, 0) / 1000",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="amounts under a megabyte are shown in thousands of bytes while the larger units are powers of 1024"),
    dict(name="v185-estimate-layers-from-one", file=MEMORY,
         old="    params += D * (first + (L - 1) * later)", new="    params += D * (L - 1) * later",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="the first layer's parameters (the ones reading the input) are left out of the parameter part"),
    # ---- evaluation.py: optimizer slots, the split evaluated ----
    dict(name="v185-split-arrays-optimizer-prefix", file=EVAL,
         old="elif kind == \"optim\":", new="elif kind == \"optimizer\":",
         tests=EVAL_NEW + EVAL_OLD,
         why="split_arrays looks for the wrong prefix: a checkpoint's optimizer slots are dropped and resuming "
             "restarts Adam's moments from zero"),
    dict(name="v185-task-batch-always-validation", file=EVAL,
         old="b = task.batch(which, idx, dtype)", new="b = task.batch(\"val\", idx, dtype)",
         tests=EVAL_NEW + EVAL_OLD,
         why="evaluate(which='test') scores the validation rows (with the test split's count of rows)"),
]
