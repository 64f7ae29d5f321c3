"""lnrnn/training/optim.py and lnrnn/training/checkpoint.py against their formulas and documented files.

Optimizers: the global norm of a dict of gradients is sqrt of every squared entry (3, 4, 12: 13), and clipping
scales every array by max_norm / (norm + 1e-6); SGD with momentum on a dict of parameters over two float64
updates against v = mu v + g, p -= lr v written out; RMSProp's one slot sq = (1 - alpha) g^2 and its step
p -= lr g / (sqrt(sq) + eps) by hand, with no other slot saved or counted; Adam on a flat array saved with a
layout: the slots named per parameter, each the moment m = b1 m + (1 - b1) g (v alike) of two updates written
out, and a copy (a later step leaves the saved state as it was). Checkpoints: the description holds the format,
version, the arrays file's name by step and its SHA-256 computed here with hashlib, and every array's shape and
dtype string; the arrays load back equal, another model is refused naming the differing field, and an object
array (pickle) is refused; a save that cannot make its folder (a file in the way) is a CheckpointError in the
documented words; --keep's copies go to DIR/checkpoints/update-<step 9 digits>/, the newest N kept, each one
loadable with its step."""
import errno
import hashlib
import json
import os
import re

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.model.flat import FlatArrays
from lnrnn.training import checkpoint as ck
from lnrnn.training import optim


# ---- optimizers ----

def test_the_global_norm_of_a_dict_counts_every_array_and_clipping_scales_them_all():
    grads = {"a": np.array([3.0, 0.0]), "b": np.array([[0.0, 4.0]]), "c": np.array([12.0])}
    assert optim.global_norm(grads) == pytest.approx(13.0, rel=1e-15)
    before = {k: v.copy() for k, v in grads.items()}
    norm = optim.clip_grad_norm(grads, 6.5)
    assert norm == pytest.approx(13.0, rel=1e-15)
    scale = 6.5 / (13.0 + 1e-6)
    for k in grads:
        np.testing.assert_allclose(grads[k], before[k] * scale, rtol=1e-15, atol=0)
    assert optim.global_norm(grads) == pytest.approx(6.5, rel=1e-6)


def test_sgd_with_momentum_on_a_dict_of_parameters_by_the_formula():
    rng = np.random.default_rng(1)
    p0 = {"w": rng.standard_normal((2, 3)), "b": rng.standard_normal(5)}
    g1 = {k: rng.standard_normal(v.shape) for k, v in p0.items()}
    g2 = {k: rng.standard_normal(v.shape) for k, v in p0.items()}
    params = {k: v.copy() for k, v in p0.items()}
    opt = optim.SGD(lr=0.1, momentum=0.9)
    opt.step(params, g1)
    opt.step(params, g2)
    for k in p0:
        v1 = g1[k]
        p1 = p0[k] - 0.1 * v1
        v2 = 0.9 * v1 + g2[k]
        np.testing.assert_allclose(params[k], p1 - 0.1 * v2, rtol=1e-13, atol=1e-15)
    assert opt.step_count == 2
    assert not optim._on_device(params["w"])


def test_rmsprop_keeps_one_slot_sq_by_the_formula():
    rng = np.random.default_rng(2)
    p0 = rng.standard_normal(7)
    g = rng.standard_normal(7)
    p = p0.copy()
    opt = optim.RMSProp(lr=0.01, alpha=0.9, eps=1e-3)
    assert opt.slots_kept() == 1
    opt.step(p, g)
    sq = 0.1 * g * g
    np.testing.assert_allclose(p, p0 - 0.01 * g / (np.sqrt(sq) + 1e-3), rtol=1e-13, atol=0)
    state = opt.state_dict()
    assert state["kind"] == "rmsprop" and state["step"] == 1
    assert list(state["slots"]) == ["sq"]
    np.testing.assert_allclose(state["slots"]["sq"][optim.FLAT], sq, rtol=1e-13, atol=0)


def test_adam_state_saved_with_a_layout_names_every_parameter_slot():
    layout = [("w", (2, 3), 0), ("b", (5,), 6)]
    rng = np.random.default_rng(3)
    p = rng.standard_normal(11)
    flat = FlatArrays(p, layout)
    g1, g2 = rng.standard_normal(11), rng.standard_normal(11)
    opt = optim.Adam(lr=1e-2)
    opt.step(p, g1)
    opt.step(p, g2)
    state = opt.state_dict(flat)
    m = 0.9 * (0.1 * g1) + 0.1 * g2
    v = 0.999 * (0.001 * g1 * g1) + 0.001 * g2 * g2
    assert state["kind"] == "adam" and state["step"] == 2
    assert sorted(state["slots"]) == ["m", "v"]
    for slot, want in (("m", m), ("v", v)):
        named = state["slots"][slot]
        assert sorted(named) == ["b", "w"], named.keys()
        np.testing.assert_allclose(named["w"], want[:6].reshape(2, 3), rtol=1e-12, atol=0)
        np.testing.assert_allclose(named["b"], want[6:], rtol=1e-12, atol=0)
    opt.step(p, g1)  # the saved state is a copy: a later step leaves it as it was
    np.testing.assert_allclose(state["slots"]["m"]["b"], m[6:], rtol=1e-12, atol=0)
    json.dumps({k: v for k, v in state.items() if k != "slots"})  # the rest is JSON scalars


