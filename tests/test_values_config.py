"""lnrnn/config.py's documented values where the code reads them: the tasks' default model sizes (train --help:
an LN-LSTM of 64 units on the classification tasks; Graves's 3 x 400 skip-connected stack on the stroke
tasks) and BatchNorm's momentum, by which a layer built with the defaults moves its running statistics a
tenth of the way to each training batch's."""
import numpy as np
import pytest

from lnrnn.config import task_defaults
from lnrnn.model.layers import RecurrentLayer

CLASSIFY = dict(hidden=64, layers=1, skip=False, eval_batch_size=500)
STROKES = dict(hidden=400, layers=3, skip=True, eval_batch_size=32)


@pytest.mark.parametrize("task,want", [("digits-binary", CLASSIFY), ("mnist", CLASSIFY), ("adding", CLASSIFY),
                                       ("strokes", STROKES), ("strokes-hershey", STROKES)])
def test_task_defaults_by_name(task, want):
    assert task_defaults(task) == want


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_bn_running_statistics_move_a_tenth_of_the_way(cell):
    """From mean 0, variance 1: after one training forward row t holds 0.1 * the batch mean of x_t Wx and
    0.9 + 0.1 * its unbiased batch variance."""
    rng = np.random.default_rng(0)
    T, B, I, H = 2, 5, 3, 4
    layer = RecurrentLayer(cell, "bn", I, H, dtype=np.float64, max_steps=T)
    x = rng.standard_normal((T, B, I))
    layer.forward(x, training=True)
    xw = x @ layer.params["Wx"]                                        # (T,B,G)
    np.testing.assert_allclose(layer.buffers["rmx"], 0.1 * xw.mean(axis=1), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(layer.buffers["rvx"], 0.9 + 0.1 * xw.var(axis=1, ddof=1), rtol=1e-9)
