"""The trainer's counters and policies over histories that go up and down, against their definitions
written here: the best validation metric and --patience over "worse, better, worse, better" sequences
(ties are not better; the early stop fires at the exact evaluation), the blow-up streak that a good
update resets, --save-every's schedule, the --keep copies' names and pruning past powers of ten, and a
run stopped in the middle of a patience count and resumed, equal to the uninterrupted one."""
import os
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.checkpoint import PAST_DIR, keep_past, load_checkpoint, save_checkpoint
from lnrnn.training.optim import decayed_lr
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.stopping import BLOWUP_FACTOR, BLOWUP_UPDATES
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import Trainer

from test_cli import TINY, assert_ok, invoke


def judged(values, metric, patience):
    """Trainer._judge over one evaluation per value (steps 10, 20, ...) until the early stop -> one record per
    evaluation: (better, best value, best step, since, early stop fired here, the row marked)."""
    t = SimpleNamespace(best={"metric": metric, "value": None, "step": None, "epoch": None, "since": 0},
                        cfg=SimpleNamespace(patience=patience), step=0, early_stop=None)
    out = []
    for k, v in enumerate(values):
        t.step = 10 * (k + 1)
        rec = {"epoch": k + 1, "step": t.step, "val_" + metric: v}
        better = Trainer._judge(t, rec)
        out.append((better, t.best["value"], t.best["step"], t.best["since"], t.early_stop is not None,
                    rec.get("early_stop", False)))
        if t.early_stop is not None:  # the run stops here
            break
    return out, t


def definition(values, higher_is_better, patience):
    """The same records from the rule itself: a value strictly better than every earlier one is the new
    best; otherwise one more evaluation since the best; the stop fires when that count reaches patience."""
    out, best, best_step, since = [], None, None, 0
    for k, v in enumerate(values):
        better = best is None or (v > best if higher_is_better else v < best)
        if better:
            best, best_step, since = v, 10 * (k + 1), 0
        else:
            since += 1
        stop = patience is not None and since == patience
        out.append((better, best, best_step, since, stop, stop))
        if stop:
            break
    return out


LOSSES = [1.0, 1.2, 0.8, 0.9, 0.8, 0.7, 0.75, 0.9, 0.95, 0.6, 0.65, 0.7, 0.71]   # worse, better, a tie, ...
ACCS = [0.3, 0.2, 0.5, 0.4, 0.5, 0.6, 0.55, 0.5, 0.45, 0.7, 0.6, 0.6]


@pytest.mark.parametrize("metric,values", [("loss", LOSSES), ("acc", ACCS)])
@pytest.mark.parametrize("patience", [None, 1, 2, 3])
def test_best_and_patience_over_a_history_that_goes_up_and_down(metric, values, patience):
    got, t = judged(values, metric, patience)
    want = definition(values, metric == "acc", patience)
    assert got == want
    if want[-1][4]:
        e, k = t.early_stop, len(want) - 1
        assert e["step"] == 10 * (k + 1) and e["best_step"] == want[k][2] and e["best"] == want[k][1]
        assert e["patience"] == patience and e["metric"] == metric


def test_patience_counts_from_the_latest_best_not_the_first():
    """Two worse evaluations, a better one, two worse again: with --patience 3 nothing stops (a count that
    were not reset by the better one would reach 3 at the fourth evaluation)."""
    got, t = judged([1.0, 1.1, 1.2, 0.9, 1.0, 1.05], "loss", 3)
    assert t.early_stop is None
    assert [r[3] for r in got] == [0, 1, 2, 0, 1, 2]
    got, t = judged([1.0, 1.1, 1.2, 0.9, 1.0, 1.05, 1.0], "loss", 3)
    assert t.early_stop["step"] == 70 and t.early_stop["best_step"] == 40


