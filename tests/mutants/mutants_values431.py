"""Planted bugs, round 431 (format: tests/mutants/mutants.py): a run folder where a log the run rewrites is a folder
(lnrnn/training/rundir.py: check_writable, RUN_LOGS), twenty-seventh pass.

The planted bugs: the logs' check dropped, links refused too, the curve left out, the refusal naming the run folder.
4 mutants. The old files named after the module (OLD) catch 0 of 4; the new file alone catches 4 of 4, so NEW + OLD
does too (not run separately). Found in reading this stop's change again: lnrnn plot refused a log that is a folder,
but a resumed run with a metrics.jsonl folder trained to its epoch's end and ended there in an IsADirectoryError
traceback (a new run alike, and lnrnn.fit, which checks its folder the same way). Only a folder is refused: the
run's atomic write replaces a link, even a dangling one.

    python tests/mutants/run.py --only 'v431-*'
"""
NEW = ["tests/training/test_values431_rundir.py"]
RUNDIR = "lnrnn/training/rundir.py"
# the files named after the module, as a developer who changed it would run them
OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py",
       "tests/training/test_values116_rundir.py", "tests/training/test_values209_rundir.py",
       "tests/training/test_values321_rundir.py", "tests/training/test_values397_rundir.py"]

MUTANTS = [
    dict(name="v431-log-folders-unchecked", file=RUNDIR,
         old="    for name in RUN_LOGS:  # a folder there would end the run at its first epoch, its write refused\n",
         new="    for name in ():  # a folder there would end the run at its first epoch, its write refused\n",
         tests=NEW + OLD,
         why="a metrics.jsonl folder ends a resumed run at its epoch's end in a traceback"),
    dict(name="v431-log-links-refused", file=RUNDIR,
         old="        if os.path.isdir(log) and not os.path.islink(log):\n",
         new="        if os.path.isdir(log) or os.path.islink(log):\n",
         tests=NEW + OLD,
         why="a link where the run's write would replace the link is refused"),
    dict(name="v431-curve-not-checked", file=RUNDIR,
         old="RUN_LOGS = (METRICS_FILE, UPDATES_FILE, CURVE_FILE)",
         new="RUN_LOGS = (METRICS_FILE, UPDATES_FILE)",
         tests=NEW + OLD,
         why="a learning_curve.svg folder ends the run at its first drawing"),
    dict(name="v431-words-name-the-folder-not-the-log", file=RUNDIR,
         old='            raise UserError(f"{os.path.join(out, name)} is a folder, where lnrnn train writes the run\'s '
             '{name}; "\n',
         new='            raise UserError(f"{out} is a folder, where lnrnn train writes the run\'s {name}; "\n',
         tests=NEW + OLD,
         why="the refusal names the run folder, which is meant to be a folder"),
]
