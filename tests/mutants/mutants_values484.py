"""Planted bugs, round 484 (format: tests/mutants/mutants.py): the real survivor of a seventy-fourth random sample
(tests/mutants/random_sample.py --seed 74 --count 40 --all-named, on 1f3d0b5: 36 of 40 caught) and its neighbour,
eightieth pass.

Seed 74's 4 missed: 2 equivalent (rnd74-17: a Z command's empty group of numbers made one zero, which the closing
segment never reads; rnd74-23: a distributed run's line printed to stderr without flush=True, where Python's stderr
is line-buffered, so it goes out at once either way), 1 CUDA-only and caught by the CUDA file that runs the line
(rnd74-35: a skip stack's forward taking the device path on the host and the host path on the device,
tests/model/test_values466_stack_residence_cuda.py, checked by planting), 1 real for the named files: a metric
outside METRIC_INFO shown as a percentage (rnd74-05; reachable only by a caller of format_metrics, since every
head's metrics are in the table, which the new file also checks).

The planted bugs, in format_metrics' default for a metric outside the table: shown as a percentage (rnd74-05), named
'metric' in the long form. 2 mutants. The old files named after the module catch 0 of 2; the new file alone catches
2 of 2.

    python tests/mutants/run.py --only 'v484-*'
"""
from mutants_values441 import NEW_EVALUATION as NEW_441, OLD_EVALUATION as OLD_441  # the module's files to 441

EVALUATION = "lnrnn/training/evaluation.py"
NEW = ["tests/training/test_values484_format_metrics.py"]
OLD = OLD_441 + NEW_441
INFO = "        label, percent = METRIC_INFO.get(m, (m, False))\n"

MUTANTS = [
    dict(name="v484-format-unknown-percent", file=EVALUATION, old=INFO, new=INFO.replace("(m, False)", "(m, True)"),
         tests=NEW + OLD, why="a metric outside METRIC_INFO shown as a percentage (rnd74-05)"),
    dict(name="v484-format-unknown-unnamed", file=EVALUATION, old=INFO,
         new=INFO.replace("(m, False)", "(\"metric\", False)"),
         tests=NEW + OLD, why="a metric outside METRIC_INFO named 'metric' in the long form, not by its key"),
]
