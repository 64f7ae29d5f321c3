"""lnrnn train --help shows every default of its options as it is (the learning rate, its decay, the batch size, the
clips, the cell, the task, ...: test_values446_sample_cli_defaults' check, on the command with the most options),
and the learning rate's is the trainer's own default, TrainConfig's."""
from lnrnn.training.runconfig import TrainConfig
from test_cli import invoke
from test_values125_train_options import _squash
from test_values446_sample_cli_defaults import assert_defaults_in_help


def test_train_shows_every_default():
    assert_defaults_in_help(("train",))
    helped = _squash(invoke("train", "--help").output)
    assert f"--lr FLOAT Learning rate. [default: {TrainConfig().lr}]" in helped
