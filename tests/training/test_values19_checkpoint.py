"""lnrnn/training/checkpoint.py's reader and keep_past, file by file: --checkpoint naming the run's arrays
file leads to the run's description, a checkpoint.json of another program or one whose arrays file is
gone is a CheckpointError, and a kept update saved twice (a resumed run's same step) holds exactly the
arrays file its description names."""
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training import checkpoint as ck

MODEL = {"cell": "rnn", "norm": "ln", "hidden_size": 2}


def save(folder, step, value):
    arrays = {"param/w": np.full((2, 3), value, np.float32)}
    ck.save_checkpoint(str(folder), arrays, {"model": MODEL, "step": step, "epoch": 0})


def test_the_runs_arrays_file_leads_to_its_description(tmp_path):
    save(tmp_path, 7, 1.5)
    name = json.loads((tmp_path / "checkpoint.json").read_text())["arrays_file"]
    meta, arrays = ck.load_checkpoint(str(tmp_path / name))
    assert meta["step"] == 7 and meta["arrays_file"] == name
    np.testing.assert_array_equal(arrays["param/w"], np.full((2, 3), 1.5, np.float32))


def test_another_programs_description_is_refused(tmp_path):
    save(tmp_path, 1, 0.0)
    record = json.loads((tmp_path / "checkpoint.json").read_text())
    (tmp_path / "checkpoint.json").write_text(json.dumps(dict(record, format="other-tool")))
    with pytest.raises(CheckpointError, match="is not an lnrnn checkpoint description"):
        ck.load_checkpoint(str(tmp_path))


def test_a_missing_arrays_file_is_a_checkpoint_error(tmp_path):
    save(tmp_path, 1, 0.0)
    name = json.loads((tmp_path / "checkpoint.json").read_text())["arrays_file"]
    os.unlink(tmp_path / name)
    with pytest.raises(CheckpointError, match=f"{name} named by .* is missing"):
        ck.load_checkpoint(str(tmp_path))


def test_a_kept_update_saved_twice_holds_only_its_newest_arrays(tmp_path):
    for value in (1.0, 2.0):  # the same step saved and kept twice
        save(tmp_path, 5, value)
        ck.keep_past(str(tmp_path), keep=3)
    dest = tmp_path / ck.PAST_DIR / "update-000000005"
    npz = sorted(f for f in os.listdir(dest) if f.endswith(".npz"))
    assert npz == [json.loads((dest / "checkpoint.json").read_text())["arrays_file"]]
    _, arrays = ck.load_checkpoint(str(dest))
    np.testing.assert_array_equal(arrays["param/w"], np.full((2, 3), 2.0, np.float32))
