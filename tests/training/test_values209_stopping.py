"""Stopping's signal flag, signal names, blow-up line, resume hint and divergence hint
(lnrnn/training/stopping.py), against what each means, worked out here: a SIGTERM raised in the main thread
reaches the flag and the handler that was there before comes back afterwards; a second signal during a save
waits for the save's end; a number that is no signal's reads 'signal N'; the blow-up streak over a loss
history that rises, dips to exactly the limit and rises again, with its line written out by hand; the resume
hint of a run resumed with seconds already used; the divergence line with its hint."""
import signal
from types import SimpleNamespace

import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.stopping import (BLOWUP_FACTOR, BLOWUP_UPDATES, Abort, StopFlag, StopPolicy, blown_up, diverged,
                                     signal_name)


def test_a_sigterm_in_the_main_thread_reaches_the_flag_and_the_old_handler_comes_back():
    seen = []
    old = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with StopFlag() as f:
            assert not f.requested
            signal.raise_signal(signal.SIGTERM)
            assert f.requested and f.signum == signal.SIGTERM and seen == []
        signal.raise_signal(signal.SIGTERM)      # the flag's handler is gone again: the one before it runs
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, old)


def test_a_second_signal_during_a_save_waits_for_the_save_and_outside_one_stops_at_once():
    f = StopFlag()
    f._handler(signal.SIGINT, None)
    done = []
    with pytest.raises(Abort) as e:
        with f.saving():
            f._handler(signal.SIGTERM, None)     # must not interrupt the write
            done.append("saved")
    assert done == ["saved"] and e.value.signum == signal.SIGTERM
    assert f.signum == signal.SIGINT and not f.in_save
    with pytest.raises(Abort) as e:
        f._handler(signal.SIGTERM, None)
    assert e.value.signum == signal.SIGTERM


def test_signal_names_and_a_number_that_is_no_signal():
    assert signal_name(signal.SIGTERM) == "SIGTERM" and signal_name(int(signal.SIGINT)) == "SIGINT"
    n = max(int(s) for s in signal.Signals) + 1
    assert signal_name(n) == f"signal {n}"


def _run(lr=0.003):
    return SimpleNamespace(initial_loss=None, high_streak=0, epoch=2, step=0, saved_step=40,
                           cfg=SimpleNamespace(out="runs/x", lr=lr))


def test_the_blow_up_streak_over_a_history_that_dips_to_the_limit_and_its_line():
    first = 2.0
    assert BLOWUP_FACTOR == 10.0 and BLOWUP_UPDATES == 20   # the line below is written for these
    # worse (above 20), exactly 20 (not above: the streak starts over), better, then 20 updates above
    history = [first, 25.0, 30.0, 20.0, 3.0] + [21.0 + i % 3 for i in range(BLOWUP_UPDATES)]
    t = _run()
    for i, loss in enumerate(history):
        t.step = 100 + i
        if i < len(history) - 1:
            blown_up(t, loss)
            assert t.high_streak == (i - 4 if i > 4 else (i if i in (1, 2) else 0))
        else:
            with pytest.raises(TrainingDiverged) as e:
                blown_up(t, loss)
    last = history[-1]
    assert last == 22.0
    assert str(e.value) == (
        "the training loss blew up: above 10x its starting value 2 for 20 updates in a row (now 22) at epoch 3, "
        f"update {100 + len(history)}; training stopped and the last good checkpoint (update 40) is kept in "
        "runs/x; start again with a lower --lr than 0.003.")


@pytest.mark.parametrize("max_steps,used,note", [
    (None, 37.0, " (the run's --time-budget 100 s (63 s left) still holds)"),
    (9, 130.0, " (the run's --max-steps 9 and --time-budget 100 s (0 s left) still hold)"),
])
def test_the_resume_hint_of_a_run_resumed_with_seconds_used(max_steps, used, note):
    t = SimpleNamespace(cfg=SimpleNamespace(max_steps=max_steps, time_budget=100.0), budget_used=used, t_start=None)
    assert StopPolicy(t).budget_note() == note


def test_the_divergence_line_and_its_hint():
    t = SimpleNamespace(setup=SimpleNamespace(plan=SimpleNamespace(cell=SimpleNamespace(norm="ln"))),
                        model=SimpleNamespace(state_noise=None), step=7, epoch=1, saved_step=5,
                        cfg=SimpleNamespace(out="runs/x"))
    with pytest.raises(TrainingDiverged) as e:
        diverged(t, "loss", float("nan"))
    assert str(e.value) == ("the loss became nan at epoch 2, update 8; training stopped and the last good "
                            "checkpoint (update 5) is kept in runs/x; try a lower --lr or a --clip.")
