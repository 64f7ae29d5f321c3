"""lnrnn/training/train.py's loop on a tiny run (digits, 40 training samples in batches of 16: 16, 16, 8): the epoch's
sample count after each update is the samples seen, a run of one process logs no data-parallel line, a stop that
falls on an epoch's last update still ends that epoch, and the progress bar counts epochs from 1."""
import io

from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl


def tiny(tmp_path, **kw):
    settings = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=3,
                    out=str(tmp_path / "run"), save_every_seconds=0)
    settings.update(kw)
    return TrainConfig(**settings)


def test_samples_are_those_seen_and_one_process_logs_no_split(tmp_path):
    seen, logged = [], []
    train_mod.train(tiny(tmp_path, epochs=1), quiet=True, log=logged.append,
                    hook=lambda t: seen.append(t.sums["samples"]))
    assert seen == [16, 32, 40]  # 16 + 16 + 8: the short last batch counts its own 8
    assert not [m for m in logged if "parallel" in m.lower() or "MPI" in m], logged


def test_a_stop_on_the_epochs_last_update_ends_the_epoch(tmp_path):
    trainer = train_mod.train(tiny(tmp_path, max_steps=3), quiet=True, log=lambda m: None)
    assert trainer.step == 3 and trainer.epoch == 1 and trainer.batch_in_epoch == 0
    rows = read_jsonl(tmp_path / "run" / "metrics.jsonl")
    assert [(r["epoch"], r["step"]) for r in rows] == [(1, 3)]


def test_the_bar_counts_epochs_from_one(tmp_path):
    stream = io.StringIO()
    train_mod.train(tiny(tmp_path), stream=stream, log=lambda m: None)
    lines = stream.getvalue().splitlines()
    labels = [line.split(" [")[0] for line in lines if line.startswith("epoch ")]
    assert labels == ["epoch 1/2", "epoch 2/2"], lines
