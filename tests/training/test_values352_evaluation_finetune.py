"""Evaluation and fine-tuning (lnrnn/training/evaluation.py, lnrnn/training/finetune.py) against values written out
by hand: a group of one rank evaluated in this process, batches of 3, 3 and 1 rows weighted by their counts; the
metric line short by default ('loss 0.4123 acc 87.20%') and long only when asked, with the loss's own label and
unit; --init-from's refusals word for word with nothing loaded (a source with skip connections named by the option
--skip/--no-skip, a synthesis network against a plain stack named by --window with 0 for the stack, another text
alphabet named as the task's, a checkpoint description of another format quoted after '--init-from PATH:'); a
synthesis network of the same shape replaces every parameter, the names listed by hand from its layer, window
and head; a pretrained run keeps the name it was given (pretrained:hershey, not the folder it resolves to) in its
record, its description and its refusals, the update read from the shipped checkpoint.json."""
import json
import os
import types

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.models import build_model
from lnrnn.training.evaluation import evaluate, format_metrics
from lnrnn.training.finetune import Source, describe_record, load_into, read_source

from test_values185_evaluation import Model, Task
from test_values248_evaluation_finetune import _checkpoint_arrays


# ---- evaluate ----
def test_a_group_of_one_rank_is_evaluated_in_this_process():
    task = Task()                                            # 7 validation rows: batches of 3, 3 and 1
    one_rank = types.SimpleNamespace(size=1, rank=0)         # nothing to reduce over: no allreduce at all
    got = evaluate(Model(), task, "val", batch_size=3, group=one_rank)
    x, y = task.x["val"], task.y["val"]
    err = (x.sum(axis=1) - y) ** 2
    by_hand = (err[0] + err[1] + err[2] + err[3] + err[4] + err[5] + err[6]) / 7
    assert got["rows"] == 7
    assert got["loss"] == pytest.approx(by_hand, rel=1e-12)
    assert task.seen == [[0, 1, 2], [3, 4, 5], [6]]


def test_the_metric_line_is_short_by_default_and_long_when_asked():
    means = {"loss": 0.41234, "acc": 0.872}
    assert format_metrics(means) == "loss 0.4123 acc 87.20%"
    assert format_metrics(means, long=True) == "loss 0.4123, accuracy 87.20%"
    assert format_metrics(means, long=True, loss_label="cross-entropy loss (nats)") == \
        "cross-entropy loss 0.4123 nats, accuracy 87.20%"
    assert format_metrics({"loss": 2.0, "cer": 0.125}, loss_label="CTC loss (nats per line)") == \
        "loss 2.0000 cer 12.50%"                                  # the label: long lines only


# ---- --init-from: models of another shape ----
HEAD = {"kind": "regression", "outputs": 3, "per_step": True, "tolerance": 0.04}
PLAIN = {"cell": "lstm", "norm": "ln", "input_size": 3, "hidden_size": 4, "num_layers": 2, "dtype": "float64",
         "forget_bias": 1.0, "head": HEAD}
SYNTH = {**PLAIN, "num_layers": 1, "window": 2, "alphabet_size": 5}


def _refused(ours, theirs, given):
    before = {k: v.copy() for k, v in ours.params.items()}
    with pytest.raises(UserError) as e:
        load_into(ours, Source(given, {"model": theirs.config}, _checkpoint_arrays(theirs)))
    assert not isinstance(e.value, CheckpointError)
    for k, v in before.items():                              # nothing loaded
        np.testing.assert_array_equal(ours.params[k], v, err_msg=k)
    return str(e.value)


def test_skip_connections_are_refused_naming_both_forms_of_the_option():
    theirs, ours = build_model({**PLAIN, "skip": True}, seed=1), build_model(PLAIN, seed=2)
    assert _refused(ours, theirs, "runs/s") == (
        "--init-from runs/s: its model has --skip/--no-skip on, this run off; the shapes must match: "
        "give --skip/--no-skip on, or start without --init-from.")


