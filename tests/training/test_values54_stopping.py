"""lnrnn/training/stopping.py's StopFlag and resume hint against their docstrings: the first signal sets the flag,
a second one outside a save raises Abort at once, one during a save waits for the save to end and is raised
then (with the second signal's number), and a save leaves the flag as it found it; the resume hint's verb agrees
with the number of limits that still hold ("--max-steps 5 still holds", "... and ... still hold")."""
import signal
from types import SimpleNamespace

import pytest

from lnrnn.training.stopping import Abort, StopFlag, StopPolicy


def test_a_second_signal_outside_a_save_aborts_at_once():
    f = StopFlag()                                     # not entered: no handler is installed in this process
    f._handler(signal.SIGTERM, None)
    assert f.requested and f.signum == signal.SIGTERM
    with pytest.raises(Abort) as e:
        f._handler(signal.SIGINT, None)
    assert e.value.signum == signal.SIGINT


def test_a_second_signal_during_a_save_waits_for_its_end():
    f = StopFlag()
    f._handler(signal.SIGINT, None)
    saved = []
    with pytest.raises(Abort) as e:
        with f.saving():
            f._handler(signal.SIGTERM, None)           # no Abort inside: the checkpoint is being written
            saved.append(True)
    assert saved == [True] and e.value.signum == signal.SIGTERM
    assert f.signum == signal.SIGINT                   # the first signal is still the one that stopped the run


def test_after_a_quiet_save_a_second_signal_aborts_at_once():
    f = StopFlag()
    with f.saving():
        pass
    f._handler(signal.SIGINT, None)
    with pytest.raises(Abort):
        f._handler(signal.SIGINT, None)


def policy(**cfg):
    c = SimpleNamespace(max_steps=None, time_budget=None, epochs=3, out="runs/x", patience=None, lr=0.1)
    c.__dict__.update(cfg)
    t = SimpleNamespace(cfg=c, group=SimpleNamespace(size=1, root=True), budget_used=10.0, t_start=None)
    return StopPolicy(t)


@pytest.mark.parametrize("cfg, said", [
    ({"max_steps": 5}, " (the run's --max-steps 5 still holds)"),
    ({"time_budget": 60.0}, " (the run's --time-budget 60 s (50 s left) still holds)"),
    ({"max_steps": 5, "time_budget": 60.0}, " (the run's --max-steps 5 and --time-budget 60 s (50 s left) still hold)"),
    ({}, ""),
])
def test_the_resume_hints_verb_agrees_with_the_limits(cfg, said):
    assert policy(**cfg).budget_note() == said
