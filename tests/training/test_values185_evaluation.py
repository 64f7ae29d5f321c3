"""lnrnn/training/evaluation.py: split_arrays by the checkpoint's prefixes (param/ and buffer/ to the model,
optim/<slot>/<name> to the optimizer, anything else dropped); evaluate over batches of 4 rows, the last one
partial, reads the split it is asked for: a stand-in task and model, the mean against NumPy over the whole split."""
import numpy as np
import pytest

from lnrnn.training.evaluation import evaluate, split_arrays


def test_split_arrays_by_prefix():
    a, b, c, d = (np.full(2, v) for v in (1.0, 2.0, 3.0, 4.0))
    model, slots = split_arrays({"param/l0/Wx": a, "buffer/rm": b, "optim/m/l0/Wx": c, "optim/v/l0/Wx": d,
                                 "meta/x": a})
    assert model == {"l0/Wx": a, "rm": b}
    assert slots == {"m": {"l0/Wx": c}, "v": {"l0/Wx": d}}


class Task:
    def __init__(self):
        rng = np.random.default_rng(5)
        self.x = {s: rng.normal(size=(n, 3)) for s, n in (("train", 13), ("val", 7), ("test", 10))}
        self.y = {s: rng.normal(size=len(v)) for s, v in self.x.items()}
        self.seen = []

    def size(self, which):
        return len(self.x[which])

    def batch(self, which, idx, dtype):
        self.seen.append(list(idx))
        return self.x[which][idx].astype(dtype), self.y[which][idx].astype(dtype)


class Model:
    dtype = np.float64
    conditioned = False

    def evaluate(self, batches):
        total, rows = 0.0, 0
        for x, y, extra in batches:
            assert extra is None
            total += float(((x.sum(axis=1) - y) ** 2).sum())
            rows += len(y)
        return {"loss": total / rows, "rows": rows}


@pytest.mark.parametrize("which", ["test", "train"])
def test_evaluate_reads_the_split_asked_for_over_a_partial_last_batch(which):
    task = Task()
    got = evaluate(Model(), task, which, batch_size=4)
    n = len(task.y[which])
    assert got["rows"] == n
    assert got["loss"] == pytest.approx(np.mean((task.x[which].sum(axis=1) - task.y[which]) ** 2), rel=1e-12)
    assert task.seen == [list(range(s, min(s + 4, n))) for s in range(0, n, 4)]
