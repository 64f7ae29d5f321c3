"""The best, --patience and the records of a run over a scripted validation history that goes down, up, ties
and down again, stopped in the middle of it and resumed, against the rule worked out here and against the same
run made in one go (lnrnn/training/train.py, stopping.py, recorder.py).

digits, 40 training samples in batches of 16: NB = 3 updates an epoch (16, 16 and a partial 8); --eval-every 2
over 5 epochs evaluates at updates 2, 4, 8, 10, 14 inside epochs and 3, 6, 9, 12, 15 at their ends. The scripted
validation losses are better, worse, tied (not better) and better again; --patience 3 stops the run early at the
evaluation the rule below finds. A run stopped by --max-steps at 5 (inside epoch 2, one update after a log row of
--log-every 2, one evaluation after the best) or at 7 (after an epoch end) and resumed without it must write the
same metrics.jsonl and updates.jsonl rows and end with the same checkpoint (arrays bit for bit, the best, the
patience count, the early stop) and the same best checkpoint. updates.jsonl's rows are the means of their
--log-every updates (each update's sums read by a hook) at epoch fractions counted over NB; RUN/best/ keeps the
four fields of the best evaluation; a resume with the same --patience has nothing to do."""
import os

import numpy as np
import pytest

from lnrnn.training.checkpoint import BEST_DIR, load_checkpoint
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import Trainer, train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=5, seed=5, lr=0.05,
            save_every_seconds=0, log_every=2, eval_every=2, patience=3, optimizer="adam")
