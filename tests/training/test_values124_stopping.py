"""lnrnn/training/stopping.py's second signal, budget record and messages against their definitions.

A second signal outside a save aborts with its own number (Ctrl-C then SIGTERM ends as SIGTERM, 128 + 15); a
run stopped by its --time-budget records that budget as spent (None) and --max-steps as still holding, with no
seconds carried; the second signal's line after a finished save names the update saved (the step count); the
"nothing to do" line names the epochs the run has finished, not the --epochs asked for; the divergence hint
suggests --state-noise only to a BatchNorm run without it."""
import signal
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import Abort, StopFlag, StopPolicy, diverged


@pytest.mark.parametrize("first, second", [(signal.SIGINT, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT)])
def test_a_second_signal_aborts_with_its_own_number(first, second):
    f = StopFlag()
    f._handler(first, None)
    assert f.requested and f.signum == first
    with pytest.raises(Abort) as e:
        f._handler(second, None)
    assert e.value.signum == second
    assert f.signum == first          # the first signal stays the run's


def one_process(**cfg):
    c = SimpleNamespace(**{"max_steps": None, "time_budget": None, "epochs": 3, "out": "runs/x", "patience": None,
                           **cfg})
    t = SimpleNamespace(cfg=c, group=SimpleNamespace(size=1, root=True), budget_used=0.0, t_start=None,
                        votes=np.zeros(3), early_stop=None, step=0, epoch=0, batch_in_epoch=0, reached=None,
                        saved_step=0, best={"since": 0})
    return StopPolicy(t), t


def test_a_time_budget_stop_records_the_budget_as_spent():
    p, t = one_process(max_steps=50, time_budget=2.0)
    t.budget_used, t.step = 5.0, 12        # 5 s used of 2: over budget, 12 of 50 updates made
    flag = SimpleNamespace(requested=False, signum=None)
    assert p.reason(flag) == "used the --time-budget of 2 s"
    assert t.reached == "time_budget"
    assert p.budget_record() == {"max_steps": 50, "time_budget": None, "used_s": 0.0}


def test_a_max_steps_stop_records_the_steps_as_spent():
    p, t = one_process(max_steps=12, time_budget=60.0)
    t.budget_used, t.step = 5.0, 12
    assert p.reason(SimpleNamespace(requested=False, signum=None)) == "reached --max-steps 12"
    assert p.budget_record() == {"max_steps": None, "time_budget": 60.0, "used_s": 5.0}


def test_a_second_signal_after_a_save_names_the_update_saved():
    p, t = one_process()
    t.epoch, t.batch_in_epoch, t.step, t.saved_step = 1, 2, 7, 7   # epoch 2, its second update, saved
    err = p.abort(signal.SIGTERM)
    assert str(err) == ("stopped by a second SIGTERM at epoch 2, update 7; the state reached is saved in runs/x; "
                        "continue with `lnrnn train --out runs/x --resume`.")
    assert err.exit_code == 128 + signal.SIGTERM
    t.saved_step = 5                                               # during update 8, last saved at 5
    assert str(p.abort(signal.SIGINT)) == (
        "stopped at once by a second SIGINT during update 8 of epoch 2; the last checkpoint (update 5) is kept "
        "in runs/x; continue with `lnrnn train --out runs/x --resume`.")


@pytest.mark.parametrize("done, asked, word", [(3, 2, "3 epochs"), (1, 1, "1 epoch"), (2, 1, "2 epochs")])
def test_nothing_to_do_names_the_epochs_finished(done, asked, word):
    p, t = one_process(epochs=asked)
    t.epoch = done
    assert p.nothing_left() == (f"Nothing to do: the run in runs/x has finished {word} (--epochs {asked}); pass a "
                                "larger --epochs to train it further.")


@pytest.mark.parametrize("norm, noise, bn_hint", [("bn", 0.0, True), ("bn", 0.2, False), ("ln", 0.0, False),
                                                  ("none", 0.3, False)])
def test_the_state_noise_hint_only_for_bn_without_noise(norm, noise, bn_hint):
    t = SimpleNamespace(setup=SimpleNamespace(plan=SimpleNamespace(cell=SimpleNamespace(norm=norm))),
                        model=SimpleNamespace(state_noise=noise), epoch=0, step=2, saved_step=0,
                        cfg=SimpleNamespace(out="runs/x"))
    with pytest.raises(TrainingDiverged) as e:
        diverged(t, "training loss", float("inf"))
    msg = str(e.value)
    plain = "try a lower --lr or a --clip."
    bn = ("BatchNorm cells overflow when every sequence of a batch has the same early steps and zero initial "
          "states (zero batch variance): try --state-noise 0.1, or a lower --lr or a --clip.")
    assert msg == ("the training loss became inf at epoch 1, update 3; training stopped and the last good "
                   "checkpoint (update 0) is kept in runs/x; " + (bn if bn_hint else plain))
