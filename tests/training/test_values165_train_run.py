"""A short run's records, worked out here from its schedule (lnrnn/training/train.py, recorder.py): digits, 40
training samples in batches of 16, NB = 3 updates an epoch (16, 16, 8), --eval-every 2 over 2 epochs.

- The run made in one go evaluates at updates 2 and 4 inside epochs ("eval": "update", epoch fractions over NB)
  and at 3 and 6, the epochs' ends (rows without "eval"); it ends with learning_curve.svg drawn (shorter than the
  redraw interval, the end of the run draws it) and a summary that reports the last epoch's row as "after epoch 2".
- A run stopped by --max-steps 5 (inside epoch 2, one update past the evaluation at 4) evaluates the state it
  reached: checkpoint.json's stop_eval is an evaluation of kind "stop" at update 5, epoch 1 + 2/3, which the summary
  reports as such; the checkpoint records one process.
- Resumed without --max-steps, it says nothing about a change of process count, shuffles the rest of epoch 2 with
  the saved epoch's generator and ends with the same bits as the run made in one go, and the same metrics rows.
- The finished run resumed has nothing to do and says so in one line, by hand."""
import os

import numpy as np
import pytest

from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.rundir import CURVE_FILE, METRICS_FILE, read_jsonl
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.train import train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=7, lr=0.05,
            save_every_seconds=0, log_every=2, eval_every=2, optimizer="adam")
N, B, E = 40, 16, 2
NB = -(-N // B)     # 3
VOLATILE = ("time_s", "compile_s", "samples_per_s")


def cfg(out, **kw):
    return TrainConfig(**{**TINY, "out": str(out), **kw})


def run(c, resume=False):
    lines = []
    t = train(c, resume=resume, quiet=True, log=lines.append)
    return t, lines


def rows(out):
    return [{k: v for k, v in r.items() if k not in VOLATILE} for r in read_jsonl(os.path.join(str(out), METRICS_FILE))]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    whole_out = tmp_path_factory.mktemp("whole") / "run"
    whole, whole_log = run(cfg(whole_out))
    part_out = tmp_path_factory.mktemp("part") / "run"
    stopped, stopped_log = run(cfg(part_out, max_steps=5))
    stop_meta = load_checkpoint(str(part_out))[0]
    resumed, resumed_log = run(cfg(part_out), resume=True)
    return dict(whole_out=whole_out, whole=whole, whole_log=whole_log, part_out=part_out, stopped=stopped,
                stopped_log=stopped_log, stop_meta=stop_meta, resumed=resumed, resumed_log=resumed_log)


def test_rows_in_order_with_their_kinds_and_fractions(runs):
    got = [(r["step"], r["epoch"], r.get("eval")) for r in rows(runs["whole_out"])]
    want = []
    for s in range(1, E * NB + 1):
        e, b = divmod(s - 1, NB)
        if s % NB == 0:
            want.append((s, e + 1, None))                          # an epoch's end: its number, no "eval"
        elif s % TINY["eval_every"] == 0:
            want.append((s, round(e + (b + 1) / NB, 6), "update"))
    assert got == want == [(2, round(2 / 3, 6), "update"), (3, 1, None), (4, round(1 + 1 / 3, 6), "update"),
                           (6, 2, None)]


def test_the_run_made_in_one_go_draws_its_curve_and_reports_its_last_epoch(runs):
    path = os.path.join(str(runs["whole_out"]), CURVE_FILE)
    assert os.path.getsize(path) > 0
    summary = runs["whole_log"][-1]
    assert summary.startswith(f"Done: {E} epochs, {E * NB} updates in ")
    assert " after epoch 2; best checkpoint " in summary and "(epoch " not in summary


def test_the_stops_own_evaluation_is_of_kind_stop_and_the_checkpoint_counts_one_process(runs):
    meta = runs["stop_meta"]
    assert meta["step"] == 5 and meta["epoch"] == 1 and meta["batch_in_epoch"] == 2
    ev = meta["stop_eval"]
    assert (ev["step"], ev["epoch"], ev["eval"]) == (5, round(1 + 2 / 3, 6), "stop")
    assert ev["samples"] == N + 2 * B
    assert meta["ranks"] == 1
    assert "at update 5 (epoch 1.67) (evaluated at the stop, kept in checkpoint.json only)" in runs["stopped_log"][-1]


def test_resumed_in_its_second_epoch_it_is_the_run_made_in_one_go(runs):
    assert not any("trained as" in line for line in runs["resumed_log"])
    assert runs["resumed_log"][0].startswith("Resuming. ")
    (ma, xa), (mb, xb) = load_checkpoint(str(runs["part_out"])), load_checkpoint(str(runs["whole_out"]))
    assert xa.keys() == xb.keys()
    for k in xa:
        np.testing.assert_array_equal(xa[k], xb[k], k)
    for key in ("step", "epoch", "batch_in_epoch", "rng", "best_state", "ranks"):
        assert ma[key] == mb[key], key
    assert rows(runs["part_out"]) == rows(runs["whole_out"])


def test_the_finished_run_resumed_has_nothing_to_do(runs):
    out = runs["whole_out"]
    before = load_checkpoint(str(out))[0]["step"]
    again, lines = run(cfg(out), resume=True)
    assert again.step == before == E * NB
    assert lines == [f"Nothing to do: the run in {out} has finished {E} epochs (--epochs {E}); pass a larger "
                     "--epochs to train it further."]
