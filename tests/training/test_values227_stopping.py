"""Stopping over non-monotonic histories (lnrnn/training/stopping.py), against values worked out here: the
blow-up streak over a loss that stays above ten times its first for 19 updates, dips, and stays above for 20
(the documented limits: 10x, 20 updates in a row), stopping at the 20th and not before, its line written out
by hand; a resumed run: one asked for fewer epochs than it finished, one in the middle with nothing stopping
it, one whose patience ran out over a validation history that goes worse, better, worse, better, worse,
worse; a second signal during update 10 of the first epoch."""
import signal

import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import blown_up, judge
from test_values124_stopping import one_process
from test_values209_stopping import _run


def test_the_blow_up_stops_at_the_twentieth_update_in_a_row_and_not_before():
    t = _run(lr=0.003)
    t.epoch = 0                                       # the first epoch
    first = 0.5                                       # level: 10 x 0.5 = 5
    above19 = [5.5, 9.0, 5.01, 6.0] * 4 + [50.0, 5.2, 7.5]   # 19 losses above 5
    assert len(above19) == 19 and min(above19) > 5.0
    dip = [5.0]                                       # exactly the level: not above, the streak starts over
    above20 = [7.0, 6.0, 5.5, 8.0, 12.0] * 4           # 20 losses above 5, the last 12
    history = [first] + above19 + dip + above20
    streaks = [0] + list(range(1, 20)) + [0] + list(range(1, 20))   # after each update but the last
    for i, loss in enumerate(history[:-1]):
        t.step = i                                    # update i + 1
        blown_up(t, loss)
        assert t.high_streak == streaks[i], i
    t.step = len(history) - 1                         # 1 + 19 + 1 + 19 updates made: this is update 41
    with pytest.raises(TrainingDiverged) as e:
        blown_up(t, history[-1])
    assert str(e.value) == (
        "the training loss blew up: above 10x its starting value 0.5 for 20 updates in a row (now 12) at epoch 1, "
        "update 41; training stopped and the last good checkpoint (update 40) is kept in runs/x; start again "
        "with a lower --lr than 0.003.")


def test_a_run_resumed_with_fewer_epochs_than_it_finished_names_the_epochs_asked():
    p, t = one_process(epochs=2)
    t.epoch, t.step = 5, 160                          # five epochs done, --epochs 2 asked now
    assert p.nothing_left() == ("Nothing to do: the run in runs/x has finished 5 epochs (--epochs 2); pass a "
                                "larger --epochs to train it further.")


def test_a_run_resumed_in_the_middle_has_something_left():
    p, t = one_process(epochs=3, max_steps=100, time_budget=60.0, patience=2)
    t.epoch, t.step, t.budget_used = 1, 99, 59.0      # one update and a second left, patience not run out
    t.best = {"metric": "loss", "value": 1.2, "step": 90, "epoch": 1, "since": 1}
    assert p.nothing_left() is None


def test_a_run_whose_patience_ran_out_over_a_non_monotonic_history_has_nothing_left():
    p, t = one_process(epochs=9, patience=2)
    t.best = {"metric": "loss", "value": None, "step": None, "epoch": None, "since": 0}
    # evaluations every 10 updates; worse, better, worse, better, worse, worse:
    #   2.0 best; 2.5 since 1; 1.5 best; 1.7 since 1; 1.2 best (update 50); 1.3 since 1; 1.25 since 2 -> stop
    losses = [2.0, 2.5, 1.5, 1.7, 1.2, 1.3, 1.25]
    for i, v in enumerate(losses):
        t.step = 10 * (i + 1)
        assert t.early_stop is None
        judge(t, {"val_loss": v, "epoch": i + 1})
    assert t.early_stop == {"patience": 2, "metric": "loss", "best": 1.2, "best_step": 50, "step": 70}
    t.epoch = 7                                        # resumed later with the same --patience
    assert p.nothing_left() == ("Nothing to do: the run in runs/x stopped early at update 70 (no better "
                                "validation loss in 2 evaluations, --patience 2); pass a larger --patience to "
                                "train it further.")


def test_a_second_signal_during_update_ten_of_the_first_epoch():
    p, t = one_process(max_steps=100)
    t.epoch, t.batch_in_epoch, t.step, t.saved_step = 0, 9, 9, 5   # nine updates made, the last save at 5
    err = p.abort(signal.SIGTERM)
    assert str(err) == ("stopped at once by a second SIGTERM during update 10 of epoch 1; the last checkpoint "
                        "(update 5) is kept in runs/x; continue with `lnrnn train --out runs/x --resume` (the "
                        "run's --max-steps 100 still holds).")
    assert err.exit_code == 128 + 15                  # SIGTERM is signal 15
