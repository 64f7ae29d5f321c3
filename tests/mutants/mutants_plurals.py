"""Planted bugs in counted nouns of the stroke tasks' description (lnrnn/data/strokes.py; format:
tests/mutants/mutants.py): one glitch step or one skipped line said in the plural, or more in the singular.
test_values126_strokes reads one of each, test_values232_strokes and test_values164_strokes two or more.

    python tests/mutants/run.py --only 'plural-*'
"""
F = "lnrnn/data/strokes.py"
T = ["tests/data/test_values126_strokes.py", "tests/data/test_values232_strokes.py",
     "tests/data/test_values164_strokes.py"]

MUTANTS = [
    dict(name="plural-glitch-steps-always", file=F,
         old="{n_drop} glitch step{'' if n_drop == 1 else 's'} longer than",
         new="{n_drop} glitch steps longer than",
         tests=T,
         why="one dropped glitch step is described as '1 glitch steps'"),
    dict(name="plural-glitch-step-singular-at-zero", file=F,
         old="{n_drop} glitch step{'' if n_drop == 1 else 's'} longer than",
         new="{n_drop} glitch step{'' if n_drop < 2 else 's'} longer than",
         tests=T,
         why="no dropped step is described as '0 glitch step'"),
    dict(name="plural-lines-always", file=F,
         old="{n_short} line{'' if n_short == 1 else 's'} of fewer",
         new="{n_short} lines of fewer",
         tests=T,
         why="one skipped short line is described as '1 lines'"),
    dict(name="plural-line-singular-for-two", file=F,
         old="{n_short} line{'' if n_short == 1 else 's'} of fewer",
         new="{n_short} line{'' if n_short <= 2 else 's'} of fewer",
         tests=T,
         why="two skipped lines are described as '2 line'"),
]
