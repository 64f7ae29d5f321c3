"""lnrnn/training/checkpoint.py on folders written here: arrays of every kind a run saves come back bit for bit
(-0.0, subnormals, the largest float32, float32/float64/int64/uint32/bool, 0-d, one-element, empty, Fortran-ordered
and strided arrays), with their dtype and shape, whether the checkpoint is named by its folder, its checkpoint.json
or its arrays file; a description that is not UTF-8, cut short, or holds a field of the wrong type, an arrays
file cut short, and one that would need pickle are each refused in one line; a save that cannot write is one
line whether the previous description is whole (its update kept) or corrupt (nothing said to be kept)."""
import errno
import hashlib
import json

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training import checkpoint
from lnrnn.training.checkpoint import DESCRIPTION, load_checkpoint, save_checkpoint

MODEL = {"cell": "ln-lstm", "hidden": 4}


def _arrays():
    rng = np.random.default_rng(142)
    big = np.finfo(np.float32).max
    w = rng.standard_normal((5, 4))
    return {
        "param/a": np.float32([-0.0, 1e-45, big, -big, 3.25]),
        "param/b": w,                                                  # float64
        "param/fortran": np.asfortranarray(w.astype(np.float32)),
        "param/strided": w[::2, 1::2],                                 # a view, not contiguous
        "rng/state": np.array([2**63 - 1, -2**63, 0], dtype=np.int64),
        "rng/key": np.array([0xFFFFFFFF, 1, 2], dtype=np.uint32),
        "mask": np.array([[True, False], [False, True]]),
        "one": np.array([7.5]),
        "scalar": np.array(-2.5),                                      # 0-d: comes back 0-d
        "empty": np.zeros((0, 3), np.float32),
    }


def _same_bits(got, want):
    assert set(got) == set(want)
    for k, v in want.items():
        assert got[k].dtype == v.dtype and got[k].shape == v.shape, k
        assert np.ascontiguousarray(got[k]).tobytes() == np.ascontiguousarray(v).tobytes(), k


def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_arrays_come_back_bit_for_bit_by_folder_description_or_arrays_file(tmp_path):
    want = _arrays()
    meta_in = {"model": MODEL, "step": 123, "epoch": 2, "note": "ünïcode"}
    desc = save_checkpoint(str(tmp_path), want, meta_in)
    assert desc == str(tmp_path / DESCRIPTION)
    arrays_file = json.loads((tmp_path / DESCRIPTION).read_text())["arrays_file"]
    for named in (tmp_path, tmp_path / DESCRIPTION, tmp_path / arrays_file):
        meta, got = load_checkpoint(str(named), expected_model=dict(MODEL))
        _same_bits(got, want)
        assert {k: meta[k] for k in meta_in} == meta_in
        assert meta["arrays"] == {k: [list(v.shape), v.dtype.str] for k, v in want.items()}


def _saved(tmp_path):
    save_checkpoint(str(tmp_path), {"param/W": np.arange(6.0).reshape(2, 3)}, {"model": MODEL, "step": 4})
    desc = tmp_path / DESCRIPTION
    return desc, json.loads(desc.read_text())


def _refused(path, *words):
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(path))
    msg = str(e.value)
    assert "\n" not in msg and all(w in msg for w in words), msg
    return msg


def test_a_description_that_is_not_utf8_or_cut_short_is_corrupt(tmp_path):
    desc, _ = _saved(tmp_path)
    text = desc.read_bytes()
    desc.write_bytes(b"\xff\xfe" + text)
    _refused(tmp_path, f"checkpoint description {desc} is corrupt")
    desc.write_bytes(text[: len(text) // 2])
    _refused(tmp_path, f"checkpoint description {desc} is corrupt")


@pytest.mark.parametrize("field, value", [("arrays_file", None), ("arrays_file", 5), ("arrays_file", ["a.npz"])])
def test_a_description_field_of_the_wrong_type_is_refused(tmp_path, field, value):
    desc, meta = _saved(tmp_path)
    meta[field] = value
    desc.write_text(json.dumps(meta))
    _refused(tmp_path, f"checkpoint description {desc}", "corrupt")


def test_a_missing_field_is_named(tmp_path):
    desc, meta = _saved(tmp_path)
    del meta["arrays_sha256"]
    desc.write_text(json.dumps(meta))
    _refused(tmp_path, "lacks field 'arrays_sha256'; it is corrupt.")


def test_an_arrays_file_cut_short_is_refused_with_or_without_a_matching_digest(tmp_path):
    desc, meta = _saved(tmp_path)
    npz = tmp_path / meta["arrays_file"]
    npz.write_bytes(npz.read_bytes()[:-40])
    _refused(tmp_path, f"checkpoint arrays file {npz} is corrupt (its SHA-256 does not match")
    meta["arrays_sha256"] = _sha(npz)                                 # a digest taken after the cut
    desc.write_text(json.dumps(meta))
    _refused(tmp_path, f"checkpoint arrays file {npz} cannot be read")


def test_arrays_that_need_pickle_are_refused(tmp_path):
    desc, meta = _saved(tmp_path)
    npz = tmp_path / meta["arrays_file"]
    objects = np.empty(2, dtype=object)
    objects[:] = [{"a": 1}, [2]]
    with open(npz, "wb") as f:
        np.savez(f, **{"param/W": objects})
    meta["arrays_sha256"] = _sha(npz)
    meta["arrays"] = {"param/W": [[2], objects.dtype.str]}
    desc.write_text(json.dumps(meta))
    _refused(tmp_path, f"checkpoint arrays file {npz} cannot be read")


def _no_space(path, write):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("previous, kept", [
    (None, "the checkpoint of update 4 there is kept whole"),
    (b"{\"step\": 4, ", "nothing was written there"),                  # cut short
    (b"\xff\xfe\x00", "nothing was written there"),                   # not UTF-8
    (b"[4]", "nothing was written there"),                             # not a table
    (b"{}", "nothing was written there")])                             # no step
def test_a_save_that_cannot_write_says_what_is_kept(tmp_path, monkeypatch, previous, kept):
    desc, _ = _saved(tmp_path)
    if previous is not None:
        desc.write_bytes(previous)
    monkeypatch.setattr(checkpoint, "atomic_write", _no_space)
    with pytest.raises(CheckpointError) as e:
        save_checkpoint(str(tmp_path), {"param/W": np.zeros(3)}, {"model": MODEL, "step": 9})
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"cannot save the checkpoint of update 9 in {tmp_path} ")
    assert msg.endswith(f"; {kept}."), msg
