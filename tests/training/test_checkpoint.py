"""Checkpoints: npz + JSON round trip, atomic replacement, and a clear CheckpointError for every fault."""
import json
import os

import numpy as np
import pytest

from lnrnn.training import checkpoint as ck
from lnrnn.errors import CheckpointError

MODEL = {"cell": "lstm", "norm": "ln", "hidden_size": 8, "num_layers": 1}


def sample(step=3):
    arrays = {"param/rnn.l0.Wx": np.arange(12, dtype=np.float32).reshape(3, 4),
              "optim/m/rnn.l0.Wx": np.ones((3, 4), np.float32), "buffer/x": np.zeros(2, np.float64)}
    rng = np.random.default_rng(5)
    meta = {"model": MODEL, "task": {"task": "digits"}, "step": step, "epoch": 1,
            "rng": rng.bit_generator.state, "metrics": [{"epoch": 1, "val_acc": 0.5}]}
    return arrays, meta


def test_roundtrip(tmp_path):
    arrays, meta = sample()
    path = ck.save_checkpoint(tmp_path, arrays, meta)
    assert path.endswith("checkpoint.json") and ck.checkpoint_exists(tmp_path)
    for where in (tmp_path, path, tmp_path / "checkpoint.npz"):
        got_meta, got = ck.load_checkpoint(str(where), expected_model=MODEL)
        assert got.keys() == arrays.keys()
        for k in arrays:
            assert got[k].dtype == arrays[k].dtype and (got[k] == arrays[k]).all()
        assert got_meta["rng"] == meta["rng"] and got_meta["metrics"] == meta["metrics"]
    # the generator state survives JSON: the restored generator continues the same stream
    g = np.random.default_rng()
    g.bit_generator.state = got_meta["rng"]
    assert g.random() == np.random.default_rng(5).random()
    # no pickle anywhere: the description is plain JSON
    json.loads((tmp_path / "checkpoint.json").read_text())


def test_resave_keeps_one_arrays_file_and_no_temp_files(tmp_path):
    arrays, meta = sample()
    for step in range(4):
        ck.save_checkpoint(tmp_path, arrays, dict(meta, step=step))
    names = os.listdir(tmp_path)
    assert sorted(n for n in names if n.endswith(".npz")) == [json.loads((tmp_path / "checkpoint.json").read_text())["arrays_file"]]
    assert not [n for n in names if n.startswith(".tmp")]


def test_failed_save_leaves_previous_checkpoint(tmp_path, monkeypatch):
    arrays, meta = sample(step=1)
    ck.save_checkpoint(tmp_path, arrays, meta)

    def boom(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(np, "savez", boom)
    with pytest.raises(CheckpointError, match="disk full"):  # one line for the user, naming the folder
        ck.save_checkpoint(tmp_path, arrays, dict(meta, step=2))
    monkeypatch.undo()
    got_meta, _ = ck.load_checkpoint(str(tmp_path))
    assert got_meta["step"] == 1
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".tmp")]


def test_model_mismatch_names_the_difference(tmp_path):
    arrays, meta = sample()
    ck.save_checkpoint(tmp_path, arrays, meta)
    with pytest.raises(CheckpointError, match=r"another model \(hidden_size 8 in the checkpoint vs 16 requested\)"):
        ck.load_checkpoint(str(tmp_path), expected_model=dict(MODEL, hidden_size=16))


def test_missing_and_corrupt(tmp_path):
    with pytest.raises(CheckpointError, match="no checkpoint at"):
        ck.load_checkpoint(str(tmp_path))
    arrays, meta = sample()
    ck.save_checkpoint(tmp_path, arrays, meta)
    desc = tmp_path / "checkpoint.json"
    record = json.loads(desc.read_text())
    npz = tmp_path / record["arrays_file"]

    npz.write_bytes(npz.read_bytes()[:-20])               # truncated arrays file
    with pytest.raises(CheckpointError, match="is corrupt"):
        ck.load_checkpoint(str(tmp_path))
    npz.unlink()
    with pytest.raises(CheckpointError, match="is missing"):
        ck.load_checkpoint(str(tmp_path))
    desc.write_text('{"format": "lnrnn-checkpoint", "version"')  # truncated JSON
    with pytest.raises(CheckpointError, match="is corrupt"):
        ck.load_checkpoint(str(tmp_path))
    desc.write_text('{"hello": 1}')
    with pytest.raises(CheckpointError, match="not an lnrnn checkpoint"):
        ck.load_checkpoint(str(tmp_path))
    desc.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CheckpointError, match="is corrupt"):
        ck.load_checkpoint(str(tmp_path))
    desc.write_text(json.dumps(dict(record, version=99)))
    with pytest.raises(CheckpointError, match="version 99"):
        ck.load_checkpoint(str(tmp_path))
    desc.write_text(json.dumps({k: v for k, v in record.items() if k != "model"}))
    with pytest.raises(CheckpointError, match="lacks field"):
        ck.load_checkpoint(str(tmp_path))


def test_pickled_arrays_are_refused(tmp_path):
    """An npz holding an object array (which needs pickle) is refused even when its hash matches."""
    arrays, meta = sample()
    ck.save_checkpoint(tmp_path, arrays, meta)
    record = json.loads((tmp_path / "checkpoint.json").read_text())
    npz = tmp_path / record["arrays_file"]
    np.savez(npz, evil=np.array([{"a": 1}], dtype=object))
    record.update(arrays_sha256=ck._sha256(npz), arrays={"evil": [[1], "|O"]})
    (tmp_path / "checkpoint.json").write_text(json.dumps(record))
    with pytest.raises(CheckpointError, match="cannot be read"):
        ck.load_checkpoint(str(tmp_path))


def test_listing_mismatch(tmp_path):
    arrays, meta = sample()
    ck.save_checkpoint(tmp_path, arrays, meta)
    record = json.loads((tmp_path / "checkpoint.json").read_text())
    record["arrays"]["param/rnn.l0.Wx"] = [[4, 3], "<f4"]
    (tmp_path / "checkpoint.json").write_text(json.dumps(record))
    with pytest.raises(CheckpointError, match=r"not <f4 \(4, 3\)"):
        ck.load_checkpoint(str(tmp_path))
