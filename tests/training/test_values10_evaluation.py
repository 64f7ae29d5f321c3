"""lnrnn/training/evaluation.py with right-padded sequences: evaluate scores each sequence at its own length,
the same figures as each sequence run alone cut to its length (padding of large values that would change
the result if it were read)."""
import numpy as np
import pytest

from lnrnn.data.arrays import LengthsTask
from lnrnn.model.models import build_model, head_config
from lnrnn.training.evaluation import evaluate


@pytest.mark.parametrize("batch_size", [2, 5])
def test_padded_sequences_are_scored_at_their_own_length(batch_size):
    model = build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                             forget_bias=1.0, head=head_config("ce", 3)), seed=2, max_steps=6)
    rng = np.random.default_rng(4)
    N, T = 5, 6
    x = rng.standard_normal((N, T, 2))
    L = np.array([6, 2, 4, 1, 3])
    for n in range(N):
        x[n, L[n]:] = 50.0                      # padding: read, it would change every figure
    y = rng.integers(0, 3, N)
    task = LengthsTask({"task": "test"}, "test", x, y, x, y, num_classes=3, lengths_train=L, lengths_val=L)
    got = evaluate(model, task, "val", batch_size=batch_size)
    loss = correct = 0.0
    for n in range(N):                          # each sequence alone, cut to its length, no padding at all
        xb = np.ascontiguousarray(x[n, :L[n], None, :])          # (L_n, 1, I)
        sums, count = model.loss_sums(xb, y[n:n + 1])
        assert count == 1
        loss += sums["loss"]
        correct += sums["acc"]
    assert got["loss"] == pytest.approx(loss / N, rel=1e-10)
    assert got["acc"] == pytest.approx(correct / N, rel=1e-12)
