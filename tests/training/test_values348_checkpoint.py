"""lnrnn/training/checkpoint.py against its documented format, written by hand (np.savez, hashlib, json via
test_values321_checkpoint's helper): such a checkpoint loads and a saved description says the same format; two
saves into one existing folder leave the second (update 10 after 9) and one arrays file; --keep 2 over updates
9, 10, 99, 100 keeps DIR/checkpoints/update-000000099 and update-000000100, each loading with its own arrays;
a description that is no JSON refused word for word with Python's own JSON error."""
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import keep_past, load_checkpoint, save_checkpoint
from test_values321_checkpoint import _hand_checkpoint


def test_the_documented_format_loads_and_is_written(tmp_path):
    hand = tmp_path / "hand"
    hand.mkdir()
    w = np.array([[0.5, -1.0, 2.0]])
    _hand_checkpoint(str(hand), {"w": w, "n": np.array(7, dtype=np.int64)})
    meta, arrays = load_checkpoint(str(hand))
    assert meta["step"] == 100
    assert sorted(arrays) == ["n", "w"]
    np.testing.assert_array_equal(arrays["w"], w)
    assert arrays["n"].shape == () and int(arrays["n"]) == 7

    saved = tmp_path / "saved"
    save_checkpoint(str(saved), {"w": w}, {"model": {}, "step": 3})
    desc = json.loads((saved / "checkpoint.json").read_text())
    assert (desc["format"], desc["version"]) == ("lnrnn-checkpoint", 1)
    assert desc["arrays"] == {"w": [[1, 3], "<f8"]}


def test_a_second_save_into_the_folder_replaces_the_first(tmp_path):
    out = str(tmp_path)  # exists already
    save_checkpoint(out, {"w": np.full(2, 9.0)}, {"model": {}, "step": 9})
    save_checkpoint(out, {"w": np.full(2, 10.0)}, {"model": {}, "step": 10})
    names = sorted(os.listdir(out))
    assert len(names) == 2 and names[1] == "checkpoint.json"
    assert names[0].startswith("checkpoint-000000010-") and names[0].endswith(".npz")
    meta, arrays = load_checkpoint(out)
    assert meta["step"] == 10
    np.testing.assert_array_equal(arrays["w"], [10.0, 10.0])


def test_keep_two_past_powers_of_ten(tmp_path):
    out = str(tmp_path / "run")
    for step in (9, 10, 99, 100):
        save_checkpoint(out, {"w": np.full(3, float(step))}, {"model": {}, "step": step})
        keep_past(out, 2)
    past = os.path.join(out, "checkpoints")
    assert sorted(os.listdir(past)) == ["update-000000099", "update-000000100"]
    for step in (99, 100):
        meta, arrays = load_checkpoint(os.path.join(past, f"update-{step:09d}"))
        assert meta["step"] == step
        np.testing.assert_array_equal(arrays["w"], [step] * 3)


def test_a_description_that_is_no_json_is_refused_naming_it(tmp_path):
    desc = tmp_path / "checkpoint.json"
    desc.write_text('{"format": "lnrnn-checkpoint", ')
    try:
        json.loads(desc.read_text())
    except json.JSONDecodeError as e:
        why = str(e)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert str(e.value) == f"checkpoint description {desc} is corrupt ({why})."
    assert os.listdir(tmp_path) == ["checkpoint.json"]
