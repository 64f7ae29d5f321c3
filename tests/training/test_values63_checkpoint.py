"""lnrnn/training/checkpoint.py on paths and broken files: what counts as a checkpoint (a folder named
checkpoint.json does not), the paths that name one (the folder with or without a trailing separator, its
description, a relative path, a checkpoint*.npz beside it), arrays read back equal to what was saved; a
checkpoint of another model refused naming each differing key with the checkpoint's value and the
requested one; a truncated or garbled arrays file (its hash made to match) and a file that would need
pickle each refused in one CheckpointError line, the folder's files unchanged; a save that fails names the
update of the checkpoint kept whole."""
import errno
import hashlib
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training import checkpoint as ckpt
from lnrnn.training.checkpoint import DESCRIPTION, checkpoint_exists, load_checkpoint, save_checkpoint

MODEL = {"cell": "lstm", "norm": "ln", "hidden_size": 3, "num_layers": 1, "input_size": 2}


def _arrays():
    rng = np.random.default_rng(63)
    return {"param/rnn.l0.Wx": rng.standard_normal((2, 12)), "param/head.b": rng.standard_normal(4).astype(np.float32),
            "opt/step": np.array([7], dtype=np.int64)}


def _save(folder, step=7, epoch=2, model=MODEL):
    return save_checkpoint(str(folder), _arrays(), {"step": step, "epoch": epoch, "model": dict(model)})


def _files(folder):
    return {p: open(os.path.join(folder, p), "rb").read() for p in sorted(os.listdir(folder))}


def _same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
        np.testing.assert_array_equal(a[k], b[k])


def test_a_folder_named_checkpoint_json_is_no_checkpoint(tmp_path):
    assert not checkpoint_exists(str(tmp_path))
    os.mkdir(tmp_path / DESCRIPTION)
    assert not checkpoint_exists(str(tmp_path))
    with pytest.raises(CheckpointError, match="no checkpoint at"):
        load_checkpoint(str(tmp_path))


def test_every_path_that_names_a_checkpoint_reads_the_same_arrays(tmp_path, monkeypatch):
    run = tmp_path / "run"
    _save(run)
    monkeypatch.chdir(tmp_path)
    npz = [p for p in os.listdir(run) if p.endswith(".npz")]
    assert len(npz) == 1 and npz[0].startswith("checkpoint-000000007-")
    for given in (str(run), str(run) + os.sep, "run", "run" + os.sep, str(run / DESCRIPTION), "run/" + DESCRIPTION,
                  str(run / npz[0]), str(run / "checkpoint.npz"), "run/checkpoint.npz"):
        meta, arrays = load_checkpoint(given)
        assert meta["step"] == 7 and meta["model"] == MODEL, given
        _same(arrays, _arrays())


def test_another_model_is_refused_naming_both_values_of_each_difference(tmp_path):
    _save(tmp_path)
    load_checkpoint(str(tmp_path), expected_model=dict(MODEL))
    other = {**MODEL, "hidden_size": 5, "cell": "rnn"}
    before = _files(tmp_path)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path), expected_model=other)
    want = "cell 'lstm' in the checkpoint vs 'rnn' requested; hidden_size 3 in the checkpoint vs 5 requested"
    assert f"belongs to another model ({want})" in str(e.value) and "\n" not in str(e.value)
    extra = {**MODEL, "skip": True}
    with pytest.raises(CheckpointError, match="skip None in the checkpoint vs True requested"):
        load_checkpoint(str(tmp_path), expected_model=extra)
    assert _files(tmp_path) == before
    assert ckpt.model_mismatch({"a": 1, "b": 2}, {"a": 1, "b": 3, "c": 4}) == \
        "b 2 in the checkpoint vs 3 requested; c None in the checkpoint vs 4 requested"


def _rehash(folder):
    """Rewrite the description's hash to match its arrays file as it now is (a hash alone cannot tell a file
    that was written short from the start)."""
    desc = os.path.join(folder, DESCRIPTION)
    meta = json.load(open(desc))
    meta["arrays_sha256"] = hashlib.sha256(open(os.path.join(folder, meta["arrays_file"]), "rb").read()).hexdigest()
    with open(desc, "w") as f:
        json.dump(meta, f)
    return os.path.join(folder, meta["arrays_file"])


@pytest.mark.parametrize("damage", ["half", "tail", "zeros", "text"])
def test_a_truncated_or_garbled_arrays_file_is_refused_in_one_line(tmp_path, damage):
    _save(tmp_path)
    desc = json.load(open(tmp_path / DESCRIPTION))
    npz = tmp_path / desc["arrays_file"]
    raw = npz.read_bytes()
    npz.write_bytes({"half": raw[:len(raw) // 2], "tail": raw[:-7], "zeros": bytes(len(raw)),
                     "text": b"not an npz at all\n"}[damage])
    before = _files(tmp_path)
    with pytest.raises(CheckpointError, match="is corrupt .its SHA-256"):
        load_checkpoint(str(tmp_path))
    _rehash(str(tmp_path))
    before = _files(tmp_path)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert "cannot be read" in str(e.value) and "\n" not in str(e.value)
    assert _files(tmp_path) == before


def test_arrays_that_would_need_pickle_are_refused(tmp_path):
    _save(tmp_path)
    desc = json.load(open(tmp_path / DESCRIPTION))
    arrays = {**_arrays(), "opt/step": np.array([{"a": 1}], dtype=object)}
    np.savez(tmp_path / desc["arrays_file"], **arrays)
    _rehash(str(tmp_path))
    with pytest.raises(CheckpointError, match="cannot be read"):
        load_checkpoint(str(tmp_path))


def test_a_failed_save_names_the_update_kept_whole(tmp_path, monkeypatch):
    _save(tmp_path, step=7, epoch=2)
    before = _files(tmp_path)

    def full(path, write):
        raise OSError(errno.ENOSPC, "No space left on device", path)
    monkeypatch.setattr(ckpt, "atomic_write", full)
    with pytest.raises(CheckpointError) as e:
        _save(tmp_path, step=9, epoch=3)
    text = str(e.value)
    assert text.startswith(f"cannot save the checkpoint of update 9 in {tmp_path} (No space left on device")
    assert text.endswith("free some space there; the checkpoint of update 7 there is kept whole.")
    assert _files(tmp_path) == before
    with pytest.raises(CheckpointError, match="nothing was written there.$"):
        _save(tmp_path / "new", step=1, epoch=0)
