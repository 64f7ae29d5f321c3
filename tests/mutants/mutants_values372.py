"""Planted bugs, round 372 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the learning-curve drawing (lnrnn/training/plot.py), lnrnn plot (lnrnn/commands/plot.py), the click
group (lnrnn/cli.py) and lnrnn info (lnrnn/commands/info.py), nineteenth pass: the second run drawn in the first
run's colour; the loss test of panels inverted (the loss drawn under an accuracy label and the accuracy under the
loss's); the loss panels labelled with the --loss-label given in place of each head's own label; the legend's final
validation note written only for runs without one; the per-update rows never drawn;
a wide loss drawn on a 'symlog' axis; the legend's colours shifted one run along; PNGs written at 100 dpi;
updates.jsonl read as a run's records; the runs drawn in sorted order, not the order given; a usage error exiting
1; `lnrnn` alone answered with an error line in place of its help (the NoArgsIsHelpError name misspelt); lnrnn
read left unregistered; lnrnn info opening with numba's version.

14 mutants. Against the old targeted files alone (each mutant's v372 files taken off its list): 10 of 14 caught;
missed: the legend's colours shifted one run along, PNGs at 100 dpi, the runs drawn in sorted order, lnrnn info
opening with numba's version. The old targeted files are the tests/training test_values*_plot files of the drawing, tests/commands
test_plot, test_values173_plot, test_values253_plot, test_values349_plot and test_values131_plot (lnrnn plot),
test_cli_usage_errors, test_values173_cli_errors, test_values283_cli and test_values277_cli (the group), and
test_values_info, test_values143_info, test_values325_info and test_values351_info (lnrnn info). The new value
tests catch every mutant on their own: test_values372_plot (the Figure's own artists against the histories drawn:
eight runs in eight colours with each legend entry the colour of its lines, a classifier's two panels labelled by
METRIC_INFO and LOSS_LABELS' words, the last validation accuracy written out by hand in the legend, each x axis
named and another refused, the per-update rows one thin line of exactly their points, a loss spanning 100 on a
log axis, a PNG's IHDR size against (5.2 * panels + 0.6) x (4.6 + 0.22 * runs) inches at 110 dpi),
test_values372_cli_plot (read_run_curves' records and updates against the files written; lnrnn plot's labels and
its two-panel note in the order given, written out by hand; a bad option one 'Error:' line with exit code 2;
`lnrnn` alone its help without an error; the ten commands listed and each answering --help; info's first line
'lnrnn <version>'). Left out as equivalent or out of reach: info.py's _probe body (s += i: the sum is never
shown); the help strings of predict, read and gradcheck (words only); predict's and read's bodies and gradcheck's
loop need a trained run or compiled gradient checks, too slow for cheap tests here; the grid and line widths of
the drawing (cosmetic); the x check of learning_curve_figure inverted (every call
refused: a crash of every picture more than a slip in a value).

    python tests/mutants/run.py --only 'v372-*'
"""
TPLOT = "lnrnn/training/plot.py"
CPLOT = "lnrnn/commands/plot.py"
CLI = "lnrnn/cli.py"
INFO = "lnrnn/commands/info.py"

T_P = "tests/training/test_values372_plot.py::"
T_C = "tests/commands/test_values372_cli_plot.py::"
OLD_TPLOT = ["tests/training/test_values_plot.py", "tests/training/test_values9_plot.py",
             "tests/training/test_values95_plot.py", "tests/training/test_values222_plot.py",
             "tests/training/test_values323_plot.py", "tests/training/test_values353_plot.py"]
OLD_CPLOT = ["tests/commands/test_plot.py", "tests/commands/test_values173_plot.py",
             "tests/commands/test_values253_plot.py", "tests/commands/test_values349_plot.py",
             "tests/commands/test_values131_plot.py"]
OLD_CLI = ["tests/commands/test_cli_usage_errors.py", "tests/commands/test_values173_cli_errors.py",
           "tests/commands/test_values283_cli.py", "tests/commands/test_values277_cli.py"]
OLD_INFO = ["tests/commands/test_values_info.py", "tests/commands/test_values143_info.py",
            "tests/commands/test_values325_info.py", "tests/commands/test_values351_info.py"]

