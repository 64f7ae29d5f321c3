"""lnrnn/training/memory.py, thirteenth pass: the estimate of a plain two-layer LSTM counted array by array by hand
(each weight matrix's rows times columns, the head, the optimizer's slots; the activations BPTT keeps and the
evaluation batches at three rows), the data bytes passed on as given, check_fits's total of what fits (parameters,
the larger of activations and evaluation, data) and its refusal written out word for word with every hint joined by
'or'."""
import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory
from lnrnn.training.runconfig import TrainConfig

MB = 1 << 20


def test_plain_lstm_estimate_counted_array_by_array():
    T, I, H, OUT, B, BE = 6, 3, 5, 2, 2, 3
    G = 4 * H
    # layer 0: Wx (I, G), Wh (H, G), b (G); layer 1 reads layer 0's H outputs (no skip); head W (H, OUT), b (OUT)
    params = (I * G + H * G + G) + (H * G + H * G + G) + (H * OUT + OUT)
    assert params == 180 + 220 + 12
    cfg = TrainConfig(cell="lstm", hidden=H, layers=2, batch_size=B, eval_batch_size=BE, skip=False,
                      optimizer="sgd", dtype="float64")
    parts = memory.estimate(cfg, cells.get("lstm"), T, I, OUT, False, n_data_bytes=12345)
    # sgd keeps one slot: params, grads, one slot and one copy for saving -> 4 copies of 8 bytes, no BN statistics
    assert parts["parameters"] == 8 * params * 4 == 13184
    # forward keeps 11 H per (layer, step, row); backward's working set G + H + max(I, H); the batch x; 3 B outputs
    per_row_step = 2 * (11 * H)
    train = T * B * per_row_step + T * B * (G + H + max(I, H)) + T * B * I + 3 * B * OUT
    assert train == 1320 + 360 + 36 + 12
    assert parts["activations"] == int(1.25 * 8 * train) == 17280
    evaluation = T * BE * per_row_step + T * BE * I + 2 * BE * OUT
    assert parts["evaluation"] == int(1.25 * 8 * evaluation) == 20460
    assert parts["data"] == 12345   # the task's own bytes, as given: no headroom on data already in memory


def test_check_fits_returns_what_the_run_holds_at_its_peak(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": 3 * MB, "activations": 7 * MB, "evaluation": 2 * MB, "data": 5}
    # parameters + the larger of training's activations and evaluation's (they never overlap) + data
    assert memory.check_fits(parts, available=1 << 40) == 3 * MB + 7 * MB + 5
    assert memory.check_fits(parts, available=10 * MB + 5) == 10 * MB + 5   # exactly what is free: it fits


def test_refusal_names_each_part_and_joins_the_hints_with_or(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": 3 * MB, "activations": 1 * MB, "evaluation": 6 * MB, "data": 1 * MB}
    # peak 3 + 6 + 1 = 10 MB; activations (the smaller of the two) are not counted; every part left is >= 10%
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=5 * MB)
    assert str(e.value) == (
        "this run needs about 10.0 MB of memory (evaluation batches 6.0 MB, parameters, gradients and optimizer "
        "state 3.0 MB, the task's sequences 1.0 MB) but only 5.0 MB is available; try a smaller --eval-batch-size "
        "or a smaller --hidden or --layers or a smaller --steps (or set LNRNN_NO_MEMORY_CHECK=1 to try anyway).")
