"""lnrnn/training/evaluation.py's checkpoint reading, logs.write_csv and prewarm.stop against their definitions:
split_arrays sorts 'param/NAME' and 'buffer/NAME' into the model and 'optim/SLOT/NAME' into the slots by the
key's first '/' (names hold '.' and '/'); model_from_checkpoint rebuilds the model whose parameters are the
checkpoint's own (its loss on a batch equals that of the model the arrays came from, not a freshly seeded one);
metrics.csv holds every float exactly (read back with float(), equal to the row's value) and an empty cell where a
row lacks a column; stop kills only the children still running and waits for every one."""
import csv

import numpy as np
import pytest

from lnrnn.model.models import build_model, head_config
from lnrnn.training import logs, prewarm
from lnrnn.training.evaluation import model_from_checkpoint, split_arrays

CONFIG = dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
              forget_bias=1.0, head=head_config("ce", 3))


def checkpoint_arrays(model):
    arrays = {"param/" + k: v.copy() for k, v in model.params.items()}
    arrays.update({"buffer/" + k: v.copy() for k, v in model.buffers.items()})
    for slot in ("m", "v"):
        arrays.update({f"optim/{slot}/{k}": np.full_like(v, 0.5) for k, v in model.params.items()})
    return arrays


def test_split_arrays_by_the_first_slash():
    arrays = {"param/rnn.l0.Wx": 1, "param/a/b": 2, "buffer/rnn.l0.rm": 3, "optim/m/rnn.l0.Wx": 4,
              "optim/m/x/y": 5, "optim/sq/rnn.l0.Wx": 6, "other/q": 7}
    model, slots = split_arrays(arrays)
    assert model == {"rnn.l0.Wx": 1, "a/b": 2, "rnn.l0.rm": 3}
    assert slots == {"m": {"rnn.l0.Wx": 4, "x/y": 5}, "sq": {"rnn.l0.Wx": 6}}


def test_model_from_checkpoint_runs_the_checkpoints_parameters():
    trained = build_model(CONFIG, seed=2, max_steps=4)
    rng = np.random.default_rng(5)
    for p in trained.params.values():
        p += rng.normal(scale=0.3, size=p.shape)                          # away from any seed's initial values
    x = rng.normal(size=(4, 2, 2))
    meta = {"model": dict(CONFIG), "train": {"seed": 2}}
    got = model_from_checkpoint(meta, checkpoint_arrays(trained))
    for k, p in trained.params.items():
        np.testing.assert_array_equal(got.params[k], p, err_msg=k)
    y = np.array([0, 2])
    want = trained.loss_sums(x, y)[0]["loss"]
    assert got.loss_sums(x, y)[0]["loss"] == pytest.approx(want, rel=1e-12)
    fresh = build_model(CONFIG, seed=2, max_steps=4)
    assert fresh.loss_sums(x, y)[0]["loss"] != pytest.approx(want, rel=1e-3)


def test_write_csv_floats_exact_and_missing_cells_empty(tmp_path):
    rows = [{"step": 10, "val_loss": 1 / 3, "lr": 0.1 + 0.2},
            {"step": 20, "val_loss": 2.0 / 7.0, "val_acc": 0.123456789012345, "lr": 1e-9 / 3}]
    path = tmp_path / "metrics.csv"
    logs.write_csv(str(path), rows)
    with open(path, newline="") as f:
        back = list(csv.DictReader(f))
    assert list(back[0]) == ["step", "val_loss", "lr", "val_acc"]
    assert back[0]["val_acc"] == ""
    for r, b in zip(rows, back):
        assert int(b["step"]) == r["step"]
        for k, v in r.items():
            if isinstance(v, float):
                assert float(b[k]) == v, k


class Child:
    def __init__(self, running):
        self.running, self.killed, self.waited = running, 0, 0

    def poll(self):
        return None if self.running else 0

    def kill(self):
        self.killed += 1
        self.running = False

    def wait(self, timeout=None):
        self.waited += 1
        return 0


def test_stop_kills_only_the_running_children_and_waits_for_all(monkeypatch):
    busy, done = Child(True), Child(False)
    monkeypatch.setattr(prewarm, "_state", {"armed": False, "children": {"a": busy, "b": done, "c": None}})
    prewarm.stop()
    assert (busy.killed, done.killed) == (1, 0)
    assert (busy.waited, done.waited) == (1, 1)
    assert prewarm._state["children"] == {"a": None, "b": None, "c": None}


@pytest.mark.parametrize("running", [True, False])
def test_stop_is_done_with_each_child_once(monkeypatch, running):
    child = Child(running)
    monkeypatch.setattr(prewarm, "_state", {"armed": False, "children": {"k": child}})
    prewarm.stop()
    prewarm.stop()
    assert child.killed == int(running) and child.waited == 1
