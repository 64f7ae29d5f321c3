"""Fine-tuning's shape check on the head: a source whose head differs in anything that is not a metric
setting (its kind, per-step scoring, its outputs) is refused naming the task's head, even where the
parameters' shapes would fit; only the tolerance (a metric setting) may differ, and then every parameter is
the source's. describe_change's words for a changed decay, old value first, checked against the change."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.models import build_model, head_config
from lnrnn.training import finetune


def _model(head, seed=1):
    return build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                            forget_bias=1.0, head=head), seed=seed)


def _source(model):
    arrays = {"param/" + k: v.copy() for k, v in model.params.items()}
    arrays.update({"buffer/" + k: v.copy() for k, v in model.buffers.items()})
    return finetune.Source("runs/src", {"model": dict(model.config), "train": {}}, arrays)


@pytest.mark.parametrize("theirs,ours", [
    (head_config("mse", 2, per_step=True), head_config("mse", 2, per_step=False)),
    (head_config("ce", 2), head_config("mse", 2)),
    (head_config("ce", 2, per_step=False), head_config("ce", 2, per_step=True)),
])
def test_a_head_of_another_kind_or_scoring_is_refused_though_shapes_fit(theirs, ours):
    src, model = _model(theirs, seed=1), _model(ours, seed=2)
    assert {k: v.shape for k, v in src.params.items()} == {k: v.shape for k, v in model.params.items()}
    before = {k: v.copy() for k, v in model.params.items()}
    with pytest.raises(UserError, match=r"the task's head \(--task, --head, --objective\)"):
        finetune.load_into(model, _source(src))
    for k, v in before.items():
        np.testing.assert_array_equal(model.params[k], v)


def test_only_the_tolerance_may_differ_and_then_every_parameter_is_the_sources():
    src = _model(head_config("mse", 2, tolerance=0.5), seed=1)
    model = _model(head_config("mse", 2, tolerance=0.01), seed=2)
    finetune.load_into(model, _source(src))
    for k, v in src.params.items():
        np.testing.assert_array_equal(model.params[k], v, err_msg=k)


@pytest.mark.parametrize("old,new", [(0.9, 0.5), (0.5, 0.95), (1.0, 0.8)])
def test_a_decay_change_is_said_from_the_old_value_to_the_new(old, new):
    change = {"step": 40, "epoch": 3, "lr": [0.002, 0.002], "lr_decay": [old, new]}
    text = finetune.describe_change(change)
    assert text.endswith(f", decay {old:g} -> {new:g} per epoch")
    assert text.startswith("learning rate 0.002 from update 40")
