"""Planted bugs, round 283 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the settings (lnrnn/config.py), the run configuration (lnrnn/training/runconfig.py), the logs for
other tools (lnrnn/training/logs.py), the learning curves (lnrnn/training/plot.py, lnrnn/commands/plot.py) and the
CLI's top level (lnrnn/cli.py): a strokes task's stack 3 x 256 instead of Graves's 3 x 400; every run
bidirectional by default; a .json config read as TOML and a .toml one as JSON; a file that is not TOML refused as
not valid JSON; metrics.csv losing its first row; TensorBoard tags metric/split instead of split/metric; the
learning rate tagged train/lr; accuracy drawn as a fraction and the loss times 100; the epoch curves always
drawn against updates whatever --x asks; two x's drawn on the lone-x axis from 0; a density head's loss labelled
in nats per line; a folder without metrics.jsonl refused as having no updates.jsonl; the picture's title taken
from every run but the first; `lnrnn info` left out of the command group.

14 mutants. Against the old targeted files alone: 6 of 14 caught (missed: strokes stacks of 3 x 256, every run
bidirectional by default, a bad .toml refused as JSON, epoch curves always against updates, two evaluations given
the lone dot's axis, the MDN loss per line, a missing metrics.jsonl named as updates.jsonl, lnrnn info left out of
the group). The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values283_runconfig (a .json and a .toml file read back key by key; 'hidden = ' refused word for word with
tomllib's own complaint worked out in the test; --bidirectional off unless given, per docs/commands.md; strokes
tasks 3 x 400 skip-connected per the README, others 1 x 64), test_values283_logs (metrics.csv of three rows against
its text written out by hand, an empty cell where a row lacks a column; TensorBoard events through
test_values_logs's stand-in package, tags and steps of two rows), test_values283_plot (the figure's line data read
back: accuracy 100 x the fractions and the loss as written over a non-monotonic history, x = updates, epochs and
seconds; a lone x from 0 to 1.6 x 24, two x's with matplotlib's own limits; the mdn loss axis 'negative
log-likelihood (nats per point)', the README's unit), test_values283_cli (`lnrnn --help` listing the ten commands of
the README's table, --version against the installed package's metadata; a folder without metrics.jsonl refused word
for word with no picture written; the title written out by hand when both runs share a config.json, and 'learning
curves' when the first or the second differs or the first has none). Left out as equivalent: one_line's
`short.exit_code = e.exit_code` dropped (a UsageError's own exit code is 2, the same); `if ext == ".json"` made `ext
!= ".toml"` (only the two suffixes get that far); the TensorBoard event's flush dropped (the stand-in writer and the
real one both write on close). Left out as a crash rather than a value: loss_kinds' enumerate(runs, 1) (the last
run's index is out of range). Left out as too costly for a cheap test: `lnrnn info`'s version line (info_lines
compiles a parallel probe and asks every BLAS for its configuration).

    python tests/mutants/run.py --only 'v283-*'
"""
CONFIG = "lnrnn/config.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
LOGS = "lnrnn/training/logs.py"
PLOT = "lnrnn/training/plot.py"
CMD_PLOT = "lnrnn/commands/plot.py"
CLI = "lnrnn/cli.py"

T_RC = "tests/training/test_values283_runconfig.py::"
T_LOGS = "tests/training/test_values283_logs.py::"
T_PLOT = "tests/training/test_values283_plot.py::"
T_CLI = "tests/commands/test_values283_cli.py::"
OLD_RC = ["tests/training/test_values266_runconfig.py", "tests/training/test_values209_runconfig.py",
          "tests/training/test_values_runconfig.py", "tests/test_values186_config.py"]
OLD_LOGS = ["tests/training/test_values_logs.py", "tests/training/test_values185_logs.py"]
OLD_PLOT = ["tests/training/test_values266_plot.py", "tests/training/test_values251_plot.py",
            "tests/training/test_values222_plot.py"]
OLD_CLI = ["tests/commands/test_plot.py", "tests/commands/test_values173_plot.py",
           "tests/commands/test_values173_cli_errors.py"]

