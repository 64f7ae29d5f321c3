"""Checkpoints (lnrnn/training/checkpoint.py) written and read back array by array, against hashlib, NumPy's own
npz and the description's definition: the recorded SHA-256 is the whole arrays file's (one over a MiB damaged
past its first MiB is refused in one line); the caller's meta is left as it was; --keep 3 over five saves of
a resumed run keeps the last three, each loadable with its own arrays; an arrays file holding an array the
description does not list, an array of another shape, another model's checkpoint and one needing pickle are
each refused in one exact line."""
import hashlib
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION, keep_past, load_checkpoint, save_checkpoint


def _paths(d):
    desc = os.path.join(str(d), DESCRIPTION)
    with open(desc) as f:
        meta = json.load(f)
    return desc, os.path.join(str(d), meta["arrays_file"]), meta


def test_the_hash_is_the_whole_files_and_damage_past_the_first_mib_is_refused(tmp_path):
    w = np.arange(300_000, dtype=np.float32)      # 1.2 MB: more than one 1 MiB chunk
    save_checkpoint(str(tmp_path), {"w": w, "s": np.float64(2.5)}, {"step": 3, "model": {}})
    desc, npz, meta = _paths(tmp_path)
    with open(npz, "rb") as f:
        raw = f.read()
    assert len(raw) > (1 << 20) + 1000 and meta["arrays_sha256"] == hashlib.sha256(raw).hexdigest()
    _, arrays = load_checkpoint(str(tmp_path))
    assert sorted(arrays) == ["s", "w"] and np.array_equal(arrays["w"], w) and arrays["s"].shape == ()
    with open(npz, "r+b") as f:                     # one byte of w's data, past the first MiB
        f.seek((1 << 20) + 500)
        b = f.read(1)
        f.seek((1 << 20) + 500)
        f.write(bytes([b[0] ^ 0xFF]))
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert str(e.value) == f"checkpoint arrays file {npz} is corrupt (its SHA-256 does not match {desc})."


def test_the_callers_meta_is_left_as_it_was(tmp_path):
    meta = {"step": 7, "epoch": 1, "model": {"cell": "ln-lstm", "hidden": 4}}
    before = json.loads(json.dumps(meta))
    save_checkpoint(str(tmp_path), {"a": np.ones(3)}, meta)
    assert meta == before
    got, _ = load_checkpoint(str(tmp_path))
    assert {k: got[k] for k in before} == before


def test_keep_three_over_five_saves_of_a_resumed_run(tmp_path):
    run, saved = str(tmp_path / "run"), {}
    for step in (1, 2):                            # the first invocation
        saved[step] = {"w": np.full((2, 3), float(step)), "b": np.arange(step, dtype=np.int64)}
        save_checkpoint(run, saved[step], {"step": step, "model": {}})
        keep_past(run, 3)
    for step in (3, 4, 5):                         # resumed: the same folder, later steps
        saved[step] = {"w": np.full((2, 3), -float(step)), "b": np.arange(step, dtype=np.int64)}
        save_checkpoint(run, saved[step], {"step": step, "model": {}})
        keep_past(run, 3)
    past = os.path.join(run, "checkpoints")
    assert sorted(os.listdir(past)) == [f"update-{s:09d}" for s in (3, 4, 5)]
    for s in (3, 4, 5):
        meta, arrays = load_checkpoint(os.path.join(past, f"update-{s:09d}"))
        assert meta["step"] == s and sorted(arrays) == ["b", "w"]
        for k in arrays:
            assert np.array_equal(arrays[k], saved[s][k]) and arrays[k].dtype == saved[s][k].dtype
    meta, arrays = load_checkpoint(run)
    assert meta["step"] == 5 and np.array_equal(arrays["w"], saved[5]["w"])
    assert [n for n in os.listdir(run) if n.endswith(".npz")] == [meta["arrays_file"]]


def test_an_array_the_description_does_not_list_is_refused(tmp_path):
    save_checkpoint(str(tmp_path), {"a": np.zeros(2), "b": np.ones(2)}, {"step": 1, "model": {}})
    desc, npz, meta = _paths(tmp_path)
    np.savez(npz, a=np.zeros(2), b=np.ones(2), c=np.ones(1))
    with open(npz, "rb") as f:
        meta["arrays_sha256"] = hashlib.sha256(f.read()).hexdigest()   # a consistent hash: only the listing differs
    with open(desc, "w") as f:
        json.dump(meta, f)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert str(e.value) == f"checkpoint arrays file {npz} does not hold the arrays {desc} lists."


def test_an_array_of_another_shape_is_refused_naming_both(tmp_path):
    save_checkpoint(str(tmp_path), {"w": np.zeros((2, 3), np.float32)}, {"step": 1, "model": {}})
    desc, npz, meta = _paths(tmp_path)
    meta["arrays"]["w"] = [[3, 2], "<f4"]
    with open(desc, "w") as f:
        json.dump(meta, f)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert str(e.value) == f"array w in {npz} is float32 (2, 3), not <f4 (3, 2) as {desc} says."


def test_another_models_checkpoint_and_one_needing_pickle_are_refused(tmp_path):
    save_checkpoint(str(tmp_path / "m"), {"w": np.zeros(2)}, {"step": 1, "model": {"cell": "lstm", "hidden": 4}})
    desc = os.path.join(str(tmp_path / "m"), DESCRIPTION)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path / "m"), expected_model={"cell": "lstm", "hidden": 8})
    assert str(e.value) == f"checkpoint {desc} belongs to another model (hidden 4 in the checkpoint vs 8 requested)."
    save_checkpoint(str(tmp_path / "p"), {"o": np.array([{"x": 1}], dtype=object)}, {"step": 1, "model": {}})
    _, npz, _ = _paths(tmp_path / "p")
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path / "p"))
    assert str(e.value).startswith(f"checkpoint arrays file {npz} cannot be read (") and "pickle" in str(e.value)
    assert "\n" not in str(e.value)
