"""lnrnn/training/train.py's loop in numbers, on a tiny run (digits, 40 training samples in batches of 16: two
full batches and one of 8 per epoch): each epoch visits every sample once, in the order of its own draw from
the seed's generator, and a checkpoint is written at each epoch's end."""
import numpy as np

from lnrnn.training import train as train_mod
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.runconfig import TrainConfig


def test_epochs_draw_their_own_order_train_every_sample_and_save_at_their_end(tmp_path, monkeypatch):
    batches, saved = [], []
    real = train_mod.task_batch

    def spy(task, split, idx, *args, **kw):
        batches.append(np.array(idx))
        return real(task, split, idx, *args, **kw)

    def hook(trainer):  # after every update: the step of the checkpoint on disk
        saved.append((trainer.step, load_checkpoint(str(out))[0]["step"]))

    monkeypatch.setattr(train_mod, "task_batch", spy)
    out = tmp_path / "run"
    cfg = TrainConfig(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=3,
                      out=str(out), save_every_seconds=0)
    train_mod.train(cfg, quiet=True, log=lambda msg: None, hook=hook)
    assert [len(b) for b in batches] == [16, 16, 8] * 2
    rng = np.random.default_rng(3)
    first, second = rng.permutation(40), rng.permutation(40)
    np.testing.assert_array_equal(np.concatenate(batches[:3]), first)
    np.testing.assert_array_equal(np.concatenate(batches[3:]), second)
    # the start's checkpoint (step 0) until the first epoch ends at update 3, then that one
    assert saved == [(1, 0), (2, 0), (3, 0), (4, 3), (5, 3), (6, 3)]
    assert load_checkpoint(str(out))[0]["step"] == 6