MUTANTS = [
    # ---- settings and run configuration ----
    dict(name="v283-config-strokes-hidden-256", file=CONFIG,
         old='TASK_DEFAULTS = {"strokes": dict(hidden=400, layers=3, skip=True, eval_batch_size=32),',
         new='TASK_DEFAULTS = {"strokes": dict(hidden=256, layers=3, skip=True, eval_batch_size=32),',
         tests=[T_RC + "test_task_defaults_are_the_documented_stacks"] + OLD_RC,
         why="a strokes task's default stack is 3 x 256, not Graves's 3 x 400 the README documents"),
    dict(name="v283-runconfig-bidirectional-by-default", file=RUNCONFIG,
         old="    bidirectional: bool = False ",
         new="    bidirectional: bool = True ",
         tests=[T_RC + "test_bidirectional_is_off_unless_asked_for"] + OLD_RC,
         why="every run reads its sequences both ways unless told otherwise: --bidirectional can no longer be "
             "left off"),
    dict(name="v283-runconfig-parsers-swapped", file=RUNCONFIG,
         old='    if ext == ".json":',
         new='    if ext == ".toml":',
         tests=[T_RC + "test_a_json_file_is_read_as_json_key_by_key",
                T_RC + "test_a_toml_file_is_read_as_toml_key_by_key"] + OLD_RC,
         why="a .json config goes through the TOML parser and a .toml one through JSON: both are refused"),
    dict(name="v283-runconfig-toml-refusal-says-json", file=RUNCONFIG,
         old='raise UserError(f"--config {path} is not valid TOML ({e}).") from None',
         new='raise UserError(f"--config {path} is not valid JSON ({e}).") from None',
         tests=[T_RC + "test_a_file_that_is_not_toml_is_refused_naming_toml"] + OLD_RC,
         why="a .toml file that is not TOML is refused as not valid JSON"),
    # ---- logs for other tools ----
    dict(name="v283-logs-csv-first-row-dropped", file=LOGS,
         old="    for r in rows:\n        w.writerow(",
         new="    for r in rows[1:]:\n        w.writerow(",
         tests=[T_LOGS + "test_csv_holds_every_row_under_the_columns_of_first_appearance"] + OLD_LOGS,
         why="metrics.csv has its header but not the first evaluation's row"),
    dict(name="v283-logs-tb-tag-metric-first", file=LOGS,
         old='tag=f"{split}/{m}"',
         new='tag=f"{m}/{split}"',
         tests=[T_LOGS + "test_tensorboard_tags_and_steps_of_each_row"] + OLD_LOGS,
         why="TensorBoard scalars tagged loss/val instead of val/loss: TensorBoard groups by metric, not split"),
    dict(name="v283-logs-tb-lr-tagged-train", file=LOGS,
         old='tag="lr", simple_value',
         new='tag="train/lr", simple_value',
         tests=[T_LOGS + "test_tensorboard_tags_and_steps_of_each_row"] + OLD_LOGS,
         why="the learning rate's scalar is tagged train/lr, among the training metrics, not lr"),
    # ---- learning curves ----
    dict(name="v283-plot-percent-scale-inverted", file=PLOT,
         old="        scale = 100.0 if percent else 1.0",
         new="        scale = 1.0 if percent else 100.0",
         tests=[T_PLOT + "test_the_curves_are_the_history_in_percent_and_as_written"] + OLD_PLOT,
         why="accuracy is drawn as a fraction on its percent axis, and the loss 100 times too large"),
    dict(name="v283-plot-records-against-updates-always", file=PLOT,
         old='pts = _points(run.records, x, f"{split}_{m}", scale)',
         new='pts = _points(run.records, "step", f"{split}_{m}", scale)',
         tests=[T_PLOT + "test_the_curves_are_the_history_in_percent_and_as_written"] + OLD_PLOT,
         why="the epoch curves are drawn against updates whatever --x asks (the axis says epoch)"),
    dict(name="v283-plot-lone-x-range-for-two", file=PLOT,
         old="        if len(xs) == 1:",
         new="        if len(xs) <= 2:",
         tests=[T_PLOT + "test_a_lone_x_spans_from_zero_and_two_keep_their_own_limits"] + OLD_PLOT,
         why="a run of two evaluations gets the lone dot's axis, from 0 to 1.6 x its last x"),
    dict(name="v283-plot-mdn-loss-per-line", file=PLOT,
         old='"mdn": "negative log-likelihood (nats per point)"',
         new='"mdn": "negative log-likelihood (nats per line)"',
         tests=[T_PLOT + "test_a_density_heads_loss_is_in_nats_per_point"] + OLD_PLOT,
         why="a density head's loss axis says nats per line; its loss is per point"),
    # ---- lnrnn plot and the group ----
    dict(name="v283-cmdplot-no-metrics-names-updates", file=CMD_PLOT,
         old='raise UserError(f"{run_dir} has no {METRICS_FILE}; point',
         new='raise UserError(f"{run_dir} has no {UPDATES_FILE}; point',
         tests=[T_CLI + "test_a_folder_without_metrics_is_refused_and_nothing_written"] + OLD_CLI,
         why="a folder without metrics.jsonl is refused as having no updates.jsonl, the optional file"),
    dict(name="v283-cmdplot-title-skips-first-run", file=CMD_PLOT,
         old="    for r in runs:\n        try:",
         new="    for r in runs[1:]:\n        try:",
         tests=[T_CLI + "test_the_title_is_the_shared_configuration_or_learning_curves"] + OLD_CLI,
         why="the title is the configuration of the runs after the first: runs of different settings are "
             "titled as if they shared the second's"),
    dict(name="v283-cli-info-not-registered", file=CLI,
         old="for command in (train.train, eval_command.eval_cmd, data.data, info.info, plot.plot,",
         new="for command in (train.train, eval_command.eval_cmd, data.data, plot.plot,",
         tests=[T_CLI + "test_help_lists_every_command_and_version_names_the_package"] + OLD_CLI,
         why="`lnrnn info` is left out of the group: --help does not list it and `lnrnn info` is an unknown "
             "command"),
]
