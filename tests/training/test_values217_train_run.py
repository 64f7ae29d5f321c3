"""What a short run writes and says (lnrnn/training/train.py, recorder.py), worked out here from the settings of
test_values202_train_run (digits, 40 training samples in batches of 16: NB = 3 updates an epoch, --eval-every 2,
--epochs 2):

- Stopped by --max-steps 5: the progress bar's closing line of epoch 1 counts all 40 samples (16 + 16 + 8, the
  last batch short), that of epoch 2 the 32 of its two updates; the summary reports the stop's own evaluation
  (update 5, epoch 1 + 2/3 = "1.67"), its figures those checkpoint.json keeps, and the best checkpoint at the
  update of the lowest validation loss among the rows of metrics.jsonl; learning_curve.svg's title names 1 layer
  (singular), the optimizer, the lr, the batch size and the seed of the settings.
- The stopped run resumed equals the same run made in one go: the same rows of metrics.jsonl (times apart), the
  same summary (paths and seconds apart); the resumed run's first line is "Resuming. " and the one-go run's
  description."""
import io
import json
import os
import re
import shutil

import pytest

from lnrnn.training.rundir import CURVE_FILE, METRICS_FILE, read_jsonl
from lnrnn.training.train import train
from test_values202_train_run import TINY, cfg

NB, N = 3, 40


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("v217")
    stream, stopped, resumed, one = io.StringIO(), [], [], []
    train(cfg(base / "stopped", max_steps=5), quiet=False, stream=stream, log=stopped.append)
    shutil.copytree(str(base / "stopped"), str(base / "resumed"))
    train(cfg(base / "resumed"), resume=True, quiet=True, log=resumed.append)
    train(cfg(base / "one"), quiet=True, log=one.append)
    return base, stream.getvalue(), {"stopped": stopped, "resumed": resumed, "one": one}


def rows(path):
    return read_jsonl(os.path.join(str(path), METRICS_FILE))


def test_each_epochs_closing_bar_counts_the_samples_of_its_updates(runs):
    _, text, _ = runs
    lines = text.splitlines()   # a slow first update may add a plain bar line mid-epoch: the closing ones are
    closing = [next(line for line in lines if line.startswith("epoch 1/2 [") and " | val " in line),
               [line for line in lines if line.startswith("epoch 2/2 [")][-1]]   # epoch 1's with its val, 2's last
    sizes = [min(TINY["batch_size"], N - b * TINY["batch_size"]) for b in range(NB)]
    assert sizes == [16, 16, 8]
    assert closing[0].startswith("epoch 1/2 [") and f"] {sum(sizes)}/{N} " in closing[0]
    assert closing[1].startswith("epoch 2/2 [") and f"] {sum(sizes[:2])}/{N} " in closing[1]


def test_the_summary_reports_the_stops_own_evaluation_and_the_best(runs):
    base, _, lines = runs
    out = base / "stopped"
    with open(os.path.join(str(out), "checkpoint.json"), encoding="utf-8") as f:
        stop = json.load(f)["stop_eval"]
    assert stop["step"] == 5
    res = (f"validation loss {stop['val_loss']:.4f}, accuracy {100 * stop['val_acc']:.2f}% at update 5 "
           f"(epoch {1 + 2 / NB:.2f}) (evaluated at the stop, kept in checkpoint.json only)")
    best = min(rows(out), key=lambda r: r["val_loss"])
    res += f"; best checkpoint {os.path.join(str(out), 'best')} (validation loss {best['val_loss']:.4f} at update " \
           f"{best['step']})"
    assert f"; {res}; " in lines["stopped"][-1]


def test_the_curves_title_names_the_settings(runs):
    base, _, _ = runs
    with open(os.path.join(str(base / "stopped"), CURVE_FILE), encoding="utf-8") as f:
        svg = f.read()
    t = TINY
    assert (f">{t['cell']} H={t['hidden']} on {t['task']} (1 layer, {t['optimizer']} lr {t['lr']}, batch "
            f"{t['batch_size']}, seed {t['seed']})<") in svg


def test_a_resumed_run_equals_one_made_in_one_go(runs):
    base, _, lines = runs
    got, want = rows(base / "resumed"), rows(base / "one")
    assert [r["step"] for r in want] == [2, 3, 4, 6]      # --eval-every 2 inside epochs, and each epoch's end
    timing = ("time_s", "compile_s", "samples_per_s")
    assert [{k: v for k, v in r.items() if k not in timing} for r in got] == \
           [{k: v for k, v in r.items() if k not in timing} for r in want]
    res, one = lines["resumed"], lines["one"]
    def same(line, out):  # seconds of training and compiling are the clock's, not the run's
        return re.sub(r" in [^;]* of training[^;]*;", " in S of training;", line.replace(str(base / out), "OUT"))
    assert same(res[-1], "resumed") == same(one[-1], "one")
    assert res[-1].startswith("Done: 2 epochs, 6 updates in ")
    assert not one[0].startswith("Resuming")
    assert res[0] == "Resuming. " + one[0].replace(str(base / "one"), str(base / "resumed"))
