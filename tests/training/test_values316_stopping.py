"""lnrnn/training/stopping.py, seventeenth pass: WHEN the decisions fire. StopFlag's handler called as the
signals would call it: the first signal sets the flag, a second one aborts at once (outside a save) or when the
save ends (inside one), a first signal during a save does not abort; a group's reason and voted signal from the
votes of the last update, not this rank's own flag; --patience 2 over a history of worse, better, equal and worse
evaluations (the stop at the second evaluation in a row without a strictly better value, for loss and for acc);
the blow-up rule at a loss of 10.3 times the first for 19 and 20 updates in a row."""
import signal
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training import stopping
from lnrnn.training.stopping import Abort, StopFlag, StopPolicy


def test_first_signal_sets_the_flag_a_second_aborts_at_once():
    f = StopFlag()
    assert not f.requested
    f._handler(signal.SIGTERM, None)
    assert f.requested and f.signum == signal.SIGTERM
    with pytest.raises(Abort) as e:
        f._handler(signal.SIGINT, None)
    assert e.value.signum == signal.SIGINT
    assert f.signum == signal.SIGTERM and f.deferred is None


def test_a_second_signal_during_a_save_aborts_when_the_save_ends():
    f = StopFlag()
    f._handler(signal.SIGINT, None)
    saved = []
    with pytest.raises(Abort) as e:
        with f.saving():
            f._handler(signal.SIGTERM, None)   # deferred: the save goes on
            saved.append("written")
    assert saved == ["written"]
    assert e.value.signum == signal.SIGTERM
    assert f.signum == signal.SIGINT and not f.in_save


def test_a_first_signal_during_a_save_only_sets_the_flag():
    f = StopFlag()
    with f.saving():
        f._handler(signal.SIGTERM, None)
    assert f.requested and f.signum == signal.SIGTERM and f.deferred is None
    with f.saving():   # a later save with the flag set and no second signal: no Abort
        pass
    assert not f.in_save


def group_trainer(votes, size=2):
    return SimpleNamespace(group=SimpleNamespace(size=size, root=False), votes=np.array(votes, float),
                           early_stop=None, step=4, reached=None,
                           cfg=SimpleNamespace(max_steps=None, time_budget=None))


def test_a_group_stops_on_the_votes_not_on_this_ranks_own_flag():
    own = StopFlag()
    t = group_trainer([1.0, 0.0, 0.0])        # another rank got SIGTERM during the last update
    assert StopPolicy(t).reason(own) == "interrupted"
    assert StopPolicy(t).voted_signal() == signal.SIGTERM
    t = group_trainer([2.0, 1.0, 0.0])        # two ranks signalled, one by SIGINT
    assert StopPolicy(t).voted_signal() == signal.SIGINT
    own._handler(signal.SIGINT, None)         # this rank's signal counts once the votes carry it
    t = group_trainer([0.0, 0.0, 0.0])
    assert StopPolicy(t).reason(own) is None
    assert StopPolicy(t).voted_signal() is None
    one = group_trainer([0.0, 0.0, 0.0], size=1)
    assert StopPolicy(one).reason(own) == "interrupted"
    assert StopPolicy(one).voted_signal() is None


def judged(metric, values, patience):
    """Each evaluation's (better, since, stopped) and the trainer after them: evaluation i after update 10 * (i + 1)."""
    t = SimpleNamespace(best={"metric": metric, "value": None, "step": None, "epoch": None, "since": 0},
                        cfg=SimpleNamespace(patience=patience), step=0, early_stop=None)
    out = []
    for i, v in enumerate(values):
        t.step = 10 * (i + 1)
        rec = {"epoch": i + 1, "val_" + metric: v}
        better = stopping.judge(t, rec)
        out.append((better, t.best["since"], rec.get("early_stop", False)))
    return out, t


def test_patience_over_worse_better_equal_worse_losses():
    # 1.0 first (best); 1.2 worse (1 without); 0.9 better (0); 0.9 equal, not better (1); 1.1 worse (2 = patience)
    out, t = judged("loss", [1.0, 1.2, 0.9, 0.9, 1.1], patience=2)
    assert out == [(True, 0, False), (False, 1, False), (True, 0, False), (False, 1, False), (False, 2, True)]
    assert t.best == {"metric": "loss", "value": 0.9, "step": 30, "epoch": 3, "since": 2}
    assert t.early_stop == {"patience": 2, "metric": "loss", "best": 0.9, "best_step": 30, "step": 50}


def test_patience_over_worse_better_equal_worse_accuracies():
    # higher is better: 0.5 first; 0.4 worse; 0.7 better; 0.7 equal; 0.6 worse -> stop at the fifth
    out, t = judged("acc", [0.5, 0.4, 0.7, 0.7, 0.6], patience=2)
    assert out == [(True, 0, False), (False, 1, False), (True, 0, False), (False, 1, False), (False, 2, True)]
    assert t.early_stop == {"patience": 2, "metric": "acc", "best": 0.7, "best_step": 30, "step": 50}
    out, t = judged("acc", [0.5, 0.4, 0.7, 0.7, 0.6], patience=3)
    assert [s for _, _, s in out] == [False] * 5 and t.early_stop is None


def blowup_trainer():
    return SimpleNamespace(initial_loss=None, high_streak=0, epoch=0, step=0, saved_step=0,
                           cfg=SimpleNamespace(out="run", lr=0.01))


def test_a_loss_above_ten_times_the_first_stops_at_the_twentieth_update_in_a_row():
    t = blowup_trainer()
    stopping.blown_up(t, 2.0)                 # the first loss: the level is 10 * 2 = 20
    for i in range(19):
        t.step = i + 1
        stopping.blown_up(t, 20.6)            # 10.3 times the first
    assert t.high_streak == 19
    t.step = 20
    with pytest.raises(TrainingDiverged) as e:
        stopping.blown_up(t, 20.6)
    assert str(e.value) == ("the training loss blew up: above 10x its starting value 2 for 20 updates in a row "
                            "(now 20.6) at epoch 1, update 21; training stopped and the last good checkpoint "
                            "(update 0) is kept in run; start again with a lower --lr than 0.01.")
    t = blowup_trainer()
    stopping.blown_up(t, 2.0)
    for _ in range(30):
        stopping.blown_up(t, 20.0)            # exactly 10 times: not above
    assert t.high_streak == 0
