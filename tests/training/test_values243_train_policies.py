"""The run's policies over a scripted, non-monotonic validation history, against decisions worked out by hand
here: the early stop of --patience at the exact evaluation (mid-epoch, not at the epoch's end), the best
checkpoint kept at the first of two tied bests (its arrays equal to --keep's copy of that update), --keep's
copies past update 9 -> 10 pruned in numeric order, the rows of metrics.jsonl counted, a resume after an
early stop (nothing to do with the same --patience; a larger one goes on from the restored best and count)
and a resume cut in the middle of a patience count.

The run is TINY of test_values56_stop_place (digits, 40 training sequences in batches of 16: 3 updates an
epoch, 4 epochs) with the validation metrics replaced by VAL[step]. With --eval-every 1 every update is
evaluated (updates 3, 6, 9, 12 as epoch rows). Worked out with the rule "strictly lower is better; else one
more evaluation since the best":

    update  1    2    3    4    5     6    7     8    9    10    11   12
    loss    1.0  0.9  1.1  0.8  0.85  0.9  0.95  0.7  0.7  0.75  0.8  0.9
    best    1    2    2    4    4     4    4     8    8    8     8    8
    since   0    0    1    0    1     2    3     0    1    2     3    4

so --patience 3 stops at update 7 (the second update of epoch 3), with the best at update 4; without
--patience the best is update 8 (update 9 ties it: not better)."""
import os

import numpy as np
import pytest

from lnrnn.training.checkpoint import PAST_DIR, load_checkpoint
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.train import Trainer, train
from test_values56_stop_place import TINY, summary
from test_values_train_policies import judged, rows

VAL = {1: 1.0, 2: 0.9, 3: 1.1, 4: 0.8, 5: 0.85, 6: 0.9, 7: 0.95, 8: 0.7, 9: 0.7, 10: 0.75, 11: 0.8, 12: 0.9}


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": VAL[self.step], "acc": 0.5})


def resumed(out, explicit=(), **kw):
    said = []
    t = train(TrainConfig(**{**TINY, "out": str(out), **kw}), resume=True, explicit=explicit, quiet=True,
              log=said.append)
    return t, said


def params(path):
    arrays = load_checkpoint(str(path))[1]
    return {k: v for k, v in arrays.items() if k.startswith("param/")}


def test_ties_are_not_better_for_either_direction():
    """Trainer._judge on a tie: not better (RUN/best is not rewritten), one more evaluation since the best."""
    got, t = judged([0.7, 0.7, 0.6, 0.6], "loss", None)
    assert [g[0] for g in got] == [True, False, True, False]
    assert [g[3] for g in got] == [0, 1, 0, 1] and t.best["step"] == 30
    got, t = judged([0.5, 0.6, 0.6, 0.4, 0.6], "acc", None)
    assert [g[0] for g in got] == [True, True, False, False, False]
    assert [g[3] for g in got] == [0, 0, 1, 2, 3] and t.best["step"] == 20


def test_patience_stops_at_the_evaluation_inside_the_epoch(tmp_path, scripted):
    out = tmp_path / "run"
    t, said = summary(out, eval_every=1, patience=3)
    assert (t.step, t.epoch, t.batch_in_epoch) == (7, 2, 1)
    r = rows(out)
    assert [x["step"] for x in r] == [1, 2, 3, 4, 5, 6, 7]
    assert [x.get("early_stop", False) for x in r] == [False] * 6 + [True]
    meta = load_checkpoint(str(out))[0]
    assert meta["step"] == 7
    assert meta["early_stop"] == {"patience": 3, "metric": "loss", "best": 0.8, "best_step": 4, "step": 7}
    assert meta["best_state"]["since"] == 3
    best = load_checkpoint(str(out / "best"))[0]
    assert best["step"] == 4 and best["best"] == {"metric": "loss", "value": 0.8, "step": 4, "epoch": round(1 + 1 / 3, 6)}


