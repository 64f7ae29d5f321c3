"""lnrnn/training/plan.py on lines earlier value tests leave alone: window_size refusing only --no-skip (a skip of
None, the task's default left out, is the synthesis network's own skip-connected stack), model_config writing
window_norm only where it differs from the cell's own norm (config.WINDOW_NORM_DEFAULT looked up here), validate
letting --head ctc through with --window 0 (no window) and refusing a window of Gaussians, and the refusal of an
unknown --init naming the value given and the choices of cells.RECURRENT_INITS in their order."""
import dataclasses
from types import SimpleNamespace

import pytest

from lnrnn.config import WINDOW_DEFAULT, WINDOW_NORM_DEFAULT
from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training.plan import model_config, resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig

MDN = {"kind": "mdn", "components": 2}


def _plan(cell, skip):
    cfg = dataclasses.replace(resolve_defaults(TrainConfig(task="digits", hidden=4, layers=2, cell=cell)), skip=skip)
    return SimpleNamespace(cfg=cfg, cell=cells.get(cell))


def _text_task():
    return SimpleNamespace(input_size=3, alphabet="abcde", head=dict(MDN), extra={})


@pytest.mark.parametrize("cell", ["lstm", "ln-lstm"])
def test_window_with_default_skip_and_window_norm_by_hand(cell):
    plan = _plan(cell, None)
    config = model_config(plan, _text_task())
    assert (config["window"], config["alphabet_size"], config["skip"]) == (WINDOW_DEFAULT, 5, True)
    norm = cells.get(cell).norm
    want = WINDOW_NORM_DEFAULT[norm] if norm in WINDOW_NORM_DEFAULT else norm
    if want == norm:
        assert "window_norm" not in config
    else:
        assert config["window_norm"] == want
    assert cell != "ln-lstm" or config["window_norm"] == "none"


def test_window_refuses_no_skip_word_for_word():
    with pytest.raises(UserError) as e:
        model_config(_plan("lstm", False), _text_task())
    assert str(e.value) == (f"--window {WINDOW_DEFAULT}: the synthesis network is Graves's skip-connected stack; "
                            "drop --no-skip or use --window 0.")


def test_ctc_head_takes_window_zero_and_refuses_a_window():
    cfg = resolve_defaults(TrainConfig(task="digits", head="ctc", window=0))
    assert validate(cfg) is cells.get(cfg.cell)
    with pytest.raises(UserError) as e:
        validate(dataclasses.replace(cfg, window=3))
    assert str(e.value).startswith("--window 3: the attention window writes a given text and --head ctc reads it")


@pytest.mark.parametrize("name", ["glorot", "Identity"])
def test_unknown_init_refused_naming_it(name):
    with pytest.raises(UserError) as e:
        validate(resolve_defaults(TrainConfig(task="digits", init=name)))
    choices = ""
    for i, k in enumerate(cells.RECURRENT_INITS):
        choices += (", " if i else "") + k
    assert str(e.value) == f"--init must be one of {choices}, not '{name}'."
    assert "orthogonal" in choices.split(", ")
