"""Planted bugs, round 462 (format: tests/mutants/mutants.py): the real survivor of a forty-second random sample
(tests/mutants/random_sample.py --seed 42 --count 40 --all-named, on 7cc3190: 39 of 40 caught) and its neighbours,
fifty-seventh pass.

Seed 42's 1 missed, real: the written rows' one scale counting a row without ink as one unit tall (rnd42-08), so
rows of ink less than a unit tall were drawn smaller beside an empty one.

The planted bugs: a row without ink counted one unit tall; the pad 3% of the smaller of width and height; the x
range as wide as the tallest ink is tall; every row at least one unit tall; a row centred on its ink's lowest point.
5 mutants. The old files named after the module (OLD_*) catch 3 (the pad, the x range and the centring, drawn in
their pictures' limits); the new file alone catches 5 of 5.

    python tests/mutants/run.py --only 'v462-*'
"""
SAMPLE = "lnrnn/sample.py"
NEW_SAMPLE = ["tests/test_values462_sample_scale.py"]
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
              "tests/commands/test_values459_sample_prime_folder.py", "tests/commands/test_values52_sample_cli.py",
              "tests/commands/test_values52_sampler.py", "tests/commands/test_values69_sample_errors.py",
              "tests/commands/test_values99_sample_cli.py", "tests/commands/test_values_sampler_rule.py",
              "tests/model/test_values272_sampler_window.py", "tests/model/test_values337_sampler.py",
              "tests/test_values109_sampler.py", "tests/test_values120_sampler.py", "tests/test_values126_sampler.py",
              "tests/test_values133_sampler.py", "tests/test_values162_sampler.py", "tests/test_values198_sampler.py",
              "tests/test_values213_sampler.py", "tests/test_values221_sampler.py", "tests/test_values226_sampler.py",
              "tests/test_values238_sampler.py", "tests/test_values360_sampler.py", "tests/test_values378_sampler.py",
              "tests/test_values444_sample.py", "tests/test_values76_sampler.py", "tests/test_values87_sampler.py",
              "tests/test_values99_sampler.py"]

MUTANTS = [
    dict(name="v462-empty-row-one-tall", file=SAMPLE,
         old="if len(p) else (0, 0, 0, 0)", new="if len(p) else (0, 0, 0, 1)",
         tests=NEW_SAMPLE + OLD_SAMPLE, why="rnd42-08: a row without ink heightens every row to a unit"),
    dict(name="v462-pad-of-smaller", file=SAMPLE,
         old="    pad = 0.03 * max(W, H)", new="    pad = 0.03 * min(W, H)",
         tests=NEW_SAMPLE + OLD_SAMPLE, why="the written rows' pad 3% of the smaller of width and height"),
    dict(name="v462-x-range-of-height", file=SAMPLE,
         old="        ax.set_xlim(x0 - pad, x0 + W + pad)", new="        ax.set_xlim(x0 - pad, x0 + H + pad)",
         tests=NEW_SAMPLE + OLD_SAMPLE, why="a written row's x range as wide as the tallest ink is tall"),
    dict(name="v462-height-at-least-one", file=SAMPLE,
         old="    H = max(max(b[3] - b[2] for b in boxes), 1e-9)",
         new="    H = max(max(b[3] - b[2] for b in boxes), 1.0)",
         tests=NEW_SAMPLE + OLD_SAMPLE, why="the written rows at least one unit tall, small ink drawn smaller"),
    dict(name="v462-centred-on-bottom", file=SAMPLE,
         old="        mid = (y0 + y1) / 2", new="        mid = y0",
         tests=NEW_SAMPLE + OLD_SAMPLE, why="a written row centred on its ink's lowest point, not its middle"),
]
