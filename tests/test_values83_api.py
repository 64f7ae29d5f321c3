"""lnrnn's Python API (lnrnn/api.py) on its own terms, without training: a Run's block rows when its settings
hold a number, None, 0 or nothing (config.BLOCK_ROWS but for a number), and its description's cell name (the
settings' own, else norm-cell) and plurals; fit()'s refusal of an option it does not take, whose list is
exactly TrainConfig's fields less the ones fit() fixes itself, with nothing written; the entry points' defaults
(predict's batches of 500, evaluation on 'val', beam 1, 700 steps, seed 0, fit's ln-lstm, safetensors);
sample_run's refusal, in one sentence naming the argument, of a step count or sample count below 1, a negative
or NaN bias and a seed that is not a whole number from 0, before any run is read."""
import dataclasses
import re

import numpy as np
import pytest

import lnrnn
from lnrnn.api import FIT_FIXED, Run
from lnrnn.config import BLOCK_ROWS
from lnrnn.errors import UserError
from lnrnn.training.runconfig import TrainConfig


class FakeModel:
    def __init__(self, **config):
        self.config = config


@pytest.mark.parametrize("train, want", [({"block_rows": 7}, 7), ({"block_rows": None}, BLOCK_ROWS),
                                         ({"block_rows": 0}, BLOCK_ROWS), ({}, BLOCK_ROWS), (None, BLOCK_ROWS)])
def test_block_rows_falls_back_to_the_config_for_anything_but_a_count(train, want):
    meta = {} if train is None else {"train": train}
    assert Run("runs/x", meta, FakeModel()).block_rows == want


def test_describe_names_the_cell_as_the_settings_do_else_norm_then_cell():
    model = FakeModel(norm="ln", cell="lstm", hidden_size=8, num_layers=2)
    run = Run("runs/x", {"train": {}, "epoch": 1, "step": 30}, model)
    assert run.describe() == "ln-lstm (hidden 8, 2 layers) after 1 finished epoch, 30 updates"
    run = Run("runs/x", {"train": {"cell": "bn-gru"}, "epoch": 3, "step": 5}, model)
    assert run.describe().startswith("bn-gru (hidden 8, 2 layers) after 3 finished epochs")


def test_fit_refuses_an_unknown_option_listing_exactly_the_ones_it_takes(tmp_path):
    out = tmp_path / "run"
    x, y = np.zeros((4, 3, 1), np.float32), np.array([0, 1, 0, 1])
    takes = sorted({f.name for f in dataclasses.fields(TrainConfig)} - set(FIT_FIXED))
    for bad in ("hiden", "data_dir"):
        with pytest.raises(UserError) as e:
            lnrnn.fit(x, y, out=str(out), **{bad: 1})
        msg = str(e.value)
        assert f"no training option {bad!r}" in msg
        listed = re.search(r"the options are: (.*)\.$", msg).group(1).split(", ")
        assert listed == takes
        assert not set(FIT_FIXED) & set(listed)
    assert not out.exists()


def test_the_documented_defaults():
    import inspect

    def defaults(fn):
        return {k: v.default for k, v in inspect.signature(fn).parameters.items()
                if v.default is not inspect.Parameter.empty}

    assert defaults(lnrnn.predict) == {"lengths": None, "batch_size": 500, "progress": None}
    assert defaults(lnrnn.evaluate_run) == {"which": "val", "data_dir": None, "split": None, "batch_size": None}
    assert defaults(lnrnn.read)["beam"] == 1
    s = defaults(lnrnn.sample_run)
    assert (s["steps"], s["count"], s["bias"], s["seed"]) == (700, 1, 0.0, 0)
    assert defaults(lnrnn.fit)["cell"] == "ln-lstm"
    assert defaults(lnrnn.export_run) == {"fmt": "safetensors"}


@pytest.mark.parametrize("kw, word", [({"steps": 0}, "steps"), ({"count": 0}, "count"), ({"bias": -0.5}, "bias"),
                                      ({"bias": float("nan")}, "bias"), ({"seed": -1}, "seed"),
                                      ({"seed": 1.5}, "seed")])
def test_sample_run_refuses_its_own_bad_arguments_before_reading_the_run(tmp_path, kw, word):
    with pytest.raises(UserError, match=rf"^{word} must be"):
        lnrnn.sample_run(str(tmp_path / "no-such-run"), **kw)
