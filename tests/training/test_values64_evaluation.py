"""lnrnn/training/evaluation.py's evaluate against the definition of its figures, each sequence run alone at its own
length here (model.loss_sums on one row, no padding): a per-step regression head's loss is the sum of the squared
errors of every real step over the number of real steps (rows of ragged lengths weigh by their steps), a classifier's
the mean over sequences. The 'train' set and the 'val' set differ in size, and their last batch is smaller than the
others (batch sizes that do and do not divide the set)."""
import numpy as np
import pytest

from lnrnn.data.arrays import LengthsTask
from lnrnn.model.models import build_model, head_config
from lnrnn.training.evaluation import evaluate

T, I = 5, 2


def model(head):
    return build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=3, num_layers=1, dtype="float64",
                            forget_bias=1.0, head=head), seed=4, max_steps=T)


def sets(per_step):
    """train 7 rows, val 4 rows, ragged lengths, padding of large values past each row's end."""
    rng = np.random.default_rng(9)
    out = []
    for n in (7, 4):
        x = rng.standard_normal((n, T, I))
        L = rng.integers(1, T + 1, n)
        L[0] = T
        for r in range(n):
            x[r, L[r]:] = 40.0
        y = rng.standard_normal((n, T, 2)) if per_step else rng.integers(0, 3, n)
        out.append((x, y, L))
    return out


def by_hand(m, x, y, L, per_step):
    """(sum of losses, count of units) over the set, each row alone at its own length."""
    total = count = 0.0
    for r in range(len(x)):
        xb = np.ascontiguousarray(x[r, :L[r], None, :])                     # (L_r, 1, I)
        yb = y[r:r + 1, :L[r]] if per_step else y[r:r + 1]
        sums, c = m.loss_sums(xb, yb)
        total += sums["loss"]
        count += c
    return total, count


@pytest.mark.parametrize("batch_size", [3, 2, 100])
@pytest.mark.parametrize("per_step", [True, False])
def test_each_set_is_averaged_over_its_own_real_units(per_step, batch_size):
    head = head_config("mse", 2, per_step=True) if per_step else head_config("ce", 3)
    m = model(head)
    (xt, yt, lt), (xv, yv, lv) = sets(per_step)
    task = LengthsTask({"task": "test"}, "test", xt, yt, xv, yv, num_classes=2 if per_step else 3,
                       objective="mse" if per_step else "ce", per_step=per_step, lengths_train=lt, lengths_val=lv)
    for which, (x, y, L) in (("train", (xt, yt, lt)), ("val", (xv, yv, lv))):
        total, count = by_hand(m, x, y, L, per_step)
        assert count == (L.sum() if per_step else len(x))                  # steps, or sequences
        got = evaluate(m, task, which, batch_size=batch_size)
        assert got["loss"] == pytest.approx(total / count, rel=1e-10), which
