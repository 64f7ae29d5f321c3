"""Checkpoints saved past powers of ten and read back (lnrnn/training/checkpoint.py), against what the format
says (module docstring): DIR/checkpoint-<step, 9 digits>-<8 hex>.npz, one arrays file per folder, each array
under its own name and readable without pickle; --keep 2 over saves at 9, 10, 10 again (a resumed run saving
at the update it stopped at), 99 and 100 keeps 99 and 100, the copy of 10 the second save's; a description
given by another file name loads; refusals word for word with nothing written: another format version, a
JSON file that is no description, an array of another shape (shapes written as the array's shape is)."""
import json
import os
import re
import shutil

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION, keep_past, load_checkpoint, save_checkpoint
from test_values222_checkpoint import MODEL, _arrays, _npz, _same


def _listing(folder):
    return {os.path.relpath(os.path.join(d, n), folder): os.path.getsize(os.path.join(d, n))
            for d, _, names in os.walk(folder) for n in names}


def test_saves_past_9_and_99_leave_one_arrays_file_named_by_the_update(tmp_path):
    run = str(tmp_path / "run")
    for step in (9, 10, 99, 100):
        arrays = {**_arrays(), "step": np.int64(step)}
        save_checkpoint(run, arrays, {"step": step, "model": MODEL})
        name = _npz(run)                                  # exactly one arrays file
        assert re.fullmatch(f"checkpoint-{'0' * (9 - len(str(step)))}{step}-[0-9a-f]{{8}}\\.npz", name)
        with np.load(os.path.join(run, name), allow_pickle=False) as z:   # no pickle needed to read it
            _same({k: z[k] for k in z.files}, arrays)
        meta, got = load_checkpoint(run, expected_model=MODEL)
        assert meta["step"] == step and meta["arrays_file"] == name
        _same(got, arrays)


def test_keep_two_over_saves_at_9_10_10_99_100(tmp_path):
    run = str(tmp_path / "run")
    saved = {}
    for i, step in enumerate((9, 10, 10, 99, 100)):
        saved[step] = {"w": np.full((2, 3), float(i)), "n": np.arange(step % 7, dtype=np.int32)}
        save_checkpoint(run, saved[step], {"step": step, "model": MODEL})
        keep_past(run, 2)
        if step == 10:
            assert sorted(os.listdir(os.path.join(run, "checkpoints"))) == ["update-000000009", "update-000000010"]
    past = os.path.join(run, "checkpoints")
    assert sorted(os.listdir(past)) == ["update-000000099", "update-000000100"]
    for step in (99, 100):
        meta, got = load_checkpoint(os.path.join(past, f"update-{step:09d}"))
        assert meta["step"] == step
        _same(got, saved[step])


def test_the_copy_of_an_update_kept_twice_is_the_second_save(tmp_path):
    run = str(tmp_path / "run")
    for value in (1.0, 2.0):                              # a resumed run saving again at update 10
        save_checkpoint(run, {"w": np.full(3, value)}, {"step": 10, "model": MODEL})
        keep_past(run, 3)
    dest = os.path.join(run, "checkpoints", "update-000000010")
    _, got = load_checkpoint(dest)
    _same(got, {"w": np.full(3, 2.0)})
    assert len([n for n in os.listdir(dest) if n.endswith(".npz")]) == 1


def test_a_description_under_another_name_loads_and_a_json_that_is_none_is_refused(tmp_path):
    run = str(tmp_path / "run")
    save_checkpoint(run, _arrays(), {"step": 12, "model": MODEL})
    copy = os.path.join(run, "run-description.json")
    shutil.copyfile(os.path.join(run, DESCRIPTION), copy)
    meta, got = load_checkpoint(copy, expected_model=MODEL)
    assert meta["step"] == 12
    _same(got, _arrays())
    other = os.path.join(run, "settings.json")
    with open(other, "w") as f:
        json.dump({"lr": 0.01}, f)
    before = _listing(run)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(other)
    assert str(e.value) == f"{other} is not an lnrnn checkpoint description."
    assert _listing(run) == before


def test_another_format_version_is_refused_naming_both(tmp_path):
    run = str(tmp_path / "run")
    save_checkpoint(run, _arrays(), {"step": 3, "model": MODEL})
    desc = os.path.join(run, DESCRIPTION)
    with open(desc) as f:
        meta = json.load(f)
    meta["version"] = 2
    with open(desc, "w") as f:
        json.dump(meta, f)
    before = _listing(run)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(run)
    assert str(e.value) == f"{desc} has checkpoint format version 2; this lnrnn reads version 1."
    assert _listing(run) == before


@pytest.mark.parametrize("listed, written", [([3, 2], "(3, 2)"), ([6], "(6,)")])
def test_an_array_of_another_shape_is_refused_with_both_shapes_written_alike(tmp_path, listed, written):
    run = str(tmp_path / "run")
    save_checkpoint(run, _arrays(), {"step": 3, "model": MODEL})        # w: float32 (2, 3)
    desc = os.path.join(run, DESCRIPTION)
    with open(desc) as f:
        meta = json.load(f)
    meta["arrays"]["w"][0] = listed
    with open(desc, "w") as f:
        json.dump(meta, f)
    npz = os.path.join(run, meta["arrays_file"])
    before = _listing(run)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(run)
    assert str(e.value) == f"array w in {npz} is float32 (2, 3), not <f4 {written} as {desc} says."
    assert _listing(run) == before
