"""Planted bugs, round 215 (format: tests/mutants/mutants.py): single-line slips, on lines no earlier round mutates, in
the remaining commands and the group: lnrnn info's python line reading the second word of sys.version (the build's
date stamp), its BLAS line left empty when nothing reports a BLAS, its CUDA line asking the LSTM twins about float64
while printing float32; lnrnn predict dropping --batch-size on the way to lnrnn.api.predict and never passing
--quiet to its progress; lnrnn plot telling a folder without metrics.jsonl it has no evaluations yet (testing the
folder instead of the file), drawing the thin line from metrics.jsonl instead of updates.jsonl, and not handing --x
to the drawing; lnrnn gradcheck's stack checks with --input and --hidden swapped, clf and reg on the padded batch,
and the BN refusal of --batch 1 naming --steps; the group's Ctrl-C line without the command, a subcommand's usage
error left with click's usage block, and lnrnn info --help given the list's short line in place of its docstring.

14 mutants. Against the existing targeted tests alone 2 were caught and 12 missed: only the Ctrl-C line and the
subcommand's usage block (test_cli_usage_errors, test_values125_cli) were caught; no old test compares the python line
with platform.python_version(), fakes a BLAS-less environment, asks what the CUDA line's twins were asked, records
what predict hands to the library call or its progress, plots a folder that is not a run, holds the thin line
against updates.jsonl, gives --x to a faked drawing, sets --input apart from --hidden in gradcheck, checks the
lengths of clf and reg, reads the BN refusal word for word, or reads lnrnn info --help against its docstring (the
old lists were run without the baseline, about four minutes). The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values215_info_cli (info_lines against
platform.python_version() and platform.platform(); _blas with threadpoolctl finding no pool and numpy's and scipy's
show_config failing; _cuda_paths with the twins' modules faked, the loop printed against the size and dtype the fake
was asked; Ctrl-C and a bad --x as one exact line; info --help against inspect.getdoc of the command),
test_values215_predict_plot (run, readers, model call and Progress faked to record: --batch-size 2 and -q arrive,
the progress counts the sequences read, --batch-size 0 refused before the run with nothing written; run folders
written here: the Curves' rows against the files written, each --x axis reaching a faked drawing, a folder without
metrics.jsonl refused word for word with the drawing faked to fail), test_values215_gradcheck (the checks faked to
record: I and H as given, no lengths for clf and reg and B + 4 for clf-step, --batch 1 refused for bn-lstm before
any check and accepted for lstm). Dropped as equivalent: export's export_run(run, out, fmt) with 'safetensors' for
fmt (the only choice --format has); the group's short.exit_code = e.exit_code dropped (every click usage error exits
2, a UsageError's own code); info's probe run on fewer indices (the threading layer is chosen by any parallel run).

    python tests/mutants/run.py --only 'v215-*'
"""
INFO = "lnrnn/commands/info.py"
PREDICT = "lnrnn/commands/predict.py"
PLOT = "lnrnn/commands/plot.py"
GRADCHECK = "lnrnn/commands/gradcheck.py"
CLI = "lnrnn/cli.py"

# existing tests of these modules
INFO_OLD = ["tests/commands/test_values_info.py", "tests/commands/test_values37_info.py",
            "tests/commands/test_values143_info.py", "tests/commands/test_values173_info_data.py"]
PREDICT_OLD = ["tests/commands/test_values131_predict.py", "tests/commands/test_values_eval_predict.py",
               "tests/commands/test_values96_commands.py"]
PLOT_OLD = ["tests/commands/test_plot.py", "tests/commands/test_values46_plot_runs.py",
            "tests/commands/test_values69_plot_info.py", "tests/commands/test_values173_plot.py"]
GRADCHECK_OLD = ["tests/commands/test_values96_gradcheck_plan.py", "tests/commands/test_values173_gradcheck_plan.py",
                 "tests/commands/test_values10_gradcheck.py"]
