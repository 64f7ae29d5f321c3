"""Planted bugs, round 478 (format: tests/mutants/mutants.py): the real survivors of a sixty-fourth random sample
(tests/mutants/random_sample.py --seed 64 --count 40 --all-named, on 7a1440c: 35 of 40 caught) and their neighbours,
seventy-fourth pass.

Seed 64's 5 missed: 1 equivalent (rnd64-20: the beam's scratch for the step's most probable classes one slot longer,
never read past K), 4 real: lnrnn plot --help no longer saying that --x is step by default (rnd64-05; the help test
of every option's default, test_values428_options_help, is not among plot's files, and it reads the top-level
commands only, not lnrnn data mnist); the cell registry's rows no longer frozen (rnd64-18), so a caller could change
one for the whole process; a run resumed from a checkpoint without a log window dividing its first row by one scored
unit too many (rnd64-27); the synthetic stroke words never drawing two loops (rnd64-37).

The planted bugs: lnrnn plot's --x default unsaid in --help (rnd64-05), lnrnn data mnist's --subset and --mirror
defaults unsaid; the registry's rows not frozen (rnd64-18); resumed without a log window, the first row's scored
units (rnd64-27) or updates starting at one; the synthetic words drawing 3-6 loops (rnd64-37) or 2-5. 8 mutants. The
old files named after each module catch 2 (the two data mnist defaults, whose help an old data test reads); the new
files alone catch 8 of 8.

    python tests/mutants/run.py --only 'v478-*'
"""
from mutants_values448 import NEW_RECORDER as NEW_448, OLD_RECORDER as OLD_448  # the module's files to round 448
from mutants_values457 import NEW_STROKES as NEW_457, OLD_STROKES as OLD_457  # the module's files to round 457
from mutants_values461 import NEW_PLOT as NEW_461, OLD_PLOT as OLD_461  # the module's files to round 461
from mutants_values465 import OLD_DATA as OLD_465  # the module's files to round 465
from mutants_values470 import OLD_CELLS as OLD_470  # the module's files to round 470

PLOT = "lnrnn/commands/plot.py"
DATA = "lnrnn/commands/data.py"
CELLS = "lnrnn/model/cells.py"
RECORDER = "lnrnn/training/recorder.py"
STROKES = "lnrnn/data/strokes.py"
NEW_HELP = ["tests/commands/test_values478_options_help_modules.py"]
NEW_CELLS = ["tests/model/test_values478_cells_registry.py"]
NEW_RECORDER = ["tests/training/test_values478_resume_log_window.py"]
NEW_STROKES = ["tests/data/test_values478_loop_word.py"]
OLD_PLOT = OLD_461 + NEW_461
OLD_DATA = OLD_465 + ["tests/test_values473_api_other_data.py"]
OLD_CELLS = OLD_470 + ["tests/model/test_values470_cells.py"]
OLD_RECORDER = OLD_448 + NEW_448
OLD_STROKES = OLD_457 + NEW_457
X_AXIS = '@click.option("--x", "x", type=click.Choice(list(X_AXES)), default="step", show_default=True,'
MIRROR = '@click.option("--mirror", default=DEFAULT_MIRROR, show_default=True,'
WINDOW = '                        "count": int(window.get("count", 0)), "samples": int(window.get("samples", 0))}'
LOOPS = "    loops = int(rng.integers(2, 7))"
SUBSET = '@click.option("--subset", type=click.Choice(list(SUBSETS)), default="all", show_default=True,'

MUTANTS = [
    dict(name="v478-plot-x-default-unsaid", file=PLOT, old=X_AXIS, new=X_AXIS.replace("=True", "=False"),
         tests=NEW_HELP + OLD_PLOT, why="rnd64-05: lnrnn plot --help does not say that --x is step by default"),
    dict(name="v478-data-mnist-subset-default-unsaid", file=DATA, old=SUBSET, new=SUBSET.replace("=True", "=False"),
         tests=NEW_HELP + OLD_DATA, why="lnrnn data mnist --help does not say that --subset is all by default"),
    dict(name="v478-data-mnist-mirror-default-unsaid", file=DATA, old=MIRROR, new=MIRROR.replace("=True", "=False"),
         tests=NEW_HELP + OLD_DATA, why="lnrnn data mnist --help does not say which mirror it downloads from"),
    dict(name="v478-cells-registry-not-frozen", file=CELLS, old="@dataclass(frozen=True)\nclass Cell:",
         new="@dataclass\nclass Cell:", tests=NEW_CELLS + OLD_CELLS,
         why="rnd64-18: a caller can change a registry row in place, for every model built after it"),
    dict(name="v478-resume-window-count-one", file=RECORDER, old=WINDOW, new=WINDOW.replace('"count", 0', '"count", 1'),
         tests=NEW_RECORDER + OLD_RECORDER,
         why="rnd64-27: resumed without a log window, the first row divides by one scored unit too many"),
    dict(name="v478-resume-window-samples-one", file=RECORDER, old=WINDOW,
         new=WINDOW.replace('"samples", 0', '"samples", 1'), tests=NEW_RECORDER + OLD_RECORDER,
         why="resumed without a log window, the first row counts one update too many"),
    dict(name="v478-loop-word-from-three", file=STROKES, old=LOOPS, new=LOOPS.replace("(2, 7)", "(3, 7)"),
         tests=NEW_STROKES + OLD_STROKES, why="rnd64-37: the synthetic words never have two loops"),
    dict(name="v478-loop-word-to-five", file=STROKES, old=LOOPS, new=LOOPS.replace("(2, 7)", "(2, 6)"),
         tests=NEW_STROKES + OLD_STROKES, why="the synthetic words never have six loops"),
]
