"""lnrnn/training/train.py's schedule in numbers, on a tiny run (digits, 40 training samples in batches of 16:
three updates an epoch, the third one of 8 samples): the learning rate of every update is lr * lr_decay**epoch
(the first epoch undecayed), and --eval-every 1 evaluates after every update except an epoch's last, which the
epoch's own evaluation covers (one metrics row per evaluation, none twice)."""
import pytest

from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("schedule") / "run"
    lrs = []
    cfg = TrainConfig(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=3,
                      lr=0.1, lr_decay=0.5, eval_every=1, out=str(out), save_every_seconds=0)
    trainer = train_mod.train(cfg, quiet=True, log=lambda msg: None, hook=lambda t: lrs.append((t.step, t.opt.lr)))
    rows = read_jsonl(out / "metrics.jsonl")
    return trainer, lrs, rows


def test_every_update_runs_at_its_epochs_decayed_rate(run):
    _, lrs, rows = run
    assert lrs == [(1, 0.1), (2, 0.1), (3, 0.1), (4, 0.05), (5, 0.05), (6, 0.05)]
    assert [r["lr"] for r in rows] == [0.1, 0.1, 0.1, 0.05, 0.05, 0.05]


def test_eval_every_leaves_an_epochs_last_update_to_the_epochs_evaluation(run):
    trainer, _, rows = run
    assert [r["step"] for r in rows] == [1, 2, 3, 4, 5, 6]       # one evaluation per update, none twice
    assert [r.get("eval", "epoch") for r in rows] == ["update", "update", "epoch", "update", "update", "epoch"]
    assert [r["epoch"] for r in rows] == [pytest.approx(1 / 3), pytest.approx(2 / 3), 1,
                                          pytest.approx(4 / 3), pytest.approx(5 / 3), 2]
    assert [r["samples"] for r in rows] == [16, 32, 40, 56, 72, 80]
    assert trainer.history == rows
