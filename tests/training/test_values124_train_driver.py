"""The training driver (lnrnn/training/train.py) on the smallest task, against counts worked out by hand, and
resume refusals (lnrnn/training/setup.py) against their sentence.

digits, 40 training samples in batches of 16: NB = 3 updates an epoch (16, 16 and a partial 8).
- SIGTERM arriving during epoch 1's evaluation: no further update is trained; the run ends with status
  128 + 15, one line naming the place "after epoch 1, update 3", and the checkpoint holds update 3.
- --eval-every 2 over 2 epochs: evaluations inside an epoch at updates 2 and 4 (kind "update", epoch
  fractions 2/3 and 1 + 1/3); update 6 is an epoch's last and is evaluated once, as the epoch's row.
- --max-steps 4 with --eval-every 4: the stop comes right after update 4's evaluation, so the state reached is
  not evaluated again (no "stop" evaluation; two evaluations in all: epoch 1's end and update 4).
- an infinite validation loss at an epoch's end stops the run as diverged, the step-0 checkpoint kept.
- a resume that changes a setting that is not overridable is refused naming the command-line option (dashes)
  with the saved and the given value; an overridable one (--epochs) wins."""
import json
import math
import os
import signal

import pytest

import lnrnn.training.train as train_module
from lnrnn.errors import CheckpointError, TrainingDiverged, TrainingInterrupted
from lnrnn.training.plan import RESUME_OVERRIDABLE
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import resume_config
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train

TINY = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=5, lr=0.05,
            save_every_seconds=0)
N, B = 40, 16
NB = -(-N // B)     # 3


def cfg(out, **kw):
    return TrainConfig(**{**TINY, "out": str(out), **kw})


def quiet_train(c, **kw):
    return train(c, quiet=True, log=lambda m: None, **kw)


def saved_step(out):
    return json.load(open(os.path.join(out, "checkpoint.json")))["step"]


def counting_evaluate(monkeypatch, change=None):
    """Patch the driver's evaluate: count its calls; change(call number, val) may alter the result."""
    calls = []
    real = train_module.evaluate

    def fake(*a, **kw):
        calls.append(len(calls) + 1)
        val = real(*a, **kw)
        return change(len(calls), val) if change else val
    monkeypatch.setattr(train_module, "evaluate", fake)
    return calls


def test_sigterm_during_the_epochs_evaluation_trains_nothing_more(tmp_path, monkeypatch):
    out = tmp_path / "run"

    def term_on_first(call, val):
        if call == 1:
            os.kill(os.getpid(), signal.SIGTERM)
        return val
    counting_evaluate(monkeypatch, term_on_first)
    steps = []
    with pytest.raises(TrainingInterrupted) as e:
        quiet_train(cfg(out, epochs=3), hook=lambda t: steps.append(t.step))
    assert steps == list(range(1, NB + 1))                  # epoch 1's updates only
    assert e.value.exit_code == 128 + signal.SIGTERM
    assert str(e.value) == (f"interrupted (SIGTERM) after epoch 1, update {NB}; the state reached is saved in "
                            f"{out}; continue with `lnrnn train --out {out} --resume`.")
    assert "\n" not in str(e.value)
    assert saved_step(out) == NB
    assert [r["step"] for r in read_jsonl(out / "metrics.jsonl")] == [NB]


def test_eval_every_inside_epochs_only(tmp_path, monkeypatch):
    out = tmp_path / "run"
    calls = counting_evaluate(monkeypatch)
    every, epochs = 2, 2
    quiet_train(cfg(out, epochs=epochs, eval_every=every))
    rows = read_jsonl(out / "metrics.jsonl")
    want = []   # (step, kind, epoch) by hand: mid-epoch at multiples of every, not at an epoch's last update
    for step in range(1, epochs * NB + 1):
        e, b = divmod(step - 1, NB)
        if b + 1 == NB:
            want.append((step, None, e + 1))
        elif step % every == 0:
            want.append((step, "update", round(e + (b + 1) / NB, 6)))
    assert want == [(2, "update", 0.666667), (3, None, 1), (4, "update", 1.333333), (6, None, 2)]
    assert [(r["step"], r.get("eval"), r["epoch"]) for r in rows] == want
    assert len(calls) == len(want)
    for r in rows:
        if r.get("eval") == "update":
            assert "train_loss" not in r and r["samples"] == (r["step"] % NB) * B + (r["step"] // NB) * N


def test_max_steps_right_after_an_evaluation_is_not_evaluated_again(tmp_path, monkeypatch):
    out = tmp_path / "run"
    calls = counting_evaluate(monkeypatch)
    t = quiet_train(cfg(out, epochs=3, max_steps=4, eval_every=4))
    assert t.step == 4 and t.reached == "max_steps"
    assert t.stop_eval is None
    assert len(calls) == 2                                  # epoch 1's end, update 4
    rows = read_jsonl(out / "metrics.jsonl")
    assert [(r["step"], r.get("eval")) for r in rows] == [(NB, None), (4, "update")]
    assert saved_step(out) == 4


def test_max_steps_between_evaluations_evaluates_the_state_reached(tmp_path, monkeypatch):
    out = tmp_path / "run"
    calls = counting_evaluate(monkeypatch)
    t = quiet_train(cfg(out, epochs=3, max_steps=5, eval_every=4))
    assert t.step == 5 and t.stop_eval is not None and t.stop_eval["step"] == 5 and t.stop_eval["eval"] == "stop"
    assert len(calls) == 3                                  # epoch 1's end, update 4, the stop at 5


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_a_non_finite_validation_loss_at_an_epochs_end_diverges(tmp_path, monkeypatch, bad):
    out = tmp_path / "run"
    counting_evaluate(monkeypatch, lambda call, val: {**val, "loss": bad})
    steps = []
    with pytest.raises(TrainingDiverged) as e:
        quiet_train(cfg(out), hook=lambda t: steps.append(t.step))
    assert steps == list(range(1, NB + 1))
    assert str(e.value).startswith(f"the validation loss became {bad} at epoch 1, after update {NB};")
    assert "last good checkpoint (update 0)" in str(e.value)
    assert saved_step(out) == 0


def flag_of(name):
    return "--" + "-".join(name.split("_"))


@pytest.mark.parametrize("name, new", [("batch_size", 8), ("hidden", 6), ("cell", "ln-rnn"), ("seed", 7)])
def test_a_resume_that_changes_a_setting_is_refused_naming_its_option(tmp_path, name, new):
    saved = cfg(tmp_path / "run")
    given = cfg(tmp_path / "run", **{name: new})
    assert name not in RESUME_OVERRIDABLE
    with pytest.raises(CheckpointError) as e:
        resume_config(dict(vars(saved)), given, (name,))
    old = getattr(saved, name)
    assert str(e.value) == (f"the run in {given.out} was trained with {flag_of(name)} {old}, not {new}; drop "
                            f"{flag_of(name)} to resume it, or start a new run with another --out.")


def test_resuming_a_trained_run_with_changes(tmp_path):
    out = tmp_path / "run"
    quiet_train(cfg(out, epochs=1))
    with pytest.raises(CheckpointError) as e:
        quiet_train(cfg(out, epochs=2, batch_size=8), resume=True, explicit=("epochs", "batch_size"))
    assert str(e.value) == (f"the run in {out} was trained with --batch-size 16, not 8; drop --batch-size to "
                            "resume it, or start a new run with another --out.")
    t = quiet_train(cfg(out, epochs=2, batch_size=8), resume=True, explicit=("epochs",))  # --epochs wins
    assert t.cfg.batch_size == B and t.cfg.epochs == 2 and t.step == 2 * NB
