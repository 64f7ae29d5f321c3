"""lnrnn/training/plan.py's refusals of --time-budget, --clip-gates, --log-every and --eval-every, against the rule
each message states: the value just outside the allowed range (0 for a budget that must be positive, an infinite
or NaN clip for one that must be a number) is refused in one line naming the option and quoting its own value
(another option's value set alongside must not show up), and the value at the edge is taken."""
import math

import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig


def config(**kw):
    return resolve_defaults(TrainConfig(**{"task": "digits", "out": "runs/x", "cell": "lstm", **kw}))


@pytest.mark.parametrize("option, bad, message", [
    ("time_budget", 0.0, "--time-budget must be positive, not 0.0."),
    ("time_budget", -1.0, "--time-budget must be positive, not -1.0."),
    ("clip_gates", math.inf, "--clip-gates must be 0 (off) or a positive number, not inf."),
    ("clip_gates", math.nan, "--clip-gates must be 0 (off) or a positive number, not nan."),
    ("clip_gates", -0.5, "--clip-gates must be 0 (off) or a positive number, not -0.5."),
    ("log_every", 0, "--log-every must be at least 1 update, not 0."),
    ("eval_every", 0, "--eval-every must be at least 1 update, not 0."),
])
def test_a_bad_value_is_refused_in_one_line_quoting_it(option, bad, message):
    others = {"eval_every": 3, "log_every": 5}   # values that must not be quoted instead
    cfg = config(**{**others, option: bad})
    with pytest.raises(UserError) as e:
        validate(cfg)
    assert str(e.value) == message
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("option, edge", [("time_budget", 1e-6), ("clip_gates", 0.0), ("clip_gates", 1e9),
                                          ("log_every", 1), ("eval_every", 1)])
def test_the_value_at_the_edge_is_taken(option, edge):
    cfg = config(**{option: edge})
    assert validate(cfg) is cells.get(cfg.cell)