def test_a_resume_after_an_early_stop(tmp_path, scripted):
    """The same --patience: nothing to do, nothing written; --patience 4 goes on from the restored best (update 4,
    0.8) and count (3): update 8 is better, 9-12 are four more, the stop comes as epoch 4 ends."""
    out = tmp_path / "run"
    summary(out, eval_every=1, patience=3)
    before = sorted(os.listdir(out))
    t, said = resumed(out, patience=3, eval_every=1)
    assert said == [f"Nothing to do: the run in {out} stopped early at update 7 (no better validation loss in 3 "
                    "evaluations, --patience 3); pass a larger --patience to train it further."]
    assert t.step == 7 and sorted(os.listdir(out)) == before and len(rows(out)) == 7
    t, said = resumed(out, explicit=("patience",), patience=4, eval_every=1)
    assert t.step == 12
    r = rows(out)
    assert [x["step"] for x in r] == list(range(1, 13))
    assert [x.get("early_stop", False) for x in r] == [False] * 6 + [True] + [False] * 4 + [True]
    meta = load_checkpoint(str(out))[0]
    assert meta["early_stop"] == {"patience": 4, "metric": "loss", "best": 0.7, "best_step": 8, "step": 12}


def test_a_resume_in_the_middle_of_a_patience_count(tmp_path, scripted):
    """Cut at update 5 (best 0.8 at update 4, one evaluation since): resumed, update 6 (0.9) is not a new best
    and the stop still comes at update 7, as in the uninterrupted run."""
    out = tmp_path / "run"
    summary(out, eval_every=1, patience=3, max_steps=5)
    assert load_checkpoint(str(out))[0]["best_state"] == {"metric": "loss", "value": 0.8, "step": 4,
                                                          "epoch": round(1 + 1 / 3, 6), "since": 1}
    t, said = resumed(out, eval_every=1, patience=3)
    assert t.step == 7 and [x["step"] for x in rows(out)] == [1, 2, 3, 4, 5, 6, 7]
    assert load_checkpoint(str(out))[0]["early_stop"]["best_step"] == 4
    assert load_checkpoint(str(out / "best"))[0]["step"] == 4


def test_best_is_the_first_of_two_tied_updates(tmp_path, scripted):
    """Without --patience: the best is update 8 (0.7); update 9 ties it and 10, 11 are worse: RUN/best holds
    update 8's parameters, the same as --keep's copy of update 8 and not those of update 9."""
    out = tmp_path / "run"
    t, said = summary(out, eval_every=1, save_every=1, keep=20)
    assert t.step == 12 and len(rows(out)) == 12
    assert sorted(os.listdir(out / PAST_DIR)) == [f"update-{s:09d}" for s in range(13)]
    best = load_checkpoint(str(out / "best"))[0]
    assert best["step"] == 8
    assert best["best"] == {"metric": "loss", "value": 0.7, "step": 8, "epoch": round(2 + 2 / 3, 6)}
    want, other = params(out / PAST_DIR / "update-000000008"), params(out / PAST_DIR / "update-000000009")
    got = params(out / "best")
    assert sorted(got) == sorted(want)
    assert all(np.array_equal(got[k], want[k]) for k in want)
    assert not all(np.array_equal(got[k], other[k]) for k in other)


def test_keep_three_past_update_nine(tmp_path, scripted):
    """--keep 3 with a checkpoint every update: after update 12 the copies of updates 10, 11 and 12 are left
    (9 pruned before 10: numeric order), each the checkpoint of its own update."""
    out = tmp_path / "run"
    summary(out, save_every=1, keep=3)
    kept = sorted(os.listdir(out / PAST_DIR))
    assert kept == ["update-000000010", "update-000000011", "update-000000012"]
    assert [load_checkpoint(str(out / PAST_DIR / d))[0]["step"] for d in kept] == [10, 11, 12]
    assert len(rows(out)) == 4
