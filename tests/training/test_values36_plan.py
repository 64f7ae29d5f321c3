"""lnrnn/training/plan.py's --lr-decay at its edges, against its message ("must be positive"): the smallest
positive factors are taken, 0 (a rate of 0 from the second epoch on), negative, infinite and NaN ones refused;
--forget-bias any finite number (negative ones too), not NaN or an infinity (every forget gate at 0 or 1, or NaN
through every step)."""
import math

import pytest

from lnrnn.errors import UserError
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig


@pytest.mark.parametrize("decay", [1e-300, 5e-324, 0.5, 1.0, 2.0])
def test_a_positive_decay_is_taken(decay):
    validate(resolve_defaults(TrainConfig(lr_decay=decay)))


@pytest.mark.parametrize("decay", [0.0, -0.0, -0.5, math.inf, math.nan])
def test_a_decay_that_is_not_positive_and_finite_is_refused(decay):
    with pytest.raises(UserError, match="--lr-decay must be positive"):
        validate(resolve_defaults(TrainConfig(lr_decay=decay)))


@pytest.mark.parametrize("bias", [-3.0, 0.0, 1.0, 5.0])
def test_a_finite_forget_bias_is_taken(bias):
    validate(resolve_defaults(TrainConfig(forget_bias=bias)))


@pytest.mark.parametrize("bias", [math.nan, math.inf, -math.inf])
def test_a_forget_bias_that_is_not_finite_is_refused(bias):
    with pytest.raises(UserError, match="--forget-bias must be a finite number"):
        validate(resolve_defaults(TrainConfig(forget_bias=bias)))
