"""lnrnn/training/checkpoint.py: a checkpoint is read back through any of the names a user may give it (the run
folder, its checkpoint.json, its checkpoint-*.npz, the checkpoint.npz of the documented runs/x/checkpoint.npz),
each time with the arrays that were saved; a checkpoint of another model is refused naming every setting that
differs; --keep's copies each hold their own arrays and only the last N stay."""
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION, PAST_DIR, keep_past, load_checkpoint, save_checkpoint

MODEL = {"cell": "ln-lstm", "hidden": 4, "layers": 1, "head": "softmax", "input_size": 1}


def arrays_at(step):
    rng = np.random.default_rng(step)
    return {"W": rng.standard_normal((3, 4)).astype(np.float32), "b": np.full(4, float(step))}


def assert_same(got, want):
    assert sorted(got) == sorted(want)
    for k in want:
        assert got[k].dtype == want[k].dtype and got[k].shape == want[k].shape
        assert np.array_equal(got[k], want[k])


def test_every_name_of_a_checkpoint_reads_the_saved_arrays(tmp_path):
    run = tmp_path / "run"
    save_checkpoint(str(run), arrays_at(7), {"step": 7, "model": MODEL})
    npz = [n for n in os.listdir(run) if n.endswith(".npz")]
    assert len(npz) == 1 and npz[0].startswith("checkpoint-")
    for name in (run, run / DESCRIPTION, run / npz[0], run / "checkpoint.npz", str(run) + os.sep):
        meta, arrays = load_checkpoint(str(name))
        assert meta["step"] == 7 and meta["model"] == MODEL
        assert_same(arrays, arrays_at(7))


@pytest.mark.parametrize("key,value", [("cell", "bn-lstm"), ("hidden", 5), ("head", "mdn"), ("layers", 2)])
def test_a_checkpoint_of_another_model_is_refused_naming_what_differs(tmp_path, key, value):
    save_checkpoint(str(tmp_path), arrays_at(1), {"step": 1, "model": MODEL})
    other = dict(MODEL, **{key: value})
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path), expected_model=other)
    line = str(e.value)
    assert "another model" in line and f"{key} {MODEL[key]!r} in the checkpoint vs {value!r} requested" in line
    assert [k for k in MODEL if f"{k} " in line.split("(", 1)[1]] == [key]
    meta, arrays = load_checkpoint(str(tmp_path), expected_model=dict(MODEL))
    assert_same(arrays, arrays_at(1))


@pytest.mark.parametrize("keep", [1, 2, 3])
def test_kept_copies_hold_their_own_arrays_and_only_the_last_keep_stay(tmp_path, keep):
    run = str(tmp_path / "run")
    steps = [3, 10, 12, 40]
    for s in steps:
        save_checkpoint(run, arrays_at(s), {"step": s, "model": MODEL})
        keep_past(run, keep)
    past = os.path.join(run, PAST_DIR)
    kept = steps[-keep:]
    assert sorted(os.listdir(past)) == [f"update-{s:09d}" for s in kept]
    for s in kept:
        folder = os.path.join(past, f"update-{s:09d}")
        files = os.listdir(folder)
        assert sorted(f for f in files if f.endswith(".npz")) != [] and DESCRIPTION in files
        meta, arrays = load_checkpoint(folder)
        assert meta["step"] == s
        assert_same(arrays, arrays_at(s))
    meta, arrays = load_checkpoint(run)            # the run's own checkpoint is the last one saved
    assert meta["step"] == steps[-1]
    assert_same(arrays, arrays_at(steps[-1]))
