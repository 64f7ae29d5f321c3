"""lnrnn/training/stopping.py, nineteenth pass, on hand-made trainer states, against the module's docstring
and the words it documents. SIGINT and SIGTERM alike reach the flag while it is entered (the first sets it, a
second raises Abort carrying that signal's number) and the old handlers come back after; a signal is named as
the shell names it ('SIGTERM', not 'Signals.SIGTERM') in a stopped run's message, word for word, with exit code
128 + 15; --patience 2 over a worse / better / worse / better / worse / worse history of validation losses stops
the run only at the second worse in a row after the last better one, the stop rule quiet before it; the resume
hint's budget note names a --time-budget given alone, with the seconds left (60 - 45 = 15)."""
import signal
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.training.stopping import Abort, StopFlag, StopPolicy, judge, signal_name


def test_sigint_and_sigterm_alike_reach_the_flag_and_the_old_handlers_come_back():
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    with StopFlag() as flag:
        for s in (signal.SIGINT, signal.SIGTERM):
            assert signal.getsignal(s) == flag._handler, signal.Signals(s).name
        assert not flag.requested
        signal.raise_signal(signal.SIGTERM)    # the first: finish the update, save, stop
        assert flag.requested and flag.signum == signal.SIGTERM
        with pytest.raises(Abort) as e:        # a second one: at once
            signal.raise_signal(signal.SIGINT)
        assert e.value.signum == signal.SIGINT
    assert {s: signal.getsignal(s) for s in before} == before


def stopped(epoch, batch_in_epoch, step):
    return SimpleNamespace(epoch=epoch, batch_in_epoch=batch_in_epoch, step=step, saved_step=step,
                           cfg=SimpleNamespace(out="runs/x", max_steps=None, time_budget=None))


def test_a_signal_is_named_as_the_shell_names_it():
    assert signal_name(signal.SIGTERM) == "SIGTERM" and signal_name(2) == "SIGINT"
    err = StopPolicy(stopped(2, 3, 23)).interruption(signal.SIGTERM)
    assert str(err) == ("interrupted (SIGTERM) at epoch 3, update 23; the state reached is saved in runs/x; "
                        "continue with `lnrnn train --out runs/x --resume`.")
    assert err.exit_code == 128 + 15
    err = StopPolicy(stopped(2, 0, 20)).abort(signal.SIGINT)   # the second came during the save: it is kept
    assert str(err) == ("stopped by a second SIGINT after epoch 2, update 20; the state reached is saved in "
                        "runs/x; continue with `lnrnn train --out runs/x --resume`.")
    assert err.exit_code == 130


def patient(patience):
    return SimpleNamespace(best={"metric": "loss", "value": None, "step": None, "epoch": None, "since": 0},
                           cfg=SimpleNamespace(patience=patience, max_steps=None, time_budget=None),
                           step=0, early_stop=None, reached=None, group=SimpleNamespace(size=1, root=True),
                           votes=np.zeros(3), budget_used=0.0, t_start=None)


def test_patience_over_a_history_that_goes_down_and_up():
    # validation losses at updates 10, 20, ...: first (best), worse, better, worse, better, worse, worse
    losses = [1.0, 1.2, 0.9, 1.1, 0.8, 0.95, 0.85]
    t = patient(2)
    policy, flag = StopPolicy(t), StopFlag()
    reasons, since = [], []
    for k, v in enumerate(losses):
        t.step = 10 * (k + 1)
        rec = {"epoch": k + 1, "val_loss": v}
        judge(t, rec)
        since.append(t.best["since"])
        reasons.append(policy.reason(flag))
    # the evaluations without a better loss since the last better one: 0 1 0 1 0 1 2
    assert since == [0, 1, 0, 1, 0, 1, 2]
    assert reasons == [None] * 6 + ["early"]
    assert t.best == {"metric": "loss", "value": 0.8, "step": 50, "epoch": 5, "since": 2}
    assert t.early_stop == {"patience": 2, "metric": "loss", "best": 0.8, "best_step": 50, "step": 70}
    assert rec["early_stop"] is True


def test_no_stop_rule_fires_on_a_fresh_run_state():
    t = patient(None)
    t.step = 3
    assert StopPolicy(t).reason(StopFlag()) is None and t.reached is None


def budget(max_steps, time_budget, used):
    return SimpleNamespace(budget_used=used, t_start=None,
                           cfg=SimpleNamespace(max_steps=max_steps, time_budget=time_budget))


def test_a_time_budget_given_alone_is_named_with_the_seconds_left():
    assert StopPolicy(budget(None, 60.0, 45.0)).budget_note() == \
        " (the run's --time-budget 60 s (15 s left) still holds)"
    assert StopPolicy(budget(200, None, 45.0)).budget_note() == " (the run's --max-steps 200 still holds)"
    assert StopPolicy(budget(200, 60.0, 75.0)).budget_note() == \
        " (the run's --max-steps 200 and --time-budget 60 s (0 s left) still hold)"
    assert StopPolicy(budget(None, None, 45.0)).budget_note() == ""
