"""Planted bugs, round 383 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the task list and specs (lnrnn/data/tasks.py), twentieth pass, planted before any test was written for them: MNIST's
planned validation size 1000; --steps refused for the adding problem; --head ctc refused for strokes-hershey; the
checked head dropped from the spec; check_reading inverted; pmnist's description with a doubled space; the pixel
tasks described as steps of a row's width; the adding tolerance tenfold; a malformed --split let through at spec
time; load_task dropping allow_pickle and objective; the kanjivg charset's default kana; the --steps refusal naming
--step.

12 mutants. Against the old targeted files alone (tests/data/test_values*_tasks.py, test_values_tasks and test_data):
11 of 12 caught; missed: pmnist's doubled space. The new file test_values383_tasks catches all 12 on its own (checked
with every mutant's list cut to it): the options each task takes and the refusals word for word, the charset default,
MNIST's planned sizes, the pixel tasks' descriptions from tiny IDX files, the adding tolerance against the regression
head's and its targets as the sums of the marked values, an npz spec's objective through load_task.

    python tests/mutants/run.py --only 'v383-*'
"""
TASKS = "lnrnn/data/tasks.py"
T383 = "tests/data/test_values383_tasks.py::"

OLD_TASKS = [
    "tests/data/test_values102_tasks.py",
    "tests/data/test_values111_tasks.py",
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
    "tests/data/test_values44_tasks.py",
    "tests/data/test_values53_tasks.py",
    "tests/data/test_values76_tasks.py",
    "tests/data/test_values89_tasks.py",
    "tests/data/test_values9_tasks.py",
    "tests/data/test_values_tasks.py",
    "tests/data/test_values_tasks.py",
    "tests/data/test_data.py",
]

MUTANTS = [
    dict(name="v383-tasks-mnist-split-val-1000", file=TASKS,
         old='MNIST_SPLIT = (60000, 10000)',
         new='MNIST_SPLIT = (60000, 1000)',
         tests=OLD_TASKS,
         why="the planned MNIST validation size a tenth of the t10k files' 10000"),
    dict(name="v383-tasks-adding-reads-split", file=TASKS,
         old='"adding": Task(_adding, "adding problem, --steps long (regression)", {"steps"}',
         new='"adding": Task(_adding, "adding problem, --steps long (regression)", {"split"}',
         tests=OLD_TASKS,
         why='--steps refused for the adding problem'),
    dict(name="v383-tasks-hershey-reads-no-head", file=TASKS,
         old='"(pip install \'lnrnn[hershey]\')", {"split", "head"}',
         new='"(pip install \'lnrnn[hershey]\')", {"split"}',
         tests=OLD_TASKS,
         why='--head ctc refused for strokes-hershey'),
    dict(name="v383-tasks-check-head-returns-none", file=TASKS,
         old='                        "leave it out for the task\'s own head.")\n    return value',
         new='                        "leave it out for the task\'s own head.")\n    return None',
         tests=OLD_TASKS,
         why='--head ctc checked, then dropped from the spec'),
    dict(name="v383-tasks-check-reading-inverted", file=TASKS,
         old='    if task not in TEXT_TASKS:\n        raise UserError(f"--head ctc reads',
         new='    if task in TEXT_TASKS:\n        raise UserError(f"--head ctc reads',
         tests=OLD_TASKS,
         why='the text tasks refused a reader and the others let through'),
    dict(name="v383-tasks-pmnist-how-double-space", file=TASKS,
         old='how[len("pixel by pixel "):]',
         new='how[len("pixel by pixel"):]',
         tests=[T383 + "test_the_pixel_tasks_describe_their_steps"] + OLD_TASKS,
         why="pmnist's description with a doubled space"),
    dict(name="v383-tasks-mnist-how-steps-of-cols", file=TASKS,
         old='how = f"pixel by pixel ({rows * cols} steps of 1)"',
         new='how = f"pixel by pixel ({rows * cols} steps of {cols})"',
         tests=OLD_TASKS,
         why="the pixel tasks described as steps of a row's width"),
    dict(name="v383-tasks-adding-tolerance-tenfold", file=TASKS,
         old='ADDING_TOLERANCE = 0.04  #',
         new='ADDING_TOLERANCE = 0.4   #',
         tests=OLD_TASKS,
         why='an adding prediction within 0.4 counted right'),
    dict(name="v383-tasks-split-checked-from-options", file=TASKS,
         old='    if "split" in spec:\n        parse_split(spec["split"])',
         new='    if "split" in options:\n        parse_split(spec["split"])',
         tests=OLD_TASKS,
         why='a malformed --split not refused when the spec is made'),
    dict(name="v383-tasks-load-task-drops-options", file=TASKS,
         old='**{k: spec.get(k) for k in OPTIONS})',
         new='**{k: spec.get(k) for k in ("charset", "head")})',
         tests=OLD_TASKS,
         why="a spec's allow_pickle and objective lost when its task is loaded again"),
    dict(name="v383-tasks-charset-default-kana", file=TASKS,
         old='OPTIONS = {"charset": ("latin", _check_charset),',
         new='OPTIONS = {"charset": ("kana", _check_charset),',
         tests=OLD_TASKS,
         why="strokes-kanjivg without --charset draws kana, where README promises digits and Latin letters"),
    dict(name="v383-tasks-steps-flag-name", file=TASKS,
         old='                           ("steps", steps, "--steps")):',
         new='                           ("steps", steps, "--step")):',
         tests=OLD_TASKS,
         why="the refusal of --steps names an option that does not exist"),
]
