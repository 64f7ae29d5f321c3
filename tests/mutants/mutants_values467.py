"""Planted bugs, round 467 (format: tests/mutants/mutants.py): the real survivor of a forty-eighth random sample
(tests/mutants/random_sample.py --seed 48 --count 40 --all-named, on 92ffe41: 35 of 40 caught, and 1 more whose
tests failed by crashing a worker) and its neighbours, sixty-second pass.

Seed 48's 4 missed: 1 equivalent (rnd48-23: a bidirectional stack's backward taking the input width from layers[1],
the bottom layer's backward direction, which reads the same input as layers[0]), 1 CUDA-only line caught by the CUDA
files (rnd48-07: the device mixture density head's targets left in (B,T) order, tests/training/test_device_update.py
fails), 1 caught by a file named after another behaviour (rnd48-16: a reader evaluated on other data given its scale
for its alphabet, tests/commands/test_values425_other_data.py fails), 1 real: the MNIST family's shape before
building saying its head scores every step (rnd48-22), which the memory check reads.

The planted bugs: a task's shape before building saying every step for the MNIST family, the digits or the adding
problem, the last step for the copy task, two classes for the digits, the copy task's input width for its classes,
or nothing for pmnist. 7 mutants. The old files named after the module (OLD_TASKS) catch 6 (all but the sampled
one); the new file alone catches 7 of 7.

    python tests/mutants/run.py --only 'v467-*'
"""
TASKS = "lnrnn/data/tasks.py"
NEW_TASKS = ["tests/data/test_values467_task_shape.py"]
# the sample's own files for the module (every file named after the module, then importers up to 8)
OLD_TASKS = ["tests/data/test_values102_tasks.py", "tests/data/test_values111_tasks.py",
             "tests/data/test_values127_tasks.py", "tests/data/test_values12_tasks.py",
             "tests/data/test_values136_tasks.py", "tests/data/test_values13_tasks.py",
             "tests/data/test_values164_tasks.py", "tests/data/test_values200_tasks.py",
             "tests/data/test_values21_tasks.py", "tests/data/test_values220_tasks.py",
             "tests/data/test_values228_tasks.py", "tests/data/test_values240_tasks.py",
             "tests/data/test_values258_tasks.py", "tests/data/test_values311_tasks.py",
             "tests/data/test_values32_tasks.py", "tests/data/test_values339_tasks.py",
             "tests/data/test_values361_tasks.py", "tests/data/test_values383_tasks.py",
             "tests/data/test_values44_tasks.py", "tests/data/test_values53_tasks.py",
             "tests/data/test_values76_tasks.py", "tests/data/test_values89_tasks.py",
             "tests/data/test_values9_tasks.py", "tests/data/test_values_tasks.py"]

MNIST = "    return TaskShape(T, I, 10, False, nt, nv, (nt + nv) * (784 + 8))"
DIGITS = "    return TaskShape(64, 1, 10, False, nt, nv, (nt + nv) * (4 * 64 + 8))"
ADDING = "    return TaskShape(T, I, 1, False, SYNTHETIC_TRAIN, SYNTHETIC_VAL,"
COPY = "    return TaskShape(T, I, COPY_ALPHABET, True, SYNTHETIC_TRAIN, SYNTHETIC_VAL,"

MUTANTS = [
    dict(name="v467-mnist-shape-every-step", file=TASKS, old=MNIST, new=MNIST.replace("False", "True"),
         tests=NEW_TASKS + OLD_TASKS, why="rnd48-22: the MNIST family's head counted on all 784 steps before building"),
    dict(name="v467-digits-shape-every-step", file=TASKS, old=DIGITS, new=DIGITS.replace("False", "True"),
         tests=NEW_TASKS + OLD_TASKS, why="the digits' head counted on all 64 steps before building"),
    dict(name="v467-digits-shape-two-classes", file=TASKS, old=DIGITS, new=DIGITS.replace("1, 10,", "1, 2,"),
         tests=NEW_TASKS + OLD_TASKS, why="the digits' classes taken as the binary pixels' two"),
    dict(name="v467-adding-shape-every-step", file=TASKS, old=ADDING, new=ADDING.replace("False", "True"),
         tests=NEW_TASKS + OLD_TASKS, why="the adding problem's regression head counted on every step"),
    dict(name="v467-copy-shape-last-step", file=TASKS, old=COPY, new=COPY.replace("True", "False"),
         tests=NEW_TASKS + OLD_TASKS, why="the copy task's per-step head counted once"),
    dict(name="v467-copy-shape-input-width-classes", file=TASKS, old=COPY,
         new=COPY.replace("COPY_ALPHABET, True", "COPY_ALPHABET + 2, True"), tests=NEW_TASKS + OLD_TASKS,
         why="the copy task's classes taken as its one-hot inputs' width (the alphabet, blank and delimiter)"),
    dict(name="v467-pmnist-shape-unknown", file=TASKS,
         old='{"data_dir", "split"},\n                   _mnist_shape),', new='{"data_dir", "split"}),',
         tests=NEW_TASKS + OLD_TASKS, why="pmnist's size known only once built: the memory check comes after it"),
]
