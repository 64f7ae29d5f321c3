"""lnrnn/training/memory.py: the parameter part of a three-layer LSTM at awkward sizes (I 3, H 5, 4 outputs)
against a hand count of every weight, layer 0's input weights included, times the arrays a step of the optimizer
really allocates; format_bytes below a megabyte in KB of 1024 bytes."""
import numpy as np
import pytest

from lnrnn.model import cells
from lnrnn.training import memory, optim
from lnrnn.training.runconfig import TrainConfig

T, I, H, OUT = 7, 3, 5, 4
G = 4 * H


def _allocated(kind):
    opt = optim.OPTIMIZERS[kind]()
    opt.step({"x": np.zeros(6)}, {"x": np.ones(6)})
    return sum(len(d) for d in opt.slots.values())


@pytest.mark.parametrize("layers", [1, 3])
def test_parameters_by_hand_for_every_layer(layers):
    # layer 0: Wx (I, G), Wh (H, G), b (G); each further layer Wx (H, G), Wh (H, G), b (G); the head H x OUT + OUT
    n = (I * G + H * G + G) + (layers - 1) * (2 * H * G + G) + H * OUT + OUT
    cfg = TrainConfig(cell="lstm", hidden=H, layers=layers, batch_size=2, eval_batch_size=3, skip=False,
                      optimizer="adam", dtype="float32")
    parts = memory.estimate(cfg, cells.get("lstm"), T, I, OUT, False)
    assert parts["parameters"] == 4 * n * (3 + _allocated("adam"))


@pytest.mark.parametrize("n", [0, 1024, 500 * 1024, 1023 * 1024])
def test_kilobytes_are_1024_bytes(n):
    assert memory.format_bytes(n) == f"{n // 1024} KB"
