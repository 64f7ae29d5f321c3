"""Planted bugs, round 489 (format: tests/mutants/mutants.py): the real survivor of an eightieth random sample
(tests/mutants/random_sample.py --seed 80 --count 40 --all-named, on 2832ae8 with round 487's files: 35 of 40 caught)
and its neighbour, eighty-fifth pass.

Seed 80's 5 missed: 2 equivalent (rnd80-11: the cell norm's gain exported with transpose on, where a 1-D array's
transpose is itself; rnd80-13: the synthetic lines' height noise subtracted, a normal draw of mean 0, so the same
distribution), 1 CUDA-only and caught by the CUDA file (rnd80-21: the mixture density head's device targets not
made time-major, tests/training/test_device_update.py, checked by planting), 1 caught by the suite's file for the
line's function but not named after its module (rnd80-39: an epoch end saving at a blow-up streak of 1,
tests/training/test_values47_epoch_end.py, checked by planting), 1 real: a stroke task's batch of no lines with
one step (rnd80-00).

The planted bugs: a batch of no lines with one step, in the stroke task's batch (rnd80-00) and the reading task's. 2
mutants. The old files named after the module catch 0 of 2; the new file alone catches 2 of 2.

    python tests/mutants/run.py --only 'v489-*'
"""
from mutants_values486 import OLD_STROKES  # the files named after lnrnn/data/strokes.py

STROKES = "lnrnn/data/strokes.py"
NEW = ["tests/data/test_values489_empty_batch.py"]
PREDICT = ("        lengths = s.starts[idx + 1] - first - 1                           # (B,) steps\n"
           "        T, B = int(lengths.max()) if len(idx) else 0, len(idx)\n")
READ = ("        lengths = s.starts[idx + 1] - first                               # (B,) steps = points\n"
        "        T, B = int(lengths.max()) if len(idx) else 0, len(idx)\n")

MUTANTS = [
    dict(name="v489-predict-empty-one-step", file=STROKES, old=PREDICT, new=PREDICT.replace("else 0", "else 1"),
         tests=NEW + OLD_STROKES, why="a stroke task's batch of no lines has one step (rnd80-00)"),
    dict(name="v489-read-empty-one-step", file=STROKES, old=READ, new=READ.replace("else 0", "else 1"),
         tests=NEW + OLD_STROKES, why="a reading task's batch of no lines has one step"),
]
