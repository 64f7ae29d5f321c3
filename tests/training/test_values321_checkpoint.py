"""lnrnn/training/checkpoint.py against checkpoints written by hand from the module docstring's format (an npz
of arrays plus checkpoint.json: format, version 1, arrays file name, SHA-256 and per-array shape/dtype): one
loads; a description lacking the hash or the array listing, a file that is no description, and an arrays file
that needs pickle are refused word for word; a save where a file is in the way names the size worked out by
hand and writes nothing."""
import hashlib
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import load_checkpoint, save_checkpoint

NAME = "checkpoint-000000100-0a1b2c3d.npz"


def _hand_checkpoint(folder, arrays, drop=(), **extra):
    """The two files of a checkpoint written without lnrnn: np.savez, hashlib, json."""
    npz = os.path.join(folder, NAME)
    with open(npz, "wb") as f:
        np.savez(f, **arrays)
    with open(npz, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    desc = {"format": "lnrnn-checkpoint", "version": 1, "arrays_file": NAME, "arrays_sha256": digest,
            "arrays": {k: [list(v.shape), v.dtype.str] for k, v in arrays.items()},
            "model": {"hidden_size": 3}, "step": 100, **extra}
    for k in drop:
        del desc[k]
    path = os.path.join(folder, "checkpoint.json")
    with open(path, "w") as f:
        json.dump(desc, f)
    return path, npz


def test_a_hand_written_version_1_checkpoint_loads(tmp_path):
    w = np.arange(6, dtype=np.float64).reshape(2, 3)
    b = np.array([1, -2], dtype=np.int32)
    _hand_checkpoint(str(tmp_path), {"w": w, "b": b})
    meta, arrays = load_checkpoint(str(tmp_path))
    assert meta["version"] == 1 and meta["step"] == 100
    assert sorted(arrays) == ["b", "w"]
    np.testing.assert_array_equal(arrays["w"], w)
    np.testing.assert_array_equal(arrays["b"], b)
    assert arrays["b"].dtype == np.int32


def test_a_saved_description_says_version_1(tmp_path):
    save_checkpoint(str(tmp_path), {"w": np.ones(3)}, {"step": 10, "model": {}})
    with open(tmp_path / "checkpoint.json") as f:
        desc = json.load(f)
    assert (desc["format"], desc["version"]) == ("lnrnn-checkpoint", 1)
    assert desc["arrays_file"].startswith("checkpoint-000000010-")


@pytest.mark.parametrize("field", ["arrays_sha256", "arrays"])
def test_a_description_lacking_a_field_is_refused_naming_it(tmp_path, field):
    desc, _ = _hand_checkpoint(str(tmp_path), {"w": np.ones(2)}, drop=(field,))
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert str(e.value) == f"checkpoint description {desc} lacks field '{field}'; it is corrupt."


def test_a_file_that_is_no_description_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"\xff\xfe not json")
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(path))
    assert str(e.value) == (f"{path} is not a run folder or its checkpoint.json; give the folder `lnrnn train "
                            "--out` wrote.")


def test_arrays_that_need_pickle_are_refused(tmp_path):
    obj = np.empty(1, dtype=object)
    obj[0] = {"a": 1}
    _, npz = _hand_checkpoint(str(tmp_path), {"w": obj})
    with pytest.raises(ValueError) as numpy_says:
        with np.load(npz, allow_pickle=False) as z:
            z["w"]
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert str(e.value) == f"checkpoint arrays file {npz} cannot be read ({numpy_says.value})."


def test_a_save_where_a_file_is_in_the_way_writes_nothing(tmp_path):
    blocker = tmp_path / "run"
    blocker.write_bytes(b"keep me")
    with pytest.raises(CheckpointError) as e:
        save_checkpoint(str(blocker), {"w": np.zeros(2048)}, {"step": 7})
    # 2048 float64 = 16384 bytes = 16 KB; makedirs over a file: EEXIST, no write-permission hint
    assert str(e.value) == (f"cannot save the checkpoint of update 7 in {blocker} (File exists; it needs about "
                            "16 KB): check that file system; nothing was written there.")
    assert blocker.read_bytes() == b"keep me"
    assert os.listdir(tmp_path) == ["run"]
