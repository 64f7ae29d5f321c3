"""lnrnn/training/plan.py's checks at their edges: --layers, --block-rows (counts, at least 1) and --clip-output (a
positive finite bound) refused in one sentence naming the option at 0 and below, and accepted at their smallest
valid value, which the resolved config keeps."""
import math

import pytest

from lnrnn.errors import UserError
from lnrnn.training.plan import resolve
from lnrnn.training.runconfig import TrainConfig


def plan_of(**kw):
    return resolve(TrainConfig(task="strokes-synthetic", split="8/4", **kw))


@pytest.mark.parametrize("option,field", [("--layers", "layers"), ("--block-rows", "block_rows")])
def test_counts_below_one_are_refused_and_one_resolves(option, field):
    for bad in (0, -2):
        with pytest.raises(UserError, match=f"^{option} must be at least 1, not {bad}\\.$"):
            plan_of(**{field: bad})
    assert getattr(plan_of(**{field: 1}).cfg, field) == 1


def test_clip_output_must_be_a_positive_finite_bound():
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(UserError, match="^--clip-output must be a positive number"):
            plan_of(clip_output=bad)
    assert plan_of(clip_output=1e-3).cfg.clip_output == 1e-3
    assert plan_of().cfg.clip_output is None
