"""lnrnn/training/train.py's loop on a tiny run (digits, 40 training samples in batches of 16: 16, 16, 8) against
its docstring: each epoch's sample order is a permutation drawn from one numpy Generator(seed) (the batches the
loop asks the task for are that permutation cut in 16, 16, 8, epoch after epoch), the loop starts from that
generator's state; --max-steps stops after that many updates mid-epoch, with the checkpoint of that update, and a
--resume of it ends at the parameters of a run never stopped."""
import numpy as np

from lnrnn.training import train as train_mod
from lnrnn.training.checkpoint import load_checkpoint
from test_values17_train import tiny


def test_each_epoch_is_a_permutation_of_one_generator_seeded_by_seed(tmp_path, monkeypatch):
    asked = []
    real = train_mod.task_batch

    def spy(task, split, idx, *a, **kw):
        if split == "train":
            asked.append(np.array(idx))
        return real(task, split, idx, *a, **kw)

    monkeypatch.setattr(train_mod, "task_batch", spy)
    cfg = tiny(tmp_path, seed=11)
    trainer = train_mod.Trainer(cfg, quiet=True, log=lambda m: None)
    try:
        assert trainer.epoch_rng == np.random.default_rng(11).bit_generator.state
        trainer.run()
    finally:
        trainer.close()
    rng = np.random.default_rng(11)
    want = []
    for _ in range(2):
        perm = rng.permutation(40)
        want += [perm[:16], perm[16:32], perm[32:]]
    assert len(asked) == len(want) == 6
    for got, w in zip(asked, want):
        np.testing.assert_array_equal(got, w)


def test_max_steps_stops_mid_epoch_and_a_resume_ends_where_a_whole_run_does(tmp_path):
    whole = train_mod.train(tiny(tmp_path, out=str(tmp_path / "whole")), quiet=True, log=lambda m: None)
    cfg = tiny(tmp_path, max_steps=2)
    stopped = train_mod.train(cfg, quiet=True, log=lambda m: None)
    assert (stopped.step, stopped.epoch, stopped.batch_in_epoch) == (2, 0, 2)
    meta, _ = load_checkpoint(cfg.out)
    assert meta["step"] == 2
    assert not (tmp_path / "run" / "metrics.jsonl").exists()   # no epoch ended, no evaluation written
    resumed = train_mod.train(tiny(tmp_path), resume=True, quiet=True, log=lambda m: None)
    assert resumed.step == whole.step == 6
    np.testing.assert_array_equal(resumed.model.flat[0].data, whole.model.flat[0].data)
