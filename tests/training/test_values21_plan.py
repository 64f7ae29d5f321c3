"""lnrnn/training/plan.py's validate at the edge of every count and switch it checks, against the bounds its
messages state: the smallest value each option takes (1 evaluation of --patience, 1 update of --max-steps,
0 for the options where 0 means off) is accepted, the one just below it refused with that option's message."""
import pytest

from lnrnn.errors import UserError
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig

EDGES = [  # option, the smallest value it takes, the largest it refuses
    ("patience", 1, 0), ("max_steps", 1, 0), ("eval_every", 1, 0), ("save_every", 1, 0), ("log_every", 1, 0),
    ("tbptt", 1, 0), ("keep", 0, -1), ("save_every_seconds", 0.0, -0.5), ("state_noise", 0.0, -0.1),
    ("clip", 0.0, -1.0), ("clip_gates", 0.0, -1.0), ("window", 0, -1), ("hidden", 1, 0), ("layers", 1, 0),
    ("batch_size", 1, 0), ("epochs", 1, 0), ("block_rows", 1, 0), ("eval_batch_size", 1, 0),
]


@pytest.mark.parametrize("name, ok, bad", EDGES)
def test_the_smallest_value_is_taken_and_the_one_below_refused(name, ok, bad):
    validate(resolve_defaults(TrainConfig(**{name: ok})))
    flag = "--" + name.replace("_", "-")
    with pytest.raises(UserError, match=flag):
        validate(resolve_defaults(TrainConfig(**{name: bad})))


def test_a_time_budget_of_a_fraction_of_a_second_is_taken():
    validate(resolve_defaults(TrainConfig(time_budget=0.01)))
    with pytest.raises(UserError, match="--time-budget"):
        validate(resolve_defaults(TrainConfig(time_budget=0.0)))
