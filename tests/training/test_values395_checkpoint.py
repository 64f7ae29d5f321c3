"""lnrnn/training/checkpoint.py where a step fails or a file is written by another hand: a --keep copy whose
arrays can be neither linked nor copied (a full disk half-way through the copy) refused word for word, with
nothing left behind in the run folder or under checkpoints/ and the run's own checkpoint whole; a description
edited by hand as UTF-8 (ensure_ascii off, as an editor writes it) read back with its text intact, and one
holding a byte UTF-8 does not allow refused with the codec's own words; an old arrays file that cannot be
deleted after a save (permission denied) leaving the save done, and dropped by the next save that can."""
import errno
import json
import os
import shutil

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION, PAST_DIR, keep_past, load_checkpoint, save_checkpoint

MODEL = {"cell": "lstm", "hidden_size": 2}


def arrays_of(step):
    return {"param/w": np.arange(6.0).reshape(2, 3) + step, "param/b": np.full(2, float(step))}


def save(d, step):
    return save_checkpoint(str(d), arrays_of(step), {"step": step, "epoch": 1, "model": MODEL})


def assert_holds(d, step):
    meta, arrays = load_checkpoint(str(d))
    assert meta["step"] == step
    assert sorted(arrays) == ["param/b", "param/w"]
    np.testing.assert_array_equal(arrays["param/w"], np.arange(6.0).reshape(2, 3) + step)
    np.testing.assert_array_equal(arrays["param/b"], np.full(2, float(step)))


def npz_files(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".npz"))


def test_a_copy_that_fails_half_way_is_refused_in_words_and_leaves_nothing(tmp_path, monkeypatch):
    """No hard link (another file system) and the disk full after half the bytes are copied: the refusal names
    the update, the copy's folder, the reason, what to do (free space, or a smaller --keep) and that the run's
    own folder is saved; that folder holds what it held before (no temp file of the copy) and the copy's
    folder is gone."""
    run = tmp_path / "run"
    save(run, 12)
    before = sorted(os.listdir(run))

    def no_link(src, dst):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    def half_copy(src, dst):
        data = open(src, "rb").read()
        with open(dst, "wb") as f:
            f.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "link", no_link)
    monkeypatch.setattr(shutil, "copyfile", half_copy)
    with pytest.raises(CheckpointError) as e:
        keep_past(str(run), 2)
    dest = run / PAST_DIR / "update-000000012"
    assert str(e.value) == (f"cannot keep a copy of the checkpoint of update 12 in {dest} (No space left on device): "
                            "free some space there, or pass a smaller --keep; the run's own checkpoint in "
                            f"{run} is saved.")
    assert sorted(os.listdir(run)) == sorted(before + [PAST_DIR])
    assert os.listdir(run / PAST_DIR) == []
    monkeypatch.undo()
    assert_holds(run, 12)


def test_a_hand_edited_utf8_description_reads_back_its_text(tmp_path):
    """json.dumps escapes non-ASCII text; an editor writes it as UTF-8 bytes. Both read back the same text."""
    run = tmp_path / "run"
    save(run, 3)
    meta = json.loads((run / DESCRIPTION).read_text())
    meta["note"] = "caf\u00e9 na\u00efve \u2014 \u00fcber"  # café naïve — über
    raw = json.dumps(meta, indent=1, ensure_ascii=False).encode("utf-8")
    assert b"\xc3\xa9" in raw  # é written as its two UTF-8 bytes, not escaped
    (run / DESCRIPTION).write_bytes(raw)
    got, arrays = load_checkpoint(str(run))
    assert got["note"] == "caf\u00e9 na\u00efve \u2014 \u00fcber"
    assert got == meta
    np.testing.assert_array_equal(arrays["param/b"], np.full(2, 3.0))


def test_a_description_with_a_byte_utf8_forbids_is_corrupt_in_the_codecs_words(tmp_path):
    """Byte 0xE9 (Latin-1's é) inside a JSON string: not UTF-8, so the description is corrupt, and the refusal
    quotes what Python's UTF-8 decoder says of those very bytes."""
    run = tmp_path / "run"
    save(run, 3)
    meta = json.loads((run / DESCRIPTION).read_text())
    raw = json.dumps(meta, indent=1).encode("ascii").replace(b'"epoch"', b'"caf\xe9": 1, "epoch"', 1)
    (run / DESCRIPTION).write_bytes(raw)
    with pytest.raises(UnicodeDecodeError) as codec:
        raw.decode("utf-8")
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(run))
    assert str(e.value) == f"checkpoint description {run / DESCRIPTION} is corrupt ({codec.value})."


def test_an_old_arrays_file_that_cannot_be_deleted_leaves_the_save_done(tmp_path, monkeypatch):
    """Update 10 saved over update 9 where update 9's arrays file cannot be unlinked (EACCES): the save returns
    the description, update 10 loads, update 9's file is still there; the save of update 11, where deleting
    works again, leaves only its own arrays file."""
    run = tmp_path / "run"
    save(run, 9)
    (old,) = npz_files(run)
    real_unlink = os.unlink

    def guarded(path, *args, **kwargs):
        if os.path.basename(str(path)) == old:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", guarded)
    assert save(run, 10) == os.path.join(str(run), DESCRIPTION)
    assert_holds(run, 10)
    names = npz_files(run)
    assert len(names) == 2 and old in names
    assert [n for n in names if n != old][0].startswith("checkpoint-000000010-")
    monkeypatch.undo()
    save(run, 11)
    (left,) = npz_files(run)
    assert left.startswith("checkpoint-000000011-")
    assert_holds(run, 11)
