"""lnrnn/training/memory.py's activation and evaluation parts over several layers and directions, by hand from the
module docstring's terms: what forward keeps per layer, per (step, row) (the cell row's a * H + c, times the
directions) over --tbptt's steps or all T, the backward's working set of one layer, the batch and the head;
each layer added adds one layer's keep, and the plan's estimate counts the task's data, which the plan's check
refuses when it alone tips the run over what is available."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory
from lnrnn.training.optim import OPTIMIZERS
from lnrnn.training.plan import resolve
from lnrnn.training.runconfig import TrainConfig

T, I, OUT = 20, 3, 5


def cfg(**kw):
    base = dict(cell="lstm", hidden=10, layers=1, batch_size=4, eval_batch_size=6, skip=False)
    base.update(kw)
    return TrainConfig(**base)


@pytest.mark.parametrize("cell, layers, bidirectional, tbptt", [
    ("lstm", 3, False, None), ("ln-lstm", 2, True, None), ("ln-rnn", 4, False, 5), ("rnn", 2, True, 8),
])
def test_activations_and_evaluation_keep_every_layer(cell, layers, bidirectional, tbptt):
    row = cells.get(cell)
    a, c = row.activations
    H, B, Be = 10, 4, 6
    D = 2 if bidirectional else 1
    G = row.blocks * H
    Tc = tbptt or T
    keep = D * layers * (a * H + c)                                  # per (step, row), every layer and direction
    train = Tc * B * keep + Tc * B * (G + H + max(I, H)) + T * B * I + 3 * B * OUT
    evaluation = T * Be * keep + T * Be * I + 2 * Be * OUT
    parts = memory.estimate(cfg(cell=cell, layers=layers, bidirectional=bidirectional, tbptt=tbptt), row, T, I, OUT,
                            False)
    assert parts["activations"] == int(1.25 * 4 * train) and parts["evaluation"] == int(1.25 * 4 * evaluation)


@pytest.mark.parametrize("cell", ["lstm", "bn-lstm", "ln-rnn"])
def test_each_layer_adds_one_layers_keep(cell):
    row = cells.get(cell)
    a, c = row.activations
    parts = [memory.estimate(cfg(cell=cell, layers=L, dtype="float64"), row, T, I, OUT, False) for L in (1, 2, 3, 4)]
    for before, after in zip(parts, parts[1:]):
        assert after["activations"] - before["activations"] == pytest.approx(1.25 * 8 * T * 4 * (a * 10 + c), abs=1)
        assert after["evaluation"] - before["evaluation"] == pytest.approx(1.25 * 8 * T * 6 * (a * 10 + c), abs=1)


def test_the_plans_estimate_counts_the_tasks_data(monkeypatch):
    """digits, 40 + 20 sequences of 64 float32 steps and an int64 label each: (4 * 64 + 8) bytes a sequence,
    as many as the built task holds; a machine with one byte less than the run's peak refuses it."""
    c = TrainConfig(task="digits", split="40/20", hidden=5)
    plan = resolve(c)
    assert plan.memory["data"] == 60 * (4 * 64 + 8)
    from lnrnn.data.tasks import load_task
    task = load_task(plan.task_spec)
    held = sum(a.nbytes for a in (task.x_train, task.y_train, task.x_val, task.y_val))
    assert plan.memory["data"] == held
    m = plan.memory
    peak = m["parameters"] + max(m["activations"], m["evaluation"]) + held
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    monkeypatch.setattr(memory, "available_bytes", lambda: peak)
    resolve(c)
    monkeypatch.setattr(memory, "available_bytes", lambda: peak - 1)
    with pytest.raises(UserError, match="this run needs about"):
        resolve(c)


def _kept(opt):
    """Parameter-sized slots a real step of opt leaves behind (two parameters, counted per parameter)."""
    opt.step({"w": np.zeros(3), "b": np.zeros(2)}, {"w": np.ones(3), "b": np.ones(2)})
    return sum(len(d) for d in opt.slots.values()) // 2


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
def test_the_slots_counted_are_the_slots_a_step_keeps(kind):
    """The estimate's optimizer slots for each kind, against the arrays a real step of that optimizer (at its
    defaults, as lnrnn train makes it) leaves behind: rmsprop-graves keeps three (sq, avg, v)."""
    assert memory.slots(kind) == _kept(OPTIMIZERS[kind]())
    assert memory.slots("rmsprop-graves") == 3


@pytest.mark.parametrize("kind,hyper", [("sgd", dict(momentum=0.0)), ("sgd", dict(momentum=0.5)),
                                        ("rmsprop-graves", dict(centred=False)),
                                        ("rmsprop-momentum", dict(centred=True))])
def test_slots_kept_follows_the_hyper_parameters(kind, hyper):
    """Off the defaults too: plain SGD keeps no slot, an RMSProp with momentum its avg only when centred."""
    opt = OPTIMIZERS[kind](**hyper)
    assert opt.slots_kept() == _kept(OPTIMIZERS[kind](**hyper))
