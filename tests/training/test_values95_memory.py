"""The memory plan's byte counts against hand counts: a small LSTM's parameters with each optimizer's slots
(the docstring's 3 copies + the slots each keeps at its defaults), and what --device cuda leaves on the host
(the training and evaluation batches at their own row counts); format_bytes' units."""
import pytest

from lnrnn.model import cells
from lnrnn.training import memory
from lnrnn.training.runconfig import TrainConfig

T, I, OUT, H = 6, 2, 3, 4
# one-layer LSTM: Wx (2, 16) + Wh (4, 16) + b (16), the head 4 x 3 + 3
N_PARAMS = 2 * 16 + 4 * 16 + 16 + 4 * 3 + 3


def _cfg(**kw):
    base = dict(cell="lstm", hidden=H, layers=1, batch_size=3, eval_batch_size=7, skip=False)
    base.update(kw)
    return TrainConfig(**base)


@pytest.mark.parametrize("kind,slots", [("sgd", 1), ("adam", 2), ("rmsprop", 1), ("rmsprop-momentum", 2),
                                        ("rmsprop-graves", 3)])
def test_parameters_part_counts_each_optimizers_slots(kind, slots):
    # sgd: momentum 0.9 keeps one buffer; rmsprop-momentum is not centred (sq, v); graves is (sq, avg, v)
    assert memory.slots(kind) == slots
    parts = memory.estimate(_cfg(optimizer=kind), cells.get("lstm"), T, I, OUT, False)
    assert parts["parameters"] == 4 * N_PARAMS * (3 + slots)


@pytest.mark.parametrize("B,Be", [(3, 7), (9, 2), (5, 5)])
def test_on_cuda_the_host_keeps_each_batch_at_its_own_rows(B, Be):
    parts = memory.estimate(_cfg(device="cuda", batch_size=B, eval_batch_size=Be, dtype="float64"),
                            cells.get("lstm"), T, I, OUT, False, 123)
    assert parts["activations"] == 8 * T * B * I
    assert parts["evaluation"] == 8 * T * Be * I
    assert parts["data"] == 123


@pytest.mark.parametrize("n,text", [(0, "0 KB"), (512, "0 KB"), (1536, "2 KB"), (1 << 20, "1.0 MB"),
                                    (3 * (1 << 29), "1.5 GB"), (5 << 40, "5.0 TB")])
def test_format_bytes_units_are_powers_of_1024(n, text):
    assert memory.format_bytes(n) == text
