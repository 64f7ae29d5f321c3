"""lnrnn/training/memory.py: the window's part of the estimate counted by hand, on the host and on the device. Its
parameters, 3K rows of H + 1 (the window's Wp and bp), are kept as every parameter is (the values, their gradients,
a copy for saving and the optimizer's slots); on the host training also keeps p (3K) and kappa (K) per (step, row)
of a --tbptt chunk, where on the device those stay on the GPU and the host keeps nothing more."""
import pytest

from lnrnn.model import cells
from lnrnn.training import memory

from test_values_memory import _cfg


@pytest.mark.parametrize("device", ["cpu", "cuda"])
@pytest.mark.parametrize("K,H,B,T,tbptt,optimizer,dtype,slots,isz", [
    (4, 3, 2, 9, 0, "adam", "float32", 2, 4),
    (1, 5, 3, 7, 4, "sgd", "float64", 1, 8),
    (10, 2, 1, 1, 0, "sgd", "float32", 1, 4),
])
def test_the_window_part_by_hand(device, K, H, B, T, tbptt, optimizer, dtype, slots, isz):
    cfg = _cfg(cell="ln-lstm", hidden=H, batch_size=B, window=K, optimizer=optimizer, dtype=dtype, tbptt=tbptt,
               device=device)
    parts = memory.estimate(cfg, cells.get("ln-lstm"), T, 3, 121, True)
    weights = 3 * K * (H + 1) * (3 + slots)
    Tc = min(tbptt or T, T)
    per_step = Tc * B * 4 * K if device == "cpu" else 0
    assert parts["window"] == isz * (weights + per_step)


def test_no_window_no_window_part():
    parts = memory.estimate(_cfg(cell="ln-lstm"), cells.get("ln-lstm"), 5, 3, 4, True)
    assert "window" not in parts
