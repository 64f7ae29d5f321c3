"""lnrnn/training/finetune.py from a checkpoint written here, without training: --init-from takes the
source's parameters and BatchNorm statistics (compared array by array with the source's, and no longer
tied to them), not its optimizer slots; the paths that name a source (the folder, with a trailing
separator, relative, its best/); its record (path, update, best, cell, task) read from the description;
a shape setting that differs refused naming the source's value and this run's; a checkpoint whose
training settings lack a shape setting, or that holds no parameters, refused in one line."""
import os
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.models import build_model, head_config
from lnrnn.training import finetune
from lnrnn.training.checkpoint import save_checkpoint

TRAIN = {"cell": "bn-lstm", "hidden": 3, "layers": 2, "bidirectional": False, "dtype": "float64"}
CONFIG = dict(cell="lstm", norm="bn", input_size=2, hidden_size=3, num_layers=2, dtype="float64", forget_bias=1.0,
              head=head_config("ce", 4))


def _source_run(folder, seed=5, step=8, train=TRAIN, best=False, params=True):
    model = build_model(dict(CONFIG), seed=seed)
    rng = np.random.default_rng(seed)
    for v in model.buffers.values():
        v[...] = rng.uniform(0.5, 2.0, v.shape)
    arrays = {"param/" + k: v for k, v in model.params.items()} if params else {}
    arrays.update({"buffer/" + k: v for k, v in model.buffers.items()})
    arrays.update({"optim/m/" + k: np.full_like(v, 9.0) for k, v in model.params.items()})
    meta = {"step": step, "epoch": 2, "model": model.config, "train": dict(train), "task": {"task": "digits"}}
    if best:
        meta["best"] = True
    save_checkpoint(str(folder), arrays, meta)
    return model


def test_the_sources_parameters_and_statistics_are_carried_over_not_its_optimizer(tmp_path):
    src = _source_run(tmp_path / "src")
    source = finetune.read_source(str(tmp_path / "src"))
    model = build_model(dict(CONFIG), seed=11)
    fresh = {k: v.copy() for k, v in model.params.items()}
    finetune.load_into(model, source)
    for group, theirs in ((model.params, src.params), (model.buffers, src.buffers)):
        assert sorted(group) == sorted(theirs)
        for k in theirs:
            np.testing.assert_array_equal(group[k], theirs[k], err_msg=k)
    assert any(not np.array_equal(fresh[k], src.params[k]) for k in fresh)       # it did change something
    assert all(not np.all(v == 9.0) for v in model.params.values())            # not the optimizer's slots
    source.arrays["param/head.b"][...] = -1.0
    assert not np.any(model.params["head.b"] == -1.0)                          # a copy, not the source's array


def test_every_path_to_a_source_and_its_record(tmp_path, monkeypatch):
    _source_run(tmp_path / "src", step=12)
    _source_run(tmp_path / "src" / "best", step=6, best=True)
    monkeypatch.chdir(tmp_path)
    for given, step, best in ((str(tmp_path / "src"), 12, False), ("src", 12, False), ("src" + os.sep, 12, False),
                              ("src/best", 6, True), (str(tmp_path / "src" / "best") + os.sep, 6, True)):
        source = finetune.read_source(given)
        assert source.record == {"path": given, "step": step, "best": best, "cell": "bn-lstm", "task": "digits"}
        said = finetune.describe_record(source.record)
        assert said == f"{given} ({'its best checkpoint, ' if best else ''}update {step})"
    with pytest.raises(CheckpointError, match="^--init-from nowhere: there is nothing there"):
        finetune.read_source("nowhere")


@pytest.mark.parametrize("name, theirs, ours", [("hidden", 3, 4), ("layers", 2, 1), ("cell", "bn-lstm", "ln-lstm"),
                                                ("dtype", "float64", "float32")])
def test_a_shape_setting_that_differs_names_the_sources_value_then_this_runs(tmp_path, name, theirs, ours):
    _source_run(tmp_path / "src")
    source = finetune.read_source(str(tmp_path / "src"))
    finetune.check_settings(source, SimpleNamespace(**TRAIN))
    with pytest.raises(UserError) as e:
        finetune.check_settings(source, SimpleNamespace(**{**TRAIN, name: ours}))
    want = f"--init-from {tmp_path / 'src'}: its model has --{name} {theirs}, this run {ours}; "
    assert str(e.value).startswith(want)


def test_bidirectional_is_said_on_and_off(tmp_path):
    _source_run(tmp_path / "src")
    with pytest.raises(UserError, match="its model has --bidirectional off, this run on; "):
        finetune.check_settings(finetune.read_source(str(tmp_path / "src")),
                                SimpleNamespace(**{**TRAIN, "bidirectional": True}))


@pytest.mark.parametrize("drop", sorted(TRAIN))
def test_a_source_whose_settings_lack_a_shape_setting_is_refused(tmp_path, drop):
    _source_run(tmp_path / "src", train={k: v for k, v in TRAIN.items() if k != drop})
    with pytest.raises(CheckpointError) as e:
        finetune.read_source(str(tmp_path / "src"))
    assert "names no training settings" in str(e.value) and "\n" not in str(e.value)


def test_a_source_without_parameters_is_refused(tmp_path):
    _source_run(tmp_path / "src", params=False)
    with pytest.raises(CheckpointError, match="holds no model parameters"):
        finetune.read_source(str(tmp_path / "src"))
