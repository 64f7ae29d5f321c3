"""lnrnn/training/memory.py's plan against hand counts at awkward sizes (T 7, I 3, H 5, two layers, 3 training
rows and 11 evaluation rows, so no two sizes coincide): the parameter part counts the slots an optimizer really
allocates on its first step (the arrays in its state afterwards), the evaluation part counts --eval-batch-size rows,
on --device cuda the host keeps the batches x (T,B,I) at I wide; format_bytes' one decimal, and check_fits names
every part of at least 1% of the peak in its message."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory, optim
from lnrnn.training.runconfig import TrainConfig

T, I, H, L, B, BE, OUT = 7, 3, 5, 2, 3, 11, 4
G = 4 * H
# LSTM: layer 0 Wx (3, 20) Wh (5, 20) b (20); layer 1 Wx (5, 20) Wh (5, 20) b (20); the head 5 x 4 + 4
N_PARAMS = (I * G + H * G + G) + (H * G + H * G + G) + H * OUT + OUT


def cfg(**kw):
    base = dict(cell="lstm", hidden=H, layers=L, batch_size=B, eval_batch_size=BE, skip=False)
    base.update(kw)
    return TrainConfig(**base)


def allocated_slots(kind):
    """Parameter-sized arrays the optimizer keeps after one step of its defaults."""
    opt = optim.OPTIMIZERS[kind]()
    p, g = {"x": np.zeros(6)}, {"x": np.ones(6)}
    opt.step(p, g)
    return sum(len(d) for d in opt.slots.values())


@pytest.mark.parametrize("kind", ["sgd", "adam", "rmsprop", "rmsprop-momentum", "rmsprop-graves"])
def test_parameters_count_the_slots_each_optimizer_allocates(kind):
    slots = allocated_slots(kind)
    assert memory.slots(kind) == slots
    parts = memory.estimate(cfg(optimizer=kind, dtype="float64"), cells.get("lstm"), T, I, OUT, False)
    assert parts["parameters"] == 8 * N_PARAMS * (3 + slots)


@pytest.mark.parametrize("per_step", [False, True])
def test_evaluation_counts_the_evaluation_rows(per_step):
    a, c = cells.get("lstm").activations
    head = OUT * (T if per_step else 1)
    want = int(memory.HEADROOM * 4 * (T * BE * L * (a * H + c) + T * BE * I + 2 * BE * head))
    parts = memory.estimate(cfg(), cells.get("lstm"), T, I, OUT, per_step)
    assert parts["evaluation"] == want


def test_on_cuda_the_host_keeps_the_batches_inputs_wide():
    parts = memory.estimate(cfg(device="cuda"), cells.get("lstm"), T, I, OUT, True, 77)
    assert parts["activations"] == 4 * T * B * I
    assert parts["evaluation"] == 4 * T * BE * I
    assert parts["data"] == 77


@pytest.mark.parametrize("n,text", [(int(1.3 * (1 << 30)), "1.3 GB"), (int(2.7 * (1 << 20)), "2.7 MB"),
                                    (int(1.6 * (1 << 40)), "1.6 TB"), (3 * (1 << 20) + 1, "3.0 MB")])
def test_format_bytes_one_decimal(n, text):
    assert memory.format_bytes(n) == text


def test_check_fits_names_every_part_of_one_percent_or_more(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    mb = 1 << 20
    # peak 100 + 300 + 20 = 420 MB: data 20 MB is about 4.8%, parameters about 24%; evaluation is the smaller
    parts = {"parameters": 100 * mb, "activations": 300 * mb, "evaluation": 40 * mb, "data": 20 * mb}
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=10 * mb)
    msg = str(e.value)
    assert "about 420.0 MB" in msg and "but only 10.0 MB is available" in msg
    for k in ("parameters", "activations", "data"):
        assert f"{memory.WHAT[k][0]} {memory.format_bytes(parts[k])}" in msg, k
    assert memory.WHAT["evaluation"][0] not in msg
    assert memory.check_fits(parts, available=420 * mb) == 420 * mb
