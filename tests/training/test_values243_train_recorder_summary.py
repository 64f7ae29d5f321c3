"""The run's last line word for word, for a run that ends (one epoch), one stopped by --max-steps inside an
epoch (its evaluation at the stop kept in checkpoint.json only, metrics.jsonl with the epoch rows alone) and
one stopped by --patience; and keep_past's refusal word for word with nothing written. The validation
metrics are scripted (VAL of test_values243_train_policies) so each sentence is written out by hand: a loss of 0.85
reads 'loss 0.8500', an accuracy of 0.5 'accuracy 50.00%', an evaluation at update 5 of 3-update epochs
'(epoch 1.67)'."""
import os
import re

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import keep_past, load_checkpoint, save_checkpoint
from lnrnn.training.progress import format_seconds
from lnrnn.training.train import Trainer
from test_values56_stop_place import summary
from test_values_train_policies import rows
from test_values243_train_policies import VAL

COMPILING = re.compile(r" \(plus \d+\.\d s compiling kernels, once per install: later runs load them\)")


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": VAL[self.step], "acc": 0.5})


def said_by(out, **kw):
    t, said = summary(out, **kw)
    return t, COMPILING.sub("", said)  # a first compile's note aside (it depends on the kernel cache)


def files(out, metrics=True):
    f = f"checkpoint {out}/checkpoint.json"
    return f + (f", metrics {out}/metrics.jsonl, curve {out}/learning_curve.svg" if metrics else "")


def test_a_finished_run_of_one_epoch(tmp_path, scripted):
    out = tmp_path / "run"
    t, said = said_by(out, epochs=1)
    assert said == (f"Done: 1 epoch, 3 updates in {format_seconds(t.train_time)} of training; validation loss "
                    f"1.1000, accuracy 50.00% after epoch 1; best checkpoint {out}/best (validation loss 1.1000 "
                    f"at update 3); {files(out)}.")


def test_a_max_steps_stop_inside_an_epoch(tmp_path, scripted):
    """--max-steps 5: the epoch row of update 3 is the one row of metrics.jsonl and the best; the state at
    update 5 (0.85) is evaluated at the stop and kept in checkpoint.json only."""
    out = tmp_path / "run"
    t, said = said_by(out, max_steps=5)
    assert said == (f"Stopped (reached --max-steps 5) at epoch 2, 5 updates in {format_seconds(t.train_time)} of "
                    "training; validation loss 0.8500, accuracy 50.00% at update 5 (epoch 1.67) (evaluated at the "
                    f"stop, kept in checkpoint.json only); best checkpoint {out}/best (validation loss 1.1000 at "
                    f"update 3); {files(out)}; continue with `lnrnn train --out {out} --resume` (without --max-steps "
                    "it trains on to --epochs 4; give --max-steps again for a new limit).")
    assert [x["step"] for x in rows(out)] == [3]
    meta = load_checkpoint(str(out))[0]
    assert (meta["stop_eval"]["step"], meta["stop_eval"]["val_loss"], meta["stop_eval"]["eval"]) == (5, 0.85, "stop")
    assert load_checkpoint(str(out / "best"))[0]["best"]["step"] == 3


def test_a_max_steps_stop_after_one_update(tmp_path, scripted):
    out = tmp_path / "run"
    t, said = said_by(out, max_steps=1, epochs=2)
    assert said == (f"Stopped (reached --max-steps 1) at epoch 1, 1 update in {format_seconds(t.train_time)} of "
                    "training; validation loss 1.0000, accuracy 50.00% at update 1 (epoch 0.33) (evaluated at the "
                    f"stop, kept in checkpoint.json only); {files(out, metrics=False)}; continue with `lnrnn train "
                    f"--out {out} --resume` (without --max-steps it trains on to --epochs 2; give --max-steps again "
                    "for a new limit).")
    assert not os.path.exists(out / "metrics.jsonl")


def test_an_early_stop_inside_an_epoch(tmp_path, scripted):
    out = tmp_path / "run"
    t, said = said_by(out, eval_every=1, patience=3)
    assert said == ("Stopped early (--patience 3: no better validation loss in 3 evaluations since update 4) at "
                    f"epoch 3, 7 updates in {format_seconds(t.train_time)} of training; validation loss 0.9500, "
                    f"accuracy 50.00% at update 7 (epoch 2.33); best checkpoint {out}/best (validation loss 0.8000 "
                    f"at update 4); {files(out)}; to train further, resume with a larger --patience.")


def test_keep_past_refused_where_checkpoints_is_a_file(tmp_path):
    run = str(tmp_path / "run")
    save_checkpoint(run, {"w": np.zeros(2)}, {"step": 12, "epoch": 3, "model": {}})
    with open(os.path.join(run, "checkpoints"), "w") as f:
        f.write("x")
    with pytest.raises(CheckpointError) as e:
        keep_past(run, 3)
    assert str(e.value) == (f"cannot keep a copy of the checkpoint of update 12 in {run}/checkpoints/update-000000012 "
                            "(Not a directory): check that file system, or pass a smaller --keep; the run's own "
                            f"checkpoint in {run} is saved.")
    assert open(os.path.join(run, "checkpoints")).read() == "x"
