"""lnrnn/training/stopping.py's judge (Trainer._judge) driven over scripted validation histories, against the
rule written here: the metric judged is the one --best-metric names (the evaluation's other metrics say
nothing), a value strictly better than the best so far is the new best (a tie is not: for a loss and an
accuracy alike), otherwise one more evaluation since the best; the early stop fires at the evaluation that
brings that count to --patience, records that evaluation's update (and the best's) and marks that row
only; --best-metric none judges nothing, with or without --patience. Each evaluation's rows hold the loss
and the accuracy, the one not named following a history of its own, so judging the wrong one shows."""
from types import SimpleNamespace

import pytest

from lnrnn.training.train import Trainer


def stand_in(metric, patience):
    return SimpleNamespace(best={"metric": metric, "value": None, "step": None, "epoch": None, "since": 0},
                           cfg=SimpleNamespace(patience=patience), step=0, early_stop=None)


def judge_all(pairs, metric, patience, every=5):
    """Judge one evaluation per (loss, acc) pair at updates every, 2 every, ... until the early stop ->
    (the trainer, [(better, best value, best step, since)], the rows judged)."""
    t, seen, rows = stand_in(metric, patience), [], []
    for k, (loss, acc) in enumerate(pairs):
        t.step = every * (k + 1)
        rec = {"epoch": k + 1, "step": t.step, "val_loss": loss, "val_acc": acc}
        better = Trainer._judge(t, rec)
        rows.append(rec)
        seen.append((better, t.best["value"], t.best["step"], t.best["since"]))
        if t.early_stop is not None:
            break
    return t, seen, rows


def by_the_rule(values, higher, patience, every=5):
    """The same records from the rule, and the index of the evaluation that stops (or None)."""
    out, best, step, since = [], None, None, 0
    for k, v in enumerate(values):
        if best is None or (v > best if higher else v < best):
            best, step, since, better = v, every * (k + 1), 0, True
        else:
            since, better = since + 1, False
        out.append((better, best, step, since))
        if patience is not None and since >= patience:
            return out, k
    return out, None


# worse, better, tie with the best, worse, better, tie, worse, worse, worse, ...
LOSS = [1.0, 1.3, 0.9, 0.9, 1.1, 0.7, 0.7, 0.8, 0.75, 0.72, 0.71]
ACC = [0.40, 0.30, 0.55, 0.55, 0.50, 0.60, 0.60, 0.58, 0.59, 0.59, 0.60]
OTHER = [0.5, 0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4, 0.95, 0.05]   # the metric not named: its own ups and downs


@pytest.mark.parametrize("metric", ["loss", "acc"])
@pytest.mark.parametrize("patience", [None, 1, 2, 3, 4])
def test_best_since_and_the_stop_follow_the_named_metric_only(metric, patience):
    pairs = list(zip(LOSS, OTHER)) if metric == "loss" else list(zip(OTHER, ACC))
    values = [p[0] if metric == "loss" else p[1] for p in pairs]
    t, seen, rows = judge_all(pairs, metric, patience)
    want, stop_at = by_the_rule(values, metric == "acc", patience)
    assert seen == want
    if stop_at is None:
        assert t.early_stop is None and not any(r.get("early_stop") for r in rows)
    else:
        e = t.early_stop
        assert e == {"patience": patience, "metric": metric, "best": want[stop_at][1],
                     "best_step": want[stop_at][2], "step": 5 * (stop_at + 1)}
        assert [bool(r.get("early_stop")) for r in rows] == [False] * stop_at + [True]


@pytest.mark.parametrize("metric, values", [("loss", [2.0, 1.0, 1.0, 1.0]), ("acc", [0.1, 0.5, 0.5, 0.5])])
def test_a_tie_with_the_best_is_not_better(metric, values):
    """Two ties after the best: the best stays the earlier evaluation, and --patience 2 fires at the second."""
    other = [0.5] * len(values)
    pairs = list(zip(values, other)) if metric == "loss" else list(zip(other, values))
    t, seen, rows = judge_all(pairs, metric, 2, every=10)
    assert [s[0] for s in seen] == [True, True, False, False]
    assert t.best["step"] == 20 and t.best["since"] == 2
    assert t.early_stop["step"] == 40 and t.early_stop["best_step"] == 20
    assert rows[-1]["early_stop"] is True and "early_stop" not in rows[-2]


def test_the_wrong_metric_would_pick_another_best():
    """The histories above are such that the loss's best and the accuracy's best differ: a judge of the wrong
    metric shows in the best step."""
    t_acc, _, _ = judge_all(list(zip([1.0, 0.5, 2.0], [0.9, 0.2, 0.95])), "acc", None)
    t_loss, _, _ = judge_all(list(zip([1.0, 0.5, 2.0], [0.9, 0.2, 0.95])), "loss", None)
    assert (t_acc.best["step"], t_acc.best["value"]) == (15, 0.95)
    assert (t_loss.best["step"], t_loss.best["value"]) == (10, 0.5)


@pytest.mark.parametrize("patience", [None, 1])
def test_best_metric_none_judges_nothing_and_never_stops(patience):
    """Rows without any val_none: nothing better, no count, no stop, however the metrics go."""
    t = stand_in("none", patience)
    for k, (loss, acc) in enumerate(zip(LOSS, ACC)):
        t.step = k + 1
        rec = {"epoch": k + 1, "step": t.step, "val_loss": loss, "val_acc": acc}
        assert Trainer._judge(t, rec) is False
        assert "early_stop" not in rec
    assert t.early_stop is None and t.best == {"metric": "none", "value": None, "step": None, "epoch": None,
                                               "since": 0}


def test_the_stop_fires_at_its_evaluation_even_when_counted_from_a_restored_state():
    """A judge that starts from a restored best (since 2 of --patience 3, as a resumed run does) fires at the
    first evaluation without improvement, and a better one first resets the count."""
    t = stand_in("loss", 3)
    t.best.update(value=0.5, step=40, epoch=2, since=2)
    t.step = 70
    rec = {"epoch": 3.5, "step": 70, "val_loss": 0.5, "val_acc": 0.0}
    assert Trainer._judge(t, rec) is False and rec["early_stop"] is True
    assert t.early_stop == {"patience": 3, "metric": "loss", "best": 0.5, "best_step": 40, "step": 70}
    t = stand_in("loss", 3)
    t.best.update(value=0.5, step=40, epoch=2, since=2)
    for step, v in ((70, 0.49), (80, 0.6), (90, 0.6)):
        t.step = step
        Trainer._judge(t, {"epoch": step / 20, "step": step, "val_loss": v, "val_acc": 0.0})
    assert t.early_stop is None and t.best["since"] == 2 and t.best["step"] == 70