def test_no_best_metric_judges_nothing():
    t = SimpleNamespace(best={"metric": "none", "value": None, "step": None, "epoch": None, "since": 0},
                        cfg=SimpleNamespace(patience=None), step=3, early_stop=None)
    assert Trainer._judge(t, {"epoch": 1, "step": 3, "val_loss": 1.0}) is False
    assert t.best["value"] is None and t.best["since"] == 0


def streak_trainer():
    return SimpleNamespace(initial_loss=None, high_streak=0, epoch=0, step=0, saved_step=0,
                           cfg=SimpleNamespace(out="run", lr=0.1))


def test_blowup_streak_is_updates_in_a_row_and_a_good_one_resets_it():
    """First loss 2.0: the level is BLOWUP_FACTOR * 2.0. BLOWUP_UPDATES - 1 high losses, one at the level
    (not above it), BLOWUP_UPDATES - 1 high again: no stop; the next high one stops the run, at that update."""
    t = streak_trainer()
    level = BLOWUP_FACTOR * 2.0
    high = [level * 1.5] * (BLOWUP_UPDATES - 1)
    losses = [2.0] + high + [level] + high
    for k, loss in enumerate(losses):
        t.step = k
        Trainer._blown_up(t, loss)
    assert t.high_streak == BLOWUP_UPDATES - 1 and t.initial_loss == 2.0
    t.step = len(losses)
    with pytest.raises(TrainingDiverged, match=f"for {BLOWUP_UPDATES} updates in a row"):
        Trainer._blown_up(t, level * 1.5)


def save_trainer(save_every, pending=False, streak=0):
    return SimpleNamespace(save_pending=pending, step=0, last_save_t=float("inf"), high_streak=streak,
                           cfg=SimpleNamespace(save_every=save_every, save_every_seconds=0.0))


@pytest.mark.parametrize("every", [1, 3, 10])
def test_save_every_is_due_at_its_multiples(every):
    t = save_trainer(every)
    due = []
    for step in range(1, 32):
        t.step = step
        if RunRecorder(t).save_due():
            due.append(step)
    assert due == [s for s in range(1, 32) if s % every == 0]


def test_a_save_waits_while_the_loss_is_high_and_is_then_due():
    t = save_trainer(None, streak=2)
    t.step = 5
    assert not RunRecorder(t).save_due()          # nothing due: nothing waits
    t = save_trainer(4, streak=1)
    t.step = 8
    assert not RunRecorder(t).save_due() and t.save_pending  # due, but the loss is above the level: it waits
    t.high_streak, t.step = 0, 9
    assert RunRecorder(t).save_due()              # the waiting save, at the next update in range


def test_learning_rate_decays_per_epoch():
    for epoch in range(4):
        want = 0.02
        for _ in range(epoch):
            want *= 0.5
        assert decayed_lr(0.02, 0.5, epoch) == pytest.approx(want, rel=1e-15)


# ---- --keep: the copies' names past powers of ten

@pytest.mark.parametrize("keep", [1, 3])
def test_keep_holds_the_newest_checkpoints_past_powers_of_ten(tmp_path, keep):
    run = str(tmp_path / "run")
    steps = [0, 8, 9, 10, 11, 99, 100, 101, 999, 1000]
    for s in steps:
        save_checkpoint(run, {"w": np.full(2, float(s))}, {"step": s, "model": {}})
        keep_past(run, keep)
        kept = sorted(os.listdir(os.path.join(run, PAST_DIR)))
        numbers = [int(d.split("-")[1]) for d in kept]
        assert sorted(numbers) == sorted(steps[:steps.index(s) + 1])[-keep:], (s, kept)
        for d, n in zip(kept, numbers):
            meta, arrays = load_checkpoint(os.path.join(run, PAST_DIR, d))
            assert meta["step"] == n and arrays["w"][0] == n
            assert [f for f in os.listdir(os.path.join(run, PAST_DIR, d)) if f.endswith(".npz")] == [meta["arrays_file"]]


# ---- a run stopped in the middle of a patience count, resumed