# ---- checkpoints ----

MODEL = {"cell": "rnn", "hidden_size": 4, "input_size": 3}


def _arrays():
    return {"params/w": np.arange(6, dtype=np.float64).reshape(2, 3),
            "opt/m": np.linspace(0, 1, 250).astype(np.float32), "step": np.array(7, np.int64)}


def test_the_description_lists_format_hash_and_arrays_and_loads_back(tmp_path):
    d = str(tmp_path / "run")
    path = ck.save_checkpoint(d, _arrays(), {"step": 3, "model": MODEL, "epoch": 1})
    assert path == os.path.join(d, "checkpoint.json")
    meta = json.loads(open(path, encoding="utf-8").read())
    assert meta["format"] == "lnrnn-checkpoint" and meta["version"] == 1
    assert meta["step"] == 3 and meta["epoch"] == 1 and meta["model"] == MODEL
    assert re.fullmatch(r"checkpoint-000000003-[0-9a-f]{8}\.npz", meta["arrays_file"]), meta["arrays_file"]
    with open(os.path.join(d, meta["arrays_file"]), "rb") as f:
        assert meta["arrays_sha256"] == hashlib.sha256(f.read()).hexdigest()
    assert meta["arrays"] == {"params/w": [[2, 3], "<f8"], "opt/m": [[250], "<f4"], "step": [[], "<i8"]}
    assert sorted(os.listdir(d)) == sorted(["checkpoint.json", meta["arrays_file"]])
    got_meta, got = ck.load_checkpoint(d, expected_model=dict(MODEL))
    assert got_meta == meta
    for k, v in _arrays().items():
        assert got[k].dtype == v.dtype and got[k].shape == v.shape and np.array_equal(got[k], v)


def test_another_model_is_refused_naming_the_field(tmp_path):
    d = str(tmp_path / "run")
    ck.save_checkpoint(d, _arrays(), {"step": 3, "model": MODEL})
    with pytest.raises(CheckpointError) as e:
        ck.load_checkpoint(d, expected_model=dict(MODEL, hidden_size=5))
    assert str(e.value) == (f"checkpoint {os.path.join(d, 'checkpoint.json')} belongs to another model "
                            "(hidden_size 4 in the checkpoint vs 5 requested).")


def test_an_object_array_is_not_unpickled(tmp_path):
    d = str(tmp_path / "run")
    ck.save_checkpoint(d, {"x": np.array([{"a": 1}], dtype=object)}, {"step": 0, "model": MODEL})
    with pytest.raises(CheckpointError, match="cannot be read"):
        ck.load_checkpoint(d)


def test_a_save_whose_folder_cannot_be_made_is_a_checkpoint_error_in_words(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    d = str(blocker / "run")
    arrays = {"w": np.zeros(256)}  # 2048 bytes: "2 KB"
    with pytest.raises(CheckpointError) as e:
        ck.save_checkpoint(d, arrays, {"step": 3, "model": MODEL})
    assert str(e.value) == (f"cannot save the checkpoint of update 3 in {d} ({os.strerror(errno.ENOTDIR)}; it needs "
                            "about 2 KB): check that file system; nothing was written there.")
    assert blocker.read_text() == "x"


def test_keep_past_copies_into_checkpoints_update_step_and_keeps_the_newest(tmp_path):
    d = str(tmp_path / "run")
    for step in (5, 12, 130):
        ck.save_checkpoint(d, {"w": np.full(3, float(step))}, {"step": step, "model": MODEL})
        ck.keep_past(d, 2)
    past = os.path.join(d, "checkpoints")
    assert sorted(os.listdir(past)) == ["update-000000012", "update-000000130"]
    assert sorted(os.listdir(d)) == sorted(["checkpoint.json", "checkpoints",
                                            json.load(open(os.path.join(d, "checkpoint.json")))["arrays_file"]])
    for step in (12, 130):
        meta, arrays = ck.load_checkpoint(os.path.join(past, f"update-{step:09d}"), expected_model=MODEL)
        assert meta["step"] == step
        assert np.array_equal(arrays["w"], np.full(3, float(step)))
