"""The hyper-parameters a checkpoint may hold (lnrnn/training/optim.py: hyper_problem), each rule at its
boundaries: what every optimizer's constructor makes passes (RMSProp-Graves is centred: 1.0), the learning rate and
eps positive (the smallest positive float passes, 0 and -0.0 do not), the decay factors in [0, 1) (0 and the float
just below 1 pass, 1 does not), centred 0 or 1 (and nothing between or beyond), each a finite number and not a
bool, a text or None; the first problem in the table's order is the one named. (Moved here, and widened, from the
description's resume tests, so that a change to optim.py meets them under its own name.)"""
import math

import pytest

from lnrnn.training import optim
from lnrnn.training.optim import OPTIMIZERS, hyper_problem, make_optimizer

BELOW_ONE = math.nextafter(1.0, 0.0)
TINY = math.ulp(0.0)  # the smallest positive float


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
def test_every_optimizers_own_hyper_parameters_pass(kind):
    hyper = make_optimizer(kind, 1e-3).state_dict()["hyper"]
    assert hyper_problem(hyper) is None, (kind, hyper)


def test_the_graves_optimizer_is_centred_and_that_is_held_as_one():
    hyper = make_optimizer("rmsprop-graves", 1e-3).state_dict()["hyper"]
    assert hyper["centred"] == 1.0


@pytest.mark.parametrize("hyper", [
    {"momentum": 0.0, "alpha": 0.0, "centred": 0.0}, {"centred": 1}, {"centred": 1.0}, {"centred": 0},
    {"beta1": BELOW_ONE, "beta2": 0}, {"lr": TINY, "eps": TINY}, {"lr": 10**6}, {"momentum": BELOW_ONE},
    {"unknown": 3.5}, {},
])
def test_values_inside_every_range_pass(hyper):
    assert hyper_problem(hyper) is None


@pytest.mark.parametrize("hyper, words", [
    ({"momentum": 1.0}, "momentum 1.0 (not in [0, 1))"),
    ({"alpha": -0.1}, "alpha -0.1 (not in [0, 1))"),
    ({"beta2": 1}, "beta2 1 (not in [0, 1))"),
    ({"beta1": -TINY}, f"beta1 {-TINY!r} (not in [0, 1))"),
    ({"centred": 0.5}, "centred 0.5 (not 0 or 1)"),
    ({"centred": 2}, "centred 2 (not 0 or 1)"),
    ({"centred": -1}, "centred -1 (not 0 or 1)"),
    ({"lr": 0}, "lr 0 (not positive)"),
    ({"lr": -0.0}, "lr -0.0 (not positive)"),
    ({"eps": -1e-8}, "eps -1e-08 (not positive)"),
    ({"eps": float("nan")}, "eps nan (not a finite number)"),
    ({"lr": float("inf")}, "lr inf (not a finite number)"),
    ({"beta1": True}, "beta1 True (not a finite number)"),
    ({"lr": "0.1"}, "lr '0.1' (not a finite number)"),
    ({"alpha": None}, "alpha None (not a finite number)"),
    ({"lr": 0.1, "beta1": 1.0, "eps": 0}, "beta1 1.0 (not in [0, 1))"),
    ({"eps": 0, "beta1": 1.0}, "eps 0 (not positive)"),
])
def test_each_value_outside_its_range_is_named(hyper, words):
    assert hyper_problem(hyper) == words


def test_the_module_and_its_name_are_one():
    assert optim.hyper_problem is hyper_problem