N, B = 40, 16
NB = -(-N // B)     # 3
VOLATILE = ("time_s", "compile_s", "samples_per_s")

# validation loss at each evaluation: better at 3, worse, a tie, better at 8, worse, a tie, worse...
LOSS = {2: 1.0, 3: 0.9, 4: 0.95, 6: 0.9, 8: 0.8, 9: 0.85, 10: 0.8, 12: 0.85, 14: 0.7, 15: 0.6}


def evaluations(epochs):
    """The updates evaluated, by hand: every multiple of --eval-every inside an epoch, and every epoch end."""
    return [s for s in range(1, epochs * NB + 1) if s % NB == 0 or s % TINY["eval_every"] == 0]


def by_the_rule(steps, patience):
    """(best value, best step, since, the step of the early stop or None) over the evaluations in order;
    lower is better, a tie is not."""
    best, best_step, since = None, None, 0
    for s in steps:
        v = LOSS[s]
        if best is None or v < best:
            best, best_step, since = v, s, 0
        else:
            since += 1
            if since >= patience:
                return best, best_step, since, s
    return best, best_step, since, None


def scripted(monkeypatch):
    """Trainer._validate returns the loss scripted for its update; the state a --max-steps stop reaches between
    evaluations scores better than any (a stop's evaluation must count for nothing)."""
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": LOSS.get(self.step, 0.1), "acc": 0.5})


def cfg(out, **kw):
    return TrainConfig(**{**TINY, "out": str(out), **kw})


def quiet_train(c, **kw):
    return train(c, quiet=True, log=lambda m: None, **kw)


def rows(path):
    return [{k: v for k, v in r.items() if k not in VOLATILE} for r in read_jsonl(path)]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    scripted(mp)
    out = tmp_path_factory.mktemp("whole") / "run"
    seen = []
    try:
        t = quiet_train(cfg(out), hook=lambda t: seen.append((t.step, dict(t.model.last_sums), t.model.last_count)))
    finally:
        mp.undo()
    return out, t, seen


def test_the_schedule_and_the_rule_by_hand():
    assert evaluations(5) == [2, 3, 4, 6, 8, 9, 10, 12, 14, 15]
    assert by_the_rule(evaluations(5), 3) == (0.8, 8, 3, 12)


def test_patience_over_a_non_monotonic_history_stops_where_the_rule_says(whole):
    out, t, _ = whole
    best, best_step, since, stop = by_the_rule(evaluations(5), TINY["patience"])
    assert t.step == stop                                    # an epoch end: no update of epoch 5
    done = [s for s in evaluations(5) if s <= stop]
    recs = rows(out / "metrics.jsonl")
    assert [r["step"] for r in recs] == done
    assert [r["val_loss"] for r in recs] == [LOSS[s] for s in done]
    assert [r.get("early_stop", False) for r in recs] == [s == stop for s in done]
    assert t.best == {"metric": "loss", "value": best, "step": best_step, "epoch": recs[done.index(best_step)]["epoch"],
                      "since": since}
    meta = load_checkpoint(str(out))[0]
    assert meta["step"] == stop and meta["best_state"] == t.best
    assert meta["early_stop"] == {"patience": 3, "metric": "loss", "best": best, "best_step": best_step, "step": stop}
    bmeta = load_checkpoint(os.path.join(str(out), BEST_DIR))[0]
    assert bmeta["step"] == best_step
    assert bmeta["best"] == {"metric": "loss", "value": best, "step": best_step,
                             "epoch": recs[done.index(best_step)]["epoch"]}


def test_update_rows_are_their_windows_means_at_fractions_over_nb(whole):
    out, t, seen = whole
    every = TINY["log_every"]
    want = []
    for s in range(every, t.step + 1, every):
        window = [x for x in seen if s - every < x[0] <= s]
        loss = sum(x[1]["loss"] for x in window) / sum(x[2] for x in window)
        e, b = divmod(s - 1, NB)
        want.append((s, round(e + (b + 1) / NB, 6), every, loss))
    got = [(r["step"], r["epoch"], r["updates"], r["train_loss"]) for r in rows(out / "updates.jsonl")]
    assert [g[:3] for g in got] == [w[:3] for w in want]
    assert np.allclose([g[3] for g in got], [w[3] for w in want], rtol=1e-9, atol=0)


def same_state(a, b):
    (ma, xa), (mb, xb) = load_checkpoint(str(a)), load_checkpoint(str(b))
    assert xa.keys() == xb.keys()
    for k in xa:
        assert np.array_equal(xa[k], xb[k]), k
    for key in ("step", "epoch", "batch_in_epoch", "best_state", "early_stop", "rng", "log_window", "optimizer"):
        assert ma.get(key) == mb.get(key), key


@pytest.mark.parametrize("cut", [5, 7])
def test_a_run_stopped_and_resumed_writes_what_the_uninterrupted_one_wrote(whole, tmp_path, monkeypatch, cut):
    out, t, _ = whole
    scripted(monkeypatch)
    part = tmp_path / "run"
    first = quiet_train(cfg(part, max_steps=cut))
    assert first.step == cut and first.stop_eval["val_loss"] == 0.1
    steps = [s for s in evaluations(5) if s <= cut]
    best, best_step, since, _ = by_the_rule(steps, TINY["patience"])
    assert (first.best["value"], first.best["step"], first.best["since"]) == (best, best_step, since)
    resumed = quiet_train(cfg(part), resume=True)
    assert resumed.step == t.step and resumed.best == t.best and resumed.early_stop == t.early_stop
    assert rows(part / "metrics.jsonl") == rows(out / "metrics.jsonl")
    assert rows(part / "updates.jsonl") == rows(out / "updates.jsonl")
    same_state(part, out)
    assert load_checkpoint(os.path.join(str(part), BEST_DIR))[0]["best"] == \
        load_checkpoint(os.path.join(str(out), BEST_DIR))[0]["best"]


def test_an_early_stopped_run_resumed_with_the_same_patience_has_nothing_to_do(whole, tmp_path, monkeypatch):
    out, t, _ = whole
    scripted(monkeypatch)
    part = tmp_path / "run"
    quiet_train(cfg(part))
    lines = []
    again = train(cfg(part), resume=True, quiet=True, log=lines.append)
    assert again.step == t.step and load_checkpoint(str(part))[0]["step"] == t.step
    assert lines == [f"Nothing to do: the run in {part} stopped early at update {t.step} (no better validation loss "
                     f"in 3 evaluations, --patience 3); pass a larger --patience to train it further."]
