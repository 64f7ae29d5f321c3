"""Checkpoints written, copied by --keep and read back, with arrays whose values name their update (so a copy
holding another update's arrays, or none, is told apart): --keep's copies counted past 9 -> 10 and 99 -> 100 and
pruned in numeric order, each loading its own update; the copy made without a hard link (another file system);
a second save into one folder keeping the new arrays and dropping only the old; a save refused by a full disk
word for word with nothing left behind and the previous checkpoint whole; a missing arrays file refused naming
the description it was named by; a resumed run whose checkpoint describes another model refused word for word,
naming the folder the run is in now, with nothing in it changed."""
import errno
import json
import os
import shutil

import numpy as np
import pytest

import lnrnn.training.checkpoint as ckpt
from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION, PAST_DIR, keep_past, load_checkpoint, save_checkpoint
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.train import train
from test_values56_stop_place import TINY, summary

N = 2048  # float64 values an array: 2048 * 8 = 16384 bytes = 16 KB
MODEL = {"cell": "rnn", "hidden_size": 3}


def arrays_of(step):
    return {"param/w": np.full(N, float(step)), "param/b": np.arange(3.0) + step}


def save(d, step):
    save_checkpoint(str(d), arrays_of(step), {"step": step, "epoch": 0, "model": MODEL})
    return step


def assert_holds(d, step):
    meta, arrays = load_checkpoint(str(d))
    assert meta["step"] == step
    assert sorted(arrays) == ["param/b", "param/w"]
    assert np.array_equal(arrays["param/w"], np.full(N, float(step)))
    assert np.array_equal(arrays["param/b"], np.array([0.0, 1.0, 2.0]) + step)


def npz_files(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".npz"))


@pytest.mark.parametrize("steps,kept", [((7, 8, 9, 10, 11), (9, 10, 11)), ((97, 98, 99, 100, 101), (99, 100, 101))])
def test_keep_three_counted_past_a_power_of_ten(tmp_path, steps, kept):
    """--keep 3: after each save the newest three copies are left, in numeric order (update-000000010 after
    update-000000009), each a checkpoint of its own update; the run's own folder holds one arrays file."""
    run = tmp_path / "run"
    for s in steps:
        save(run, s)
        keep_past(str(run), 3)
    assert sorted(os.listdir(run / PAST_DIR)) == [f"update-{s:09d}" for s in kept]
    for s in kept:
        assert_holds(run / PAST_DIR / f"update-{s:09d}", s)
        assert len(npz_files(run / PAST_DIR / f"update-{s:09d}")) == 1
    assert_holds(run, steps[-1])
    assert len(npz_files(run)) == 1


def test_keep_copies_the_arrays_where_no_hard_link_can_be_made(tmp_path, monkeypatch):
    """os.link refused (another file system): the arrays file is copied, through a temporary name that is gone
    afterwards, and the copy loads the update's own arrays."""
    def no_link(src, dst):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_link)
    run = tmp_path / "run"
    save(run, 10)
    keep_past(str(run), 2)
    dest = run / PAST_DIR / "update-000000010"
    assert sorted(os.listdir(dest)) == sorted([DESCRIPTION] + npz_files(run))
    assert_holds(dest, 10)
    assert_holds(run, 10)


def test_a_second_save_keeps_the_new_arrays_and_drops_the_old(tmp_path):
    d = tmp_path / "run"
    save(d, 9)
    first = npz_files(d)
    save(d, 10)
    second = npz_files(d)
    assert len(second) == 1 and second != first and second[0].startswith("checkpoint-000000010-")
    assert_holds(d, 10)


def test_a_full_disk_refused_word_for_word_and_nothing_left(tmp_path, monkeypatch):
    """The description cannot be written (ENOSPC): the new arrays file is removed, update 9's checkpoint is
    whole, and the sentence names update 10, the folder, the 16 KB asked for and what to do."""
    d = tmp_path / "run"
    save(d, 9)
    before = sorted(os.listdir(d))

    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ckpt, "atomic_write_text", full)
    with pytest.raises(CheckpointError) as e:
        save_checkpoint(str(d), {"param/w": np.zeros(N)}, {"step": 10, "model": MODEL})
    assert str(e.value) == (f"cannot save the checkpoint of update 10 in {d} (No space left on device; it needs "
                            "about 16 KB): free some space there; the checkpoint of update 9 there is kept whole.")
    assert sorted(os.listdir(d)) == before
    monkeypatch.undo()
    assert_holds(d, 9)


def test_a_missing_arrays_file_is_refused_naming_its_description(tmp_path):
    d = tmp_path / "run"
    save(d, 3)
    (name,) = npz_files(d)
    os.unlink(d / name)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(d))
    assert str(e.value) == (f"checkpoint arrays file {d / name} named by {d / DESCRIPTION} is missing.")


def test_a_moved_run_of_another_model_is_refused_naming_where_it_is_now(tmp_path):
    """A run saved in `first`, moved to `moved`, its description saying hidden 8 while its settings build
    hidden 4: --resume refuses in the words of the folder it is in now, and nothing there changes."""
    first, moved = tmp_path / "first", tmp_path / "moved"
    summary(first, max_steps=2)
    shutil.move(str(first), str(moved))
    desc = moved / DESCRIPTION
    meta = json.loads(desc.read_text())
    assert meta["model"]["hidden_size"] == 4
    meta["model"]["hidden_size"] = 8
    desc.write_text(json.dumps(meta, indent=1) + "\n")
    before = {f: (moved / f).read_bytes() for f in os.listdir(moved) if os.path.isfile(moved / f)}
    with pytest.raises(CheckpointError) as e:
        train(TrainConfig(**{**TINY, "out": str(moved)}), resume=True, quiet=True, log=lambda m: None)
    assert str(e.value) == (f"the checkpoint in {moved} does not match the model its own settings build "
                            "(hidden_size 8 in the checkpoint vs 4 requested).")
    after = {f: (moved / f).read_bytes() for f in os.listdir(moved) if os.path.isfile(moved / f)}
    assert {f: v for f, v in after.items() if f in before} == before
    kept = sorted(f for f in after if f.endswith(".npz") or f == DESCRIPTION)
    assert kept == sorted(f for f in before if f.endswith(".npz") or f == DESCRIPTION) and len(kept) == 2
    assert not first.exists()
