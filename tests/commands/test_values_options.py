"""lnrnn/commands/options.py: the shared options' defaults are TrainConfig's (a run started from the command
line is the run TrainConfig describes), --eval-batch-size left to the task or the run, --quiet off."""
import dataclasses

from lnrnn.cli import main
from lnrnn.training.runconfig import TrainConfig

FIELDS = {f.name: f.default for f in dataclasses.fields(TrainConfig)}


def test_train_defaults_are_train_configs():
    params = {p.name: p for p in main.commands["train"].params}
    shared = sorted(set(params) & set(FIELDS) - {"out"})   # --out: None, a numbered folder (runs/NNN)
    assert len(shared) > 30 and params["out"].default is None
    for name in shared:
        assert params[name].default == FIELDS[name], name
    assert params["forget_bias"].default == 1.0 and params["eval_batch_size"].default is None


def test_eval_batch_size_is_left_to_the_task_or_the_run():
    for command in ("train", "eval"):
        p = {p.name: p for p in main.commands[command].params}["eval_batch_size"]
        assert p.default is None, command


def test_quiet_is_off_unless_given():
    having = [name for name, c in main.commands.items() if any(p.name == "quiet" for p in c.params)]
    assert {"train", "predict", "sample", "read"} <= set(having)
    for name in having:
        p = {p.name: p for p in main.commands[name].params}["quiet"]
        assert p.default is False and p.is_flag, name
