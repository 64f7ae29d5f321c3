"""The recorder's rows and the run's last line against numbers and sentences worked out by hand, on a trainer made
by hand (RunRecorder reads only the trainer's attributes), and the refusal of a run folder whose checkpoint says
another model, word for word, on the TINY run of test_values56_stop_place."""
import json
from types import SimpleNamespace

import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.train import train
from test_values56_stop_place import TINY, summary


def mean(sums, count):
    return {k: v / count for k, v in sums.items()}


def hand_trainer(out, **kw):
    cfg = SimpleNamespace(out=str(out), epochs=2, max_steps=None, time_budget=None)
    t = dict(cfg=cfg, epoch=1, batch_in_epoch=2, step=7, train_time=12.3456, compile_s=1.25,
             compile_total=lambda: 1.25 + 0.5, task=SimpleNamespace(size=lambda split: 40),
             opt=SimpleNamespace(lr=0.05), sums={"sums": {"loss": 3.0, "acc": 12.0}, "count": 16, "samples": 16},
             model=SimpleNamespace(head=SimpleNamespace(mean=mean), metrics=("loss", "acc")),
             history=[], stop_eval=None, best={"metric": "loss", "value": None}, reached=None, early_stop=None)
    t.update(kw)
    return SimpleNamespace(**t)


def test_an_evaluations_row_keeps_three_decimals_of_training_time(tmp_path):
    """epoch 1 + 2/3 of an epoch, 40 + 16 samples, 12.3456 s -> 12.346, compiling 1.25 + 0.5 s."""
    row = RunRecorder(hand_trainer(tmp_path)).eval_row({"loss": 0.7, "acc": 0.25}, 3, "update")
    assert row == {"epoch": 1.666667, "step": 7, "samples": 56, "lr": 0.05, "val_loss": 0.7, "val_acc": 0.25,
                   "time_s": 12.346, "compile_s": 1.75, "eval": "update"}


def test_an_epochs_row_counts_all_compiling_and_its_own_means(tmp_path):
    """Epoch 2 ends (t.epoch 1 before it is counted): 80 samples; training means 3/16 and 12/16; the compile
    seconds are those of earlier invocations (1.25) and of this one's clock (0.5); 16 samples in 4 s."""
    row = RunRecorder(hand_trainer(tmp_path)).epoch_row({"loss": 0.7, "acc": 0.25}, 4.0)
    assert row == {"epoch": 2, "step": 7, "samples": 80, "lr": 0.05, "train_loss": 0.1875, "train_acc": 0.75,
                   "val_loss": 0.7, "val_acc": 0.25, "time_s": 12.346, "compile_s": 1.75, "samples_per_s": 4.0}


@pytest.mark.parametrize("compiled,said", [(0.5, " (plus 0.5 s compiling kernels, once per install: later runs "
                                                   "load them)"), (0.49, "")])
def test_compile_seconds_are_said_from_half_a_second(tmp_path, compiled, said):
    t = hand_trainer(tmp_path, train_time=3.4, compile_this=compiled)
    assert RunRecorder(t).summary(None) == f"Done: 2 epochs, 7 updates in 0:03 of training{said}; no evaluation yet; ."


def test_a_max_steps_stop_as_an_epoch_ends_says_after_that_epoch(tmp_path):
    """Stopped at update 3, the last of epoch 1 (the loop has moved on: epoch 1, batch 0)."""
    t = hand_trainer(tmp_path, epoch=1, batch_in_epoch=0, step=3, train_time=3.4, reached="max_steps")
    assert RunRecorder(t).summary("reached --max-steps 3") == (
        f"Stopped (reached --max-steps 3) after epoch 1, 3 updates in 0:03 of training; no evaluation yet; ; "
        f"continue with `lnrnn train --out {tmp_path} --resume` (without --max-steps it trains on to --epochs 2; "
        "give --max-steps again for a new limit).")


def test_a_resume_of_another_models_checkpoint_is_refused_word_for_word(tmp_path):
    """The run's description says hidden_size 6 and num_layers 2 where its settings build 4 and 1: refused in the
    words of the recorder, both differences in key order, and the description left as it was."""
    out = tmp_path / "run"
    summary(out, max_steps=2)
    desc = out / DESCRIPTION
    meta = json.loads(desc.read_text())
    assert (meta["model"]["hidden_size"], meta["model"]["num_layers"]) == (4, 1)
    meta["model"].update(hidden_size=6, num_layers=2)
    desc.write_text(json.dumps(meta, indent=1) + "\n")
    before = desc.read_bytes()
    with pytest.raises(CheckpointError) as e:
        train(TrainConfig(**{**TINY, "out": str(out)}), resume=True, quiet=True, log=lambda m: None)
    assert str(e.value) == (f"the checkpoint in {out} does not match the model its own settings build "
                            "(hidden_size 6 in the checkpoint vs 4 requested; num_layers 2 in the checkpoint vs 1 "
                            "requested).")
    assert desc.read_bytes() == before
