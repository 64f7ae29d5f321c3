"""lnrnn/training/plan.py, setup.py and evaluation.py, thirteenth pass: validate's --patience refusal naming the
patience given (not --eval-every's value beside it); task_options refusing an option a task does not read by its
flag as typed (--allow-pickle, dashes not underscores); describe's start line written out by hand (the training
batch, not the evaluation batch; epochs singular and plural); split_arrays parting a checkpoint's arrays into the
model's and the optimizer's slots by their prefixes."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.training import plan, setup
from lnrnn.training.evaluation import split_arrays
from lnrnn.training.runconfig import TrainConfig


def test_patience_refusal_names_the_patience_given():
    cfg = plan.resolve_defaults(TrainConfig(task="digits", patience=0, eval_every=7))
    with pytest.raises(UserError) as e:
        plan.validate(cfg)
    assert str(e.value) == "--patience must be at least 1 evaluation, not 0."


def test_an_option_the_task_does_not_read_is_named_by_its_flag():
    with pytest.raises(UserError) as e:
        plan.task_options(TrainConfig(task="copy", allow_pickle=True))
    assert str(e.value) == "task copy does not take --allow-pickle."


def fake_setup(**kw):
    cfg = TrainConfig(**{**dict(cell="ln-lstm", task="digits", hidden=7, layers=2, batch_size=12, eval_batch_size=500,
                                epochs=1, lr=0.003, lr_decay=1.0, clip=1.0, seed=4, dtype="float64",
                                out="runs/x"), **kw})
    model = SimpleNamespace(config={}, num_params=lambda: 1234)
    return SimpleNamespace(cfg=cfg, model=model, task=SimpleNamespace(description="the digits task"),
                           init_record=None)


def test_start_line_written_out_by_hand():
    assert setup.describe(fake_setup()) == (
        "Training ln-lstm (hidden 7, 2 layers, 1,234 parameters, float64) on the digits task; adam lr 0.003, clip 1, "
        "batch 12, 1 epoch, seed 4; writing to runs/x.")
    assert setup.describe(fake_setup(layers=1, epochs=11, lr_decay=0.9, batch_size=3, eval_batch_size=30)) == (
        "Training ln-lstm (hidden 7, 1 layer, 1,234 parameters, float64) on the digits task; adam lr 0.003 decay "
        "0.9/epoch, clip 1, batch 3, 11 epochs, seed 4; writing to runs/x.")


def test_split_arrays_parts_model_and_slots_by_prefix():
    a, b, c, d = (np.full(2, v) for v in (1.0, 2.0, 3.0, 4.0))
    model, slots = split_arrays({"param/stack.0.Wx": a, "buffer/stack.0.rm": b, "optim/m/stack.0.Wx": c,
                                 "optim/v/stack.0.Wx": d})
    assert set(model) == {"stack.0.Wx", "stack.0.rm"}
    assert model["stack.0.Wx"] is a and model["stack.0.rm"] is b
    assert set(slots) == {"m", "v"}
    assert set(slots["m"]) == {"stack.0.Wx"} and set(slots["v"]) == {"stack.0.Wx"}
    assert slots["m"]["stack.0.Wx"] is c and slots["v"]["stack.0.Wx"] is d
