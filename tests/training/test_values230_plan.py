"""lnrnn/training/plan.py: what a plan counts before any data are built, and the options it passes on. The adding
task's --steps reaches the plan's shape and its memory estimate's data bytes, counted here from the task's
definition (float32 inputs of T steps by 2 and the random draws made while building: 2 * (8 T) + 4 + 16 T bytes
a sequence, over SYNTHETIC_TRAIN + SYNTHETIC_VAL sequences); model_for builds a model whose every layer clips its
gates at --clip-gates; a given --state-noise 0 stays 0 where the default would be BN_STATE_NOISE."""
import dataclasses
from types import SimpleNamespace

import pytest

from lnrnn.config import BN_STATE_NOISE
from lnrnn.data.tasks import SYNTHETIC_TRAIN, SYNTHETIC_VAL
from lnrnn.model import cells
from lnrnn.training.plan import model_for, resolve, state_noise
from lnrnn.training.runconfig import TrainConfig
from test_values218_plan import _plan


@pytest.mark.parametrize("steps", [37, 101, 1000])
def test_steps_reach_the_shape_and_the_memory_estimate(steps):
    plan = resolve(TrainConfig(task="adding", steps=steps, hidden=4, layers=1, batch_size=8))
    per_sequence = 2 * (steps * 2 * 4) + 4 + 2 * steps * 8
    assert plan.task_spec["steps"] == steps
    assert (plan.shape.steps, plan.shape.inputs, plan.shape.outputs, plan.shape.per_step) == (steps, 2, 1, False)
    assert (plan.shape.n_train, plan.shape.n_val) == (SYNTHETIC_TRAIN, SYNTHETIC_VAL)
    assert plan.shape.data_bytes == (SYNTHETIC_TRAIN + SYNTHETIC_VAL) * per_sequence
    assert plan.memory["data"] == (SYNTHETIC_TRAIN + SYNTHETIC_VAL) * per_sequence


@pytest.mark.parametrize("cell,clip", [("ln-lstm", 0.5), ("bn-lstm", 2e-4), ("lstm", 0.0)])
def test_model_for_clips_every_layers_gates_at_the_option(cell, clip):
    plan = _plan(cell, None)
    plan = SimpleNamespace(cfg=dataclasses.replace(plan.cfg, clip_gates=clip, layers=3), cell=plan.cell)
    task = SimpleNamespace(input_size=3, head={"kind": "classifier", "outputs": 4, "per_step": False}, extra={})
    model = model_for(plan, task)
    assert len(model.stack.layers) == 3
    assert [layer.clip_gates for layer in model.stack.layers] == [clip] * 3


@pytest.mark.parametrize("cell,given,prefix,want", [
    ("bn-lstm", 0.0, True, 0.0),      # given 0: off, where the default would turn it on
    ("ln-lstm", 0.0, False, 0.0),
    ("bn-lstm", None, True, BN_STATE_NOISE),
    ("bn-rnn", 0.3, False, 0.3),
])
def test_state_noise_given_zero_is_off(cell, given, prefix, want):
    plan = SimpleNamespace(cfg=SimpleNamespace(state_noise=given), cell=cells.get(cell))
    got = state_noise(plan, SimpleNamespace(extra={"constant_prefix": prefix}))
    assert got == want and isinstance(got, float)
