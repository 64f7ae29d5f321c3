"""A run's checkpoint.json damaged or edited by hand in a field a resume reads (its training settings, the update
and epoch counters, the optimizer's step and hyper-parameters, the shuffling generator's state, the epoch and log
sums, the times, the metrics, the best and budget records): lnrnn train --resume refuses it in one sentence naming
the field and its value, before anything runs or is written, where it ended in a TypeError, ValueError,
OverflowError or ZeroDivisionError deep inside the run (or in a hyper-parameter that made Adam divide by zero). What
a whole description may hold is still taken: optional records absent (older versions wrote none), None where a
value is not set yet, lnrnn 0.1's list of epoch sums. The description's own arrays listing, model and arrays file
name in another form are refused by every command that loads a checkpoint (lnrnn eval here), and so is a model
description of sizes no model has (infinite, or beyond any memory)."""
import copy
import json
import math
import shutil

import pytest

from lnrnn.training.runconfig import TrainConfig, mistyped
from lnrnn.training.setup import resume_problem

from test_cli import assert_ok, invoke
from test_values221_sample_cli import exact_error

INF = math.inf


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A two-update digits run -> (its folder, its description)."""
    out = tmp_path_factory.mktemp("damaged") / "run"
    assert_ok(invoke("train", "--task", "digits", "--split", "40/8", "--hidden", 3, "--batch-size", 8,
                     "--max-steps", 2, "--out", out))
    return out, json.loads((out / "checkpoint.json").read_text())


def edited(meta, path, value):
    meta = copy.deepcopy(meta)
    where, *rest = path.split(".")[::-1]
    d = meta
    for key in reversed(rest):
        d = d[key]
    if value is KeyError:
        del d[where]
    else:
        d[where] = value
    return meta


def folder_state(out):
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


REFUSED = [
    ("train.hidden", "x", "the training setting hidden 'x' (not an int)"),
    ("train.layers", INF, "the training setting layers inf (not an int)"),
    ("train.skip", 1, "the training setting skip 1 (not a bool)"),
    ("train.lr", [], "the training setting lr [] (not a float)"),
    ("train.seed", True, "the training setting seed True (not an int)"),
    ("train.cell", None, "the training setting cell None (not a str)"),
    ("step", "x", "step 'x' (not a finite number)"),
    ("epoch", -1, "epoch -1 (not an integer of 0 or more)"),
    ("batch_in_epoch", 1.5, "batch_in_epoch 1.5 (not an integer of 0 or more)"),
    ("optimizer.step", None, "optimizer.step None (not a finite number)"),
    ("optimizer.hyper.beta1", -1, "optimizer.hyper beta1 -1 (not in [0, 1))"),
    ("optimizer.hyper.beta2", 1, "optimizer.hyper beta2 1 (not in [0, 1))"),
    ("optimizer.hyper.eps", 0, "optimizer.hyper eps 0 (not positive)"),
    ("optimizer.hyper.lr", "x", "optimizer.hyper lr 'x' (not a finite number)"),
    ("optimizer.hyper", [], "optimizer.hyper [] (not a table)"),
    ("optimizer", None, "optimizer None (not a table with step)"),
    ("epoch_sums.count", None, "epoch_sums.count None (not a finite number)"),
    ("epoch_sums.sums", {"loss": "x"}, "epoch_sums.sums {'loss': 'x'} (not a table of finite numbers)"),
    ("epoch_sums", [1.0, 2.0, "x", 4], "epoch_sums [1.0, 2.0, 'x', 4] (not four finite numbers)"),
    ("train_time_s", INF, "train_time_s inf (not a finite number)"),
    ("compile_time_s", -1, "compile_time_s -1 (negative)"),
    ("metrics", "x", "metrics 'x' (not a list of rows)"),
    ("log_window.count", None, "log_window.count None (not a finite number)"),
    ("blowup.streak", None, "blowup.streak None (not a finite number)"),
    ("best_state.value", "x", "best_state.value 'x' (not a finite number)"),
    ("budget.time_budget", "x", "budget.time_budget 'x' (not a finite number)"),
    ("budget", 3, "budget 3 (not a table with used_s)"),
    ("lr_changes", [1], "lr_changes [1] (not a list of rows)"),
]


@pytest.mark.parametrize("path,value,said", REFUSED, ids=[f"{p}={v!r}" for p, v, _ in REFUSED])
def test_resume_refuses_the_damaged_field_in_one_sentence_writing_nothing(run, path, value, said):
    out, meta = run
    whole = (out / "checkpoint.json").read_text()
    try:
        (out / "checkpoint.json").write_text(json.dumps(edited(meta, path, value)))
        before = folder_state(out)
        r = invoke("train", "--out", out, "--resume", "--max-steps", 3)
        exact_error(r, f"the checkpoint in {out} holds {said}; its checkpoint.json is damaged: resume a whole "
                       "copy of the run, or start a new one.")
        assert folder_state(out) == before
    finally:
        (out / "checkpoint.json").write_text(whole)


def test_the_rngs_state_is_held_to_what_numpy_takes(run):
    out, meta = run
    for value in (-1, "x", None, 2**128):
        got = resume_problem(edited(meta, "rng.state.inc", value))
        assert got.startswith("rng (not a PCG64 state numpy takes: "), got
    assert resume_problem(edited(meta, "rng.bit_generator", "MT19937")).startswith("rng (not a PCG64 state")


@pytest.mark.parametrize("path,value", [
    ("log_window", KeyError), ("blowup", KeyError), ("budget", KeyError), ("best_state", KeyError),
    ("ranks", KeyError), ("compile_time_s", KeyError), ("lr_changes", []), ("blowup.initial_loss", None),
    ("best_state.value", None), ("best_state.step", None), ("budget.time_budget", None),
    ("budget.max_steps", None), ("log_window.count", KeyError), ("epoch_sums", [7.5, 12.0, 16, 20]),
    ("compile_time_s", 0.0), ("train_time_s", 0), ("epoch", 0), ("optimizer.hyper.beta1", 0.0),
])
def test_what_a_whole_description_may_hold_is_taken(run, path, value):
    assert resume_problem(edited(run[1], path, value)) is None


def test_the_run_itself_resumes(run, tmp_path):
    """On a copy: the other tests edit the fixture's run in its place."""
    out, meta = run
    assert resume_problem(meta) is None and mistyped(TrainConfig(**meta["train"])) is None
    copy_ = shutil.copytree(out, tmp_path / "run")
    assert_ok(invoke("train", "--out", copy_, "--resume", "--max-steps", 3))
    assert json.loads((copy_ / "checkpoint.json").read_text())["step"] == 3


