"""lnrnn/training/plan.py's resolution by value, through its public functions on a stroke task that is
never built (tasks written here hold only what the plan reads): the task's defaults fill what was not
given and nothing else, the state-noise default depends on the cell's norm and the task's constant
prefix while a given 0 stays 0, a reader gets no attention window by default, the model config carries
--forget-bias, and --clip 0 (no clipping) is accepted."""
import dataclasses
from types import SimpleNamespace

import pytest

from lnrnn.config import BN_STATE_NOISE, WINDOW_DEFAULT, task_defaults
from lnrnn.errors import UserError
from lnrnn.training.plan import model_config, resolve, state_noise, window_size
from lnrnn.training.runconfig import TrainConfig


def plan_of(**kw):
    return resolve(TrainConfig(task="strokes-synthetic", split="8/4", **kw))


def task(constant_prefix=True, alphabet=None):
    return SimpleNamespace(input_size=3, head={"kind": "mdn", "components": 2}, alphabet=alphabet,
                           extra={"constant_prefix": constant_prefix})


def test_defaults_fill_only_what_was_not_given():
    d = task_defaults("strokes-synthetic")
    plan = plan_of(hidden=7, skip=False)
    assert (plan.cfg.hidden, plan.cfg.skip) == (7, False)
    assert (plan.cfg.layers, plan.cfg.eval_batch_size) == (d["layers"], d["eval_batch_size"])
    assert plan_of().cfg.hidden == d["hidden"]


@pytest.mark.parametrize("cell, prefix, given, want", [
    ("bn-lstm", True, None, BN_STATE_NOISE),
    ("bn-lstm", False, None, 0.0),
    ("ln-lstm", True, None, 0.0),
    ("bn-rnn", True, 0.0, 0.0),          # a given 0 turns the default off
    ("ln-lstm", False, 0.25, 0.25),
])
def test_state_noise_default_and_given(cell, prefix, given, want):
    plan = plan_of(cell=cell, state_noise=given)
    assert state_noise(plan, task(constant_prefix=prefix)) == want


def test_a_reader_gets_no_window_by_default():
    plan = plan_of(cell="lstm")
    text = task(alphabet="?ab")
    assert window_size(plan, text) == WINDOW_DEFAULT                     # a writer of text: the window
    reader = dataclasses.replace(plan, cfg=dataclasses.replace(plan.cfg, head="ctc"))
    assert window_size(reader, text) == 0
    assert window_size(plan, task()) == 0                               # no text: no window
    with pytest.raises(UserError, match="have none"):
        window_size(dataclasses.replace(plan, cfg=dataclasses.replace(plan.cfg, window=3)), task())


def test_model_config_carries_the_runs_settings():
    plan = plan_of(cell="ln-lstm", hidden=5, layers=2, forget_bias=2.5, dtype="float64", window=0)
    cfg = model_config(plan, task(constant_prefix=False))
    assert (cfg["cell"], cfg["norm"], cfg["hidden_size"], cfg["num_layers"]) == ("lstm", "ln", 5, 2)
    assert cfg["forget_bias"] == 2.5 and cfg["dtype"] == "float64" and cfg["input_size"] == 3
    assert cfg["head"] == {"kind": "mdn", "components": 2} and cfg["state_noise"] == 0.0


def test_clip_zero_is_no_clipping_and_negative_is_refused():
    assert plan_of(clip=0.0).cfg.clip == 0.0
    with pytest.raises(UserError, match="--clip"):
        plan_of(clip=-1.0)


@pytest.mark.parametrize("cell, given, want", [
    ("ln-lstm", None, "none"),     # the default: LN above a window layer without a norm
    ("ln-lstm", "ln", None),       # LN on every layer: nothing to record
    ("ln-lstm", "bn", "bn"),
    ("lstm", None, None),
    ("lstm", "ln", "ln"),
    ("bn-lstm", None, None),
    ("bn-lstm", "none", "none"),
])
def test_the_window_layers_norm_by_cell_and_option(cell, given, want):
    cfg = model_config(plan_of(cell=cell, window_norm=given), task(constant_prefix=False, alphabet="?ab"))
    assert cfg["window"] == WINDOW_DEFAULT
    assert cfg.get("window_norm") == want


def test_a_window_norm_without_a_window_is_refused():
    for plan, t in ((plan_of(cell="ln-lstm", window_norm="none"), task()),
                    (plan_of(cell="ln-lstm", window_norm="none", window=0), task(alphabet="?ab"))):
        with pytest.raises(UserError, match="no attention window"):
            model_config(plan, t)
    assert "window_norm" not in model_config(plan_of(cell="ln-lstm"), task(constant_prefix=False))
