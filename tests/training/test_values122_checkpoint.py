"""lnrnn/training/checkpoint.py on folders written here: a checkpoint of another format version is refused
naming the version the file has; one of another model is refused naming each setting that differs with the
checkpoint's value first and the requested one second; a save that cannot write names the update it was saving
and says nothing was written; --keep N keeps the N highest updates past powers of ten (9, 10, 99, 100, 1000)."""
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION, PAST_DIR, keep_past, load_checkpoint, save_checkpoint

MODEL = {"cell": "ln-lstm", "hidden": 8, "layers": 1, "input_size": 3}


def _save(directory, step, model=MODEL):
    arrays = {"param/W": np.arange(6, dtype=np.float32).reshape(2, 3) + step}
    return save_checkpoint(str(directory), arrays, {"model": model, "step": step, "epoch": step // 7})


def test_another_format_version_is_refused_naming_the_files_version(tmp_path):
    _save(tmp_path, 5)
    desc = tmp_path / DESCRIPTION
    meta = json.loads(desc.read_text())
    for version in (2, 0, 17):
        meta["version"] = version
        desc.write_text(json.dumps(meta))
        with pytest.raises(CheckpointError) as e:
            load_checkpoint(str(tmp_path))
        assert f"format version {version};" in str(e.value) and "reads version 1" in str(e.value)


def test_another_model_is_refused_naming_what_differs(tmp_path):
    _save(tmp_path, 5)
    meta, arrays = load_checkpoint(str(tmp_path), expected_model=dict(MODEL))
    np.testing.assert_array_equal(arrays["param/W"], np.arange(6).reshape(2, 3) + 5)
    asked = {**MODEL, "hidden": 16, "cell": "lstm"}
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path), expected_model=asked)
    msg = str(e.value)
    for k in ("cell", "hidden"):
        assert f"{k} {MODEL[k]!r} in the checkpoint vs {asked[k]!r} requested" in msg
    assert "layers" not in msg and "input_size" not in msg


def test_a_save_that_cannot_write_names_its_update(tmp_path):
    blocker = tmp_path / "run"
    blocker.write_text("a file where the run folder would go")
    with pytest.raises(CheckpointError) as e:
        save_checkpoint(str(blocker), {"param/W": np.zeros(3)}, {"model": MODEL, "step": 1234, "epoch": 56})
    msg = str(e.value)
    assert "cannot save the checkpoint of update 1234 in" in msg and "nothing was written there" in msg
    assert "56" not in msg.replace(str(tmp_path), "")


def test_keep_n_keeps_the_highest_updates_past_powers_of_ten(tmp_path):
    steps = [9, 10, 99, 100, 1000, 10000]
    for i, s in enumerate(steps):
        _save(tmp_path, s)
        keep_past(str(tmp_path), 2)
        kept = sorted(os.listdir(tmp_path / PAST_DIR))
        want = sorted(steps[:i + 1])[-2:]                                   # the two highest updates, by number
        assert kept == [f"update-{s:09d}" for s in want]
        for s in want:
            meta, arrays = load_checkpoint(str(tmp_path / PAST_DIR / f"update-{s:09d}"))
            assert meta["step"] == s
            np.testing.assert_array_equal(arrays["param/W"], np.arange(6).reshape(2, 3) + s)
