"""Planted bugs, round 453 (format: tests/mutants/mutants.py): the real survivors of a twenty-eighth random sample
(tests/mutants/random_sample.py --seed 28 --count 40 --all-named, on b520b63: 34 of 40 caught) and their neighbours,
forty-eighth pass.

Seed 28's 6 missed: 2 equivalent (rnd28-01: the classifier's stand-in label for an unscored row 1 rather than 0,
which only picks a log-probability the loss leaves out and the backward multiplies by 0, for every classifier of 2
classes or more, the fewest a task builds; rnd28-16: the run lock's file truncated to 1 byte rather than 0 before a
line of at least 1 byte is written over it from its start), 1 CUDA-only line caught by the CUDA layer files
(rnd28-38: a plain stack's top layer leaving y on the device; tests/model/test_cuda_layers.py fails), 2 caught by
tests not named after their modules (rnd28-23: cuda_usable calling the simulator unusable, which
tests/kernels/test_cuda_backend.py's simulator test fails on, a file the sample leaves out with the CUDA ones;
rnd28-35: lnrnn train's --lr default no longer shown in its help, which
tests/commands/test_values446_sample_cli_defaults.py fails on; the new train help file calls its check), 1 real:
lnrnn info caching the parallel probe it runs for the call (rnd28-08: compiled-code files written next to the
sources by a command that only reports; nothing watched).

The planted bugs: lnrnn info's probe compiled with cache=True; cuda_usable calling the simulator unusable, and
taking it only where a real GPU answers too; lnrnn train's --lr and --batch-size with their defaults left out of
--help. 5 mutants. The old files named after the modules (OLD_*) catch none; the new files alone catch 5 of 5.

    python tests/mutants/run.py --only 'v453-*'
"""
INFO = "lnrnn/commands/info.py"
BACKEND = "lnrnn/backend.py"
TRAIN = "lnrnn/commands/train.py"
NEW_INFO = ["tests/commands/test_values453_info.py"]
NEW_BACKEND = ["tests/kernels/test_values453_backend.py"]
NEW_TRAIN = ["tests/commands/test_values453_train_help.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_INFO = ["tests/commands/test_values143_info.py", "tests/commands/test_values173_info_data.py",
            "tests/commands/test_values215_info_cli.py", "tests/commands/test_values271_options_info.py",
            "tests/commands/test_values322_info_options.py", "tests/commands/test_values325_info.py",
            "tests/commands/test_values351_info.py", "tests/commands/test_values37_info.py",
            "tests/commands/test_values69_plot_info.py", "tests/commands/test_values_info.py",
            "tests/kernels/test_mkl_cnr_info.py"]
OLD_BACKEND = ["tests/kernels/test_values17_backend.py", "tests/kernels/test_values186_backend.py",
               "tests/kernels/test_values22_backend.py", "tests/kernels/test_values271_backend_threads.py",
               "tests/kernels/test_values450_backend.py", "tests/kernels/test_values_backend.py",
               "tests/test_values369_backend_threads.py", "tests/test_values96_judge_backend.py"]
OLD_TRAIN = ["tests/commands/test_cli_train_config.py", "tests/commands/test_pretrained.py",
             "tests/commands/test_values125_train_options.py", "tests/commands/test_values13_train_command.py",
             "tests/commands/test_values143_train_cli.py", "tests/commands/test_values208_train_options.py",
             "tests/commands/test_values237_train_sample.py", "tests/commands/test_values245_train_data.py",
             "tests/commands/test_values263_train_data.py", "tests/commands/test_values367_train_options.py",
             "tests/commands/test_values401_train_options.py", "tests/commands/test_values69_train_options.py",
             "tests/commands/test_values_train_command.py", "tests/training/test_values124_train_driver.py",
             "tests/training/test_values165_train_run.py", "tests/training/test_values17_train.py",
             "tests/training/test_values202_train_run.py", "tests/training/test_values217_train_run.py",
             "tests/training/test_values236_train_driver.py", "tests/training/test_values236_train_resume.py",
             "tests/training/test_values243_train_policies.py",
             "tests/training/test_values243_train_recorder_summary.py",
             "tests/training/test_values259_train_policies.py", "tests/training/test_values25_training.py",
             "tests/training/test_values274_train_policies.py", "tests/training/test_values295_train_stopping.py",
             "tests/training/test_values301_train_loop.py", "tests/training/test_values33_train.py",
             "tests/training/test_values345_train_loop.py", "tests/training/test_values370_train_loop.py",
             "tests/training/test_values393_train.py", "tests/training/test_values426_train_resume_position.py",
             "tests/training/test_values427_train.py", "tests/training/test_values435_train.py",
             "tests/training/test_values_train.py", "tests/training/test_values_train_policies.py",
             "tests/training/test_values_train_schedule.py"]

MUTANTS = [
    dict(name="v453-info-probe-cached", file=INFO, old="    @njit(parallel=True, cache=False)",
         new="    @njit(parallel=True, cache=True)",
         tests=NEW_INFO + OLD_INFO, why="rnd28-08: lnrnn info writes the probe's compiled code next to the sources"),
    dict(name="v453-simulator-unusable", file=BACKEND,
         old="""        return True, "Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), on the CPU\"""",
         new="""        return False, "Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), on the CPU\"""",
         tests=NEW_BACKEND + OLD_BACKEND, why="rnd28-23: the simulator called unusable (every CUDA test refused)"),
    dict(name="v453-simulator-asks-the-driver", file=BACKEND, old="    if simulator_enabled():",
         new="    if simulator_enabled() and cuda.is_available():",
         tests=NEW_BACKEND + OLD_BACKEND, why="the simulator taken only where a real GPU answers too"),
    dict(name="v453-train-lr-default-hidden", file=TRAIN,
         old='@click.option("--lr", type=float, default=D.lr, show_default=True,',
         new='@click.option("--lr", type=float, default=D.lr, show_default=False,',
         tests=NEW_TRAIN + OLD_TRAIN, why="rnd28-35: lnrnn train --help no longer says the learning rate's default"),
    dict(name="v453-train-batch-size-default-hidden", file=TRAIN,
         old='@click.option("--batch-size", type=int, default=D.batch_size, show_default=True,',
         new='@click.option("--batch-size", type=int, default=D.batch_size, show_default=False,',
         tests=NEW_TRAIN + OLD_TRAIN, why="lnrnn train --help no longer says 16 sequences an update"),
]
