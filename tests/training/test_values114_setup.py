"""lnrnn/training/setup.py's resume_config and describe against their definitions.

resume_config: an option a resume may change (RESUME_OVERRIDABLE), given again, takes the value given now
and nothing else moves; the budget is the checkpoint's record, not the settings' (a resume without one has
none); another option given with another value is refused naming the run's value first, then the one
given, under its flag with dashes. describe: the one-line summary assembled here, field by field, for a
plain classifier and a synthesis network whose window layer has its own norm."""
import dataclasses
from types import SimpleNamespace

import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.plan import RESUME_OVERRIDABLE
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import describe, resume_config

SAVED = dataclasses.asdict(TrainConfig(cell="ln-lstm", hidden=6, epochs=2, lr=0.02, batch_size=4,
                                       max_steps=7, time_budget=30.0, out="runs/s"))


def given(**changes):
    return TrainConfig(**{**SAVED, **changes})


@pytest.mark.parametrize("name, value", [("epochs", 5), ("patience", 3), ("eval_every", 2)])
def test_an_option_given_again_takes_the_value_given_now(name, value):
    assert name in RESUME_OVERRIDABLE
    cfg = resume_config(SAVED, given(**{name: value}), [name])
    got = dataclasses.asdict(cfg)
    assert got == {**SAVED, name: value, "max_steps": None, "time_budget": None}


def test_the_budget_comes_from_the_checkpoints_record():
    cfg = resume_config(SAVED, given(), [], budget={"max_steps": 9, "time_budget": 12.5, "used_s": 3.0})
    assert (cfg.max_steps, cfg.time_budget) == (9, 12.5)


@pytest.mark.parametrize("name, value, flag", [("batch_size", 8, "--batch-size"), ("hidden", 3, "--hidden")])
def test_a_fixed_option_given_otherwise_is_refused_run_value_first(name, value, flag):
    with pytest.raises(CheckpointError) as e:
        resume_config(SAVED, given(**{name: value}), [name])
    assert str(e.value) == (f"the run in runs/s was trained with {flag} {SAVED[name]}, not {value}; drop {flag} to "
                            "resume it, or start a new run with another --out.")


def fake_setup(window=None, window_norm=None, layers=2, epochs=1, lr_decay=1.0, init_record=None):
    c = SimpleNamespace(cell="ln-lstm", hidden=6, layers=layers, bidirectional=False, dtype="float32",
                        optimizer="adam", lr=0.002, lr_decay=lr_decay, clip=1.0, clip_output=0.0, clip_gates=0.0,
                        batch_size=4, epochs=epochs, seed=3, out="runs/d")
    config = {"alphabet_size": 11} if window else {}
    if window:
        config["window"] = window
    if window_norm:
        config["window_norm"] = window_norm
    m = SimpleNamespace(config=config, num_params=lambda: 12345)
    return SimpleNamespace(cfg=c, model=m, task=SimpleNamespace(description="the task"), init_record=init_record)


def test_describe_a_plain_run():
    got = describe(fake_setup(layers=1, epochs=1))
    assert got == ("Training ln-lstm (hidden 6, 1 layer, 12,345 parameters, float32) on the task; adam lr 0.002, "
                   "clip 1, batch 4, 1 epoch, seed 3; writing to runs/d.")


def test_describe_a_synthesis_run_names_its_window_and_its_norm():
    got = describe(fake_setup(window=3, window_norm="ln", layers=2, epochs=4, lr_decay=0.5))
    assert got == ("Training ln-lstm (hidden 6, 2 layers, 12,345 parameters, float32, writing each line's text "
                   "through an attention window of 3 Gaussians over 11 characters (its layer with norm ln)) on "
                   "the task; adam lr 0.002 decay 0.5/epoch, clip 1, batch 4, 4 epochs, seed 3; writing to runs/d.")
    plain = describe(fake_setup(window=3, layers=2, epochs=4))
    assert "over 11 characters) on the task" in plain and "its layer with norm" not in plain
