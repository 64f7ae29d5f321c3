"""Refusals and records of the run's setup, its update and its prewarm hook, each against the sentence or value
its definition gives, written out here: a resume given another shape setting names the run's saved value, then the
one given; the run's description names Graves's derivative clips only when on (0 is off); --init-from refuses a
dtype or a model setting that differs, naming the source's value, then this run's; NaN in a batch is the task's
data's fault (batch and epoch counted from 1); the first update of a process, and only it, is prewarmed; an inner
armed() leaves an outer one armed; a function whose cache cannot be told counts as cached (no child)."""
import dataclasses
from contextlib import contextmanager
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, DataError, UserError
from lnrnn.model import layers
from lnrnn.training import finetune, prewarm, setup, update
from lnrnn.training.runconfig import TrainConfig

SHAPE = {"cell": "bn-lstm", "hidden": 3, "layers": 2, "bidirectional": False, "dtype": "float64"}


def test_a_resume_with_another_hidden_names_the_saved_value_first():
    saved = dataclasses.asdict(TrainConfig(hidden=3, out="runs/a"))
    given = TrainConfig(hidden=5, out="runs/a")
    with pytest.raises(CheckpointError) as e:
        setup.resume_config(saved, given, {"hidden"})
    assert str(e.value) == ("the run in runs/a was trained with --hidden 3, not 5; drop --hidden to resume it, "
                            "or start a new run with another --out.")


def test_the_description_names_only_the_clips_that_are_on():
    cfg = TrainConfig(cell="ln-lstm", hidden=4, layers=2, dtype="float64", optimizer="sgd", lr=0.5, lr_decay=1.0,
                      clip=2.0, clip_output=0.0, clip_gates=2.5, batch_size=8, epochs=1, seed=3, out="runs/b")
    model = SimpleNamespace(config={}, num_params=lambda: 12345)
    run = SimpleNamespace(cfg=cfg, model=model, task=SimpleNamespace(description="the digits"), init_record=None)
    assert setup.describe(run) == ("Training ln-lstm (hidden 4, 2 layers, 12,345 parameters, float64) on the digits; "
                                   "sgd lr 0.5, clip 2 clip-gates 2.5, batch 8, 1 epoch, seed 3; "
                                   "writing to runs/b.")


def test_init_from_refuses_another_dtype_naming_the_sources_first():
    source = SimpleNamespace(given="runs/src", meta={"train": dict(SHAPE)})
    finetune.check_settings(source, SimpleNamespace(**SHAPE))  # the same shape: nothing to say
    with pytest.raises(UserError) as e:
        finetune.check_settings(source, SimpleNamespace(**{**SHAPE, "dtype": "float32"}))
    assert str(e.value) == ("--init-from runs/src: its model has --dtype float64, this run float32; the shapes must "
                            "match: give --dtype float64, or start without --init-from.")


def test_load_into_refuses_another_hidden_naming_the_sources_first():
    head = {"kind": "classify", "objective": "ce", "num_classes": 4}
    theirs = dict(cell="lstm", norm="bn", input_size=2, hidden_size=3, num_layers=2, dtype="float64", head=head)
    ours = {**theirs, "hidden_size": 6}
    loaded = []
    model = SimpleNamespace(config=ours, load_arrays=loaded.append)
    source = SimpleNamespace(given="runs/src", meta={"model": theirs}, arrays={})
    with pytest.raises(UserError) as e:
        finetune.load_into(model, source)
    assert str(e.value) == ("--init-from runs/src: its model has --hidden 3, this run 6; the shapes must match: "
                            "give --hidden 3, or start without --init-from.")
    assert loaded == []


def test_nan_in_the_batch_is_the_tasks_datas_fault():
    trainer = SimpleNamespace(cfg=SimpleNamespace(task="digits", out="runs/c"), batch_in_epoch=2, epoch=0)
    x = np.zeros((2, 3, 1))
    x[1, 2, 0] = np.nan
    with pytest.raises(DataError) as e:
        update.nonfinite(trainer, ValueError("x holds NaN or infinite values"), x)
    assert str(e.value) == ("the training data of digits hold NaN or infinite values (batch 3 of epoch 1); "
                            "fix the data.")


def test_only_the_first_update_of_a_process_is_prewarmed(monkeypatch):
    seen = []

    @contextmanager
    def armed(on=True):
        seen.append(on)
        yield

    monkeypatch.setattr(update.prewarm, "armed", armed)
    model = SimpleNamespace(loss_and_grad=lambda x, y, lengths, tbptt, noise_key, text: {"loss": 0.5})
    t = SimpleNamespace(cfg=SimpleNamespace(reproducible=False, tbptt=None), group=SimpleNamespace(size=1),
                        first_update_s=None, step=0, model=model)
    host = update.HostUpdate(t)
    assert host.loss_and_grad(np.zeros((1, 1, 1)), None, None) == {"loss": 0.5}
    t.first_update_s = 1.5
    host.loss_and_grad(np.zeros((1, 1, 1)), None, None)
    assert seen == [True, False]


def test_an_inner_armed_leaves_the_outer_one_armed(monkeypatch):
    monkeypatch.setattr(prewarm, "enabled", lambda: True)
    hooks = dict(layers.HOOKS)
    with prewarm.armed():
        with prewarm.armed():
            assert prewarm._state["armed"] is True
        assert prewarm._state["armed"] is True
        assert layers.HOOKS["training_forward"] is prewarm.layer_forward
    assert prewarm._state["armed"] is False
    assert layers.HOOKS == hooks


def test_a_cache_that_cannot_be_told_counts_as_cached(tmp_path):
    def fn():
        return 0

    assert prewarm._in_cache(fn) is True
    index = tmp_path / "f.nbi"
    fake = SimpleNamespace(_cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(index))))
    assert prewarm._in_cache(fake) is False
    index.write_bytes(b"")
    assert prewarm._in_cache(fake) is True
