"""Planted bugs, round 483 (format: tests/mutants/mutants.py): the real survivor of a seventy-second random sample
(tests/mutants/random_sample.py --seed 72 --count 40 --all-named, on f376cbf: 37 of 40 caught) and its neighbours,
seventy-ninth pass.

Seed 72's 3 missed: 1 equivalent (rnd72-17: a bidirectional stack's backward reading its input width from layers[1],
the backward direction of the first layer, which reads the same input as layers[0]), 1 CUDA-only and caught by the
CUDA file that runs the line (rnd72-03: the device loss scoring rows of length 0 on a last-step head,
tests/training/test_device_batches.py), 1 real for the named files: an evaluation's row keeping four decimals of its
compiling seconds where an epoch's keeps three (rnd72-19). Seed 73 (on f376cbf): 39 of 40 caught; its 1 missed
equivalent (rnd73-39: the beam's per-step label classes capped at C + 1 for C - 1, a cap that C - 1 non-blank
classes never reach).

The planted bugs, in eval_row's seconds: compiling to four decimals (rnd72-19) and to two, training to four. 3
mutants. The old files named after the module catch 1 of 3; the new file alone catches 3 of 3.

    python tests/mutants/run.py --only 'v483-*'
"""
from mutants_values478 import OLD_RECORDER  # the module's named files (the same list)

RECORDER = "lnrnn/training/recorder.py"
NEW = ["tests/training/test_values483_recorder_eval_row.py"]
TAIL = "                \"compile_s\": round(t.compile_total(), 3), \"eval\": kind}\n"
TIME = "**{f\"val_{m}\": v for m, v in val.items()}, \"time_s\": round(t.train_time, 3),\n                \"compile_s\""


def _row(name, old, new, why):
    return dict(name="v483-eval-row-" + name, file=RECORDER, old=old, new=new, tests=NEW + OLD_RECORDER, why=why)


MUTANTS = [
    _row("compile-four", TAIL, TAIL.replace("), 3)", "), 4)"),
         "an evaluation's compiling seconds kept to four decimals, an epoch's to three (rnd72-19)"),
    _row("compile-two", TAIL, TAIL.replace("), 3)", "), 2)"), "an evaluation's compiling seconds kept to two decimals"),
    _row("time-four", TIME + ": round(t.compile_total(), 3), \"eval\"",
         TIME.replace("train_time, 3)", "train_time, 4)") + ": round(t.compile_total(), 3), \"eval\"",
         "an evaluation's training seconds kept to four decimals"),
]
