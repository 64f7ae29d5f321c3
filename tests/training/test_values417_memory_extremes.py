"""lnrnn/training/memory.py at the sizes a typo gives: the estimate of a stack of --layers 2**70 is the same
affine count in L as that of three layers, computed without a loop over the layers (it hung lnrnn train before),
and a synthesis network's attention window is counted (--window 2**70 ended in a NumPy allocation traceback
while its model was built): its part against the built model's own window parameters, the other parts unchanged
by it, and the refusal naming the window and advising a smaller --window; lnrnn train gives one Error line for
each."""
import signal
from contextlib import contextmanager

import pytest

from lnrnn.data.tasks import load_task
from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory
from lnrnn.training.plan import model_for, resolve
from lnrnn.training.runconfig import TrainConfig

from test_cli import assert_clean_error, invoke

HUGE = 2**70
T, I, OUT = 20, 3, 5


@contextmanager
def within(seconds):
    """Fail (rather than hang the suite) when the body runs longer than ``seconds``."""
    def stop(*_):
        raise AssertionError(f"still running after {seconds} s: a loop over a huge count?")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _cfg(**kw):
    return TrainConfig(**{**dict(cell="ln-lstm", hidden=10, layers=1, batch_size=4, eval_batch_size=6, skip=False),
                          **kw})


@pytest.mark.parametrize("skip,bidirectional", [(False, False), (True, False), (False, True)])
def test_the_estimate_is_affine_in_the_layers_up_to_a_huge_count(skip, bidirectional):
    row = cells.get("ln-lstm")
    one, two, three = (memory.estimate(_cfg(layers=L, skip=skip, bidirectional=bidirectional), row, T, I, OUT, False)
                       for L in (1, 2, 3))
    step = two["parameters"] - one["parameters"]
    assert step > 0 and three["parameters"] - two["parameters"] == step   # layers 2..L are alike
    with within(20):
        huge = memory.estimate(_cfg(layers=HUGE, skip=skip, bidirectional=bidirectional), row, T, I, OUT, False)
    assert huge["parameters"] == one["parameters"] + (HUGE - 1) * step
    with within(20), pytest.raises(UserError, match="of memory"):
        memory.check_fits(huge, available=1 << 40)


@pytest.mark.parametrize("layers", [1, 3])
def test_the_parameters_part_is_the_built_stacks(layers):
    """Five copies (params, grads, a copy for saving, Adam's two slots) of the model's own parameter count."""
    plan = resolve(TrainConfig(cell="ln-lstm", task="digits", split="40/20", hidden=5, layers=layers, batch_size=4))
    model = model_for(plan, load_task(plan.task_spec))
    assert plan.memory["parameters"] == 4 * 5 * model.num_params()


def test_train_with_a_huge_layer_count_is_one_error_line(tmp_path):
    with within(60):
        r = invoke("train", "--task", "digits", "--hidden", 4, "--layers", HUGE, "--out", tmp_path / "run")
    assert_clean_error(r, "of memory")
    assert not (tmp_path / "run").exists()


def _window_plan(window, **kw):
    return resolve(TrainConfig(task="strokes-hershey", split="6/2", cell="ln-lstm", hidden=3, batch_size=2,
                               window=window, **kw))


@pytest.mark.parametrize("K,dtype,optimizer,slots", [(4, "float32", "adam", 2), (1, "float64", "sgd", 1)])
def test_the_window_part_counts_the_models_window_parameters(K, dtype, optimizer, slots):
    plan = _window_plan(K, dtype=dtype, optimizer=optimizer)
    task = load_task(plan.task_spec)
    model = model_for(plan, task)
    window = {k: v for k, v in model.params.items() if k.endswith((".Wp", ".bp"))}
    assert sorted(window) == ["rnn.l0.Wp", "rnn.l0.bp"]
    n_window = sum(v.size for v in window.values())
    assert n_window == 3 * K * (3 + 1)
    itemsize = 8 if dtype == "float64" else 4
    parts = memory.estimate(plan.cfg, plan.cell, task.steps, task.input_size, 121, True)
    # its parameters as the others' (params, grads, a copy for saving, the optimizer's slots), and per (step,
    # row) of training p (3K) and kappa (K)
    assert parts["window"] == itemsize * (n_window * (3 + slots) + task.steps * 2 * 4 * K)
    without = memory.estimate(plan.cfg.__class__(**{**plan.cfg.__dict__, "window": 0}), plan.cell, task.steps,
                              task.input_size, 121, True)
    assert "window" not in without
    assert {k: v for k, v in parts.items() if k != "window"} == without


def test_a_window_that_does_not_fit_is_refused_by_name():
    parts = {"parameters": 1 << 20, "activations": 1 << 20, "evaluation": 1 << 19, "data": 1 << 20,
             "window": 100 << 30}
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=8 << 30)
    got = str(e.value)
    assert got.startswith("this run needs about 100.0 GB of memory (the attention window 100.0 GB) but only 8.0 GB")
    assert "try a smaller --window (" in got
    assert memory.check_fits(dict(parts, window=1 << 20), available=8 << 30) == 4 << 20   # the window counted


def test_train_with_a_huge_window_is_one_error_line(tmp_path):
    r = invoke("train", "--task", "strokes-hershey", "--split", "6/2", "--hidden", 3, "--batch-size", 2, "--window", HUGE,
               "--out", tmp_path / "run")
    line = assert_clean_error(r, "(the attention window ")
    assert "try a smaller --window" in line
    assert not (tmp_path / "run").exists()
