"""lnrnn/training/update.py's nonfinite, where a layer refuses a NaN or infinite array: without a batch (the
evaluation after the last update) it is a diverged run in the evaluation of the state after update t.step, named
"after update N"; with a batch of finite data, in update t.step + 1, named "update N+1"; the words of
lnrnn/training/stopping.py's diverged, whole, on a trainer stand-in."""
import functools
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.errors import TrainingDiverged
from lnrnn.training import stopping
from lnrnn.training.update import nonfinite


def trainer(norm="ln"):
    t = NS(step=7, epoch=1, saved_step=5, cfg=NS(out="runs/x", task="npz"), batch_in_epoch=2,
           setup=NS(plan=NS(cell=NS(norm=norm))), model=NS(state_noise=0.0))
    t._diverged = functools.partial(stopping.diverged, t)
    return t


def test_a_refusal_in_the_validation_is_after_the_last_update():
    with pytest.raises(TrainingDiverged) as e:
        nonfinite(trainer(), ValueError("h: NaN or infinite values at step 3"))
    assert str(e.value) == ("the recurrent activations of the validation became NaN or infinite at epoch 2, after "
                            "update 7; training stopped and the last good checkpoint (update 5) is kept in runs/x; "
                            "try a lower --lr or a --clip.")


def test_a_refusal_in_an_update_is_that_update():
    with pytest.raises(TrainingDiverged) as e:
        nonfinite(trainer(), ValueError("h: NaN or infinite values at step 3"), np.zeros((2, 2, 1)))
    assert str(e.value).startswith("the recurrent activations became NaN or infinite at epoch 2, update 8; ")
