"""Planted bugs, round 459 (format: tests/mutants/mutants.py): the real survivor of a thirty-ninth random sample
(tests/mutants/random_sample.py --seed 39 --count 40 --all-named, on b0a761c: 36 of 40 caught) and its neighbour,
fifty-fourth pass.

Seed 39's 4 missed: 2 equivalent (rnd39-23: a run folder's lock file truncated to 1 byte rather than 0 before its
new content is written, which covers it; rnd39-27: a curve of one x value limited by 1.6 times the smallest x rather
than the largest, the same number where there is one), 1 CUDA-only line caught by the CUDA synthesis file (rnd39-03:
the synthesis window reading BN statistics from the device views of a layer that keeps none;
tests/model/test_synthesis_cuda.py fails), 1 real: lnrnn sample --prime-strokes taking a folder, then refusing it as
a file of the wrong kind (rnd39-26).

The planted bugs: --prime-strokes taking a folder (dir_okay=True), or any path. 2 mutants. The old files named after
the module (OLD_*) catch 0; the new file alone catches 2 of 2.

    python tests/mutants/run.py --only 'v459-*'
"""
SAMPLE = "lnrnn/commands/sample.py"
NEW_SAMPLE = ["tests/commands/test_values459_sample_prime_folder.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_SAMPLE = ["tests/commands/test_sample.py", "tests/commands/test_sample_text.py",
              "tests/commands/test_values10_sample.py", "tests/commands/test_values126_sample_cli.py",
              "tests/commands/test_values12_sample.py", "tests/commands/test_values143_sample_cli.py",
              "tests/commands/test_values14_sample.py", "tests/commands/test_values208_sample_cli.py",
              "tests/commands/test_values20_sample.py", "tests/commands/test_values21_sample.py",
              "tests/commands/test_values221_sample_cli.py", "tests/commands/test_values237_train_sample.py",
              "tests/commands/test_values256_sampler.py", "tests/commands/test_values272_sample_cli.py",
              "tests/commands/test_values292_sample_text.py", "tests/commands/test_values300_sampler.py",
              "tests/commands/test_values308_sampler.py", "tests/commands/test_values322_data_sample.py",
              "tests/commands/test_values367_sample.py", "tests/commands/test_values400_sample_command.py",
              "tests/commands/test_values427_sample.py", "tests/commands/test_values428_sample.py",
              "tests/commands/test_values42_sampler.py", "tests/commands/test_values446_sample_cli_defaults.py",
              "tests/commands/test_values52_sample_cli.py", "tests/commands/test_values52_sampler.py",
              "tests/commands/test_values69_sample_errors.py", "tests/commands/test_values99_sample_cli.py",
              "tests/commands/test_values_sampler_rule.py", "tests/model/test_values272_sampler_window.py",
              "tests/model/test_values337_sampler.py", "tests/test_values109_sampler.py",
              "tests/test_values120_sampler.py", "tests/test_values126_sampler.py", "tests/test_values133_sampler.py",
              "tests/test_values162_sampler.py", "tests/test_values198_sampler.py", "tests/test_values213_sampler.py",
              "tests/test_values221_sampler.py", "tests/test_values226_sampler.py", "tests/test_values238_sampler.py",
              "tests/test_values360_sampler.py", "tests/test_values378_sampler.py", "tests/test_values444_sample.py",
              "tests/test_values76_sampler.py", "tests/test_values87_sampler.py", "tests/test_values99_sampler.py"]

MUTANTS = [
    dict(name="v459-prime-strokes-folder-ok", file=SAMPLE,
         old='@click.option("--prime-strokes", type=click.Path(dir_okay=False), default=None,',
         new='@click.option("--prime-strokes", type=click.Path(dir_okay=True), default=None,',
         tests=NEW_SAMPLE + OLD_SAMPLE,
         why="rnd39-26: a folder as --prime-strokes refused as a file of the wrong kind"),
    dict(name="v459-prime-strokes-any-path", file=SAMPLE,
         old='@click.option("--prime-strokes", type=click.Path(dir_okay=False), default=None,',
         new='@click.option("--prime-strokes", type=click.Path(), default=None,',
         tests=NEW_SAMPLE + OLD_SAMPLE, why="--prime-strokes takes any path, a folder included"),
]