@pytest.mark.parametrize("field,value", [("arrays", []), ("arrays", {"param/x": "<f4"}), ("model", "lstm"),
                                         ("arrays_file", None), ("arrays_file", 3)])
def test_a_description_whose_own_fields_are_in_another_form_is_refused_by_eval(run, field, value):
    out, meta = run
    whole = (out / "checkpoint.json").read_text()
    try:
        (out / "checkpoint.json").write_text(json.dumps(edited(meta, field, value)))
        desc = out / "checkpoint.json"
        exact_error(invoke("eval", "--checkpoint", out),
                    f"checkpoint description {desc} holds its {field} field in a form lnrnn does not write; it is "
                    "corrupt.")
    finally:
        (out / "checkpoint.json").write_text(whole)


@pytest.mark.parametrize("field,value,said", [
    ("num_layers", INF, "cannot convert float infinity to integer"),
    ("input_size", INF, "cannot convert float infinity to integer"),
    ("hidden_size", 10**8, "its description says hidden_size 100000000, but rnn.l0.Wh has shape ("),
    ("head.outputs", 10**12, "Unable to allocate "),      # sizes the saved weights do not check before the build
])
def test_a_model_description_of_impossible_sizes_is_refused_by_eval(run, field, value, said):
    """Sizes no model has (infinite, or beyond any memory) are a description lnrnn cannot rebuild, in one sentence."""
    out, meta = run
    whole = (out / "checkpoint.json").read_text()
    try:
        (out / "checkpoint.json").write_text(json.dumps(edited(meta, f"model.{field}", value)))
        r = invoke("eval", "--checkpoint", out)
        assert r.exit_code == 2 and isinstance(r.exception, SystemExit), repr(r.exception)
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith(f"Error: checkpoint {out} does not describe a model lnrnn "
                                                       f"can rebuild ({said}"), lines
    finally:
        (out / "checkpoint.json").write_text(whole)
