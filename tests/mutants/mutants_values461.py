"""Planted bugs, round 461 (format: tests/mutants/mutants.py): the real survivors of a forty-first random sample
(tests/mutants/random_sample.py --seed 41 --count 40 --all-named, on 7cc3190: 34 of 40 caught) and their
neighbours, fifty-sixth pass.

Seed 41's 6 missed: 3 equivalent (rnd41-00: lnrnn.jax finding each residual's batch axis from layouts at 4 and 5
rows rather than 3 and 5, the same axes; rnd41-15: the base Head's device_objective True, where every head lnrnn has
sets its own; rnd41-35: a checkpoint's optimizer slots split by the gradients' layout, the parameters' own), 3 real:
every use_kernel_cache call wrapping Numba's optimizer once more (rnd41-10), a download's bar ending on N/1
(rnd41-18), lnrnn plot without --out reaching its work (rnd41-27). A download's rate, written in samples/s, is now
in bytes/s.

The planted bugs: use_kernel_cache's hooks unflagged (the optimizer's, Dispatcher.compile's: a compile then waits on
its own lock) or installed whatever is there; a download's bar ending on N/1 or, without a Content-Length, left at
its first total of 1, counting whole chunks, or its rate in samples/s; lnrnn plot's --out optional. 8 mutants. The
old files named after the modules (OLD_*) catch 1 (Dispatcher.compile wrapped twice, by a 900 s timeout: a compile
waits on its own lock); the new files alone catch 8 of 8.

    python tests/mutants/run.py --only 'v461-*'
"""
COMP = "lnrnn/compiling.py"
DATA = "lnrnn/commands/data.py"
PLOT = "lnrnn/commands/plot.py"
NEW_COMP = ["tests/test_values461_compiling.py"]
NEW_DATA = ["tests/commands/test_values461_data_download_bar.py"]
NEW_PLOT = ["tests/commands/test_values461_plot_out.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_COMP = ["tests/kernels/test_values284_compiling.py", "tests/kernels/test_values325_compiling.py",
            "tests/kernels/test_values351_compiling.py", "tests/test_values112_compiling.py",
            "tests/test_values141_compiling.py", "tests/test_values178_compiling.py",
            "tests/test_values17_compiling.py", "tests/test_values205_compiling.py",
            "tests/test_values218_compiling.py", "tests/test_values254_compiling.py",
            "tests/test_values32_compiling.py", "tests/test_values369_compiling.py",
            "tests/test_values71_compiling.py", "tests/test_values96_compiling.py", "tests/test_values_compiling.py",
            "tests/test_values_compiling_stamp.py"]
OLD_DATA = ["tests/commands/test_values131_data.py", "tests/commands/test_values173_info_data.py",
            "tests/commands/test_values17_data.py", "tests/commands/test_values208_data.py",
            "tests/commands/test_values237_data.py", "tests/commands/test_values245_train_data.py",
            "tests/commands/test_values263_train_data.py", "tests/commands/test_values322_data_sample.py",
            "tests/commands/test_values367_data.py", "tests/commands/test_values37_data.py",
            "tests/commands/test_values408_data_download.py", "tests/commands/test_values425_other_data.py",
            "tests/commands/test_values69_data.py", "tests/commands/test_values9_data.py",
            "tests/commands/test_values_data.py", "tests/data/test_data.py", "tests/data/test_data_alignment.py",
            "tests/data/test_own_data.py", "tests/data/test_strokes_data.py", "tests/data/test_values186_data.py",
            "tests/data/test_values249_idx_taskdata.py", "tests/data/test_values25_data.py",
            "tests/data/test_values40_data.py", "tests/data/test_values_data_counts.py",
            "tests/data/test_values_taskdata.py"]
OLD_PLOT = ["tests/commands/test_plot.py", "tests/commands/test_values131_plot.py",
            "tests/commands/test_values173_plot.py", "tests/commands/test_values215_predict_plot.py",
            "tests/commands/test_values253_plot.py", "tests/commands/test_values349_plot.py",
            "tests/commands/test_values372_cli_plot.py", "tests/commands/test_values426_plot.py",
            "tests/commands/test_values46_plot_runs.py", "tests/commands/test_values69_plot_info.py",
            "tests/training/test_values118_plot.py", "tests/training/test_values145_plot.py",
            "tests/training/test_values185_plot.py", "tests/training/test_values20_plot.py",
            "tests/training/test_values222_plot.py", "tests/training/test_values251_plot.py",
            "tests/training/test_values266_plot.py", "tests/training/test_values283_plot.py",
            "tests/training/test_values323_plot.py", "tests/training/test_values34_plot.py",
            "tests/training/test_values353_plot.py", "tests/training/test_values372_plot.py",
            "tests/training/test_values433_plot.py", "tests/training/test_values441_plot.py",
            "tests/training/test_values95_plot.py", "tests/training/test_values9_plot.py",
            "tests/training/test_values_plot.py"]

MUTANTS = [
    dict(name="v461-private-helpers-unflagged", file=COMP,
         old="optimize_final_module.lnrnn_private_helpers = True",
         new="optimize_final_module.lnrnn_private_helpers = False",
         tests=NEW_COMP + OLD_COMP, why="rnd41-10: every use_kernel_cache wraps Numba's optimizer once more"),
    dict(name="v461-compile-once-unflagged", file=COMP,
         old="compile_shared.lnrnn_compile_once = True", new="compile_shared.lnrnn_compile_once = False",
         tests=NEW_COMP + OLD_COMP, why="every use_kernel_cache wraps Dispatcher.compile once more"),
    dict(name="v461-private-helpers-always", file=COMP,
         old='if not getattr(lib._optimize_final_module, "lnrnn_private_helpers", False):', new="if True:",
         tests=NEW_COMP + OLD_COMP, why="use_kernel_cache wraps Numba's optimizer whatever is there"),
    dict(name="v461-bar-total-min", file=DATA,
         old="bar.total = max(bar.done, 1)", new="bar.total = min(bar.done, 1)",
         tests=NEW_DATA + OLD_DATA, why="rnd41-18: a download's bar ends on N/1, overfull"),
    dict(name="v461-bar-total-kept", file=DATA,
         old="    bar.total = max(bar.done, 1)\n", new="",
         tests=NEW_DATA + OLD_DATA, why="a download without Content-Length ends its bar on N/1"),
    dict(name="v461-bar-counts-chunks", file=DATA,
         old="bar.update(len(chunk))", new="bar.update(1 << 16)",
         tests=NEW_DATA + OLD_DATA, why="a download's bar counts whole chunks, not the bytes they hold"),
    dict(name="v461-bar-unit-samples", file=DATA,
         old='quiet=quiet, unit="bytes")', new="quiet=quiet)",
         tests=NEW_DATA + OLD_DATA, why="a download's rate in samples/s (Progress's default unit), not bytes/s"),
    dict(name="v461-plot-out-optional", file=PLOT,
         old='@click.option("--out", "out", required=True,', new='@click.option("--out", "out", required=False,',
         tests=NEW_PLOT + OLD_PLOT, why="rnd41-27: lnrnn plot without --out reaches its work with out None"),
]
