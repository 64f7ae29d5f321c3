"""What the training driver (lnrnn/training/train.py, recorder.py, setup.py) says and writes on tiny runs, worked
out here from the settings of test_values202_train_run (digits, 40 training samples in batches of 16: NB = 3 updates an
epoch, the last one of 8 samples):

- hidden 40, --eval-every 2, 2 epochs: the evaluations come at updates 2, 3 (epoch end), 4 and 6 (epoch end; update
  6 is also a multiple of 2 but the epoch's end evaluates it once), their samples 32, 40, 56, 80; the start line
  counts 1*40 + 40*40 + 40 + 40*10 + 10 = 2,090 parameters, with a thousands comma; the summary reports the last
  row of metrics.jsonl and the best checkpoint at its lowest validation loss, formatted here by hand.
- --patience 1 over 4 epochs: the run stops at the first epoch end whose validation loss is not below the best so
  far (read from metrics.jsonl's rows), one row per epoch evaluated and no further, and says so word for word.
- --max-steps 3 = NB: the stop comes on epoch 1's last update; the run ends there, epoch 1 evaluated and saved.
- --max-steps 5: the hint names the command that resumes the run.
- A NaN validation loss of an --eval-every evaluation (the parameters made NaN by a hook after update 2) is the
  refusal of stopping.diverged word for word: the validation loss, after update 2, checkpoint of update 0."""
import json
import os
import re

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train
from test_values202_train_run import cfg

N, B, NB = 40, 16, 3
COMPILE = re.compile(r" \(plus [0-9.]+ s compiling kernels, once per install: later runs load them\)")
TIME = re.compile(r" in [0-9:]+ of training")


def rows(out):
    return read_jsonl(os.path.join(str(out), "metrics.jsonl"))


def plain(line):
    """The summary with its seconds written as T and without the compiling note (both vary run to run)."""
    return TIME.sub(" in T of training", COMPILE.sub("", line))


def files(out):
    return (f"checkpoint {os.path.join(str(out), 'checkpoint.json')}, metrics {os.path.join(str(out), 'metrics.jsonl')}, "
            f"curve {os.path.join(str(out), 'learning_curve.svg')}")


def validation(row):
    return f"validation loss {row['val_loss']:.4f}, accuracy {100 * row['val_acc']:.2f}%"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("v236")
    logs = {}
    for name, kw in [("wide", dict(hidden=40)), ("patience", dict(epochs=4, patience=1, eval_every=None)),
                     ("edge", dict(max_steps=NB, eval_every=None)), ("mid", dict(max_steps=5))]:
        logs[name] = []
        train(cfg(base / name, **kw), quiet=True, log=logs[name].append)
    return base, logs


def test_evaluations_every_two_updates_and_at_each_epoch_end(runs):
    base, _ = runs
    r = rows(base / "wide")
    assert [x["step"] for x in r] == [2, 3, 4, 6]
    assert [x["samples"] for x in r] == [2 * B, N, N + B, 2 * N]


def test_the_start_line_counts_the_parameters_with_a_thousands_comma(runs):
    _, logs = runs
    H, I, O = 40, 1, 10
    count = I * H + H * H + H + H * O + O
    assert count == 2090
    assert logs["wide"][0].startswith("Training rnn (hidden 40, 1 layer, 2,090 parameters, float32) on ")


def test_the_summary_reports_the_last_evaluation_and_the_best(runs):
    base, logs = runs
    out = base / "wide"
    r = rows(out)
    best = min(r, key=lambda x: x["val_loss"])
    assert best is not r[-1] and best is not r[0]   # a history whose first, best and last rows differ
    expected = (f"Done: 2 epochs, 6 updates in T of training; {validation(r[-1])} after epoch 2; best checkpoint "
                f"{os.path.join(str(out), 'best')} (validation loss {best['val_loss']:.4f} at update {best['step']}); "
                f"{files(out)}.")
    assert plain(logs["wide"][-1]) == expected


def test_patience_stops_at_the_first_epoch_end_without_a_better_loss(runs):
    base, logs = runs
    out = base / "patience"
    r = rows(out)
    best, stop = r[0], None
    for k, x in enumerate(r[1:], start=1):
        if x["val_loss"] < best["val_loss"]:
            best = x
        else:
            stop = k
            break
    assert stop is not None and stop + 1 < 4      # it stopped before its last epoch
    assert len(r) == stop + 1 and r[-1]["step"] == NB * (stop + 1)
    with open(os.path.join(str(out), "checkpoint.json"), encoding="utf-8") as f:
        assert json.load(f)["step"] == NB * (stop + 1)
    expected = (f"Stopped early (--patience 1: no better validation loss in 1 evaluation since update {best['step']}) "
                f"after epoch {stop + 1}, {NB * (stop + 1)} updates in T of training; {validation(r[-1])} after epoch "
                f"{stop + 1}; best checkpoint {os.path.join(str(out), 'best')} (validation loss {best['val_loss']:.4f} "
                f"at update {best['step']}); {files(out)}; to train further, resume with a larger --patience.")
    assert plain(logs["patience"][-1]) == expected


def test_max_steps_on_an_epochs_last_update_ends_the_run_there(runs):
    base, _ = runs
    out = base / "edge"
    assert [x["step"] for x in rows(out)] == [NB]
    with open(os.path.join(str(out), "checkpoint.json"), encoding="utf-8") as f:
        meta = json.load(f)
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (NB, 1, 0)


def test_a_stopped_runs_hint_is_the_command_that_resumes_it(runs):
    base, logs = runs
    out = str(base / "mid")
    assert logs["mid"][-1].endswith(
        f"; continue with `lnrnn train --out {out} --resume` (without --max-steps it trains on to --epochs 2; "
        "give --max-steps again for a new limit).")


def test_a_nan_validation_loss_every_two_updates_is_named_as_such(tmp_path):
    def poison(t):
        if t.step == 2:
            t.model.flat[0].data[:] = np.nan

    out = tmp_path / "nan"
    with pytest.raises(TrainingDiverged) as e:
        train(cfg(out, epochs=1), quiet=True, log=lambda msg: None, hook=poison)
    assert str(e.value) == (f"the validation loss became nan at epoch 1, after update 2; training stopped and the "
                            f"last good checkpoint (update 0) is kept in {out}; try a lower --lr or a --clip.")
    with open(os.path.join(str(out), "checkpoint.json"), encoding="utf-8") as f:
        assert json.load(f)["step"] == 0
