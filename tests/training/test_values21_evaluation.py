"""An evaluation dealt out over two (thread) ranks scores every sequence of the set, the last batch's included:
the same figures as one process, on sets whose size is and is not a multiple of the batch, with lengths."""
import numpy as np
import pytest

from lnrnn.data.arrays import LengthsTask
from lnrnn.model.models import build_model, head_config
from lnrnn.training.evaluation import evaluate
from test_values_distributed_options2 import on_ranks


@pytest.mark.parametrize("N, batch_size", [(5, 2), (6, 3), (3, 5)])
def test_two_ranks_score_every_sequence(N, batch_size):
    model = build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                             forget_bias=1.0, head=head_config("ce", 3)), seed=2, max_steps=6)
    rng = np.random.default_rng(N)
    x = rng.standard_normal((N, 6, 2))
    L = rng.integers(1, 7, N)
    y = rng.integers(0, 3, N)
    task = LengthsTask({"task": "test"}, "test", x, y, x, y, num_classes=3, lengths_train=L, lengths_val=L)
    one = evaluate(model, task, "val", batch_size=batch_size)
    by_hand = 0.0
    for n in range(N):                                     # every sequence alone: the loss's definition
        sums, _ = model.loss_sums(np.ascontiguousarray(x[n, :L[n], None, :]), y[n:n + 1])
        by_hand += sums["loss"]
    assert one["loss"] == pytest.approx(by_hand / N, rel=1e-10)
    two = on_ranks(2, lambda g: evaluate(model, task, "val", batch_size=batch_size, group=g))
    for got in two:
        assert got["loss"] == pytest.approx(one["loss"], rel=1e-12) and got["acc"] == pytest.approx(one["acc"])
