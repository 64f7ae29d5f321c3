"""Planted bugs, round 32 (format: tests/mutants/mutants.py): single-line slips in the small modules with the
fewest mutants per line so far, and in the data preparation and training policies where the catalogue is thin:
the progress bar's rate past a thousand and metrics.csv's line ends (progress.py, logs.py); the shared options'
order, the required --checkpoint of every command that reads a run and the --charset choices (options.py); the
exit codes and the class of the errors the CLI reports (errors.py); the process settings made when the kernels
load (kernels/__init__.py); where Numba caches a function that uses lnrnn (compiling.py: lnrnn's locator first,
a user's locator list naming it, the file name base of a nested function); a prewarm child that cannot start,
and children reaped when an armed block is left normally (prewarm.py); a beam search row no prefix survives
(beam.py); the copy task's labels, the adding task's shape before it is built, a CTC reading task's outputs and
the default run folders numbered past ten (tasks.py, strokes.py, rundir.py).

18 mutants. Against the existing targeted tests alone (the first run, before the new tests were listed) 4 were
caught: CheckpointError no longer a UserError (test_cli's corrupt checkpoint), the kernels' process left
unprepared (test_structure), the copy labels left as input codes 1..8 (the existing task tests) and the default
folders numbered as text (test_values_rundir); 14 were missed: the rate without its thousands separator,
metrics.csv with \r\n line ends, the option stacks applied back to front, --checkpoint optional, --charset
without kana, a diverged run exiting 2, the three compiling slips (brackets kept in a nested function's file
base, lnrnn's locator kept among the inner ones, lnrnn's locator appended after Numba's), a Popen OSError
escaping prewarm, the children not reaped on leaving the armed block, a dead beam row read as log p 0, the adding
shape's default of 50 steps and the CTC head without the blank's output. The new value tests catch every mutant:
test_values32_progress_logs (rates of 999, 1,000, 12,345 and 1,234,567 per second on a stand-in clock; the
bytes of metrics.csv), test_values32_options_errors (train's parameters and --help in the order the stacks are
written; eval, sample, predict, read and export without --checkpoint; the --charset choices against kanjivg's
CHARSETS; UserError, DataError, CheckpointError, TrainingDiverged, TrainingInterrupted and a SIGTERM/SIGINT stop
raised in a command give one Error: line and exit 2, 2, 2, 3, 130, 143, 130; a real missing checkpoint),
test_values32_compiling (a cache=True function of a module that uses lnrnn, at module level and nested: lnrnn's
locator, the BLAS tag in the file name base, _file_base equal to Numba's; a user's NUMBA_CACHE_LOCATOR_CLASSES
naming lnrnn's locator), test_values32_prewarm (Popen raising EAGAIN: no exception, one try per kind; two
children waited for on leaving, the waits counted as compiling), test_values32_beam (a row with a step of -inf
everywhere: no label, log p -inf, the other rows and the row cut before that step as the spec) and
test_values32_tasks (task_shape against the built task for adding, copy and digits at default and given steps and
splits, the adding bytes by hand; a CTC reading task's outputs against its alphabet and the labels of both
splits). No mutant written for this round was dropped; some considered were not written as equivalent or already
caught: rundir's default_folders taking a file for runs/default (it holds no run, so fresh_default is the same),
beam's _width stopping at total > width (min(width, total) is the same), write_csv's repr(v) as str(v) (the same
for floats), prewarm.stop killing a child that has ended (harmless), and the budget note's plural (the existing
tests check both forms).

    python tests/mutants/run.py --only 'v32-*'
"""
PROGRESS = "lnrnn/training/progress.py"
LOGS = "lnrnn/training/logs.py"
OPTIONS = "lnrnn/commands/options.py"
ERRORS = "lnrnn/errors.py"
KERNELS = "lnrnn/kernels/__init__.py"
COMPILING = "lnrnn/compiling.py"
PREWARM = "lnrnn/training/prewarm.py"
BEAM = "lnrnn/model/beam.py"
TASKS = "lnrnn/data/tasks.py"
STROKES = "lnrnn/data/strokes.py"
RUNDIR = "lnrnn/training/rundir.py"

# existing tests of these modules
PROGRESS_OLD = ["tests/training/test_values_progress.py", "tests/training/test_values10_progress.py"]
LOGS_OLD = ["tests/training/test_values_logs.py"]
OPTIONS_OLD = ["tests/commands/test_values_options.py"]
ERRORS_OLD = ["tests/commands/test_cli.py::test_corrupt_checkpoint",
              "tests/training/test_checkpoint.py"]
KERNELS_OLD = ["tests/test_structure.py::test_import_lnrnn_starts_no_threads_and_leaves_the_allocator"]
COMPILING_OLD = ["tests/test_values_compiling.py", "tests/test_values17_compiling.py",
                 "tests/test_values_compiling_stamp.py"]