MUTANTS = [
    # ---- the drawing: lnrnn/training/plot.py ----
    dict(name="v372-trainplot-second-colour-repeated", file=TPLOT,
         old='COLORS = ["#1f77b4", "#d62728",',
         new='COLORS = ["#1f77b4", "#1f77b4",',
         tests=[T_P + "test_eight_runs_eight_colours_and_the_legend_matches_the_lines"] + OLD_TPLOT,
         why="the second run is drawn in the first run's blue: two runs cannot be told apart"),
    dict(name="v372-trainplot-loss-test-inverted", file=TPLOT,
         old='        if m == "loss":',
         new='        if m != "loss":',
         tests=[T_P + "test_a_classifiers_panels_accuracy_then_its_loss"] + OLD_TPLOT,
         why="the accuracy panel gets the loss's label and the loss panel the generic one"),
    dict(name="v372-trainplot-loss-label-wrong-variable", file=TPLOT,
         old="                out.append((m, label, idx))",
         new="                out.append((m, loss_label, idx))",
         tests=[T_P + "test_a_classifiers_panels_accuracy_then_its_loss"] + OLD_TPLOT,
         why="each loss panel is labelled with the --loss-label given (None by default), not its head's loss"),
    dict(name="v372-trainplot-final-note-inverted", file=TPLOT,
         old="    if last is None:",
         new="    if last is not None:",
         tests=[T_P + "test_the_legend_names_the_last_validation_accuracy"] + OLD_TPLOT,
         why="the legend's final validation figure is dropped for every run that has one"),
    dict(name="v372-trainplot-updates-never-drawn", file=TPLOT,
         old="            if upd:",
         new="            if not upd:",
         tests=[T_P + "test_the_updates_are_a_thin_line_of_their_points"] + OLD_TPLOT,
         why="the per-update training metrics (the thin line) are never drawn"),
    dict(name="v372-trainplot-symlog-axis", file=TPLOT,
         old='            ax.set_yscale("log")',
         new='            ax.set_yscale("symlog")',
         tests=[T_P + "test_a_loss_spanning_more_than_twenty_is_on_a_log_axis"] + OLD_TPLOT,
         why="a wide positive loss gets a symlog axis (linear near 0) instead of the documented log axis"),
    dict(name="v372-trainplot-legend-colour-shifted", file=TPLOT,
         old="    handles += [Line2D([], [], color=COLORS[k % len(COLORS)], linewidth=5,",
         new="    handles += [Line2D([], [], color=COLORS[(k + 1) % len(COLORS)], linewidth=5,",
         tests=[T_P + "test_eight_runs_eight_colours_and_the_legend_matches_the_lines"] + OLD_TPLOT,
         why="each legend entry shows the next run's colour: the legend names the wrong lines"),
    dict(name="v372-trainplot-png-dpi-100", file=TPLOT,
         old="fig.savefig(f, format=fmt, dpi=110,",
         new="fig.savefig(f, format=fmt, dpi=100,",
         tests=[T_P + "test_a_png_is_written_at_110_dpi"] + OLD_TPLOT,
         why="PNGs come out at 100 dpi, a tenth smaller than the pictures the project writes"),
    # ---- lnrnn plot: lnrnn/commands/plot.py ----
    dict(name="v372-plotcmd-updates-read-as-records", file=CPLOT,
         old="    path = _log_path(run_dir, METRICS_FILE)",
         new="    path = _log_path(run_dir, UPDATES_FILE)",
         tests=[T_C + "test_records_are_the_metrics_and_updates_the_updates"] + OLD_CPLOT,
         why="a run's per-update rows are drawn as its epochs (and a run without them is refused)"),
    dict(name="v372-plotcmd-runs-sorted", file=CPLOT,
         old="    data = [read_run_curves(r) for r in runs]",
         new="    data = [read_run_curves(r) for r in sorted(runs)]",
         tests=[T_C + "test_plot_keeps_the_runs_in_the_order_given"] + OLD_CPLOT,
         why="the runs are drawn (and named in the note) in sorted order, not the order given"),
    # ---- the group: lnrnn/cli.py ----
    dict(name="v372-cli-usage-error-exit-1", file=CLI,
         old="    short.exit_code = e.exit_code",
         new="    short.exit_code = 1",
         tests=[T_C + "test_a_usage_error_is_one_line_with_exit_code_2"] + OLD_CLI,
         why="a usage error exits 1, like a failed run, not click's 2"),
    dict(name="v372-cli-no-args-name-misspelt", file=CLI,
         old='getattr(click.exceptions, "NoArgsIsHelpError", ())',
         new='getattr(click.exceptions, "NoArgsIsHelp", ())',
         tests=[T_C + "test_lnrnn_alone_is_its_help_not_an_error"] + OLD_CLI,
         why="`lnrnn` alone prints an 'Error:' line holding the help, not the help"),
    dict(name="v372-cli-read-unregistered", file=CLI,
         old="sample_command.sample, predict_command.predict, read_command.read, export_command.export):",
         new="sample_command.sample, predict_command.predict, export_command.export):",
         tests=[T_C + "test_help_lists_the_ten_commands_and_each_answers_its_help"] + OLD_CLI,
         why="lnrnn read is missing from the group: 'No such command'"),
    # ---- lnrnn info: lnrnn/commands/info.py ----
    dict(name="v372-info-version-of-numba", file=INFO,
         old='        f"lnrnn {lnrnn.__version__}",',
         new='        f"lnrnn {numba.__version__}",',
         tests=[T_C + "test_info_opens_with_the_packages_version"] + OLD_INFO,
         why="lnrnn info opens with numba's version under lnrnn's name"),
]
