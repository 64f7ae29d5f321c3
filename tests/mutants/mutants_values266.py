"""Planted bugs, round 266 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the run folders (lnrnn/training/rundir.py), the run configuration (lnrnn/training/runconfig.py), the
optimizers (lnrnn/training/optim.py) and the learning curves (lnrnn/training/plot.py): --resume without --out
refusing when exactly one default folder holds a checkpoint; a blank --out refused without its quotes; a held
folder refused naming its lock file instead of the folder; a --config value's type refusal naming the option
instead of its type; a --config value stored as the file wrote it (no conversion to the option's type); the
command line losing to the file; the periodic checkpoint every minute instead of every 10; clipping inverted
(a norm past the bound left alone, one at or under it turned to NaN); RMSProp with momentum keeping its velocity
in its second moment's slot; RMSProp with momentum built uncentred by default; a flat optimizer state that fits
its layout refused on loading; the time axis labelled 'training time (min)'; the per-update series drawn from
rows' val_ values (so never drawn); a lone epoch's percent shown to two decimals; a metric unknown to the heads
given in the legend as a percent.

15 mutants. Against the old targeted files alone: 7 of 15 caught; they missed --resume refusing a lone default run,
a blank --out unquoted, a held folder named by its lock file, checkpoints every minute, RMSProp with momentum
uncentred by default, the time axis in minutes, a lone epoch's percent to two decimals and an unknown metric as a
percent. The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values266_rundir (default, default-2 and default-10 without a checkpoint refused word for word, then default-10
alone with one taken; '' and '   ' refused quoting them; a second RunLock on a held folder refused naming the
folder, the pid, host and start time read from the lock file, which stays as it was), test_values266_runconfig (an
integer for a flag, a flag for a float and a list for an integer refused word for word naming the key and click's
type name; 3.0 and 100.0 arriving as int, 2 as float; --batch-size 11 kept against the file's batch_size = 64;
TrainConfig's defaults against the documented ones, the README's checkpoint every 10 minutes included),
test_values266_optim (clip_grad_norm of a norm-5 gradient at bounds 6, 5 and 2 against 1, 1 and 2 / (5 + 1e-6);
RMSPropMomentum(lr=0.1) at updates 1 and 2 against Graves's equations written out element by element with alpha
0.95, momentum 0.9, eps 1e-4 under the root, centred; Adam at update 1, saved with a flat layout, loaded into a
fresh Adam and stepped to update 2, against the textbook bias-corrected moments in float64), test_values266_plot
(the SVG's text for --x time_s; the faint per-update path's three vertices an affine image of updates 1, 2, 3 and
losses 2.0, 1.5, 1.7; a lone epoch's 'training 87.7%', 'validation 91.2%', 'training 0.3457', 'validation 0.1235';
the legend's 'final validation bpc 1.2346'). Left out as equivalent: sync's `if self.f is not None` inverted (an
fsync is not observable without a power cut); close's test inverted (the rows are flushed on every append, so a file
left open reads the same); `if not runs` made `if len(runs) < 1`; `ext == ".json"` made `ext != ".toml"` (only the
two suffixes get that far). Left out as unrealistic: Optimizer.slots_kept's len(slot_names) changed (no plausible
one-token slip there). Left out as a hang rather than a value: RunLock.acquire's `if same` inverted (the loop never
ends). The suffixes of default folders (base-N past 9 and 99), the update log's cut-off and its opening for
appending are mutated by earlier rounds.

    python tests/mutants/run.py --only 'v266-*'
"""
RUNDIR = "lnrnn/training/rundir.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
OPTIM = "lnrnn/training/optim.py"
PLOT = "lnrnn/training/plot.py"

T_RUNDIR = "tests/training/test_values266_rundir.py::"
T_RUNCONFIG = "tests/training/test_values266_runconfig.py::"
T_OPTIM = "tests/training/test_values266_optim.py::"
T_PLOT = "tests/training/test_values266_plot.py::"
OLD_RUNDIR = ["tests/training/test_values251_rundir.py", "tests/training/test_values227_rundir.py",
              "tests/training/test_values_rundir.py"]
OLD_RUNCONFIG = ["tests/training/test_values209_runconfig.py", "tests/training/test_values122_runconfig.py",
                 "tests/training/test_values_runconfig.py"]
OLD_OPTIM = ["tests/training/test_values157_optim.py", "tests/training/test_values64_optim.py"]
OLD_PLOT = ["tests/training/test_values251_plot.py", "tests/training/test_values222_plot.py"]

