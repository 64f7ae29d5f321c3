"""lnrnn/training/plan.py's memory check of a task known only once built (check_memory_built, the stroke tasks' path):
a plan without a shape is checked against the built task with the memory made too small, and the refusal's advice
leads with "a smaller --steps" exactly when --steps was given (the hint order check_fits documents: a sequence length
that came from --steps is the first thing to shorten); a plan whose shape was known is not checked again (resolve
checked it already)."""
import dataclasses
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.training import memory
from lnrnn.training.plan import check_memory_built, resolve
from lnrnn.training.runconfig import TrainConfig

TASK = SimpleNamespace(steps=400, input_size=3, head={"kind": "classifier", "outputs": 4, "per_step": True}, extra={})


def _plans():
    plan = resolve(TrainConfig(task="adding", steps=50, hidden=4, layers=1, batch_size=8))
    return plan, SimpleNamespace(cfg=plan.cfg, cell=plan.cell, shape=None)


@pytest.mark.parametrize("steps", [50, None])
def test_built_tasks_memory_check_advises_steps_only_when_given(steps, monkeypatch):
    plan, unshaped = _plans()
    unshaped.cfg = dataclasses.replace(plan.cfg, steps=steps)
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    monkeypatch.setattr(memory, "available_bytes", lambda: 1000)
    with pytest.raises(UserError) as e:
        check_memory_built(unshaped, TASK)
    msg = str(e.value)
    assert msg.startswith("this run needs about ") and "but only 1 KB is available; try " in msg, msg
    advice = msg.split("; try ", 1)[1]
    if steps is None:   # the data part is 0 for a built task: nothing says --steps
        assert "--steps" not in msg, msg
    else:
        assert advice.startswith("a smaller --steps or "), msg


def test_a_plan_with_a_shape_is_not_checked_again(monkeypatch):
    plan, _ = _plans()
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    monkeypatch.setattr(memory, "available_bytes", lambda: 1000)
    assert plan.shape is not None
    assert check_memory_built(plan, TASK) is None
