"""lnrnn/training/plan.py and lnrnn/training/setup.py on the distributed path's options, refusals word for word
with nothing written: --reproducible is let through on the CPU and refused with --device cuda; the state noise a
BN cell gets by default on a task whose sequences all begin with the same input (the digits: checked here on the
built task's arrays) is BN_STATE_NOISE, 0 for an LN cell there and for a BN cell on the adding task (random first
inputs), and --state-noise given is kept; build holds a group of two processes to its size (a batch of 1 refused
for 2 processes), and refuses a BN synthesis network under --reproducible in one process as under a group of two,
while an LN one builds."""
import dataclasses
import os
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.config import BN_STATE_NOISE
from lnrnn.errors import UserError
from lnrnn.training.plan import resolve
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import build

ONE = SimpleNamespace(root=True, size=1, allreduce=None)
TWO = SimpleNamespace(root=True, size=2, allreduce=lambda buf: None)   # rank 0 of 2, built in one process


def digits(tmp_path, **kw):
    return TrainConfig(**{**dict(task="digits", split="40/8", hidden=3, batch_size=8, out=str(tmp_path / "run")),
                          **kw})


def test_reproducible_is_a_cpu_option(tmp_path):
    plan = resolve(digits(tmp_path, reproducible=True))
    assert plan.cfg.reproducible and plan.cfg.device == "cpu"
    with pytest.raises(UserError) as e:
        resolve(digits(tmp_path, reproducible=True, device="cuda"))
    assert str(e.value) == "--reproducible is a property of the CPU kernels; drop it with --device cuda."
    assert not os.path.exists(tmp_path / "run")


@pytest.mark.parametrize("cell,task,given,want", [
    ("bn-lstm", "digits", None, BN_STATE_NOISE),
    ("bn-rnn", "digits", None, BN_STATE_NOISE),
    ("ln-lstm", "digits", None, 0.0),
    ("bn-lstm", "adding", None, 0.0),
    ("bn-lstm", "digits", 0.3, 0.3),
    ("bn-lstm", "digits", 0.0, 0.0),
])
def test_state_noise_default_follows_the_cell_and_the_tasks_first_input(tmp_path, cell, task, given, want):
    kw = dict(split="40/8") if task == "digits" else dict(steps=6)
    cfg = TrainConfig(task=task, cell=cell, hidden=3, batch_size=8, state_noise=given, out=str(tmp_path / "r"), **kw)
    setup = build(cfg, False, set(), ONE)
    first = setup.task.x_train[:, 0]          # (N, I): each sequence's first input
    same = bool(np.all(first == first[0]))
    assert same == (task == "digits")         # the digits all start in the same blank corner; adding's are random
    assert setup.model.config["state_noise"] == want
    assert setup.model.state_noise == want
    assert BN_STATE_NOISE > 0


def test_a_group_of_two_is_held_to_its_size(tmp_path):
    cfg = digits(tmp_path, batch_size=1)
    build(cfg, False, set(), ONE)                 # one process: a batch of 1 is fine
    with pytest.raises(UserError) as e:
        build(cfg, False, set(), TWO)
    assert str(e.value) == ("--batch-size 1 is smaller than the 2 MPI processes: each rank needs a share of every "
                            "batch; use --batch-size 2 or more, or fewer processes.")
    assert build(digits(tmp_path, batch_size=2), False, set(), TWO).cfg.batch_size == 2
    assert not os.path.exists(tmp_path / "run")


SYNTH_REFUSAL = ("the synthesis network's bn-lstm layers keep their BatchNorm statistics to one process and one "
                 "block: train it without --reproducible and without an MPI launcher, or use --cell ln-lstm.")


def hershey(tmp_path, **kw):
    return TrainConfig(**{**dict(task="strokes-hershey", split="6/2", cell="bn-lstm", hidden=3, batch_size=2,
                                 out=str(tmp_path / "synth")), **kw})


@pytest.mark.parametrize("reproducible,group", [(True, ONE), (False, TWO)],
                         ids=["reproducible-one-process", "two-processes"])
def test_a_bn_synthesis_network_is_refused_under_blocks_or_ranks(tmp_path, reproducible, group):
    with pytest.raises(UserError) as e:
        build(hershey(tmp_path, reproducible=reproducible), False, set(), group)
    assert str(e.value) == SYNTH_REFUSAL
    assert not os.path.exists(tmp_path / "synth")


def test_a_synthesis_network_builds_in_one_process_or_with_ln(tmp_path):
    assert build(hershey(tmp_path), False, set(), ONE).model.conditioned
    ln = build(hershey(tmp_path, cell="ln-lstm", reproducible=True), False, set(), ONE)
    assert ln.model.conditioned and ln.cfg.reproducible
    ln2 = build(dataclasses.replace(hershey(tmp_path), cell="ln-lstm"), False, set(), TWO)
    assert ln2.model.conditioned
