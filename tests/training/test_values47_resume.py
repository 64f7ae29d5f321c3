"""The best, --patience and the early stop through real tiny runs over scripted validation histories, and
runs stopped in the middle of such a history and resumed, against the uninterrupted run bit for bit:
an early stop that fires at an epoch end stops the run there (no update of the next epoch); resumed with
the same --patience a run that stopped early has nothing to do, resumed with a larger one it goes on
counting from where it stopped, to the evaluation an uninterrupted run with that --patience stops at; a
--best-metric acc run (higher is better, ties not better) cut in the middle of its patience count and
resumed keeps its best and its count; a run without any scheduled evaluation has no best."""
import os
import re

import numpy as np
import pytest

from lnrnn.training.checkpoint import BEST_DIR, load_checkpoint
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import Trainer

from test_cli import TINY, assert_ok, invoke

NB = 7   # TINY's updates an epoch
TIME_KEYS = {"time_s", "samples_per_s", "compile_s"}
ARGS = [a for a in TINY if a not in ("--epochs", "2")]


def scripted(monkeypatch, loss=None, acc=None):
    """Trainer._validate returns the values scripted for its update (a fixed one for the metric not scripted)."""
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": loss[self.step] if loss else 1.0,
                                                            "acc": acc[self.step] if acc else 0.5})


def rows(out):
    return [{k: v for k, v in r.items() if k not in TIME_KEYS} for r in read_jsonl(os.path.join(out, "metrics.jsonl"))]


def same_state(a, b):
    """Two run folders hold the same latest checkpoint (arrays bit for bit, and its counters)."""
    (ma, xa), (mb, xb) = load_checkpoint(str(a)), load_checkpoint(str(b))
    assert xa.keys() == xb.keys() and all(np.array_equal(xa[k], xb[k]) for k in xa)
    for key in ("step", "epoch", "batch_in_epoch", "best_state", "early_stop", "rng"):
        assert ma.get(key) == mb.get(key), key


# validation loss at the epoch ends: best at 7, then worse at every later one
EPOCH_ENDS = {NB: 1.0, 2 * NB: 1.1, 3 * NB: 1.2, 4 * NB: 1.3}


def test_an_early_stop_at_an_epoch_end_stops_there_and_a_resume_goes_on_only_with_more_patience(tmp_path, monkeypatch):
    scripted(monkeypatch, loss=EPOCH_ENDS)
    cut, whole = tmp_path / "cut", tmp_path / "whole"
    r = invoke("train", *ARGS, "--epochs", 4, "--patience", 1, "--out", cut)
    assert_ok(r)
    assert "Stopped early" in r.output
    meta = load_checkpoint(str(cut))[0]
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (2 * NB, 2, 0)
    assert meta["early_stop"] == {"patience": 1, "metric": "loss", "best": 1.0, "best_step": NB, "step": 2 * NB}
    assert [(x["step"], x.get("early_stop", False)) for x in rows(cut)] == [(NB, False), (2 * NB, True)]

    r = invoke("train", "--out", cut, "--resume", "-q")           # the same --patience: nothing to do
    assert_ok(r)
    assert "Nothing to do" in r.output and load_checkpoint(str(cut))[0]["step"] == 2 * NB
    r = invoke("train", "--out", cut, "--resume", "--patience", 2, "-q")   # one more: the next epoch end
    assert_ok(r)
    assert load_checkpoint(str(cut))[0]["step"] == 3 * NB and "Stopped early" in r.output
    assert_ok(invoke("train", *ARGS, "--epochs", 4, "--patience", 2, "--out", whole))
    marks = lambda out: [x.pop("early_stop", False) for x in rows(out)]  # noqa: E731
    strip = lambda out: [{k: v for k, v in x.items() if k != "early_stop"} for x in rows(out)]  # noqa: E731
    assert strip(cut) == strip(whole)
    assert marks(whole) == [False, False, True]
    assert marks(cut) == [False, True, True]     # the first stop's row stays marked
    same_state(cut, whole)


# --best-metric acc, --eval-every 3 over 7 updates an epoch: evaluations at 3, 6, 7, 9, 12, 14, 15, 18, ...
# better at 6, worse at 7, a tie at 9, better at 12, worse, a tie, worse: --patience 3 fires at 18; the
# evaluations where --max-steps stops (8, 13) are the best of all and count for nothing
ACC = {3: 0.3, 6: 0.5, 7: 0.4, 8: 0.99, 9: 0.5, 12: 0.55, 13: 0.99, 14: 0.5, 15: 0.55, 18: 0.54, 21: 0.9}


