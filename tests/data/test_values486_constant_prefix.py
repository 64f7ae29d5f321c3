"""A task's ``constant_prefix`` (lnrnn/data/tasks.py, lnrnn/data/strokes.py) says what its data are: every
sequence of both splits begins with the same inputs, which is what gives BN cells their state-noise default
(training/plan.state_noise: a per-step batch variance of zero at the first step). Each task's flag against its
own first steps, read through ``batch`` as training reads them: the 8x8 digits (a blank corner pixel, as values
and binary), MNIST pixel by pixel and row by row (a blank corner and a blank top row) but not permuted, the
adding and copy problems (random first steps: no flag), and the stroke tasks (every line starts at the offset
0, 0 and no pen lift)."""
import numpy as np
import pytest

from lnrnn.data.tasks import load_task, task_spec
from test_data import SHARED_MNIST, needs_shared


def first_steps_agree(d):
    """Whether every sequence of both splits has the same inputs at step 0 (x is (T,B,I) from batch)."""
    firsts = [d.batch(w, np.arange(d.size(w)), np.float64)[0][0] for w in ("train", "val")]   # (B,I) each
    f = np.concatenate(firsts)
    return bool((f == f[0]).all())


@pytest.mark.parametrize("task,options", [("digits", {}), ("digits-binary", {}), ("adding", dict(steps=20)),
                                          ("copy", {}), ("strokes-synthetic", dict(split="60/20")),
                                          ("strokes-hershey", {})])
def test_each_tasks_flag_is_what_its_first_steps_are(task, options):
    d = load_task(task_spec(task, **options))
    assert bool(d.extra.get("constant_prefix", False)) == first_steps_agree(d)


@needs_shared
@pytest.mark.parametrize("task,flag", [("mnist", True), ("mnist-rows", True), ("pmnist", False)])
def test_mnist_family_flag_is_what_its_first_steps_are(task, flag):
    d = load_task(task_spec(task, SHARED_MNIST, split="800/200"))
    assert first_steps_agree(d) == flag
    assert bool(d.extra.get("constant_prefix", False)) == flag
