"""lnrnn/training/plan.py on lines earlier value tests leave alone: validate's refusal of an unknown --optimizer
word for word (the bad name quoted, then the choices of lnrnn.training.optim.OPTIMIZERS joined in their order),
and model_config writing skip only for --skip: --no-skip (False) and a task's default left out build a plain
stack, for a task without text (no attention window, which would need the skip connections)."""
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training.optim import OPTIMIZERS
from lnrnn.training.plan import model_config, resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig


@pytest.mark.parametrize("name", ["sgdx", "Adam"])
def test_unknown_optimizer_refused_word_for_word(name):
    cfg = resolve_defaults(TrainConfig(task="digits", optimizer=name))
    with pytest.raises(UserError) as e:
        validate(cfg)
    choices = ""
    for i, k in enumerate(OPTIMIZERS):
        choices += (", " if i else "") + k
    assert str(e.value) == f"unknown optimizer '{name}'; choose one of {choices}."
    assert "adam" in choices.split(", ")


HEAD = {"kind": "softmax", "classes": 3}


@pytest.mark.parametrize("skip, want", [(True, True), (False, None)])
def test_skip_is_written_only_for_skip(skip, want):
    cfg = resolve_defaults(TrainConfig(task="digits", hidden=4, layers=2, skip=skip))
    assert cfg.skip is skip
    plan = SimpleNamespace(cfg=cfg, cell=cells.get(cfg.cell))
    task = SimpleNamespace(input_size=5, alphabet=None, head=dict(HEAD), extra={})
    config = model_config(plan, task)
    assert config.get("skip") is want
    assert (config["input_size"], config["hidden_size"], config["num_layers"]) == (5, 4, 2)
    assert config["head"] == HEAD and "window" not in config
