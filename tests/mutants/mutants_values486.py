"""Planted bugs, round 486 (format: tests/mutants/mutants.py): the constant-prefix survivor of a seventy-eighth
random sample (tests/mutants/random_sample.py --seed 78 --count 40 --all-named, on 78f589c: 37 of 40 caught) and its
neighbours, eighty-second pass.

Seed 78's 3 missed, all real for the named files: the digits tasks saying their sequences do not begin alike
(rnd78-01, here), the written lines' grid of two columns and draw_written's attention on by default (rnd78-09 and
rnd78-34, round 487).

The planted bugs, in the constant_prefix flag each task sets (every sequence of both splits begins with the same
inputs, which gives BN cells their state-noise default): the digits tasks without it (rnd78-01), mnist-rows without
it, pmnist with it (its first pixel differs from image to image), the stroke tasks without it. 4 mutants. The old
files named after each module catch 1 of 4 (the stroke tasks'); the new file alone catches 4 of 4, from each task's
own first steps read through batch.

    python tests/mutants/run.py --only 'v486-*'
"""
TASKS = "lnrnn/data/tasks.py"
STROKES = "lnrnn/data/strokes.py"
NEW = ["tests/data/test_values486_constant_prefix.py"]
OLD_TASKS = [
    "tests/data/test_values111_tasks.py",
    "tests/data/test_values89_tasks.py",
    "tests/data/test_values102_tasks.py",
    "tests/data/test_values127_tasks.py",
    "tests/data/test_values12_tasks.py",
    "tests/data/test_values136_tasks.py",
    "tests/data/test_values13_tasks.py",
    "tests/data/test_values164_tasks.py",
    "tests/data/test_values200_tasks.py",
    "tests/data/test_values21_tasks.py",
    "tests/data/test_values220_tasks.py",
    "tests/data/test_values228_tasks.py",
    "tests/data/test_values240_tasks.py",
    "tests/data/test_values258_tasks.py",
    "tests/data/test_values311_tasks.py",
    "tests/data/test_values32_tasks.py",
    "tests/data/test_values339_tasks.py",
    "tests/data/test_values361_tasks.py",
    "tests/data/test_values383_tasks.py",
    "tests/data/test_values44_tasks.py",
    "tests/data/test_values53_tasks.py",
    "tests/data/test_values76_tasks.py",
    "tests/data/test_values9_tasks.py",
    "tests/data/test_values_tasks.py",
]
OLD_STROKES = [
    "tests/data/test_values_strokes.py",
    "tests/data/test_values12_strokes.py",
    "tests/data/test_values200_strokes.py",
    "tests/data/test_values220_strokes.py",
    "tests/data/test_strokes_data.py",
    "tests/data/test_text_strokes.py",
    "tests/data/test_values109_strokes.py",
    "tests/data/test_values126_strokes.py",
    "tests/data/test_values164_strokes.py",
    "tests/data/test_values20_strokes.py",
    "tests/data/test_values21_strokes.py",
    "tests/data/test_values232_strokes.py",
    "tests/data/test_values244_strokes.py",
    "tests/data/test_values246_kanjivg_strokes.py",
    "tests/data/test_values258_strokes.py",
    "tests/data/test_values299_strokes.py",
    "tests/data/test_values311_strokes.py",
    "tests/data/test_values339_strokes.py",
    "tests/data/test_values366_strokes_text.py",
    "tests/data/test_values433_strokes.py",
    "tests/data/test_values441_strokes.py",
    "tests/data/test_values44_strokes.py",
    "tests/data/test_values457_strokes_synthetic.py",
    "tests/data/test_values479_strokes.py",
    "tests/data/test_values53_strokes.py",
    "tests/data/test_values76_strokes.py",
    "tests/data/test_values89_strokes.py",
    "tests/data/test_values446_strokes.py",
]
DIGITS = '                    xt, yt, xv, yv, num_classes=10, extra={"constant_prefix": True})\n'
MNIST = '                    num_classes=10, scale=1.0 / 255.0, extra={"constant_prefix": task != "pmnist"})\n'
STROKE_INFO = "offset_scale=scale, constant_prefix=True,"


def _x(name, file, old, new, old_tests, why):
    return dict(name=f"v486-{name}", file=file, old=old, new=new, tests=NEW + old_tests, why=why)


MUTANTS = [
    _x("digits-no-prefix", TASKS, DIGITS, DIGITS.replace("True", "False"), OLD_TASKS,
       "the digits tasks say their sequences do not begin alike (rnd78-01): BN cells lose their state noise"),
    _x("rows-no-prefix", TASKS, MNIST, MNIST.replace('task != "pmnist"', 'task == "mnist"'), OLD_TASKS,
       "only mnist, not mnist-rows, says its sequences begin alike"),
    _x("pmnist-prefix", TASKS, MNIST, MNIST.replace('task != "pmnist"', "True"), OLD_TASKS,
       "pmnist says its sequences begin alike, where its first pixel differs from image to image"),
    _x("strokes-no-prefix", STROKES, STROKE_INFO, STROKE_INFO.replace("True", "False"), OLD_STROKES,
       "the stroke tasks say their lines do not begin alike, where every line starts at the offset (0, 0)"),
]
