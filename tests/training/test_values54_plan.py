"""lnrnn/training/plan.py's checks, option by option, against the rule each message states: a value just outside
the allowed range is refused in one line that names the option and quotes the value given (not another
option's), the value at the edge is taken (--hidden 1, --window 0: no attention window), and a resume may give a
larger --patience (what an early stop's message tells the user to do) but not another --hidden."""
import dataclasses

import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.model import cells
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import resume_config


def config(**kw):
    return resolve_defaults(TrainConfig(**{"task": "digits", "out": "runs/x", **kw}))


@pytest.mark.parametrize("option, bad, message", [
    ("hidden", 0, "--hidden must be at least 1, not 0."),
    ("hidden", -3, "--hidden must be at least 1, not -3."),
    ("lr", 0.0, "--lr must be a positive number, not 0.0."),
    ("lr", -0.1, "--lr must be a positive number, not -0.1."),
    ("window", -1, "--window must be 0 (no attention window) or a number of Gaussians, not -1."),
    ("batch_size", 0, "--batch-size must be at least 1, not 0."),
])
def test_a_bad_value_is_refused_in_one_line_quoting_it(option, bad, message):
    cfg = config(**{option: bad, "eval_batch_size": 7})   # another option's value must not show up
    with pytest.raises(UserError) as e:
        validate(cfg)
    assert str(e.value) == message
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("option, edge", [("hidden", 1), ("lr", 1e-12), ("window", 0), ("batch_size", 1)])
def test_the_value_at_the_edge_is_taken(option, edge):
    cfg = config(**{option: edge})
    assert validate(cfg) is cells.get(cfg.cell)                # taken: the cell's registry row


def saved(**kw):
    return dataclasses.asdict(config(patience=2, **kw))


def test_a_resume_may_give_a_larger_patience():
    given = config(patience=5)
    cfg = resume_config(saved(), given, explicit=("patience",))
    assert cfg.patience == 5 and cfg.hidden == config().hidden


def test_a_resume_may_not_give_another_hidden():
    given = config(hidden=9)
    with pytest.raises(CheckpointError, match=r"trained with --hidden \d+, not 9; drop --hidden"):
        resume_config(saved(), given, explicit=("hidden",))
