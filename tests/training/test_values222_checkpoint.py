"""Checkpoints (lnrnn/training/checkpoint.py) read back array by array: the description names the one arrays
file beside it by its bare name, with the SHA-256 hashlib gives that file's bytes and each array's shape and
dtype; a run folder moved elsewhere still loads; a kept copy (keep_past) is a checkpoint folder of its own;
a truncated arrays file and a checkpoint of another model are refused word for word, nothing rewritten."""
import hashlib
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION, keep_past, load_checkpoint, save_checkpoint

MODEL = {"cell": "lstm", "hidden": 3}


def _arrays():
    rng = np.random.default_rng(222)
    return {"w": rng.standard_normal((2, 3)).astype(np.float32), "b": np.arange(3, dtype=np.int64),
            "s": np.float64(0.25)}


def _npz(folder):
    names = [n for n in os.listdir(folder) if n.endswith(".npz")]
    assert len(names) == 1
    return names[0]


def _same(got, want):
    assert set(got) == set(want)
    for k, v in want.items():
        v = np.asarray(v)
        assert got[k].dtype == v.dtype and got[k].shape == v.shape
        np.testing.assert_array_equal(got[k], v)


def test_a_moved_run_folder_loads_its_own_arrays(tmp_path):
    run = tmp_path / "run"
    save_checkpoint(str(run), _arrays(), {"step": 7, "model": MODEL})
    name = _npz(run)
    with open(run / DESCRIPTION) as f:
        desc = json.load(f)
    with open(run / name, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    assert desc["arrays_file"] == name and desc["arrays_sha256"] == digest
    assert desc["arrays"] == {k: [list(np.shape(v)), np.asarray(v).dtype.str] for k, v in _arrays().items()}
    moved = tmp_path / "elsewhere"
    os.rename(run, moved)
    meta, arrays = load_checkpoint(str(moved), expected_model=MODEL)
    assert meta["step"] == 7
    _same(arrays, _arrays())


def test_a_kept_copy_is_a_checkpoint_folder_of_its_own(tmp_path):
    run = tmp_path / "run"
    save_checkpoint(str(run), _arrays(), {"step": 12, "model": MODEL})
    keep_past(str(run), 2)
    dest = run / "checkpoints" / "update-000000012"
    assert os.listdir(run / "checkpoints") == ["update-000000012"]
    assert sorted(os.listdir(dest)) == sorted([DESCRIPTION, _npz(run)])
    meta, arrays = load_checkpoint(str(dest))
    assert meta["step"] == 12
    _same(arrays, _arrays())


def test_a_truncated_arrays_file_is_refused_and_left_as_it_is(tmp_path):
    run = tmp_path / "run"
    save_checkpoint(str(run), _arrays(), {"step": 3, "model": MODEL})
    npz = str(run / _npz(run))
    with open(npz, "rb") as f:
        data = f.read()
    with open(npz, "wb") as f:
        f.write(data[:len(data) // 2])
    with open(run / DESCRIPTION, "rb") as f:
        desc_bytes = f.read()
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(run))
    assert str(e.value) == (f"checkpoint arrays file {npz} is corrupt (its SHA-256 does not match "
                            f"{os.path.join(str(run), DESCRIPTION)}).")
    with open(npz, "rb") as f:
        assert f.read() == data[:len(data) // 2]
    with open(run / DESCRIPTION, "rb") as f:
        assert f.read() == desc_bytes


def test_another_models_checkpoint_is_refused_naming_each_difference(tmp_path):
    run = tmp_path / "run"
    save_checkpoint(str(run), _arrays(), {"step": 3, "model": MODEL})
    want = {"cell": "gru", "hidden": 3, "layers": 2}
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(run), expected_model=want)
    diffs = "cell 'lstm' in the checkpoint vs 'gru' requested; layers None in the checkpoint vs 2 requested"
    assert str(e.value) == (f"checkpoint {os.path.join(str(run), DESCRIPTION)} belongs to another model "
                            f"({diffs}).")
