"""Planted bugs in the default run's task and in the figures README states about it
(format: tests/mutants/mutants.py)."""

MUTANTS = [
    dict(name="default-run-ink-threshold-moved", file="lnrnn/data/tasks.py",
         old="DIGITS_INK = 8.0  #",
         new="DIGITS_INK = 9.0  #",
         tests=["tests/data/test_data.py::test_digits_binary_is_digits_as_ink_or_not"],
         why="digits-binary counts a pixel of 8/16 as background: another task than the one README measured"),
    dict(name="default-run-gray-pixels", file="lnrnn/data/tasks.py",
         old='binary = spec["task"] == "digits-binary"',
         new='binary = spec["task"] == "digits"',
         tests=["tests/data/test_data.py::test_digits_binary_is_digits_as_ink_or_not"],
         why="the two digits tasks swap their pixels"),
    dict(name="default-run-task-reverts", file="lnrnn/training/runconfig.py",
         old='task: str = "digits-binary"',
         new='task: str = "digits"',
         tests=["tests/commands/test_cli.py::test_help_shows_defaults"],
         why="lnrnn train without --task trains on gray digits, where the plain LSTM is level with the LN-LSTM"),
    dict(name="default-run-readme-figure-drifts", file="README.md",
         old="validation accuracy 86.3 ± 2.4%",
         new="validation accuracy 88.3 ± 2.4%",
         tests=["tests/training/test_default_run.py::test_readme_states_the_results_tables_figures"],
         why="README's set-up line states an accuracy that no run in docs/results.md gave"),
]
