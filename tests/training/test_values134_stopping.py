"""Stopping's flag and its lines (lnrnn/training/stopping.py) against what they must restore and say, worked
out here: StopFlag gives back the SIGINT/SIGTERM handlers it found (a caller's own, not the default ones); an
interruption's note names each limit that still holds with its own value (--max-steps as given, not the updates
made; the seconds of --time-budget left); "Nothing to do" names the updates made past a smaller --max-steps,
and, after an early stop resumed with a smaller --patience, the evaluations counted without a better value."""
import signal
from types import SimpleNamespace

import pytest

from lnrnn.training.stopping import StopFlag, StopPolicy


def trainer(step=4, epoch=1, batch_in_epoch=1, budget_used=0.0, early_stop=None, since=0, **cfg):
    c = {"out": "runs/x", "epochs": 5, "max_steps": None, "time_budget": None, "patience": None, **cfg}
    return SimpleNamespace(cfg=SimpleNamespace(**c), step=step, epoch=epoch, batch_in_epoch=batch_in_epoch,
                           budget_used=budget_used, t_start=None, early_stop=early_stop,
                           best={"metric": "loss", "since": since})


def test_the_flag_gives_back_the_handlers_it_found():
    mine = {s: (lambda signum, frame: None) for s in StopFlag.SIGNALS}
    before = {s: signal.signal(s, mine[s]) for s in StopFlag.SIGNALS}
    try:
        with StopFlag() as flag:
            assert all(signal.getsignal(s) == flag._handler for s in StopFlag.SIGNALS)
        assert all(signal.getsignal(s) is mine[s] for s in StopFlag.SIGNALS)
    finally:
        for s, h in before.items():
            signal.signal(s, h)


@pytest.mark.parametrize("max_steps,time_budget,used,note", [
    (7, None, 0.0, " (the run's --max-steps 7 still holds)"),
    (None, 10.0, 3.0, " (the run's --time-budget 10 s (7 s left) still holds)"),
    (9, 10.0, 12.0, " (the run's --max-steps 9 and --time-budget 10 s (0 s left) still hold)"),
    (None, None, 0.0, ""),
])
def test_an_interruptions_line_names_each_limit_that_holds(max_steps, time_budget, used, note):
    t = trainer(step=4, epoch=1, batch_in_epoch=1, budget_used=used, max_steps=max_steps, time_budget=time_budget)
    err = StopPolicy(t).interruption(signal.SIGTERM)
    assert str(err) == ("interrupted (SIGTERM) at epoch 2, update 4; the state reached is saved in runs/x; "
                        f"continue with `lnrnn train --out runs/x --resume`{note}.")
    assert err.exit_code == 128 + signal.SIGTERM


def test_nothing_to_do_past_a_smaller_max_steps_names_the_updates_made():
    t = trainer(step=6, epoch=2, batch_in_epoch=0, max_steps=4)
    assert StopPolicy(t).nothing_left() == ("Nothing to do: the run in runs/x has made 6 updates (--max-steps 4); "
                                            "pass a larger --max-steps, or none, to train it further.")


def test_nothing_to_do_after_an_early_stop_counts_the_evaluations_not_the_new_patience():
    e = {"patience": 3, "metric": "loss", "best": 0.8, "best_step": 8, "step": 12}
    t = trainer(step=12, epoch=4, batch_in_epoch=0, early_stop=e, since=3, patience=2)
    assert StopPolicy(t).nothing_left() == ("Nothing to do: the run in runs/x stopped early at update 12 (no better "
                                            "validation loss in 3 evaluations, --patience 2); pass a larger "
                                            "--patience to train it further.")
