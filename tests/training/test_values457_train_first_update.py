"""lnrnn/training/train.py: Trainer.first_update_s, the wall seconds from the start of the training loop to the end
of the first update (compiling included; bench/train_throughput.py prints it beside the compile seconds). Watched
from a hook on test_values202_train_run's tiny digits run (40 samples in batches of 16, 3 updates an epoch, two
epochs): unset before the run, set by the first update to a time between 0 and the wall time from before train()
to the hook's call, and never changed by the updates after it."""
import time

from lnrnn.training.train import Trainer, train
from test_values202_train_run import cfg


def test_first_update_seconds_are_the_time_to_the_first_update_and_stay(tmp_path):
    seen = []

    def hook(t):
        seen.append((t.step, t.first_update_s, time.perf_counter() - start))

    assert Trainer(cfg(tmp_path / "fresh")).first_update_s is None     # nothing run: nothing measured
    start = time.perf_counter()
    train(cfg(tmp_path / "run", eval_every=None), quiet=True, log=lambda m: None, hook=hook)
    assert [s for s, _, _ in seen] == list(range(1, 7))
    _, first, since_start = seen[0]
    assert 0 < first <= since_start
    assert all(f == first for _, f, _ in seen)
