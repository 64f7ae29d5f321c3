"""What a short run writes and says (lnrnn/training/train.py, recorder.py), worked out here from its settings:
digits, 40 training samples in batches of 16, NB = 3 updates an epoch, --eval-every 2, --epochs 2.

- Stopped by --max-steps 5: the progress stream has one line per evaluation inside an epoch, at updates 2 and 4
  (the second in epoch 2, where the batch of the epoch is 1); learning_curve.svg labels the run "rnn H=4 on
  digits" (1 layer, so H and the layer count differ); the summary lists the checkpoint, the metrics and the curve
  in that order, with their paths, and its last sentence, word for word, points to the run's --epochs 2.
- One epoch of one batch (16 training samples): the summary says "Done: 1 epoch, 1 update in ".
- The stopped run's checkpoint.json as lnrnn 0.1 wrote it (the epoch sums as [loss, correct, count, samples]) and
  with compile seconds: a resumed Trainer (not run: nothing is written) holds those sums under their names and
  those seconds."""
import io
import json
import os
import shutil

import pytest

from lnrnn.training.checkpoint import DESCRIPTION
from lnrnn.training.logs import CSV_FILE
from lnrnn.training.rundir import CURVE_FILE, METRICS_FILE
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.train import Trainer, train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, layers=1, batch_size=16, epochs=2, seed=7, lr=0.05,
            save_every_seconds=0, log_every=2, eval_every=2, optimizer="adam")


def cfg(out, **kw):
    return TrainConfig(**{**TINY, "out": str(out), **kw})


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("v202")
    stream, stopped, one = io.StringIO(), [], []
    train(cfg(base / "stopped", max_steps=5), quiet=False, stream=stream, log=stopped.append)
    train(cfg(base / "one", split="16/20", epochs=1, eval_every=None), quiet=True, log=one.append)
    return {"stopped": (base / "stopped", stream.getvalue(), stopped), "one": (base / "one", None, one)}


def test_one_progress_line_per_evaluation_inside_an_epoch_names_its_update(runs):
    _, text, _ = runs["stopped"]
    notes = [line for line in text.splitlines() if line.startswith("update ")]
    assert [n.split(":")[0] for n in notes] == ["update 2", "update 4"]
    assert all(n.split(": ", 1)[1].startswith("val ") for n in notes)


def test_the_curve_is_labelled_with_the_cell_the_hidden_size_and_the_task(runs):
    out, _, _ = runs["stopped"]
    with open(os.path.join(str(out), CURVE_FILE), encoding="utf-8") as f:
        svg = f.read()
    assert f"{TINY['cell']} H={TINY['hidden']} on {TINY['task']}" in svg
    assert f"H={TINY['layers']} " not in svg


def test_the_summary_lists_the_runs_files_in_order(runs):
    out, _, lines = runs["stopped"]
    where = ", ".join(f"{what} {os.path.join(str(out), name)}"
                      for what, name in (("checkpoint", DESCRIPTION), ("metrics", METRICS_FILE), ("curve", CURVE_FILE)))
    assert os.path.exists(os.path.join(str(out), CSV_FILE))   # written, not listed
    assert lines[-1].startswith("Stopped (reached --max-steps 5) at ") and f"; {where}; continue with " in lines[-1]


def test_one_epoch_of_one_update_is_said_in_the_singular(runs):
    _, _, lines = runs["one"]
    assert lines[-1].startswith("Done: 1 epoch, 1 update in ")


def test_a_stopped_runs_hint_points_to_its_epochs(runs):
    out, _, lines = runs["stopped"]
    assert lines[-1].endswith(
        f"; continue with `lnrnn train --out {out} --resume` (without --max-steps it trains on to --epochs 2; give "
        "--max-steps again for a new limit).")


def test_an_old_checkpoints_list_of_sums_and_its_compile_seconds_are_restored(runs, tmp_path):
    out = tmp_path / "old"
    shutil.copytree(str(runs["stopped"][0]), str(out))
    path = os.path.join(str(out), DESCRIPTION)
    with open(path, encoding="utf-8") as f:
        meta = json.load(f)
    meta["epoch_sums"], meta["compile_time_s"] = [1.5, 7.0, 11, 13], 12.5
    with open(path, "w", encoding="utf-8") as f:
        json.dump(meta, f)
    before = sorted(os.listdir(str(out)))
    t = Trainer(cfg(out), resume=True, quiet=True, log=lambda msg: None)
    try:
        want = dict.fromkeys(t.model.head.sum_keys, 0.0)
        want.update(loss=1.5, acc=7.0)
        assert t.sums == {"sums": want, "count": 11, "samples": 13}
        assert t.compile_s == 12.5 and t.compile_total() == 12.5
        assert (t.step, t.epoch, t.batch_in_epoch) == (5, 1, 2)
    finally:
        t.close()
    assert sorted(os.listdir(str(out))) == before