MUTANTS = [
    # ---- run folders: lnrnn/training/rundir.py ----
    dict(name="v266-rundir-resume-refuses-a-lone-run", file=RUNDIR,
         old="    if not runs:\n",
         new="    if len(runs) <= 1:\n",
         tests=[T_RUNDIR + "test_resume_takes_the_only_default_folder_with_a_checkpoint"] + OLD_RUNDIR,
         why="--resume without --out refuses when exactly one default folder holds a checkpoint"),
    dict(name="v266-rundir-blank-out-unquoted", file=RUNDIR,
         old='raise UserError(f"--out {str(out)!r} names no folder;',
         new='raise UserError(f"--out {str(out)} names no folder;',
         tests=[T_RUNDIR + "test_a_blank_out_is_refused_as_typed"] + OLD_RUNDIR,
         why="a blank --out is refused without quotes: '--out  names no folder' shows nothing of what was typed"),
    dict(name="v266-rundir-in-use-names-the-lock-file", file=RUNDIR,
         old='return UserError(f"the run folder {self.out} is in use by another lnrnn run',
         new='return UserError(f"the run folder {self.path} is in use by another lnrnn run',
         tests=[T_RUNDIR + "test_a_held_folder_is_refused_naming_the_folder_and_its_holder"] + OLD_RUNDIR,
         why="a held folder is refused naming its lock file DIR/lnrnn.lock as the run folder"),
    # ---- run configuration: lnrnn/training/runconfig.py ----
    dict(name="v266-runconfig-type-refusal-names-the-option", file=RUNCONFIG,
         old='raise click.BadParameter(f"{value!r} is not a valid {kind.name}")',
         new='raise click.BadParameter(f"{value!r} is not a valid {param.name}")',
         tests=[T_RUNCONFIG + "test_a_value_of_the_wrong_type_is_refused_naming_key_and_type"] + OLD_RUNCONFIG,
         why="a value of the wrong type is refused as 'not a valid lr' instead of 'not a valid float'"),
    dict(name="v266-runconfig-value-not-converted", file=RUNCONFIG,
         old="            value = param.type_cast_value(ctx, value)",
         new="            param.type_cast_value(ctx, value)",
         tests=[T_RUNCONFIG + "test_values_arrive_as_the_options_types"] + OLD_RUNCONFIG,
         why="a file's value reaches the options as written: 3.0 layers a float, clip 2 an int"),
    dict(name="v266-runconfig-command-line-loses", file=RUNCONFIG,
         old="if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):",
         new="if ctx.get_parameter_source(name) in (ParameterSource.ENVIRONMENT,):",
         tests=[T_RUNCONFIG + "test_the_command_line_wins_over_the_file"] + OLD_RUNCONFIG,
         why="an option given on the command line is overwritten by the --config file's value"),
    dict(name="v266-runconfig-save-every-minute", file=RUNCONFIG,
         old="    save_every_seconds: float = 600.0 ",
         new="    save_every_seconds: float = 60.0  ",
         tests=[T_RUNCONFIG + "test_the_defaults_are_the_documented_ones"] + OLD_RUNCONFIG,
         why="the periodic checkpoint comes every minute, not every 10 minutes as documented"),
    # ---- optimizers: lnrnn/training/optim.py ----
    dict(name="v266-optim-clip-inverted", file=OPTIM,
         old="    scale = clip_scale(norm, max_norm)\n    if scale is not None:",
         new="    scale = clip_scale(norm, max_norm)\n    if scale is None:",
         tests=[T_OPTIM + "test_clipping_below_at_and_above_its_bound"] + OLD_OPTIM,
         why="a norm past the bound is left alone, and one at or under it scaled by float(None), NaN"),
    dict(name="v266-optim-rmsprop-momentum-velocity-in-sq", file=OPTIM,
         old='avg, self._slot("v", name, p), g, self.lr,',
         new='avg, self._slot("sq", name, p), g, self.lr,',
         tests=[T_OPTIM + "test_rmsprop_momentum_with_its_defaults_at_updates_1_and_2"] + OLD_OPTIM,
         why="RMSProp with momentum keeps its velocity in the second moment's buffer"),
    dict(name="v266-optim-rmsprop-momentum-uncentred-default", file=OPTIM,
         old='    slot_names = ("sq", "avg", "v")\n\n    def __init__(self, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4, '
             'centred=True):',
         new='    slot_names = ("sq", "avg", "v")\n\n    def __init__(self, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4, '
             'centred=False):',
         tests=[T_OPTIM + "test_rmsprop_momentum_with_its_defaults_at_updates_1_and_2"] + OLD_OPTIM,
         why="RMSProp with momentum built with its own defaults is uncentred, not Graves's centred form"),
    dict(name="v266-optim-load-refuses-a-fitting-layout", file=OPTIM,
         old="                    if missing:\n",
         new="                    if not missing:\n",
         tests=[T_OPTIM + "test_adam_at_updates_1_and_2_across_a_saved_flat_state"] + OLD_OPTIM,
         why="a flat optimizer state whose named slots fit the layout exactly is refused on loading"),
    # ---- learning curves: lnrnn/training/plot.py ----
    dict(name="v266-plot-time-axis-in-minutes", file=PLOT,
         old='"time_s": "training time (s)"}',
         new='"time_s": "training time (min)"}',
         tests=[T_PLOT + "test_the_time_axis_is_labelled_training_time_in_seconds"] + OLD_PLOT,
         why="--x time_s labels its axis in minutes though the values are seconds"),
    dict(name="v266-plot-per-update-series-from-val", file=PLOT,
         old='upd = _points(run.updates, x, f"train_{m}", scale)',
         new='upd = _points(run.updates, x, f"val_{m}", scale)',
         tests=[T_PLOT + "test_the_per_update_series_goes_through_every_update_row"] + OLD_PLOT,
         why="the per-update series reads val_ keys the update rows never hold: it is never drawn"),
    dict(name="v266-plot-lone-percent-two-decimals", file=PLOT,
         old='value = f"{pts[0][1]:.1f}%" if percent',
         new='value = f"{pts[0][1]:.2f}%" if percent',
         tests=[T_PLOT + "test_a_lone_epochs_dots_carry_their_values"] + OLD_PLOT,
         why="a lone epoch's accuracy is shown to two decimals"),
    dict(name="v266-plot-unknown-metric-as-percent", file=PLOT,
         old="    label, percent = METRIC_INFO.get(metric, (metric, False))\n",
         new="    label, percent = METRIC_INFO.get(metric, (metric, True))\n",
         tests=[T_PLOT + "test_the_legend_gives_an_unknown_metric_as_its_plain_value"] + OLD_PLOT,
         why="the legend gives a metric the heads do not know as a percent (bpc 1.2346 as 123.46%)"),
]
