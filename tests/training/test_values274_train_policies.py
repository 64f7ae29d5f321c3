"""The stop policy's sentences and decisions against text and counts written out by hand here.

The run is TINY of test_values56_stop_place: 40 training sequences in batches of 16, so nb = ceil(40 / 16) = 3
updates an epoch and epoch e ends at update 3e. --max-steps 4 then stops one update into epoch 2: epoch 1's
metrics row is update 3, and --keep 10 holds the checkpoints of updates 0 (before any update), 3 (epoch 1's end)
and 4 (the stop). The signals' and the resume's sentences are read word for word from a trainer made by hand."""
import os
import signal
from types import SimpleNamespace

from lnrnn.training.checkpoint import PAST_DIR
from lnrnn.training.stopping import StopPolicy
from test_values56_stop_place import stopped_trainer, summary
from test_values_train_policies import rows

RESUME = "continue with `lnrnn train --out runs/x --resume`"


def with_max_steps(epoch, batch, step, saved_step, max_steps):
    t = stopped_trainer(epoch, batch, step, saved_step)
    t.cfg.max_steps = max_steps
    return t


def test_an_interruption_says_the_max_steps_still_holds():
    """First signal at update 2 of epoch 1 under --max-steps 200: the hint ends with what still holds."""
    policy = StopPolicy(with_max_steps(0, 2, 2, 2, 200))
    assert str(policy.interruption(signal.SIGTERM)) == (
        f"interrupted (SIGTERM) at epoch 1, update 2; the state reached is saved in runs/x; {RESUME} "
        "(the run's --max-steps 200 still holds).")


def test_an_abort_after_the_save_says_the_max_steps_still_holds():
    """A second SIGINT once update 5, epoch 1's last, is saved, under --max-steps 12."""
    policy = StopPolicy(with_max_steps(1, 0, 5, 5, 12))
    assert str(policy.abort(signal.SIGINT)) == (
        f"stopped by a second SIGINT after epoch 1, update 5; the state reached is saved in runs/x; {RESUME} "
        "(the run's --max-steps 12 still holds).")


def test_a_time_budget_stop_names_the_budget_given_not_rounded():
    """2.5 s given, 3.0 s used by earlier invocations: the stop names 2.5 (the :g of the option), not 2 or 3."""
    t = stopped_trainer(0, 1, 1, 0)
    t.cfg.time_budget, t.budget_used, t.early_stop, t.reached = 2.5, 3.0, None, None
    flag = SimpleNamespace(requested=False)
    assert StopPolicy(t).reason(flag) == "used the --time-budget of 2.5 s"
    assert t.reached == "time_budget"
    t.cfg.time_budget, t.reached = 3.25, None
    assert StopPolicy(t).reason(flag) is None and t.reached is None  # 3.0 s used of 3.25: not yet


def test_nothing_left_under_max_steps_points_to_max_steps():
    t = with_max_steps(1, 2, 5, 5, 5)
    t.early_stop = None
    assert StopPolicy(t).nothing_left() == (
        "Nothing to do: the run in runs/x has made 5 updates (--max-steps 5); pass a larger --max-steps, or none, "
        "to train it further.")


def test_max_steps_four_counts_updates_from_zero(tmp_path):
    """Updates numbered 1, 2, 3 in epoch 1 (its row says update 3), the 4th stops: checkpoints 0, 3 and 4."""
    out = tmp_path / "run"
    t, said = summary(out, max_steps=4, keep=10)
    assert (t.step, t.epoch, t.batch_in_epoch) == (4, 1, 1)
    assert [(r["epoch"], r["step"]) for r in rows(out)] == [(1, 3)]
    assert sorted(os.listdir(out / PAST_DIR)) == [f"update-{s:09d}" for s in (0, 3, 4)]
    assert said.startswith("Stopped (reached --max-steps 4) at epoch 2, 4 updates"), said