PREWARM_OLD = ["tests/training/test_prewarm.py::test_a_child_per_kind_of_loop_only_while_armed_and_cold",
               "tests/training/test_prewarm.py::test_no_child_when_cached_or_switched_off",
               "tests/training/test_prewarm.py::test_in_cache_reads_the_loops_index",
               "tests/training/test_prewarm.py::test_the_wait_counts_as_compiling_and_a_hung_child_is_stopped",
               "tests/training/test_prewarm.py::test_an_error_in_the_armed_update_stops_the_children_at_once",
               "tests/training/test_prewarm.py::"
               "test_the_layer_asks_on_training_forwards_that_keep_and_waits_before_backward"]
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values9_beam.py"]
TASKS_OLD = ["tests/data/test_values13_tasks.py", "tests/data/test_values21_tasks.py",
             "tests/data/test_values12_tasks.py", "tests/data/test_data.py::test_adding_and_copy"]
STROKES_OLD = ["tests/data/test_text_strokes.py", "tests/data/test_values12_strokes.py",
               "tests/data/test_values20_strokes.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
PROGRESS_NEW = ["tests/training/test_values32_progress_logs.py::test_the_rate_is_grouped_in_thousands"]
LOGS_NEW = ["tests/training/test_values32_progress_logs.py::test_metrics_csv_lines_end_in_a_bare_newline"]
OPT32 = "tests/commands/test_values32_options_errors.py"
OPTIONS_NEW = [f"{OPT32}::test_shared_option_stacks_keep_their_written_order",
               f"{OPT32}::test_every_command_reading_a_run_requires_its_checkpoint",
               f"{OPT32}::test_charset_offers_the_charsets_kanjivg_reads"]
ERRORS_NEW = [f"{OPT32}::test_each_error_is_one_line_with_its_exit_code",
              f"{OPT32}::test_a_missing_checkpoint_is_one_line_of_exit_2"]
COMPILING_NEW = ["tests/test_values32_compiling.py"]
PREWARM_NEW = ["tests/training/test_values32_prewarm.py"]
BEAM_NEW = ["tests/model/test_values32_beam.py"]
TASKS_NEW = ["tests/data/test_values32_tasks.py::test_the_shape_before_building_is_the_built_tasks",
             "tests/data/test_values32_tasks.py::test_the_adding_tasks_bytes_by_hand",
             "tests/data/test_values32_tasks.py::test_copy_shape_counts_its_blanks_and_symbols"]
STROKES_NEW = ["tests/data/test_values32_tasks.py::"
               "test_a_ctc_reading_task_has_an_output_for_the_blank_and_every_character"]

MUTANTS = [
    # ---- progress and logs: the values of the lines and files ----
    dict(name="v32-progress-rate-without-thousands", file=PROGRESS,
         old='parts.append(f"{rate:,.0f} {self.unit}/s")',
         new='parts.append(f"{rate:.0f} {self.unit}/s")',
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="the rate loses its thousands separator: 12345 samples/s where the bar says 12,345"),
    dict(name="v32-logs-csv-crlf", file=LOGS,
         old='w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\\n")',
         new='w = csv.DictWriter(buf, fieldnames=columns)',
         tests=LOGS_NEW + LOGS_OLD,
         why="metrics.csv takes the csv module's default \\r\\n line ends: every cell of the last column ends in a "
             "stray \\r for line tools (cut, awk, paste beside metrics.jsonl)"),
    # ---- shared options ----
    dict(name="v32-options-stack-reversed", file=OPTIONS,
         old="        for d in reversed(decorators):\n",
         new="        for d in decorators:\n",
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="a stack of shared options is applied front to back: --help lists each group backwards (--allow-pickle "
             "before --task, --dtype before --cell)"),
    dict(name="v32-options-checkpoint-optional", file=OPTIONS,
         old='"--checkpoint", "path", required=True,',
         new='"--checkpoint", "path", required=False,',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="eval, sample, predict, read and export run without --checkpoint: a path of None where click's "
             "'Missing option' belongs"),
    dict(name="v32-options-charset-without-kana", file=OPTIONS,
         old='type=click.Choice(["latin", "kana", "kanji"])',
         new='type=click.Choice(["latin", "kanji"])',
         tests=OPTIONS_NEW + OPTIONS_OLD,
         why="--charset refuses kana, a charset strokes-kanjivg reads"),
    # ---- errors: the exit codes the CLI reports ----
    dict(name="v32-errors-diverged-exits-2", file=ERRORS,
         old="    exit_code = 3\n",
         new="",
         tests=ERRORS_NEW + ERRORS_OLD,
         why="a diverged run exits 2 like a usage error, where the docs promise 3 (scripts tell them apart)"),
    dict(name="v32-errors-checkpoint-error-not-a-user-error", file=ERRORS,
         old="class CheckpointError(UserError):",
         new="class CheckpointError(ValueError):",
         tests=ERRORS_NEW + ERRORS_OLD,
         why="a missing or corrupt checkpoint escapes the CLI's handler: a traceback instead of one Error: line"),
    # ---- kernels: the process settings made on import ----
    dict(name="v32-kernels-process-not-prepared", file=KERNELS,
         old="\nprepare_process()\n",
         new="\n",
         tests=KERNELS_OLD,
         why="importing the kernels leaves Numba's threading layer to whichever call starts it first (active "
             "OpenMP waiting) and the allocator untuned"),
    # ---- compiling: the cache's locator and file names ----
    dict(name="v32-compiling-file-base-keeps-brackets", file=COMPILING,
         old='    full = f"{stem}.{py_func.__qualname__}".replace("<", "").replace(">", "")\n',
         new='    full = f"{stem}.{py_func.__qualname__}"\n',
         tests=COMPILING_NEW + COMPILING_OLD,
         why="the index checked before Numba reads it is named with <locals> where Numba's has locals: a nested "
             "kernel's damaged index is never found nor dropped"),
    dict(name="v32-compiling-user-locator-list-keeps-ours", file=COMPILING,
         old='if n.strip() and n.strip() != _OURS]',
         new='if n.strip()]',
         tests=COMPILING_NEW + COMPILING_OLD,
         why="with NUMBA_CACHE_LOCATOR_CLASSES set, lnrnn's locator asks itself for the inner locator: endless "
             "recursion when a function is decorated"),
    dict(name="v32-compiling-locator-last", file=COMPILING,
         old="        _CACHE_IMPL._locator_classes.insert(0, KernelCacheLocator)",
         new="        _CACHE_IMPL._locator_classes.append(KernelCacheLocator)",
         tests=COMPILING_NEW + COMPILING_OLD,
         why="Numba's own locators come first and always answer: lnrnn's kernels are cached without the BLAS "
             "choice in their names (a kernel compiled against MKL loaded where MKL is not: SIGSEGV)"),
    # ---- prewarm: a child that cannot start, children reaped ----
    dict(name="v32-prewarm-popen-error-escapes", file=PREWARM,
         old="    except OSError:  # no child: this process compiles the loop itself",
         new="    except ValueError:  # no child: this process compiles the loop itself",
         tests=PREWARM_NEW + PREWARM_OLD,
         why="a child that cannot be started (no memory for fork, a process limit) fails the first update instead "
             "of leaving the loop to this process"),
    dict(name="v32-prewarm-children-not-reaped-on-leaving", file=PREWARM,
         old="    wait()\n\n\ndef _in_cache(fn):",
         new="    pass\n\n\ndef _in_cache(fn):",
         tests=PREWARM_NEW + PREWARM_OLD,
         why="an armed update that ends normally without a backward (evaluation only, a forward that failed to "
             "need one) leaves its children unreaped and still running past the first update"),
    # ---- beam search: a row with no prefix ----
    dict(name="v32-beam-dead-row-log-p-zero", file=BEAM,
         old="            label_lengths[b], logq[b] = 0, NINF\n",
         new="            label_lengths[b], logq[b] = 0, 0.0\n",
         tests=BEAM_NEW + BEAM_OLD,
         why="a row that no prefix survives (a step of probability 0 everywhere) reads as the empty label with "
             "probability 1"),
    # ---- data preparation: labels, class counts, default folders ----
    dict(name="v32-tasks-copy-labels-unshifted", file=TASKS,
         old="    y[:, T - K:] = symbols - 1                   # classes 0..7 on the last K steps",
         new="    y[:, T - K:] = symbols                       # classes 0..7 on the last K steps",
         tests=TASKS_NEW + TASKS_OLD,
         why="the copy task's labels are the input codes 1..8, not classes 0..7: class 8 is past the head's 8"),
    dict(name="v32-tasks-adding-shape-default-steps", file=TASKS,
         old='    T = default if spec.get("steps") is None else int(spec["steps"])',
         new='    T = int(spec.get("steps") or default)',
         tests=["tests/data/test_values32_tasks.py::test_steps_below_the_least_are_refused_zero_included"] + TASKS_NEW
         + TASKS_OLD,
         why="--steps 0 taken for 'not given': the synthetic tasks build their default length instead of refusing "
             "it as they refuse -1 (the shape and the build read their default in one place, so they can no longer "
             "disagree, as this mutant first planted)"),
    dict(name="v32-strokes-ctc-head-without-blank", file=STROKES,
         old='return {"kind": "ctc", "outputs": len(self.alphabet) + CTC_SHIFT,',
         new='return {"kind": "ctc", "outputs": len(self.alphabet),',
         tests=STROKES_NEW + STROKES_OLD,
         why="the CTC head has one output per character and none for the blank: the last character of the "
             "alphabet has no class"),
    dict(name="v32-rundir-default-numbers-as-text", file=RUNDIR,
         old="            found.append((int(m.group(1)), p))",
         new="            found.append((m.group(1), p))",
         tests=RUNDIR_OLD,
         why="default folders numbered as text: runs/default-10 sorts before default-2, and fresh_default "
             "takes a numbered folder that holds a run"),
]
