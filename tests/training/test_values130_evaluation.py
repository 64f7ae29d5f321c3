"""lnrnn/training/evaluation.py's evaluate over ragged rows and a partial last batch, against the definition of its
figures: each row run alone at its own length here (model.loss_sums on one row, no padding), a per-step head's
loss the sum over every real step over the number of real steps, a classifier's the mean over rows. A group of
two ranks (test_values43_distributed_shards.Coroutines) deals out the same batches, the partial last one
included, and both ranks report these figures; a group of one is the plain path. split_arrays names a
checkpoint's optimizer slots by their first path component ('optim/SLOT/NAME', NAME holding '/')."""
import numpy as np
import pytest

from lnrnn.data.arrays import LengthsTask
from lnrnn.model.models import build_model, head_config
from lnrnn.training.evaluation import evaluate, split_arrays
from test_values43_distributed_shards import Coroutines

T, I = 4, 2


def setup(per_step):
    m = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=3, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=head_config("mse", 2, per_step=True) if per_step
                         else head_config("ce", 3)), seed=2, max_steps=T)
    rng = np.random.default_rng(13)
    sets = []
    for n in (7, 5):
        x = rng.standard_normal((n, T, I))
        L = rng.integers(1, T + 1, n)
        L[0] = T
        for r in range(n):
            x[r, L[r]:] = 30.0                                            # padding no figure may see
        y = rng.standard_normal((n, T, 2)) if per_step else rng.integers(0, 3, n)
        sets.append((x, y, L))
    (xt, yt, lt), (xv, yv, lv) = sets
    task = LengthsTask({"task": "test"}, "test", xt, yt, xv, yv, num_classes=2 if per_step else 3,
                       objective="mse" if per_step else "ce", per_step=per_step, lengths_train=lt, lengths_val=lv)
    return m, task, dict(zip(("train", "val"), sets))


def by_hand(m, x, y, L, per_step):
    total = count = 0.0
    for r in range(len(x)):
        sums, c = m.loss_sums(np.ascontiguousarray(x[r, :L[r], None, :]), y[r:r + 1, :L[r]] if per_step
                              else y[r:r + 1])
        total += sums["loss"]
        count += c
    assert count == (L.sum() if per_step else len(x))
    return total / count


@pytest.mark.parametrize("per_step", [True, False])
def test_two_ranks_score_every_row_the_partial_last_batch_included(per_step):
    m, task, sets = setup(per_step)
    for which, (x, y, L) in sets.items():
        want = by_hand(m, x, y, L, per_step)
        for batch_size in (2, 3):                                         # 7 and 5 rows: a partial last batch
            assert len(x) % batch_size
            got = Coroutines(2).run(lambda g: evaluate(m, task, which, batch_size=batch_size, group=g))
            for rank in got:
                assert rank["loss"] == pytest.approx(want, rel=1e-10), (which, batch_size)
            plain = evaluate(m, task, which, batch_size=batch_size)
            assert plain["loss"] == pytest.approx(want, rel=1e-10)


def test_a_group_of_one_is_the_plain_path():
    m, task, sets = setup(False)
    one = Coroutines(1).run(lambda g: evaluate(m, task, "train", batch_size=3, group=g))[0]
    assert one == evaluate(m, task, "train", batch_size=3)
    assert one["loss"] == pytest.approx(by_hand(m, *sets["train"], False), rel=1e-10)


def test_optimizer_slots_named_by_the_first_component_after_optim():
    rng = np.random.default_rng(0)
    arrays = {"param/layer0/w": rng.normal(size=2), "optim/m/layer0/cell/w": rng.normal(size=2),
              "optim/sq/head/b": rng.normal(size=3), "optim/m/x": rng.normal(size=1)}
    model, slots = split_arrays(arrays)
    assert set(model) == {"layer0/w"}
    assert set(slots) == {"m", "sq"}
    assert set(slots["m"]) == {"layer0/cell/w", "x"} and set(slots["sq"]) == {"head/b"}
    assert slots["m"]["layer0/cell/w"] is arrays["optim/m/layer0/cell/w"]
