"""lnrnn/training/setup.py's resume_config: a resume takes every setting from the checkpoint, except the
options a resume may change (RESUME_OVERRIDABLE) given on its command line, which take the new value; any
other option given with another value is refused naming the flag, the run's value and the one given."""
import dataclasses

import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.plan import RESUME_OVERRIDABLE
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import resume_config

SAVED = dataclasses.asdict(TrainConfig(cell="lstm", hidden=8, epochs=3, lr=0.01, lr_decay=0.5, keep=2, out="runs/a"))


def _given(**changes):
    return TrainConfig(**{**SAVED, "out": "runs/moved", **changes})


@pytest.mark.parametrize("name, value", [("epochs", 9), ("lr", 0.002), ("lr_decay", 1.0), ("keep", 5)])
def test_an_overridable_option_given_takes_the_new_value_and_nothing_else_moves(name, value):
    assert name in RESUME_OVERRIDABLE
    cfg = resume_config(SAVED, _given(**{name: value}), [name], budget={"max_steps": 40, "time_budget": None})
    got = dataclasses.asdict(cfg)
    want = {**SAVED, name: value, "max_steps": 40, "time_budget": None}
    assert got == want


def test_an_overridable_option_not_given_keeps_the_runs_value():
    cfg = resume_config(SAVED, _given(epochs=9, lr=0.5), [])
    assert (cfg.epochs, cfg.lr) == (SAVED["epochs"], SAVED["lr"])


def test_another_option_given_with_another_value_is_refused_naming_both():
    with pytest.raises(CheckpointError, match="^the run in runs/moved was trained with --hidden 8, not 16; drop "
                                              "--hidden to resume it"):
        resume_config(SAVED, _given(hidden=16), ["hidden"])
    assert resume_config(SAVED, _given(hidden=8), ["hidden"]).hidden == 8   # the same value given again
