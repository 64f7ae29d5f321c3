"""lnrnn/training/plan.py: a run's settings resolved once into the plan the run reads."""
import pytest

from lnrnn.data.tasks import load_task
from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory, plan as plan_module
from lnrnn.training.plan import check_memory_built, model_for, resolve
from lnrnn.training.runconfig import TrainConfig


def test_the_plan_carries_the_row_and_the_filled_defaults():
    plan = resolve(TrainConfig(cell="bn-rnn", task="strokes-synthetic", split="8/4", layers=1))
    assert plan.cell is cells.get("bn-rnn")
    # the stroke tasks' defaults (lnrnn.config.TASK_DEFAULTS), a given field kept
    assert (plan.cfg.hidden, plan.cfg.layers, plan.cfg.skip, plan.cfg.eval_batch_size) == (400, 1, True, 32)
    assert plan.shape is None and plan.memory is None   # a stroke task's shape is known once it is built


def test_a_stroke_task_is_checked_once_built_with_its_heads_outputs(monkeypatch):
    """check_memory_built estimates a built stroke task with its mixture density head's 6M+1 outputs on
    every step, and refuses a run that does not fit in one sentence."""
    plan = resolve(TrainConfig(task="strokes-synthetic", split="8/4", hidden=8, layers=2))
    task = load_task(plan.task_spec)
    M = task.head["components"]
    seen = []
    monkeypatch.setattr(plan_module, "check_fits", lambda parts, steps_option: seen.append(parts))
    check_memory_built(plan, task)
    assert seen == [memory.estimate(plan.cfg, plan.cell, task.steps, task.input_size, 6 * M + 1, True)]
    # the parameters counted are the model's: the skip stack's head reads both layers, K = 6M+1 wide
    assert not plan.cell.buffers   # ln-lstm: no BN statistics in the parameters' part
    slots = 3 + memory.slots(plan.cfg.optimizer)   # params, grads, a copy for saving, the optimizer's
    assert seen[0]["parameters"] == 4 * slots * model_for(plan, task).num_params()
    monkeypatch.undo()
    monkeypatch.setattr(memory, "available_bytes", lambda: 1 << 10)
    with pytest.raises(UserError, match="this run needs about"):
        check_memory_built(plan, task)
