"""Each training setting held to the type TrainConfig declares (lnrnn/training/runconfig.py: mistyped), the check
a resume's saved settings go through: the defaults pass (texts, numbers, flags and Nones alike); an int is a
float's value but a bool is no number; an Optional field takes None and its type, and nothing else; a float where
an int is declared is refused, even a whole one; the first field in TrainConfig's order is the one named, under
its option name. (Moved here, and widened, from the description's resume tests, so that a change to
runconfig.py meets them under its own name.)"""
import dataclasses

import pytest

from lnrnn.training.runconfig import TrainConfig, mistyped


def test_the_defaults_pass():
    assert mistyped(TrainConfig()) is None


@pytest.mark.parametrize("fields", [
    dict(lr=1, clip=0, time_budget=60),                   # an int is a float's value
    dict(hidden=None, window=None, state_noise=None),     # Optional: None is fine
    dict(cell="bn-lstm", task="strokes-hershey", split="10/5", data_dir="somewhere", init_from="runs/a"),
    dict(skip=True, bidirectional=True, reproducible=False),
    dict(lr=0.5, clip=2.5, state_noise=0.25, time_budget=1.5),
    dict(hidden=0, window=10, seed=2**40),
])
def test_values_of_the_declared_types_pass(fields):
    assert mistyped(TrainConfig(**fields)) is None


@pytest.mark.parametrize("fields, words", [
    (dict(batch_size=None), "batch-size None (not an int)"),
    (dict(lr=True), "lr True (not a float)"),
    (dict(bidirectional=0), "bidirectional 0 (not a bool)"),
    (dict(data_dir=3), "data-dir 3 (not a str)"),
    (dict(hidden=8.0), "hidden 8.0 (not an int)"),
    (dict(seed=False), "seed False (not an int)"),
    (dict(cell=None), "cell None (not a str)"),
    (dict(task=["digits"]), "task ['digits'] (not a str)"),
    (dict(lr="0.1"), "lr '0.1' (not a float)"),
    (dict(skip="false"), "skip 'false' (not a bool)"),
    (dict(init_from=1.5), "init-from 1.5 (not a str)"),
    (dict(state_noise="x"), "state-noise 'x' (not a float)"),
])
def test_a_value_of_another_type_is_named(fields, words):
    assert mistyped(TrainConfig(**fields)) == words


def test_the_first_field_in_declared_order_is_named():
    names = [f.name for f in dataclasses.fields(TrainConfig)]
    first, last = names.index("cell"), names.index("log_every")
    assert first < last
    assert mistyped(TrainConfig(cell=1, log_every="x")) == "cell 1 (not a str)"
