"""The training loop's stop sentences and saves (lnrnn/training/train.py, stopping.py), fourteenth pass, word for
word from their definitions: a run (digits 40/20 in batches of 16, NB = 3 updates an epoch, --save-every 1) whose
parameters turn NaN after update 3, the last of epoch 1: its validation loss diverges in the evaluation "after
update 3" and the last good checkpoint is the one of update 2 (saves inside the epoch after updates 1 and 2; the
epoch's end saves after validating); the divergence and blow-up sentences of a stand-in run that has saved at
update 4 and stopped in update 8 with --lr 1 (written "1", as :g writes it); the interruption sentence pointing to
`lnrnn train --out OUT --resume`."""
import signal
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import BLOWUP_FACTOR, BLOWUP_UPDATES, StopPolicy, blown_up, diverged
from lnrnn.training.train import train
from test_values202_train_run import cfg


def test_a_validation_loss_that_diverges_at_the_epochs_end_names_the_evaluation_and_the_last_save(tmp_path):
    out = tmp_path / "nan"

    def poison(t):
        if t.step == 3:
            t.model.flat[0].data[:] = np.nan

    with pytest.raises(TrainingDiverged) as e:
        train(cfg(out, eval_every=None, save_every=1), quiet=True, log=lambda m: None, hook=poison)
    assert str(e.value) == (f"the validation loss became nan at epoch 1, after update 3; training stopped and the "
                            f"last good checkpoint (update 2) is kept in {out}; try a lower --lr or a --clip.")


def stand_in(out):
    return SimpleNamespace(step=7, epoch=1, saved_step=4, batch_in_epoch=2, initial_loss=1.0, high_streak=0,
                           cfg=SimpleNamespace(out=out, lr=1.0, max_steps=None, time_budget=None),
                           setup=SimpleNamespace(plan=SimpleNamespace(cell=SimpleNamespace(norm="ln"))),
                           model=SimpleNamespace(state_noise=0.0))


def test_a_training_loss_that_diverges_names_the_update_and_the_last_save():
    with pytest.raises(TrainingDiverged) as e:
        diverged(stand_in("runs/a"), "training loss", float("inf"))
    assert str(e.value) == ("the training loss became inf at epoch 2, update 8; training stopped and the last good "
                            "checkpoint (update 4) is kept in runs/a; try a lower --lr or a --clip.")


def test_the_blow_up_sentence_writes_the_learning_rate_as_g():
    t = stand_in("runs/b")
    level = BLOWUP_FACTOR * 1.0
    for _ in range(BLOWUP_UPDATES - 1):
        blown_up(t, 2 * level)
    with pytest.raises(TrainingDiverged) as e:
        blown_up(t, 2 * level)
    assert str(e.value).endswith("; training stopped and the last good checkpoint (update 4) is kept in runs/b; "
                                 "start again with a lower --lr than 1.")


def test_the_interruption_sentence_points_to_a_resume():
    t = stand_in("runs/c")
    err = StopPolicy(t).interruption(signal.SIGTERM)
    assert str(err) == ("interrupted (SIGTERM) at epoch 2, update 7; the state reached is saved in runs/c; "
                        "continue with `lnrnn train --out runs/c --resume`.")
    assert err.exit_code == 128 + 15
