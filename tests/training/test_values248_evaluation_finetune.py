"""Models rebuilt from checkpoints and runs started from another run's (lnrnn/training/evaluation.py and
finetune.py), and --config's keys and defaults (runconfig.py), against values written out here: a
checkpoint's arrays split by their prefixes into the model's names and the optimizer's slots; a rebuilt
model's noise seed the run's own (7), 0 when the checkpoint names none; the docstring's metric line
'loss 0.4123 acc 87.20%'; a model with another head refused naming the task's head; pretrained:NAME read as
a source with its record quoting the shipped checkpoint.json; a checkpoint of parameters without buffers taken
and one of buffers only refused; the docstring's two schedule changes word for word; an unknown --config key
quoted as written; the README's default of 20 epochs read back from the command and config.json."""
import dataclasses
import json
import os

import numpy as np
import pytest

from lnrnn.commands.train import train as train_command
from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.models import SequenceClassifier
from lnrnn.training.checkpoint import save_checkpoint
from lnrnn.training.evaluation import format_metrics, model_from_checkpoint, split_arrays
from lnrnn.training.finetune import Source, describe_change, load_into, read_source
from lnrnn.training.runconfig import TrainConfig, write_run_config
from test_values180_setup_finetune import _save
from test_values209_runconfig import _apply


def _checkpoint_arrays(model):
    return {"param/" + k: v.copy() for k, v in model.params.items()}


def test_split_arrays_by_prefix():
    a, b, c, d = (np.full(2, float(i)) for i in range(4))
    model, slots = split_arrays({"param/rnn.W": a, "buffer/rnn.mean": b, "optim/m/rnn.W": c,
                                 "optim/v/rnn.W": d})
    assert model.keys() == {"rnn.W", "rnn.mean"} and model["rnn.W"] is a and model["rnn.mean"] is b
    assert slots.keys() == {"m", "v"}
    assert slots["m"] == {"rnn.W": c} and slots["v"] == {"rnn.W": d}


@pytest.mark.parametrize("train,seed", [({"seed": 7}, 7), ({}, 0), (None, 0)])
def test_a_rebuilt_model_draws_its_noise_from_the_runs_seed(train, seed):
    src = SequenceClassifier(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_classes=4,
                             dtype="float64", seed=3)
    meta = {"model": src.config, **({"train": train} if train is not None else {})}
    model = model_from_checkpoint(meta, _checkpoint_arrays(src))
    assert model.noise_seed == seed
    for k, v in src.params.items():
        np.testing.assert_array_equal(model.params[k], v)


def test_metrics_line_in_the_heads_order():
    assert format_metrics({"loss": 0.41234, "acc": 0.872}) == "loss 0.4123 acc 87.20%"


def test_a_model_with_another_head_is_refused_naming_the_tasks_head():
    theirs = SequenceClassifier(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_classes=10,
                                dtype="float64")
    ours = SequenceClassifier(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_classes=3,
                              dtype="float64")
    src = Source("runs/src", {"model": theirs.config}, _checkpoint_arrays(theirs))
    with pytest.raises(UserError) as e:
        load_into(ours, src)
    text = str(e.value)
    assert not isinstance(e.value, CheckpointError)
    assert text.startswith("--init-from runs/src: its model has the task's head (--task, --head, --objective) {")
    assert text.endswith("; the shapes must match: train on a task of the same shape, or start without "
                         "--init-from.")
    theirs_text, ours_text = text.split(", this run ")
    assert "'outputs': 10" in theirs_text and "'outputs': 3" in ours_text and "tolerance" not in text
    same = SequenceClassifier(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_classes=10,
                              dtype="float64", seed=5)
    load_into(same, src)                                    # the same shape: the source's parameters
    for k, v in theirs.params.items():
        np.testing.assert_array_equal(same.params[k], v)


def test_a_pretrained_run_is_a_source():
    import lnrnn.pretrained
    with open(os.path.join(os.path.dirname(lnrnn.pretrained.__file__), "hershey", "checkpoint.json")) as f:
        meta = json.load(f)
    record = read_source("pretrained:hershey").record
    assert record == {"path": "pretrained:hershey", "step": meta["step"], "best": bool(meta.get("best")),
                      "cell": meta["train"]["cell"], "task": meta["task"]["task"]}


def test_parameters_without_buffers_are_a_source_and_buffers_alone_are_not(tmp_path):
    out = str(tmp_path / "a")
    _save(out)                                              # param/W only, update 12
    assert read_source(out).record["step"] == 12
    cfg = TrainConfig(task="digits", split="40/8", hidden=4, batch_size=8, out=str(tmp_path / "b"))
    save_checkpoint(cfg.out, {"buffer/rnn.mean": np.zeros(2, np.float32)},
                    {"model": {"cell": "ln-lstm"}, "train": dataclasses.asdict(cfg), "step": 3})
    with pytest.raises(CheckpointError) as e:
        read_source(cfg.out)
    assert str(e.value) == f"--init-from {cfg.out}: the checkpoint there holds no model parameters."


def test_schedule_changes_described_as_the_docstring_says():
    assert describe_change({"step": 40, "epoch": 2, "lr": [0.003, 0.0003], "lr_decay": [0.9, 0.9]}) == \
        "learning rate 0.003 -> 0.0003 from update 40"
    assert describe_change({"step": 6, "epoch": 1, "lr": [0.0027, 0.0027], "lr_decay": [0.9, 0.5]}) == \
        "learning rate 0.0027 from update 6, decay 0.9 -> 0.5 per epoch"


def test_an_unknown_config_key_is_quoted_as_written(tmp_path):
    path = tmp_path / "c.toml"
    with pytest.raises(UserError) as e:
        _apply(path, "batch-sise = 4\n")
    text = str(e.value)
    head = f"--config {path}: unknown key 'batch-sise'; the keys are lnrnn train's options: "
    assert text.startswith(head) and text.endswith(".")
    keys = text[len(head):-1].split(", ")
    assert keys == sorted(keys) and {"batch-size", "lr-decay", "epochs", "init-from"} <= set(keys)


def test_the_readmes_default_of_twenty_epochs_read_back(tmp_path):
    ctx = train_command.make_context("train", [])
    assert ctx.params["epochs"] == 20 and TrainConfig().epochs == 20
    write_run_config(str(tmp_path), TrainConfig(hidden=4))
    values = json.loads((tmp_path / "config.json").read_text())
    assert values["epochs"] == 20 and values["hidden"] == 4 and "out" not in values
