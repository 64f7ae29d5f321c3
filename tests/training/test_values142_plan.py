"""lnrnn/training/plan.py against its definitions, on lines earlier value tests leave alone.

resolve_defaults: a field given keeps its value however falsy (--no-skip, --clip 0, --seed 0, --keep 0) and
only a field left None takes the task's TASK_DEFAULTS row. validate: --best-metric takes each of loss, acc,
cer and none and refuses anything else naming the four; --clip-gates is refused for every cell without gates
(rnn, ln-rnn, bn-rnn: the registry's cell kind is not lstm) and kept for the three LSTM cells. A resume may
change where and how a run runs (--data-dir, --device, --eval-batch-size, --out) and the options --resume's
help lists. model_config of a synthesis network (a task whose lines carry text; a fake task here) over each
LSTM cell: the window of WINDOW_DEFAULT Gaussians over exactly len(alphabet) characters, the window layer's norm
written only where it differs from the cell's (LN's window layer runs without a norm, BN's and plain LSTM's
keep theirs), an explicit --window-norm kept. model_for: the mixture density head clips at --clip-output,
whatever --clip is."""
import dataclasses
from types import SimpleNamespace

import pytest

from lnrnn.config import WINDOW_DEFAULT, task_defaults
from lnrnn.data.tasks import load_task
from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training.plan import model_config, model_for, resolve, resolve_defaults
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import resume_config

STROKES = dict(task="strokes-synthetic", split="8/4")


def test_given_falsy_values_are_kept_and_only_none_takes_the_tasks_default():
    asked = TrainConfig(**STROKES, skip=False, clip=0.0, seed=0, keep=0, clip_gates=0.0, hidden=None, layers=None)
    got = resolve_defaults(asked)
    row = task_defaults("strokes-synthetic")
    for f in dataclasses.fields(TrainConfig):
        given = getattr(asked, f.name)
        want = row[f.name] if given is None and f.name in row else given
        assert getattr(got, f.name) == want, f.name
    assert got.skip is False and got.clip == 0.0                       # the stroke row's skip=True loses
    assert (got.hidden, got.layers) == (row["hidden"], row["layers"])  # left None: the task's
    plain = resolve_defaults(TrainConfig(task="digits", skip=True, hidden=5))
    assert (plain.skip, plain.hidden, plain.layers) == (True, 5, task_defaults("digits")["layers"])


@pytest.mark.parametrize("metric", ["loss", "acc", "cer", "none"])
def test_each_best_metric_is_accepted(metric):
    assert resolve(TrainConfig(**STROKES, best_metric=metric)).cfg.best_metric == metric


def test_another_best_metric_is_refused_naming_the_four():
    with pytest.raises(UserError) as e:
        resolve(TrainConfig(**STROKES, best_metric="wer"))
    assert str(e.value) == "--best-metric must be one of loss, acc, cer, none, not 'wer'."


@pytest.mark.parametrize("cell", ["rnn", "ln-rnn", "bn-rnn"])
def test_clip_gates_is_refused_for_every_cell_without_gates(cell):
    assert cells.get(cell).cell != "lstm"
    with pytest.raises(UserError) as e:
        resolve(TrainConfig(**STROKES, cell=cell, clip_gates=1.0))
    assert str(e.value) == f"--clip-gates clips the LSTM gates' derivatives; --cell {cell} has no gates."
    assert resolve(TrainConfig(**STROKES, cell=cell)).cfg.clip_gates == 0.0   # off: nothing to refuse


@pytest.mark.parametrize("cell", ["lstm", "ln-lstm", "bn-lstm"])
def test_clip_gates_is_kept_for_the_lstm_cells(cell):
    assert resolve(TrainConfig(**STROKES, cell=cell, clip_gates=2.5)).cfg.clip_gates == 2.5


SAVED = dataclasses.asdict(TrainConfig(cell="ln-lstm", task="mnist", hidden=6, batch_size=4, data_dir="data/a",
                                       out="runs/r"))


# where and how the run runs, and the options --resume's help says may be changed
@pytest.mark.parametrize("name, value", [("data_dir", "data/moved"), ("device", "cuda"), ("eval_batch_size", 7),
                                         ("out", "runs/moved"), ("epochs", 30), ("save_every", 5),
                                         ("save_every_seconds", 0.0), ("keep", 3), ("patience", 2),
                                         ("eval_every", 4), ("lr", 1e-4), ("lr_decay", 1.0)])
def test_a_resume_may_change_where_it_runs_and_its_schedule(name, value):
    given = TrainConfig(**{**SAVED, name: value})
    got = dataclasses.asdict(resume_config(SAVED, given, [name]))
    assert got == {**SAVED, name: value, "max_steps": None, "time_budget": None}


HEAD = {"kind": "mdn", "components": 2, "per_step": True, "scale": [1.0, 1.0]}


def synthesis_config(cell, alphabet="abcdefg", **kw):
    cfg = resolve_defaults(TrainConfig(**STROKES, cell=cell, hidden=4, layers=2, **kw))
    plan = SimpleNamespace(cfg=cfg, cell=cells.get(cell))
    task = SimpleNamespace(input_size=3, alphabet=alphabet, head=dict(HEAD), extra={})
    return model_config(plan, task)


@pytest.mark.parametrize("cell, window_norm", [("lstm", None), ("ln-lstm", "none"), ("bn-lstm", None)])
def test_a_synthesis_networks_window_over_its_alphabet_and_its_layers_norm(cell, window_norm):
    got = synthesis_config(cell)
    assert got["window"] == WINDOW_DEFAULT == 10                       # Graves 2013, sec. 5.1: K = 10
    assert got["alphabet_size"] == 7                                   # one one-hot column per character
    assert got["skip"] is True
    assert got.get("window_norm") == window_norm                       # absent: the cell's own norm
    assert synthesis_config(cell, alphabet="ab ")["alphabet_size"] == 3


@pytest.mark.parametrize("cell, asked", [("ln-lstm", "bn"), ("bn-lstm", "none"), ("lstm", "ln")])
def test_an_explicit_window_norm_is_kept_and_the_cells_own_is_not_written(cell, asked):
    assert synthesis_config(cell, window_norm=asked)["window_norm"] == asked
    own = cells.get(cell).norm
    assert "window_norm" not in synthesis_config(cell, window_norm=own)


@pytest.fixture(scope="module")
def stroke_task():
    return load_task(resolve(TrainConfig(**STROKES, hidden=3, layers=1)).task_spec)


@pytest.mark.parametrize("clip_output, clip", [(5.0, 1.0), (0.25, 3.0)])
def test_the_mixture_density_head_clips_at_clip_output_not_clip(stroke_task, clip_output, clip):
    plan = resolve(TrainConfig(**STROKES, hidden=3, layers=1, clip_output=clip_output, clip=clip))
    model = model_for(plan, stroke_task)
    assert model.head.kind == "mdn"
    assert model.head.clip_output == clip_output
