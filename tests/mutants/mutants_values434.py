"""Planted bugs, round 434 (format: tests/mutants/mutants.py): a real survivor of a sixth random sample
(tests/mutants/random_sample.py --seed 6 --count 40 --all-named, after round 433) and its neighbours: the batch an
evaluation reads (lnrnn/training/evaluation.py: task_batch), thirtieth pass.

The planted bugs: a conditioned model's texts subtracted from its batch (the sample's rnd6-11), dropped, or read
from the training split; the lines' lengths dropped. 4 mutants. Every old file named after the module
(OLD_EVALUATION) catches 1 of 4, the lengths. The new file alone (test_values434_evaluation) catches 4 of 4, so NEW
+ OLD does too (not run separately). How it was found: the sixth sample, judged by every named file, caught 28 of 39
(one unjudged: read.py's named files include the thread tests, which need 2 Numba threads); of the 11 missed, 2 on
CUDA-only lines, 2 on MPI-only lines, 4 equivalent or near, 3 real: this one, and two defaults left
(gradcheck.check_model's, the Trainer's quiet).

    python tests/mutants/run.py --only 'v434-*'
"""
EVALUATION = "lnrnn/training/evaluation.py"
NEW_EVALUATION = ["tests/training/test_values434_evaluation.py"]
# every file named after the module (pytest -k evaluation, as random_sample.py --all-named judges)
OLD_EVALUATION = ["tests/training/test_values10_evaluation.py", "tests/training/test_values130_evaluation.py",
                  "tests/training/test_values157_evaluation_logs.py", "tests/training/test_values15_evaluation.py",
                  "tests/training/test_values185_evaluation.py", "tests/training/test_values218_evaluation.py",
                  "tests/training/test_values21_evaluation.py",
                  "tests/training/test_values248_evaluation_finetune.py",
                  "tests/training/test_values279_plan_setup_evaluation.py",
                  "tests/training/test_values326_evaluation_finetune.py",
                  "tests/training/test_values352_evaluation_finetune.py",
                  "tests/training/test_values64_evaluation.py", "tests/training/test_values_evaluation.py"]

MUTANTS = [
    dict(name="v434-task-batch-texts-subtracted", file=EVALUATION,
         old="    return out + (task.text_batch(which, idx),) if text else out\n",
         new="    return out - (task.text_batch(which, idx),) if text else out\n",
         tests=NEW_EVALUATION + OLD_EVALUATION,
         why="a conditioned model's evaluation batch fails (the sixth sample's rnd6-11)"),
    dict(name="v434-task-batch-texts-dropped", file=EVALUATION,
         old="    return out + (task.text_batch(which, idx),) if text else out\n",
         new="    return out\n",
         tests=NEW_EVALUATION + OLD_EVALUATION,
         why="a conditioned model is evaluated without its texts"),
    dict(name="v434-task-batch-texts-of-the-other-split", file=EVALUATION,
         old="    return out + (task.text_batch(which, idx),) if text else out\n",
         new="    return out + (task.text_batch(\"train\", idx),) if text else out\n",
         tests=NEW_EVALUATION + OLD_EVALUATION,
         why="the validation lines are read with the training lines' texts"),
    dict(name="v434-task-batch-lengths-dropped", file=EVALUATION,
         old="    out = (b[0], b[1], b[2] if len(b) > 2 else None)\n",
         new="    out = (b[0], b[1], None)\n",
         tests=NEW_EVALUATION + OLD_EVALUATION,
         why="lines of different lengths are evaluated as if each ran the whole batch's steps"),
]