CLI_OLD = ["tests/commands/test_cli_usage_errors.py", "tests/commands/test_values125_cli.py",
           "tests/commands/test_cli.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
INFO_NEW = ["tests/commands/test_values215_info_cli.py"]
PREDICT_NEW = ["tests/commands/test_values215_predict_plot.py"]
PLOT_NEW = PREDICT_NEW
GRADCHECK_NEW = ["tests/commands/test_values215_gradcheck.py"]
CLI_NEW = INFO_NEW

MUTANTS = [
    # ---- lnrnn info: its lines against the libraries' own answers ----
    dict(name="v215-info-python-version-second-word", file=INFO,
         old='f"python {sys.version.split()[0]} ({platform.platform()})"',
         new='f"python {sys.version.split()[1]} ({platform.platform()})"',
         tests=INFO_NEW + INFO_OLD,
         why="the python line shows the build's date stamp ('(main,') instead of the version"),
    dict(name="v215-info-blas-unknown-dropped", file=INFO,
         old='    return lines or ["unknown"]',
         new="    return lines",
         tests=INFO_NEW + INFO_OLD,
         why="with no threadpoolctl pool and no build configuration the BLAS line reads 'BLAS: ' with nothing after"),
    dict(name="v215-info-cuda-lstm-loop-asked-for-float64", file=INFO,
         old="LSTM loop: {lstm_path(128, 'float32')} (H 128, float32)",
         new="LSTM loop: {lstm_path(128, 'float64')} (H 128, float32)",
         tests=INFO_NEW + INFO_OLD,
         why="the CUDA line asks the LSTM twins about float64 but says float32: the loop named may not be the one run"),
    # ---- lnrnn predict: what reaches the library call ----
    dict(name="v215-predict-batch-size-not-handed-on", file=PREDICT,
         old="    preds = predict_run(run, x, batch_size=batch_size, progress=progress)",
         new="    preds = predict_run(run, x, progress=progress)",
         tests=PREDICT_NEW + PREDICT_OLD,
         why="--batch-size is checked and then dropped: every prediction runs in batches of the library's 500"),
    dict(name="v215-predict-progress-never-quiet", file=PREDICT,
         old='    progress = Progress(len(x), "predict", quiet=quiet, unit="sequences")',
         new='    progress = Progress(len(x), "predict", quiet=False, unit="sequences")',
         tests=PREDICT_NEW + PREDICT_OLD,
         why="--quiet does not silence predict's progress on stderr"),
    # ---- lnrnn plot: which file says what, and what reaches the drawing ----
    dict(name="v215-plot-missing-metrics-tested-on-the-folder", file=PLOT,
         old="    if not os.path.isfile(path):\n",
         new="    if not os.path.isdir(run_dir):\n",
         tests=PLOT_NEW + PLOT_OLD,
         why="a folder without metrics.jsonl (not a run) is told it has no evaluations yet, as an empty run is"),
    dict(name="v215-plot-updates-read-from-metrics", file=PLOT,
         old="    upath = _log_path(run_dir, UPDATES_FILE)",
         new="    upath = _log_path(run_dir, METRICS_FILE)",
         tests=PLOT_NEW + PLOT_OLD,
         why="the thin every-K-updates line is drawn from the per-epoch rows; updates.jsonl is never read"),
    dict(name="v215-plot-x-axis-not-handed-on", file=PLOT,
         old="    write_learning_curves(out, data, x=x, title=title)",
         new="    write_learning_curves(out, data, title=title)",
         tests=PLOT_NEW + PLOT_OLD,
         why="--x epoch or time still draws against updates (the picture's default) while the line names the axis"),
    # ---- lnrnn gradcheck: the sizes and lengths each check gets, its refusals ----
    dict(name="v215-gradcheck-stack-input-and-hidden-swapped", file=GRADCHECK,
         old="stack = partial(check_stack, cell, norm, T=T, I=I, H=H,",
         new="stack = partial(check_stack, cell, norm, T=T, I=H, H=I,",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the stack checks run with --input as H and --hidden as I (the model checks the right way round)"),
    dict(name="v215-gradcheck-every-head-on-the-padded-batch", file=GRADCHECK,
         old="            runs.append((mode, partial(model, head, per_step, lengths=lens)))",
         new="            runs.append((mode, partial(model, head, per_step, lengths=lengths)))",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="clf and reg get the padded lengths too: the whole-sequence heads are never checked on full rows"),
    dict(name="v215-gradcheck-bn-batch-refusal-names-steps", file=GRADCHECK,
         old='        raise UserError("--batch must be at least 2 for BN cells (statistics over the batch).")',
         new='        raise UserError("--steps must be at least 2 for BN cells (statistics over the batch).")',
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the refusal of --batch 1 for a BN cell names --steps, which the user did not get wrong"),
    # ---- the group: Ctrl-C, a subcommand's usage error, the command list's help ----
    dict(name="v215-cli-interrupted-without-the-command", file=CLI,
         old='f"interrupted (Ctrl-C): lnrnn {command} stopped; every file',
         new='f"interrupted (Ctrl-C): lnrnn stopped; every file',
         tests=CLI_NEW + CLI_OLD,
         why="Ctrl-C's line no longer says which command stopped"),
    dict(name="v215-cli-subcommand-usage-error-keeps-the-usage-block", file=CLI,
         old="            return super().invoke(ctx)\n        except click.UsageError as e:\n"
             "            raise one_line(e) from None",
         new="            return super().invoke(ctx)\n        except click.UsageError as e:\n"
             "            raise",
         tests=CLI_NEW + CLI_OLD,
         why="a subcommand's bad option value prints click's usage block and 'Try ... for help' instead of one line"),
    dict(name="v215-cli-info-help-replaced-by-its-short-form", file=CLI,
         old='info.info.short_help = "Print versions, threads, BLAS and CUDA status."',
         new='info.info.help = "Print versions, threads, BLAS and CUDA status."',
         tests=CLI_NEW + CLI_OLD,
         why="lnrnn info --help loses its docstring (Numba's threading layer, thread count) for the list's short line"),
]
