"""Planted bugs, round 421 (format: tests/mutants/mutants.py): the numbers of a --config file for lnrnn train's
integer options (lnrnn/training/runconfig.py: apply_config_file), twentieth pass.

Writing this round's plan found a real bug, by setting each key of a run's config.json in turn to null, a text, -1,
infinity, NaN, a list, an object, 2**70, true, 1.5 and an empty text and training from it: an infinite
eval-batch-size ended in an OverflowError traceback, and 2.5 was taken silently as 2 (the integer check asked for
click.INT itself, which --eval-batch-size's integer range is not). The planted bugs: the integer check asking for
click.INT itself again; a list or an object handed to click's cast; a whole number written as a float (64.0)
refused. 3 mutants. The old config and runconfig files alone (OLD) catch 1 of 3 (the whole float refused); missed:
the integer range (no old file gives --eval-batch-size a float) and the list cast. test_values421_config_numbers
gives --eval-batch-size infinity, minus infinity, NaN and 2.5 in JSON and TOML, a list, and hidden an object, each
one sentence ending in the value and the type with nothing written, and trains from 64.0 and 3.0 to the integers 64
and 3. NEW + OLD catch 3 of 3; the new file alone catches 3 of 3. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v421-*'
"""
NEW = ["tests/commands/test_values421_config_numbers.py"]
OLD = [
    "tests/commands/test_cli_train_config.py",
    "tests/training/test_values_runconfig.py",
    "tests/training/test_values122_runconfig.py",
    "tests/training/test_values348_runconfig.py",
]
RUNCONFIG = "lnrnn/training/runconfig.py"

MUTANTS = [
    dict(name="v421-integer-ranges-take-any-float", file=RUNCONFIG,
         old="or (isinstance(kind, click.types.IntParamType) and isinstance(value, float)",
         new="or (kind is click.INT and isinstance(value, float)",
         tests=NEW + OLD,
         why="the integer check asks for click.INT itself: --eval-batch-size inf is a traceback, 2.5 is 2"),
    dict(name="v421-lists-cast", file=RUNCONFIG,
         old="               or isinstance(value, (list, dict))\n", new="",
         tests=NEW + OLD,
         why="a list or an object for an option is handed to click's cast"),
    dict(name="v421-whole-floats-refused", file=RUNCONFIG,
         old="isinstance(value, float) and not value.is_integer()))", new="isinstance(value, float)))",
         tests=NEW + OLD,
         why="64.0, a whole number a JSON writer may give as a float, is refused for an integer option"),
]