def test_a_synthesis_network_against_a_plain_stack_names_the_window_and_zero():
    theirs = build_model(SYNTH, seed=1)                      # a window stack always has skip connections
    ours = build_model({**PLAIN, "num_layers": 1, "skip": True}, seed=2)
    assert _refused(ours, theirs, "runs/w") == (
        "--init-from runs/w: its model has --window 2, this run 0; the shapes must match: "
        "give --window 2, or start without --init-from.")


def test_another_text_alphabet_is_refused_as_the_tasks():
    theirs, ours = build_model(SYNTH, seed=1), build_model({**SYNTH, "alphabet_size": 6}, seed=2)
    assert _refused(ours, theirs, "runs/w") == (
        "--init-from runs/w: its model has the task's text alphabet (--task) 5, this run 6; the shapes must match: "
        "train on a task of the same shape, or start without --init-from.")


def test_a_synthesis_network_of_the_same_shape_replaces_every_parameter():
    theirs, ours = build_model(SYNTH, seed=1), build_model(SYNTH, seed=2)
    rng = np.random.default_rng(11)
    for v in theirs.params.values():
        v[...] = rng.uniform(-1, 1, v.shape)
    load_into(ours, Source("runs/w", {"model": theirs.config}, _checkpoint_arrays(theirs)))
    # one LN-LSTM layer (Wx Wh b, gains and biases of the three norms), the window's Wp bp, the head's W b
    assert sorted(ours.params) == ["head.W", "head.b", "rnn.l0.Wh", "rnn.l0.Wp", "rnn.l0.Wx", "rnn.l0.b",
                                   "rnn.l0.bc", "rnn.l0.bh", "rnn.l0.bp", "rnn.l0.bx", "rnn.l0.gc", "rnn.l0.gh",
                                   "rnn.l0.gx"]
    assert ours.params["rnn.l0.Wh"].shape == (4, 16)       # hidden 4: the four gates side by side
    for k, v in theirs.params.items():
        np.testing.assert_array_equal(ours.params[k], v, err_msg=k)


# ---- --init-from: the source ----
def test_a_description_of_another_format_is_refused_after_the_option(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "checkpoint.json").write_text(json.dumps({"format": "something-else", "version": 1}))
    with pytest.raises(CheckpointError) as e:
        read_source(str(out))
    assert str(e.value) == (f"--init-from {out}: {os.path.join(str(out), 'checkpoint.json')} is not an lnrnn "
                            "checkpoint description.")
    assert sorted(p.name for p in out.iterdir()) == ["checkpoint.json"]


def test_a_pretrained_run_keeps_the_name_it_was_given():
    import lnrnn.pretrained
    with open(os.path.join(os.path.dirname(lnrnn.pretrained.__file__), "hershey", "checkpoint.json")) as f:
        meta = json.load(f)
    source = read_source("pretrained:hershey")
    assert source.given == "pretrained:hershey" and source.record["path"] == "pretrained:hershey"
    assert describe_record(source.record) == f"pretrained:hershey (its best checkpoint, update {meta['step']})"
    hidden = meta["model"]["hidden_size"]
    ours = types.SimpleNamespace(config={**meta["model"], "hidden_size": hidden + 1})
    with pytest.raises(UserError) as e:
        load_into(ours, source)
    assert str(e.value) == (f"--init-from pretrained:hershey: its model has --hidden {hidden}, this run {hidden + 1}; "
                            f"the shapes must match: give --hidden {hidden}, or start without --init-from.")


@pytest.mark.parametrize("step", [0, 1, 9, 10, 99, 100])
def test_the_record_quotes_the_update_the_checkpoint_names(step):
    record = Source("runs/a", {"step": step, "train": {"cell": "ln-lstm"}, "task": {"task": "adding"}}, {}).record
    assert describe_record(record) == f"runs/a (update {step})"
    assert describe_record({**record, "best": True}) == f"runs/a (its best checkpoint, update {step})"