# validation loss by update (--eval-every 2 on TINY: 7 updates an epoch, so updates 2, 4, 6, 7, 8, 10, ...):
# worse at 4, better at 6, worse at 7 and 8, and at 10 the third evaluation since the best (--patience 3);
# update 9 is where the interrupted run stops (its evaluation there counts for nothing)
VAL = {2: 1.0, 4: 1.1, 6: 0.9, 7: 0.95, 8: 0.97, 9: 0.1, 10: 0.99, 12: 0.5, 14: 0.4}


def scripted(monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": VAL[self.step], "acc": 0.5})


def rows(out):
    return read_jsonl(os.path.join(out, "metrics.jsonl"))


def test_patience_count_survives_a_stop_and_resume(tmp_path, monkeypatch):
    scripted(monkeypatch)
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    args = [*TINY, "--eval-every", 2, "--patience", 3]
    assert_ok(invoke("train", *args, "--out", whole))
    assert_ok(invoke("train", *args, "--max-steps", 9, "--out", cut))
    assert load_checkpoint(str(cut))[0]["best_state"]["since"] == 2
    assert_ok(invoke("train", "--out", cut, "--resume", "-q"))
    for out in (whole, cut):
        r = rows(out)
        assert [x["step"] for x in r] == [2, 4, 6, 7, 8, 10]
        assert [x.get("early_stop", False) for x in r] == [False] * 5 + [True]
        meta = load_checkpoint(str(out))[0]
        assert meta["step"] == 10 and meta["early_stop"]["best_step"] == 6 and meta["best_state"]["since"] == 3
        assert load_checkpoint(str(out / "best"))[0]["best"] == {"metric": "loss", "value": 0.9, "step": 6,
                                                                   "epoch": round(6 / 7, 6)}


def test_eval_every_at_an_epoch_end_is_that_epochs_row_only(tmp_path, monkeypatch):
    """--eval-every 7 on 7 updates an epoch: the scheduled evaluations fall on the epoch ends, which are
    evaluated once, as epoch rows (an update row beside them would count twice towards --patience)."""
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": 1.0 / self.step, "acc": 0.5})
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--eval-every", 7, "--out", out))
    assert [(x["step"], x.get("eval")) for x in rows(out)] == [(7, None), (14, None)]


def recorded_updates(monkeypatch):
    """Each update's (loss sum, scored count), in order, across invocations."""
    from lnrnn.model.models import SequenceModel
    original, seen = SequenceModel.loss_and_grad, []

    def spy(self, *args, **kw):
        means = original(self, *args, **kw)
        seen.append((self.last_sums["loss"], self.last_count))
        return means
    monkeypatch.setattr(SequenceModel, "loss_and_grad", spy)
    return seen


def update_rows(out):
    return read_jsonl(os.path.join(out, "updates.jsonl"))


def test_update_log_windows_survive_a_stop_and_resume(tmp_path, monkeypatch):
    """--log-every 3: a row at updates 3, 6, 9, 12, each the mean of its own three updates (the sums of
    the losses over the sums of the counts); stopped at update 5, in the middle of a window, and resumed,
    the rows are the same."""
    for name, stops in (("whole", []), ("cut", [5])):
        seen = recorded_updates(monkeypatch)
        out = tmp_path / name
        for s in stops:
            assert_ok(invoke("train", *TINY, "--log-every", 3, "--max-steps", s, "--out", out))
        if stops:
            assert_ok(invoke("train", "--out", out, "--resume", "-q"))
        else:
            assert_ok(invoke("train", *TINY, "--log-every", 3, "--out", out))
        assert len(seen) == 14
        r = update_rows(out)
        assert [x["step"] for x in r] == [3, 6, 9, 12]
        for x in r:
            window = seen[x["step"] - 3:x["step"]]
            assert x["updates"] == 3
            assert x["train_loss"] == pytest.approx(sum(s for s, _ in window) / sum(c for _, c in window), rel=1e-9)
        monkeypatch.undo()
