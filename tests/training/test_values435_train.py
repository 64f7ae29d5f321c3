"""What a Trainer shows by default (lnrnn/training/train.py: Trainer's and train's quiet=False): the epoch's bar
closes on the stream it is given with the epoch's validation after it, as the CLI's runs show it; quiet=True keeps
the stream empty. Worked on the tiny digits run of test_values202_train_run (one epoch of 40 training samples in
batches of 16)."""
import io

import pytest

from lnrnn.training.train import Trainer, train
from test_values202_train_run import cfg


@pytest.mark.parametrize("how", ["train", "Trainer"])
def test_the_bar_shows_unless_quiet(tmp_path, how):
    shown = {}
    for quiet in (None, True):
        stream, said = io.StringIO(), []
        kw = {} if quiet is None else {"quiet": quiet}
        c = cfg(tmp_path / f"{how}-{quiet}", epochs=1, eval_every=None)
        if how == "train":
            train(c, stream=stream, log=said.append, **kw)
            assert said and said[-1].startswith("Done: 1 epoch, 3 updates in "), said
        else:
            Trainer(c, stream=stream, log=said.append, **kw).run()
        shown[quiet] = stream.getvalue()
    lines = shown[None].splitlines()
    assert lines and lines[-1].startswith("epoch 1/1 [" + "#" * 24 + "] 40/40 "), shown[None]
    assert " | val " in lines[-1]
    assert shown[True] == ""
