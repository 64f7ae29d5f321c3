"""lnrnn/training/checkpoint.py by value: a checkpoint saved at an update past a power of ten is read back
whole from its folder, from its checkpoint.json and from its checkpoint-*.npz named directly (the folder's
description leads); a checkpoint of another model is refused in one sentence that names every setting that
differs with both values; --keep N keeps the N highest updates over a history that went back (a resume from an
earlier checkpoint), the run's own checkpoint being the last one saved."""
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import keep_past, load_checkpoint, save_checkpoint

MODEL = {"cell": "lstm", "hidden": 4, "layers": 1, "inputs": 2}


def _arrays(seed):
    rng = np.random.default_rng(seed)
    return {"param/W": rng.standard_normal((3, 4)).astype(np.float32), "param/b": rng.standard_normal(4),
            "optim/m/W": np.asfortranarray(rng.standard_normal((4, 3)))}


def _same(a, b):
    assert set(a) == set(b)
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape
        np.testing.assert_array_equal(a[k], b[k])


@pytest.mark.parametrize("step", [9, 10, 1000000, 1234567890])
def test_read_back_from_the_folder_the_description_and_the_arrays_file(tmp_path, step):
    arrays = _arrays(step % 97)
    save_checkpoint(str(tmp_path), arrays, {"model": MODEL, "step": step})
    npz = [n for n in os.listdir(tmp_path) if n.endswith(".npz")]
    assert len(npz) == 1 and npz[0].startswith("checkpoint-")
    for where in (tmp_path, tmp_path / "checkpoint.json", tmp_path / npz[0]):
        meta, got = load_checkpoint(str(where), expected_model=dict(MODEL))
        assert meta["step"] == step and meta["model"] == MODEL
        _same(arrays, got)


def test_another_model_is_refused_naming_every_difference(tmp_path):
    save_checkpoint(str(tmp_path), _arrays(0), {"model": MODEL, "step": 3})
    other = {**MODEL, "hidden": 8, "cell": "ln-lstm", "norm_eps": 1e-5}
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path), expected_model=other)
    msg = str(e.value)
    assert "\n" not in msg and "another model" in msg
    for k in sorted(set(MODEL) | set(other)):
        named = f"{k} {MODEL.get(k)!r} in the checkpoint vs {other.get(k)!r} requested"
        assert (named in msg) == (MODEL.get(k) != other.get(k)), k


def test_keep_n_keeps_the_highest_updates_over_a_history_that_went_back(tmp_path):
    run = str(tmp_path)
    history = [5, 10, 100, 40, 99, 1000, 60]   # the run resumed from earlier checkpoints twice
    for i, step in enumerate(history):
        save_checkpoint(run, _arrays(i), {"model": MODEL, "step": step})
        keep_past(run, 3)
    past = sorted(os.listdir(os.path.join(run, "checkpoints")))
    want = sorted(history, reverse=True)[:3]
    assert past == sorted(f"update-{s:09d}" for s in want)
    for s in want:
        meta, got = load_checkpoint(os.path.join(run, "checkpoints", f"update-{s:09d}"))
        assert meta["step"] == s
        _same(_arrays(history.index(s)), got)
    meta, got = load_checkpoint(run)
    assert meta["step"] == history[-1]
    _same(_arrays(len(history) - 1), got)
    assert len([n for n in os.listdir(run) if n.endswith(".npz")]) == 1
    assert json.loads(open(os.path.join(run, "checkpoint.json")).read())["step"] == 60