def by_the_rule(history, patience):
    """(best step, best value, since, the update it stops at) over [(step, acc)], higher better, ties not."""
    best, step, since = None, None, 0
    for s, v in history:
        if best is None or v > best:
            best, step, since = v, s, 0
        else:
            since += 1
            if since >= patience:
                return step, best, since, s
    return step, best, since, None


@pytest.mark.parametrize("cut_at", [8, 13])   # since 1 (after the worse 7), and since 0 (after the better 12)
def test_an_accuracy_run_cut_in_the_middle_of_its_count_resumes_it_exactly(tmp_path, monkeypatch, cut_at):
    scripted(monkeypatch, acc=ACC)
    args = [*ARGS, "--epochs", 3, "--best-metric", "acc", "--eval-every", 3, "--patience", 3]
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert_ok(invoke("train", *args, "--out", whole))
    history = [(x["step"], x["val_acc"]) for x in rows(whole)]
    step, best, since, stop = by_the_rule([(s, ACC[s]) for s in (3, 6, 7, 9, 12, 14, 15, 18, 21)], 3)
    assert [s for s, _ in history] == [s for s in (3, 6, 7, 9, 12, 14, 15, 18) if s <= stop]
    meta = load_checkpoint(str(whole))[0]
    assert meta["step"] == stop and meta["early_stop"]["best_step"] == step
    assert meta["best_state"]["since"] == since and meta["best_state"]["value"] == best

    assert_ok(invoke("train", *args, "--max-steps", cut_at, "--out", cut))
    done = [(s, v) for s, v in history if s <= cut_at]
    b_step, b_value, b_since, _ = by_the_rule(done, 3)
    state = load_checkpoint(str(cut))[0]["best_state"]
    assert (state["step"], state["value"], state["since"]) == (b_step, b_value, b_since)
    assert_ok(invoke("train", "--out", cut, "--resume", "-q"))
    assert rows(cut) == rows(whole)
    same_state(cut, whole)
    (mw, xw), (mc, xc) = load_checkpoint(str(whole / BEST_DIR)), load_checkpoint(str(cut / BEST_DIR))
    assert mw["best"] == mc["best"] == {"metric": "acc", "value": best, "step": step, "epoch": mw["best"]["epoch"]}
    assert all(np.array_equal(xw[k], xc[k]) for k in xw)


@pytest.mark.parametrize("metric", ["loss", "acc"])
def test_a_run_without_a_scheduled_evaluation_has_no_best(tmp_path, monkeypatch, metric):
    """--max-steps 3 inside the first epoch: the stop's evaluation is no scheduled one; no best, no best/."""
    scripted(monkeypatch, loss={3: 0.5}, acc={3: 0.5})
    out = tmp_path / "run"
    r = invoke("train", *TINY, "--best-metric", metric, "--max-steps", 3, "--out", out)
    assert_ok(r)
    meta = load_checkpoint(str(out))[0]
    assert meta["best_state"] == {"metric": metric, "value": None, "step": None, "epoch": None, "since": 0}
    assert not os.path.exists(out / BEST_DIR) and "best checkpoint" not in r.output


def test_the_first_evaluation_is_the_first_best_for_either_direction(tmp_path, monkeypatch):
    """An accuracy of 0 and a loss of 1e30 at the first epoch end are still the best so far."""
    for metric, acc, loss in (("acc", 0.0, 1.0), ("loss", 0.5, 1e30)):
        scripted(monkeypatch, loss={NB: loss}, acc={NB: acc})
        out = tmp_path / metric
        assert_ok(invoke("train", *ARGS, "--epochs", 1, "--best-metric", metric, "--out", out))
        best = load_checkpoint(str(out / BEST_DIR))[0]["best"]
        assert (best["step"], best["value"]) == (NB, acc if metric == "acc" else loss)


def test_the_bar_of_an_epoch_resumed_in_its_middle_ends_at_the_epochs_samples(tmp_path):
    """Stopped at update 3 (96 of 200 samples) and resumed: the resumed epoch's bar counts on from 96 and its
    last line says 200/200, like the next epoch's."""
    out = tmp_path / "run"
    loud = [a for a in TINY if a != "-q"]
    assert_ok(invoke("train", *loud, "--max-steps", 3, "--out", out))
    r = invoke("train", "--out", out, "--resume")
    assert_ok(r)
    finals = re.findall(r"epoch (\d)/2 \[[#.]+\] (\d+)/(\d+)", r.output)
    assert finals == [("1", "200", "200"), ("2", "200", "200")]
