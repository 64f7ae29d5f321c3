"""What the loop and its recorder write, against sums kept here by a hook that sees every update, and the
patience counter over a scripted, non-monotonic validation history.

A tiny run (digits, 40 training samples in batches of 16: 3 updates an epoch, 16 + 16 + 8 sequences) with
--log-every 2 and --lr-decay 0.5:
- every updates.jsonl row (updates 2, 4, 6) holds the window's training metrics: the sums of its two updates
  over their two counts, "updates": 2, and the rate the update's epoch trained with, lr * 0.5**epoch (the row
  of update 4 is the first of epoch 2's rates: the schedule's boundary);
- every metrics.jsonl epoch row holds the epoch's sums of its three updates over their counts, its rate.
A --max-steps 4 stop inside epoch 2 evaluates the state reached as kind "stop" (checkpoint only): the last row
of metrics.jsonl stays epoch 1's.
--patience with --eval-every 1, the validation loss scripted (worse, better, a tie, worse, ...): the stop comes
at the update where the evaluations since the best reach --patience (by hand below), the best is the first of
equal values; resumed with a larger --patience the run trains on, its counter carried over, and stops where an
uninterrupted run with that patience would."""
import json

import pytest

import lnrnn.training.train as train_module
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=5, lr=0.05,
            save_every_seconds=0, log_every=2, lr_decay=0.5)
NB = 3                                   # updates an epoch: 16, 16, 8 sequences
METRICS = ("loss", "acc")


def cfg(out, **kw):
    return TrainConfig(**{**TINY, "out": str(out), **kw})


def quiet_train(c, **kw):
    return train(c, quiet=True, log=lambda m: None, **kw)


def meta_of(out):
    ckpt = json.load(open(out / "checkpoint.json"))
    return ckpt.get("meta", ckpt)


@pytest.fixture(scope="module")
def decayed(tmp_path_factory):
    out = tmp_path_factory.mktemp("v90") / "run"
    seen = []   # per update: step, epoch, its sums, its count

    def hook(t):
        seen.append((t.step, t.epoch, {m: float(t.model.last_sums[m]) for m in METRICS}, int(t.model.last_count)))
    quiet_train(cfg(out), hook=hook)
    return out, seen


def mean_of(updates):
    count = sum(c for *_, c in updates)
    return {m: sum(s[m] for _, _, s, _ in updates) / count for m in METRICS}


def test_updates_rows_hold_their_windows_means_and_rates(decayed):
    out, seen = decayed
    assert [s for s, *_ in seen] == [1, 2, 3, 4, 5, 6]
    assert [c for *_, c in seen] == [16, 16, 8] * 2          # the last-step head scores one unit a sequence
    rows = read_jsonl(out / "updates.jsonl")
    assert [r["step"] for r in rows] == [2, 4, 6]
    for r, k in zip(rows, range(0, 6, 2)):
        window = seen[k:k + 2]
        want = mean_of(window)
        for m in METRICS:
            assert r[f"train_{m}"] == pytest.approx(want[m], rel=1e-12), (r["step"], m)
        assert r["updates"] == 2
        epoch = (r["step"] - 1) // NB                        # the epoch the row's update trained in
        assert r["lr"] == pytest.approx(TINY["lr"] * TINY["lr_decay"] ** epoch, rel=1e-15)
    assert [r["lr"] for r in rows] == pytest.approx([0.05, 0.025, 0.025])


def test_epoch_rows_hold_the_epochs_means(decayed):
    out, seen = decayed
    rows = read_jsonl(out / "metrics.jsonl")
    assert [r["epoch"] for r in rows] == [1, 2] and [r["step"] for r in rows] == [3, 6]
    for e, r in enumerate(rows):
        want = mean_of(seen[NB * e:NB * (e + 1)])
        for m in METRICS:
            assert r[f"train_{m}"] == pytest.approx(want[m], rel=1e-12), (e, m)
        assert r["lr"] == pytest.approx(TINY["lr"] * TINY["lr_decay"] ** e, rel=1e-15)


def test_a_stop_inside_an_epoch_is_evaluated_as_the_stops(tmp_path):
    out = tmp_path / "run"
    quiet_train(cfg(out, max_steps=4))
    rows = read_jsonl(out / "metrics.jsonl")
    assert [r["step"] for r in rows] == [3]                  # the last row stays epoch 1's
    stop = meta_of(out)["stop_eval"]
    assert (stop["eval"], stop["step"], stop["epoch"]) == ("stop", 4, round(1 + 1 / NB, 6))
    assert stop["lr"] == pytest.approx(0.025)


# ---- --patience over a scripted validation history ----

def scripted(monkeypatch, losses):
    """Every evaluation's validation loss taken from ``losses`` in order (the real evaluation is run and its
    loss replaced)."""
    real, calls = train_module.evaluate, []

    def fake(*a, **kw):
        val = real(*a, **kw)
        val = {**val, "loss": losses[len(calls)]}
        calls.append(val["loss"])
        return val
    monkeypatch.setattr(train_module, "evaluate", fake)
    return calls


def patience_by_hand(losses, patience, since=0, best=None):
    """-> (evaluation index the run stops after, or None; the best's index; since) for evaluations in order:
    strictly lower is better and resets the count, anything else (a tie too) adds one; the stop comes when
    the count reaches patience."""
    best_i = None
    for i, v in enumerate(losses):
        if best is None or v < best:
            best, best_i, since = v, i, 0
        else:
            since += 1
            if since >= patience:
                return i, best_i, since
    return None, best_i, since


LOSSES = [1.0, 1.2, 0.9, 0.9, 1.1, 0.95, 0.8, 1.3, 1.3, 1.4, 1.5, 1.6]


def test_patience_over_a_non_monotonic_history_and_resumed_with_more(tmp_path, monkeypatch):
    out = tmp_path / "run"
    calls = scripted(monkeypatch, LOSSES)
    t = quiet_train(cfg(out, epochs=4, eval_every=1, patience=2, best_metric="loss"))
    stop_i, best_i, since = patience_by_hand(LOSSES, 2)
    assert (stop_i, best_i) == (4, 2)                        # 1.0, worse, better, a tie, worse: the stop
    assert t.step == stop_i + 1                              # one evaluation an update
    assert t.early_stop is not None and t.best["step"] == best_i + 1 and t.best["value"] == LOSSES[best_i]
    rows = read_jsonl(out / "metrics.jsonl")
    assert [r["val_loss"] for r in rows] == LOSSES[:stop_i + 1]
    assert rows[-1].get("early_stop") is True and not any(r.get("early_stop") for r in rows[:-1])
    assert meta_of(out / "best")["best"]["step"] == best_i + 1

    # resumed with --patience 4: it trains on, counting from the 2 evaluations it had
    t2 = quiet_train(cfg(out, epochs=4, eval_every=1, patience=4, best_metric="loss"), resume=True,
                      explicit=("patience",))
    rest = LOSSES[stop_i + 1:]
    more_i, more_best, _ = patience_by_hand(rest, 4, since=since, best=LOSSES[best_i])
    assert more_i is not None
    assert t2.step == stop_i + 1 + more_i + 1
    assert len(calls) == stop_i + 1 + more_i + 1
    assert t2.best["step"] == stop_i + 1 + more_best + 1 and t2.best["value"] == min(LOSSES[:t2.step])
    # the same as one run with --patience 4 from the start
    stop4, best4, _ = patience_by_hand(LOSSES, 4)
    assert t2.step == stop4 + 1 and t2.best["step"] == best4 + 1
    assert [r["val_loss"] for r in read_jsonl(out / "metrics.jsonl")] == LOSSES[:t2.step]
