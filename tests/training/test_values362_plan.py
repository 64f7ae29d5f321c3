"""lnrnn/training/plan.py, nineteenth pass, against TrainConfig's documented defaults and the registry. The
task options: a default run (--allow-pickle off) passes none to a task that does not read them, strokes-npz
gets allow_pickle only when given (None otherwise), and --allow-pickle on another task is refused word for word;
the attention window: 10 Gaussians by default on a task whose lines carry text (TrainConfig's comment), 0 on
one without text and on a reader (--head ctc), and --window 3 on a task without text refused word for word; the
model config: the cell's kind from its registry row ('lstm' and norm 'ln' for --cell ln-lstm, not the name
'ln-lstm'), and a window of one Gaussian with its alphabet, Graves's skip connections and the window layer's
norm from WINDOW_NORM_DEFAULT ('none' under LN cells)."""
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training.plan import model_config, task_options, window_size
from lnrnn.training.runconfig import TrainConfig


def test_task_options_pass_allow_pickle_only_where_it_is_given():
    assert task_options(TrainConfig(task="digits")) == {}
    assert task_options(TrainConfig(task="strokes-npz")) == {"allow_pickle": None}
    assert task_options(TrainConfig(task="strokes-npz", allow_pickle=True)) == {"allow_pickle": True}
    with pytest.raises(UserError) as e:
        task_options(TrainConfig(task="digits", allow_pickle=True))
    assert str(e.value) == "task digits does not take --allow-pickle."


def plan_of(cell="ln-lstm", **kw):
    fields = dict(window=None, window_norm=None, head=None, bidirectional=False, skip=None, task="strokes-hershey",
                  cell=cell, hidden=5, layers=2, dtype="float32", forget_bias=1.0, state_noise=None)
    fields.update(kw)
    return SimpleNamespace(cfg=SimpleNamespace(**fields), cell=cells.get(cell))


HEAD = {"kind": "classifier", "classes": 3}


def text_task(alphabet="abcd"):
    return SimpleNamespace(alphabet=alphabet, input_size=3, head=HEAD, extra={})


def test_the_window_default_follows_the_task_lines_text():
    assert window_size(plan_of(), text_task()) == 10
    assert window_size(plan_of(), text_task(alphabet=None)) == 0
    assert window_size(plan_of(head="ctc"), text_task()) == 0
    assert window_size(plan_of(window=0), text_task()) == 0
    with pytest.raises(UserError) as e:
        window_size(plan_of(window=3, task="strokes"), text_task(alphabet=None))
    assert str(e.value) == ("--window 3: the attention window reads each line's text, and the lines of task "
                            "strokes have none; use --window 0.")


def test_the_model_config_names_the_cell_kind_and_a_one_gaussian_window():
    assert model_config(plan_of(), text_task(alphabet=None)) == dict(
        cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=2, dtype="float32", forget_bias=1.0,
        head=HEAD, state_noise=0.0)
    assert model_config(plan_of(window=1), text_task()) == dict(
        cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=2, dtype="float32", forget_bias=1.0,
        head=HEAD, state_noise=0.0, window=1, alphabet_size=4, skip=True, window_norm="none")
    config = model_config(plan_of(cell="bn-rnn", task="digits"), text_task(alphabet=None))
    assert (config["cell"], config["norm"]) == ("rnn", "bn")
