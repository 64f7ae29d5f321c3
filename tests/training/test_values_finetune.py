"""lnrnn/training/finetune.py by hand, without training: the learning-rate schedule over two successive
--resume changes (each counts its decay from its own epoch; a decay-only change keeps the rate in
effect), the change's log line, and --init-from's shape check: a head setting that changes a metric only
(the regression head's tolerance) and an older config without the skip/bidirectional/window keys are
accepted, every shape key that differs is refused naming its option (tests/training/test_finetune.py runs the
trainer on one change and one refusal each)."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.models import build_model
from lnrnn.training import finetune


def test_two_changes_each_count_the_decay_from_their_own_epoch():
    """A run of --lr 0.1 --lr-decay 0.5 resumed in epoch 2 with --lr 0.01, then in epoch 4 with --lr-decay
    0.9 only (its config now says lr 0.01): the second change starts at the rate then in effect,
    0.01 * 0.5**2, and epoch 6 runs at that times 0.9**2."""
    saved = {"lr": 0.1, "lr_decay": 0.5}
    changes = []
    assert finetune.scheduled_lr(0.1, 0.5, 2, changes) == pytest.approx(0.025, rel=1e-15)
    cfg = SimpleNamespace(lr=0.01, lr_decay=0.5)
    first = finetune.schedule_change(saved, cfg, 2, 200, changes)
    assert first == {"step": 200, "epoch": 2, "lr": [pytest.approx(0.025), 0.01], "lr_decay": [0.5, 0.5]}
    changes.append(first)
    assert [finetune.scheduled_lr(cfg.lr, 0.5, e, changes) for e in (2, 3, 4)] == pytest.approx([0.01, 0.005, 0.0025])
    saved = {"lr": cfg.lr, "lr_decay": 0.5}                       # what the run's config now holds
    cfg = SimpleNamespace(lr=0.01, lr_decay=0.9)
    second = finetune.schedule_change(saved, cfg, 4, 410, changes)
    assert second is not None and cfg.lr == pytest.approx(0.0025)
    assert second["lr"] == pytest.approx([0.0025, 0.0025]) and second["lr_decay"] == [0.5, 0.9]
    changes.append(second)
    assert finetune.scheduled_lr(cfg.lr, cfg.lr_decay, 6, changes) == pytest.approx(0.0025 * 0.81, rel=1e-14)
    assert finetune.describe_change(second) == "learning rate 0.0025 from update 410, decay 0.5 -> 0.9 per epoch"
    assert finetune.describe_change(first) == "learning rate 0.025 -> 0.01 from update 200"
    cfg = SimpleNamespace(lr=0.0025, lr_decay=0.9)                # a resume that changes nothing
    assert finetune.schedule_change({"lr": 0.0025, "lr_decay": 0.9}, cfg, 7, 600, changes) is None


def regression(tolerance=0.04, hidden=3, **extra):
    cfg = dict(cell="lstm", norm="ln", input_size=2, hidden_size=hidden, num_layers=1, dtype="float64",
               forget_bias=1.0, head={"kind": "regression", "outputs": 1, "per_step": False, "tolerance": tolerance},
               **extra)
    return build_model(cfg, seed=1)


def source_of(model, config=None):
    arrays = {"param/" + k: v.copy() for k, v in model.params.items()}
    arrays.update({"buffer/" + k: v.copy() for k, v in model.buffers.items()})
    return finetune.Source("runs/src", {"model": config or dict(model.config), "train": {}}, arrays)


def test_a_metric_only_head_setting_and_an_older_configs_missing_keys_are_accepted():
    src = regression(tolerance=0.5)
    old = {k: v for k, v in src.config.items() if k not in ("skip", "bidirectional", "window")}
    for config in (None, old):
        m = regression(tolerance=0.04)
        finetune.load_into(m, source_of(src, config))
        for k, v in src.params.items():
            np.testing.assert_array_equal(m.params[k], v)


def test_every_shape_difference_is_refused_naming_its_option():
    src = source_of(regression())
    with pytest.raises(UserError, match="--hidden 3, this run 4"):
        finetune.load_into(regression(hidden=4), src)
    with pytest.raises(UserError, match="--skip/--no-skip off, this run on"):
        finetune.load_into(build_model({**regression().config, "num_layers": 2, "skip": True}), source_of(
            build_model({**regression().config, "num_layers": 2})))
